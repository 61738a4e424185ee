"""An okpy assignment folder read into an imported suite (``grader.spec.okpy_suite``), every check first.

``read`` takes the folder's ``.ok`` config, the test files its ``tests`` globs name (``ok_test`` sources, in
okpy's order: each glob's files sorted; ``default_tests`` where the config gives them, as okpy's ``--score``
runs them) and each test's suites. Anything okpy itself would refuse is a UsageError naming the file and
the test, before anything is written; what okpy would run but the kit cannot (a concept case, a suite of
another type, a locked answer not recovered) is listed, never dropped silently.
"""

from __future__ import annotations

import glob
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.errors import UsageError
from grader.spec import okpy_files
from grader.spec import okpy_format as ok
from grader.spec.okpy_suite import OkCase, OkSuite, OkTest, Prompt, Suite

LOCKED_KEY = "{test} > Suite {suite} > Case {case}"   # how okpy names a case, and so does the kit


@dataclass
class ReadCase:
    number: int
    hidden: bool
    prompts: list[ok.Prompt]

    @property
    def locked(self) -> bool:
        """Whether an answer is still hashed (an expected error's detail is kept in clear even when locked)."""
        return any(prompt.answer.locked and not prompt.answer.exception for prompt in self.prompts)


@dataclass
class ReadSuite:
    number: int
    kind: str
    scored: bool
    setup: list[str]
    teardown: list[str]
    cases: list[ReadCase]


@dataclass
class ReadTest:
    key: str
    name: str
    points: float
    file: str
    suites: list[ReadSuite]


@dataclass
class Assignment:
    folder: Path
    config: str              # the .ok file's name
    name: str                # the config's name: okpy's key for locked answers
    tests: list[ReadTest]
    skipped: list[str]
    files: dict[str, str]    # each file read, relative to the folder → its SHA-256
    carried: dict[str, Path] = field(default_factory=dict)   # what travels with the suite (okpy_files.walk)
    left_out: list[str] = field(default_factory=list)        # what does not, "path: why"


def slug(text: str) -> str:
    """A suite name made from an okpy config's name: ``Hog (Spring 2024)`` → ``hog-spring-2024``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "okpy"


def _config(folder: Path) -> tuple[Path, dict]:
    if not folder.is_dir():
        raise UsageError(f"{folder} is not a folder (give the okpy assignment's folder, the one holding its .ok file)")
    configs = sorted(folder.glob("*.ok"))
    if not configs:
        raise UsageError(f"{folder} holds no .ok file: it is not an okpy assignment (give the folder holding "
                         f"its .ok config and its tests/); nothing was written")
    if len(configs) > 1:
        raise UsageError(f"{folder} holds {len(configs)} .ok files ({', '.join(path.name for path in configs)}): "
                         f"keep the one that grades the assignment; nothing was written")
    try:
        data = json.loads(okpy_files.bounded_text(configs[0], str(configs[0]), "an okpy config"))
    except ValueError as error:
        raise UsageError(f"{configs[0]}: not JSON ({error}); nothing was written") from None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or not isinstance(data.get("tests"), dict):
        raise UsageError(f"{configs[0]}: an okpy config has a 'name' (a string) and 'tests' (globs → sources, "
                         f"e.g. {{\"tests/q*.py\": \"ok_test\"}}); nothing was written")
    return configs[0], data


def _test_files(folder: Path, config: Path, data: dict) -> list[Path]:
    """The ok_test files the config names, in okpy's order."""
    found: dict[str, Path] = {}
    for pattern, sources in data["tests"].items():
        if not isinstance(sources, str) or "ok_test" not in sources.split(","):
            continue
        pattern = pattern.split(":", 1)[0]
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise UsageError(f"{config.name}: its tests name {pattern!r}, which leads out of {folder}: a test is "
                             f"read inside the okpy folder only; nothing was written")
        matched = [Path(name) for name in sorted(glob.glob(f"{glob.escape(str(folder))}/{pattern}"))]
        for path in matched:
            shown = okpy_files.relative(folder, path)
            okpy_files.inside(folder, path, shown, config)
            if not path.is_file() or path.suffix != ".py":
                raise UsageError(f"{config.name}: its tests name {pattern!r}, which matches {shown}, not a Python test "
                                 f"file (okpy refuses it too: 'Cannot import {shown} as an OK test'); nothing was "
                                 f"written")
        matched = [path for path in matched if not (path.name == "__init__.py"
                                                    and not okpy_files.bounded_text(path, shown).strip())]
        if not matched:
            raise UsageError(f"{config}: its tests name {pattern!r}, but no such file is in {folder}; "
                             f"nothing was written")
        found.update({path.stem: path for path in matched})
    if not found:
        raise UsageError(f"{config}: its tests name no ok_test files; nothing was written")
    chosen = data.get("default_tests")
    if isinstance(chosen, list) and chosen:
        missing = [key for key in chosen if key not in found]
        if missing:
            raise UsageError(f"{config}: its default_tests name {', '.join(map(str, missing))}, but no test file "
                             f"of that name is in {folder}; nothing was written")
        return [found[key] for key in chosen]
    return list(found.values())


def _case(data, number: int, where: str) -> ReadCase:
    if not isinstance(data, dict):
        raise ok.Rejected(f"{where} is not a dict")
    data = ok.checked(data, ok.CASE_KEYS, where)
    code = ok.typed(data["code"], (str,), f"{where}'s code")
    ok.typed(data["hidden"], (bool,), f"{where}'s hidden")
    ok.typed(data["multiline"], (bool,), f"{where}'s multiline")
    try:
        prompts = ok.prompts(code)
    except ok.Rejected as rejected:
        raise ok.Rejected(f"{where}: {rejected}") from None
    if not prompts:
        raise ok.Rejected(f"{where} has no '>>> ' prompt")
    return ReadCase(number, data["hidden"], prompts)


def _suite(data, number: int, test: str, skipped: list[str]) -> ReadSuite | None:
    where = f"Suite {number}"
    if not isinstance(data, dict) or "type" not in data:
        raise ok.Rejected(f"{where} is not a dict with a 'type'")
    kind = data["type"]
    if kind not in ok.SUITE_TYPES:
        raise ok.Rejected(f"{where} has type {kind!r}, which okpy does not know ({', '.join(ok.SUITE_TYPES)})")
    if kind == "concept":
        cases = data.get("cases", [])
        scored = data.get("scored", False) is True
        skipped.append(f"{test} > {where}: {len(cases)} concept (multiple-choice) case(s): nothing to run"
                       + ("; scored, so it counts as passed, as okpy scores an unlocked concept suite"
                                 if scored else ""))
        return ReadSuite(number, "concept", scored, [], [], []) if scored else None
    if kind != "doctest":
        skipped.append(f"{test} > {where}: a {kind} suite: the kit runs Python doctest suites only"
                       + ("; the test's points are spread over its other suites" if data.get("scored", True) else ""))
        return None
    data = ok.checked(data, ok.DOCTEST_KEYS, where)
    for key in ("setup", "teardown"):
        ok.typed(data[key], (str,), f"{where}'s {key}")
    ok.typed(data["scored"], (bool,), f"{where}'s scored")
    cases = ok.typed(data["cases"], (list,), f"{where}'s cases")
    return ReadSuite(number, "doctest", data["scored"], ok.statements(data["setup"]), ok.statements(data["teardown"]),
                     [_case(case, index, f"{where} > Case {index}") for index, case in enumerate(cases, start=1)])


def _test(path: Path, folder: Path, skipped: list[str]) -> ReadTest:
    relative = path.relative_to(folder).as_posix()
    named = ""
    try:
        data = ok.read_test(okpy_files.bounded_text(path, relative))
        named = f" (test {data['name']!r})" if isinstance(data.get("name"), str) else ""
        data = ok.checked(data, ok.TEST_KEYS, "the test")
        ok.typed(data["name"], (str,), "its name")
        points = ok.typed(data["points"], (int, float), "its points")
        suites = ok.typed(data["suites"], (list,), "its suites")
        read = [_suite(suite, number, data["name"], skipped) for number, suite in enumerate(suites, start=1)]
    except ok.Rejected as rejected:
        raise UsageError(f"{relative}{named}: {rejected}; nothing was written") from None
    return ReadTest(path.stem, data["name"], float(points), relative, [suite for suite in read if suite is not None])


def read(folder: Path) -> Assignment:
    """The okpy assignment in ``folder``; a UsageError naming the file and the test for anything okpy would
    refuse (nothing is written before this returns)."""
    folder = Path(folder).resolve()
    config, data = _config(folder)
    skipped: list[str] = []
    tests = [_test(path, folder, skipped) for path in _test_files(folder, config, data)]
    names = [test.name for test in tests]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise UsageError(f"{config}: two tests are named {twice[0]!r} (okpy scores tests by name, so one would "
                         f"hide the other); nothing was written")
    files = {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in [config] + [folder / test.file for test in tests]}
    src = data.get("src") if isinstance(data.get("src"), list) else []
    carried, left_out = okpy_files.walk(folder, config.name, [name for name in src if isinstance(name, str)])
    return Assignment(folder, config.name, data["name"], tests, skipped, files, carried, left_out)


def locked_cases(assignment: Assignment) -> list[tuple[ReadTest, ReadSuite, ReadCase]]:
    """The cases whose answers are still hashed, in order."""
    return [(test, suite, case) for test in assignment.tests for suite in test.suites for case in suite.cases
            if case.locked]


def unlocked(assignment: Assignment, case: ReadCase, shown: list[list[str]] | None) -> list[ok.Prompt] | None:
    """A locked case's prompts with the answers the reference showed (``shown``: each prompt's lines), when
    every hashed line is okpy's hash of what the reference showed; None otherwise."""
    if shown is None or len(shown) != len(case.prompts):
        return None
    prompts = []
    for prompt, lines in zip(case.prompts, shown):
        answer = prompt.answer
        if answer.locked and not answer.exception:
            if len(lines) != len(answer.output) or any(ok.lock(assignment.name, ok.normalize(line)) != hashed
                                                       for line, hashed in zip(lines, answer.output)):
                return None
            answer = ok.Answer(output=list(lines))
        prompts.append(ok.Prompt(prompt.source, answer))
    return prompts


def suite(assignment: Assignment, name: str, recovered: dict[tuple[str, int, int], list[ok.Prompt]],
          provenance: dict) -> Suite:
    """The suite to keep: locked cases with their recovered prompts (keyed by test key, suite, case), the
    others left out and listed."""
    skipped = list(assignment.skipped)
    tests = []
    for test in assignment.tests:
        suites = []
        for read_suite in test.suites:
            cases = []
            for case in read_suite.cases:
                prompts = recovered.get((test.key, read_suite.number, case.number)) if case.locked else case.prompts
                if prompts is None:
                    skipped.append(LOCKED_KEY.format(test=test.name, suite=read_suite.number, case=case.number)
                                   + (": locked, and its answer is unknown without --solution PATH (a reference "
                                      "hog.py)" if "solution" not in provenance else
                                      ": locked, and the reference did not show what okpy's hash holds"))
                    continue
                cases.append(OkCase(case.number, case.hidden,
                                    tuple(Prompt(p.source, tuple(p.answer.lines()), p.answer.exception)
                                          for p in prompts)))
            suites.append(OkSuite(read_suite.number, read_suite.kind, read_suite.scored, tuple(read_suite.setup),
                                  tuple(read_suite.teardown), tuple(cases)))
        tests.append(OkTest(test.key, test.name, test.points, test.file, tuple(suites)))
    return Suite(name, assignment.name, tuple(tests), tuple(skipped), provenance, carried_files(assignment))


def carried_files(assignment: Assignment) -> tuple[tuple[str, bytes], ...]:
    """The files the suite carries from the folder, read: (path in the folder, bytes)."""
    return tuple((relative, okpy_files.read(path)) for relative, path in assignment.carried.items())
