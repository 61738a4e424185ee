"""Run this project's public cases: ``python -m pytest`` (all questions) or
``python -m pytest -k q03`` (question 3 only).

Each file in tests/ holds the cases of one question as interpreter sessions.
A failing case is shown the way the course's ok client shows it: the session
as typed, what was expected, what came back, and where the case comes from.
A locked case (see unlock.py) is skipped with the command that unlocks it;
once unlocked, it runs from the answers you typed, which are the right ones.
Needs only pytest and pytest-doctestplus.
"""

import contextlib
import doctest
import io
import json
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.dont_write_bytecode = True

from case_report import RERUN, failure  # noqa: E402  (ships beside this file)
import game_trace  # noqa: E402  (ships beside this file)
from constructs import explain, violations  # noqa: E402  (ships beside this file)
import unlock  # noqa: E402  (ships beside this file)

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
    found = diagnosis(mark["id"], example.source) if mark else None
    return failure(heading, where, session, example.want, got, RERUN.format(number=question.removeprefix("q")),
                   found)


def diagnosis(case, source):
    """The first wrong turn or call of a failing public case and the rules deciding it, from what
    tests/diagnoses.json carries of the case, the call run once more on hog.py; None if it carries nothing."""
    try:
        entry = json.loads((HERE / "tests" / "diagnoses.json").read_text(encoding="utf-8"))["cases"].get(
            f"{case}|{source.strip()}")
    except (OSError, ValueError, KeyError):
        return None
    if entry is None:
        return None
    namespace, value = {}, None
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec("from hog import *", namespace)
            steps = [game_trace.TRACER] + entry["steps"] if entry["kind"] == "said" else \
                entry["steps"] + [game_trace.TRACER, entry["call"]]
            for step in steps:
                try:
                    value = eval(compile(step, "<case>", "eval"), namespace)
                except SyntaxError:
                    value = exec(compile(step, "<case>", "exec"), namespace)
    except Exception:   # the case's own failure already says what went wrong
        return None
    if entry["kind"] == "game":
        return game_trace.game_diagnosis(entry["explained"], entry["want"], value, entry["goal"])
    if entry["kind"] == "said":
        return game_trace.said_diagnosis(entry["explained"], entry["want"], value)
    return game_trace.calls_diagnosis(entry["explained"], entry["want"], value, entry["function"])


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


# ------------------------------------------------------------ locked cases


class LockedCaseFailed(Exception):
    """An unlocked case failed; the message is the ok client's report."""


class LockedCase(pytest.Item):
    def __init__(self, *, item, **kwargs):
        super().__init__(**kwargs)
        self.case = item

    def runtest(self):
        number = self.case["question"]
        source = unlock.revealed(self.case, unlock.load_progress(HERE))
        if source is None:
            pytest.skip(f"locked: run {unlock.COMMAND.format(number=number)}")
        test = doctest.DocTestParser().get_doctest(source, {}, self.name, str(self.path), 0)
        failures = []

        class Runner(doctest.DocTestRunner):
            def report_failure(self, out, test, example, got):
                failures.append((example, got))

            def report_unexpected_exception(self, out, test, example, exc_info):
                failures.append((example, _failures(doctest.UnexpectedException(test, example, exc_info))[0][2]))

        Runner(verbose=False).run(test, out=lambda text: None, clear_globs=True)
        if failures:
            example, got = failures[0]
            session = source.splitlines()[:example.lineno + len(example.source.splitlines())]
            raise LockedCaseFailed(failure(f"q{number} > Case {self.name}", f"({self.case['label']})",
                                           session, example.want, got,
                                           RERUN.format(number=number)))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, LockedCaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"locked case {self.name}"


class QuestionExtras(pytest.File):
    """What a question's case file adds beyond its sessions: the check of forbidden constructs,
    and the locked cases (skipped until unlocked)."""

    def collect(self):
        mark = FORBID_MARK.search(self.path.read_text(encoding="utf-8"))
        if mark:
            forbidden = tuple(word.strip() for word in mark["constructs"].split(","))
            yield ConstructCheck.from_parent(self, name=f"{mark['function']} constructs",
                                             checked=mark["function"], forbidden=forbidden)
        for item in unlock.items(self.path):
            if item["kind"] == "case":
                yield LockedCase.from_parent(self, name=item["id"].split("-", 1)[-1], item=item)


def pytest_collect_file(parent, file_path):
    if file_path.suffix != ".md" or file_path.parent.name != "tests":
        return None
    text = file_path.read_text(encoding="utf-8")
    if FORBID_MARK.search(text) or unlock.ITEM.search(text):
        return QuestionExtras.from_parent(parent, path=file_path)
    return None
