"""Run this project's public cases: ``python -m pytest`` (all questions) or
``python -m pytest -k q03`` (question 3 only).

Each file in tests/ holds the cases of one question as interpreter sessions.
A failing case is shown the way the course's ok client shows it: the session
as typed, what was expected, what came back, and where the case comes from.
Needs only pytest and pytest-doctestplus.
"""

import doctest
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

from case_report import RERUN, failure  # noqa: E402  (ships beside this file)
from constructs import explain, violations  # noqa: E402  (ships beside this file)

CASE_MARK = re.compile(r"<!-- case (?P<id>\S+) \| (?P<label>.*?) -->")
FORBID_MARK = re.compile(r"<!-- forbid (?P<function>\w+): (?P<constructs>[^>]*?) -->")


class ConstructCheck(pytest.Item):
    """Fails when hog.py's function uses a construct this question forbids (read, never run)."""

    def __init__(self, *, checked, forbidden, **kwargs):
        super().__init__(**kwargs)
        self.checked, self.forbidden = checked, forbidden   # (not "function": pytest reads that name)

    def runtest(self):
        found = violations((HERE / "hog.py").read_text(encoding="utf-8"), self.checked, self.forbidden)
        if found:
            raise ConstructError(explain(self.checked, self.forbidden, found))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ConstructError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.path.stem}: constructs {self.checked} may not use"


class ConstructError(Exception):
    pass


class ConstructFile(pytest.File):
    def collect(self):
        mark = FORBID_MARK.search(self.path.read_text(encoding="utf-8"))
        forbidden = tuple(word.strip() for word in mark["constructs"].split(","))
        yield ConstructCheck.from_parent(self, name=f"{mark['function']} constructs",
                                         checked=mark["function"], forbidden=forbidden)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".md" and file_path.parent.name == "tests" \
            and FORBID_MARK.search(file_path.read_text(encoding="utf-8")):
        return ConstructFile.from_parent(parent, path=file_path)
    return None


def _failures(error):
    """(test, example, what came back) for each failure pytest caught."""
    if isinstance(error, doctest.DocTestFailure):
        return [(error.test, error.example, error.got)]
    if isinstance(error, doctest.UnexpectedException):
        kind, value, _ = error.exc_info
        return [(error.test, error.example, "Traceback (most recent call last):\n  ...\n"
                 + "".join(f"{kind.__name__}: {value}".splitlines(True)) + "\n")]
    return [found for inner in getattr(error, "failures", ()) for found in _failures(inner)]


class CaseFailure:
    """A failing case for pytest: the ok client's report, and for the summary line
    (``FAILED tests/q02.md::q02.md - ...``) the question, the case and the failing call."""

    def __init__(self, text, summary):
        self.text = text
        self.reprcrash = CrashLine(summary)

    def toterminal(self, writer):
        for line in self.text.splitlines():
            writer.line(line)

    def __str__(self):
        return self.text


class CrashLine:
    def __init__(self, message):
        self.message = message


def summary(path, test, example, got):
    """One line: the question, the case and the first failing call."""
    mark = _case_mark(path, test, example)
    heading = f"{Path(path).stem} > Case {mark['id']}" if mark else Path(path).stem
    return f"{heading}: {example.source.strip().splitlines()[0]}"


def _case_mark(path, test, example):
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for number in range(test.lineno + example.lineno, -1, -1):
        mark = CASE_MARK.search(lines[number])
        if mark:
            return mark
    return None


def okpy_failure(path, test, example, got):
    """The failure of one case as the ok client shows it."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    failing_line = test.lineno + example.lineno  # 0-based line of the failing '>>>'
    start, mark = 0, None
    for number in range(failing_line, -1, -1):
        mark = CASE_MARK.search(lines[number])
        if mark:
            start = number + 1
            break
    end = failing_line + len(example.source.splitlines())
    session = [line for line in lines[start:end]
               if line.strip() and not line.startswith(("```", "**Case"))]
    question = Path(path).stem
    heading = f"{question} > Case {mark['id']}" if mark else question
    where = f"({mark['label']})" if mark else ""
    return failure(heading, where, session, example.want, got, RERUN.format(number=question.removeprefix("q")))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or call.excinfo is None:
        return
    failures = _failures(call.excinfo.value)
    if failures:
        report.longrepr = CaseFailure("\n".join(okpy_failure(item.path, *found) for found in failures),
                                      summary(item.path, *failures[0]))
