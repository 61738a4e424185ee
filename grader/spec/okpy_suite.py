"""An imported okpy suite as the kit keeps it: okpy's tests, normalized into plain data.

``hog import-ok`` writes one into the course folder (``<course>/suites/NAME/suite.json``); ``hog grade
--suite NAME`` reads it back. Each okpy test (``Question 1``, its points) holds its doctest suites, each
its setup and teardown statements and its cases, each case its prompts: the code typed and the lines it
must show (okpy's ``output_lines``: an expected error is ``Traceback (most recent call last):``, ``  ...``
and its detail). What okpy would run but the kit could not import is listed in ``skipped``, one line each;
where the suite came from (the folder, the config's name, each file's SHA-256, the solution used) in
``provenance``. The file is JSON, read with ``json.loads`` and checked key by key.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from grader import project
from grader.errors import UsageError
from grader.project.files import write_atomically

FORMAT = 1
FILE = "suite.json"
KIT = "kit"        # --suite kit+NAME: the kit's own cases and the imported ones
OKPY_ROLE = "okpy"  # the role of a question that is an imported okpy test


@dataclass(frozen=True)
class Prompt:
    source: str                 # the code typed, prompts stripped ('... ' lines joined with newlines)
    want: tuple[str, ...]       # the lines it must show (none: it must show nothing)
    error: bool = False         # it must raise (want: the traceback's header, '  ...', its detail)


@dataclass(frozen=True)
class OkCase:
    number: int                 # its place in its okpy suite, from 1 ("Suite 1 > Case 3")
    hidden: bool
    prompts: tuple[Prompt, ...]


@dataclass(frozen=True)
class OkSuite:
    number: int                 # its place in its okpy test, from 1
    kind: str                   # "doctest", or "concept" (nothing to run: okpy scores it passed)
    scored: bool
    setup: tuple[str, ...]      # statements run before each case, in its namespace
    teardown: tuple[str, ...]   # statements run after each case
    cases: tuple[OkCase, ...]


@dataclass(frozen=True)
class OkTest:
    key: str                    # the test file's name, as okpy's -q takes it: q01
    name: str                   # as every result names it: Question 1
    points: float
    file: str                   # the test file, relative to the okpy folder
    suites: tuple[OkSuite, ...]

    @property
    def scored(self) -> tuple[OkSuite, ...]:
        """The suites okpy scores: the test's points are spread evenly over them."""
        return tuple(suite for suite in self.suites if suite.scored)


@dataclass(frozen=True)
class Suite:
    name: str                   # its name in the course folder (--suite NAME)
    assignment: str             # the okpy config's name
    tests: tuple[OkTest, ...]
    skipped: tuple[str, ...]    # what okpy has that the kit did not import, one line each, with why
    provenance: dict

    @property
    def points(self) -> float:
        return sum(test.points for test in self.tests)

    def counts(self) -> tuple[int, int, int]:
        """Its tests, doctest suites and cases."""
        suites = [suite for test in self.tests for suite in test.suites if suite.kind == "doctest"]
        return len(self.tests), len(suites), sum(len(suite.cases) for suite in suites)


def case_id(suite: str, test: str, suite_number: int, case_number: int) -> str:
    """An okpy case's id in results: the suite's name, the test's key, its suite and case numbers."""
    return f"{suite}:{test}:{suite_number}:{case_number}"


def rerun(identifier: str) -> str:
    """okpy's command that runs one case alone, as okpy prints it under a failing case."""
    _, test, suite_number, case_number = identifier.rsplit(":", 3)
    return f"python3 ok -q {test} --suite {suite_number} --case {case_number}"


def to_data(suite: Suite) -> dict:
    return {"format": FORMAT, **asdict(suite)}


class _Checked:
    """Reads the stored JSON back, each value checked for its type; UsageError naming the file otherwise."""

    def __init__(self, where: str):
        self.where = where

    def need(self, value, kind: type, what: str):
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise UsageError(f"{self.where}: {what} is not a {kind.__name__} (import the suite again with "
                             f"'hog import-ok'; the kit writes this file, it is not edited by hand)")
        return value

    def texts(self, value, what: str) -> tuple[str, ...]:
        return tuple(self.need(text, str, what) for text in self.need(value, list, what))

    def prompt(self, data) -> Prompt:
        return Prompt(self.need(data["source"], str, "a prompt's source"), self.texts(data["want"], "want"),
                      self.need(data["error"], bool, "error"))

    def case(self, data) -> OkCase:
        return OkCase(self.need(data["number"], int, "a case's number"), self.need(data["hidden"], bool, "hidden"),
                      tuple(map(self.prompt, self.need(data["prompts"], list, "prompts"))))

    def suite(self, data) -> OkSuite:
        return OkSuite(self.need(data["number"], int, "a suite's number"), self.need(data["kind"], str, "kind"),
                       self.need(data["scored"], bool, "scored"), self.texts(data["setup"], "setup"),
                       self.texts(data["teardown"], "teardown"),
                       tuple(map(self.case, self.need(data["cases"], list, "cases"))))

    def test(self, data) -> OkTest:
        return OkTest(self.need(data["key"], str, "a test's key"), self.need(data["name"], str, "a test's name"),
                      float(self.need(data["points"], float, "a test's points")),
                      self.need(data["file"], str, "a test's file"),
                      tuple(map(self.suite, self.need(data["suites"], list, "suites"))))


def from_data(data, where: str) -> Suite:
    """A Suite from its JSON data; UsageError naming ``where`` and what is wrong for anything else."""
    checked = _Checked(where)
    checked.need(data, dict, "the file")
    if data.get("format") != FORMAT:
        raise UsageError(f"{where}: format {data.get('format')!r}, not {FORMAT} (import the suite again with "
                         f"'hog import-ok')")
    try:
        return Suite(checked.need(data["name"], str, "name"), checked.need(data["assignment"], str, "assignment"),
                     tuple(map(checked.test, checked.need(data["tests"], list, "tests"))),
                     checked.texts(data["skipped"], "skipped"), checked.need(data["provenance"], dict, "provenance"))
    except (KeyError, TypeError) as error:
        raise UsageError(f"{where}: an entry lacks {error} (import the suite again with 'hog import-ok')") from None


def write(suite: Suite) -> Path:
    """Write the suite into the course folder, whole or not at all; where it went."""
    path = project.suite_path(suite.name) / FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(to_data(suite), indent=1, ensure_ascii=False) + "\n")
    return path


def load(name: str) -> Suite:
    """The suite imported under ``name`` in this course folder; a usage error naming the fix otherwise."""
    path = project.suite_path(name) / FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        known = sorted(folder.name for folder in path.parent.parent.glob("*") if (folder / FILE).is_file())
        raise UsageError(f"no suite {name!r} in this course (" + (f"suites: {', '.join(known)}" if known else
                         "none imported yet") + "; import one with 'hog import-ok FOLDER --name NAME')") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {project.display(path)}: {error}") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise UsageError(f"{project.display(path)} is not JSON ({error}); import the suite again") from None
    return from_data(data, project.display(path))


def chosen(option: str | None) -> tuple[Suite | None, bool]:
    """``--suite``'s suite and whether the kit's own cases grade too: NAME (the suite alone) or kit+NAME."""
    if option is None:
        return None, True
    kit, _, name = option.rpartition("+")
    if kit not in ("", KIT) or not name:
        raise UsageError(f"--suite {option}: give NAME (an imported okpy suite) or kit+NAME (the kit's cases too)")
    return load(name), kit == KIT
