"""What the sandbox's tests share: submissions written inline or taken from tests/submissions/hostile/,
limits that keep them fast, the step results they expect, and a look for processes left behind."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from grader import sandbox
from grader.sandbox import CaseRun, Limits, SandboxReport, StepKind, StepResult, namespaces, run_cases
from grader.sandbox.processes import alive
from tests import TESTS

HOSTILE = TESTS / "submissions" / "hostile"
FAST = Limits(case_seconds=1.0, total_seconds=60.0, wall_seconds=6.0)
FILTERED = "; the system call filter refused every change to files, but the submission could read the grader's files)"
NOT_PLAIN = "which is not a plain value (int, float, bool, str, None, list, tuple, dict)"
HONEST = """
    def square(x):
        return x * x

    def chatty(x):
        print("rolling", x)
        return x + 1
"""


def bubblewrap_missing() -> str | None:
    return namespaces.unavailable()


def Step(output: str, error: str | None = None, error_type: str | None = None,
         kind: StepKind | None = None) -> StepResult:
    """A step result as expected; the kind, unless given, follows from the kind of message expected."""
    if kind is None and error is not None:
        kinds = [("Timeout: ", StepKind.TIMEOUT), ("the submission ended the process", StepKind.CRASH),
                 ("the submission's process was killed", StepKind.CRASH),
                 ("the submission did not import: the submission", StepKind.CRASH),
                 ("the submission did not import: Timeout", StepKind.TIMEOUT),
                 (sandbox.TAMPERED, StepKind.TAMPERED)]
        kind = next((found for start, found in kinds if error.startswith(start)), StepKind.ERROR)
    return StepResult(output, error, error_type, kind or StepKind.OK)


def submit(tmp_path: Path, source: str | None = None, hostile: str | None = None) -> Path:
    folder = tmp_path / "submission"
    folder.mkdir(exist_ok=True)
    if hostile is not None:
        source = (HOSTILE / hostile).read_text()
    (folder / "hog.py").write_text(textwrap.dedent(source))
    return folder


def run(tmp_path, cases, source=HONEST, hostile=None, limits=FAST, **options) -> SandboxReport:
    return run_cases(submit(tmp_path, source, hostile), cases, limits=limits, **options)


def errors(report: SandboxReport) -> list[str | None]:
    return [case.steps[-1].error if case.steps else None for case in report.cases]


def assert_honest_case_passes(case: CaseRun, output: str = "9\n") -> None:
    assert case.steps == [Step(output, None, None)]


LINKED = ("hog.py is a symbolic link; the grader only takes the file itself "
          "(submit a copy of the file, not a link to it)")


SHARES = Limits(case_seconds=1.0, total_seconds=1.6, wall_seconds=6.0)   # two questions: 0.8 s each
A_THEN_B = [["spin(0.5)"], ["spin(0.5)"], ["spin(0.5)"], ["square(3)"], ["spin(0.3)"]]   # questions a, a, a, b, b


def assert_a_ran_out_of_its_share_and_b_ran(report: SandboxReport) -> None:
    """A_THEN_B under SHARES: a's second case runs past a's 0.8 s, a's third is skipped, b runs in full."""
    assert report.cases[0].steps == [Step("'done'\n")]
    assert errors(report)[1:3] == [
        "Timeout: the case used up what was left of its question's share of the time (0.8 s of the "
        "submission's own time)", sandbox.SKIPPED_AFTER_TIMEOUT]
    assert_honest_case_passes(report.cases[3])
    assert report.cases[4].steps == [Step("'done'\n")]


def leftovers(folders: list[str]) -> list[str]:
    """The processes still running (zombies apart) whose command line names one of ``folders`` or whose working
    folder is inside one: what a run that cleaned up after itself leaves none of."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid() or not alive(int(entry)):
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().decode("utf-8", "replace")
            try:
                where = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                where = ""
        except OSError:
            continue
        if any(folder in command or where.startswith(folder) for folder in folders):
            found.append(f"{entry}: {command[:100]}")
    return found

