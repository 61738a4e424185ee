"""An imported okpy suite as the kit keeps it: okpy's tests, normalized into plain data.

``hog import-ok`` writes one into the course folder (``<course>/suites/NAME/suite.json``); ``hog grade
--suite NAME`` reads it back. Each okpy test (``Question 1``, its points) holds its doctest suites, each
its setup and teardown statements and its cases, each case its prompts: the code typed and the lines it
must show (okpy's ``output_lines``: an expected error is ``Traceback (most recent call last):``, ``  ...``
and its detail). What okpy would run but the kit could not import is listed in ``skipped``, one line each;
where the suite came from (the folder, the config's name, each file's SHA-256, the solution used) in
``provenance``. The file is JSON, read with ``json.loads`` and checked key by key.

What okpy would run beside the submission (the folder's ``tests/`` package with its helpers and data, the
course's own modules such as ``hog_gui.py`` and ``dice.py``: ``grader.spec.okpy_files``) is kept beside
it, in ``suites/NAME/files/``, each file's SHA-256 in ``suite.json`` (its ``files``), and loaded with it:
wherever the suite goes, its files go.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from grader import project
from grader.errors import UsageError
from grader.project.files import write_atomically
from grader.spec import okpy_files

FORMAT = 1
FILE = "suite.json"
FILES = "files"    # beside suite.json: the files carried from the okpy folder
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
    files: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)   # carried: (path in the folder, bytes)

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


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def to_data(suite: Suite) -> dict:
    """What suite.json holds: the suite, and each carried file's SHA-256 (the files are kept beside it)."""
    data = {"format": FORMAT, **asdict(suite)}
    data["files"] = {name: digest(content) for name, content in suite.files}
    return data


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


def _carried(listed, folder: Path | None, where: str) -> tuple[tuple[str, bytes], ...]:
    """The carried files ``listed`` (path → SHA-256), read from ``folder``, each as it was imported."""
    if not listed:
        return ()
    if not isinstance(listed, dict) or folder is None:
        raise UsageError(f"{where}: its files are not where the suite keeps them (import the suite again)")
    files = []
    for name, expected in sorted(listed.items()):
        if not okpy_files.plain(name):
            raise UsageError(f"{where}: a carried file named {name!r} (import the suite again with 'hog import-ok')")
        try:
            content = okpy_files.read(folder / name)
        except OSError as error:
            raise UsageError(f"{where}: its file {FILES}/{name} cannot be read ({error.strerror}): import the suite "
                             f"again with 'hog import-ok'") from None
        if digest(content) != expected:
            raise UsageError(f"{where}: its file {FILES}/{name} changed since it was imported: import the suite "
                             f"again with 'hog import-ok' (the kit keeps the files as the import read them)")
        files.append((name, content))
    return tuple(files)


def from_data(data, where: str, folder: Path | None = None) -> Suite:
    """A Suite from its JSON data, its carried files read from ``folder``; UsageError naming ``where`` and what
    is wrong for anything else."""
    checked = _Checked(where)
    checked.need(data, dict, "the file")
    if data.get("format") != FORMAT:
        raise UsageError(f"{where}: format {data.get('format')!r}, not {FORMAT} (import the suite again with "
                         f"'hog import-ok')")
    try:
        return Suite(checked.need(data["name"], str, "name"), checked.need(data["assignment"], str, "assignment"),
                     tuple(map(checked.test, checked.need(data["tests"], list, "tests"))),
                     checked.texts(data["skipped"], "skipped"), checked.need(data["provenance"], dict, "provenance"),
                     _carried(data.get("files"), folder, where))
    except (KeyError, TypeError) as error:
        raise UsageError(f"{where}: an entry lacks {error} (import the suite again with 'hog import-ok')") from None


def write(suite: Suite) -> Path:
    """Write the suite and its carried files into the course folder, whole or not at all (a folder made
    beside it, then put in its place); where suite.json went."""
    folder = project.suite_path(suite.name)
    folder.parent.mkdir(parents=True, exist_ok=True)
    new = folder.with_name(f".{folder.name}.new-{os.getpid()}")
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    for stale in (new, old):
        shutil.rmtree(stale, ignore_errors=True)
    try:
        (new / FILES).mkdir(parents=True)
        for name, content in suite.files:
            (new / FILES / name).parent.mkdir(parents=True, exist_ok=True)
            (new / FILES / name).write_bytes(content)
        write_atomically(new / FILE, json.dumps(to_data(suite), indent=1, ensure_ascii=False) + "\n")
        if folder.exists():
            folder.rename(old)
        new.rename(folder)
    except BaseException:
        if old.exists() and not folder.exists():
            old.rename(folder)
        shutil.rmtree(new, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
    return folder / FILE


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
    return from_data(data, project.display(path), path.parent / FILES)


def chosen(option: str | None) -> tuple[Suite | None, bool]:
    """``--suite``'s suite and whether the kit's own cases grade too: NAME (the suite alone) or kit+NAME."""
    if option is None:
        return None, True
    kit, _, name = option.rpartition("+")
    if kit not in ("", KIT) or not name:
        raise UsageError(f"--suite {option}: give NAME (an imported okpy suite) or kit+NAME (the kit's cases too)")
    return load(name), kit == KIT
