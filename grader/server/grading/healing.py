"""The grader's look at its own machine: can a grade start here now?

A job can fail for a reason of the machine rather than of the submission or the kit: its scratch folder
removed by a cleaner of /tmp, a sandbox that cannot start, a level that vanished (bubblewrap uninstalled,
a container engine stopped), a full disk. ``grade_one`` tries again a few times itself; what still fails is
"grader failed". The grader then probes its machine as a grade would use it (``probe``): a file written to
its scratch folder, and a tiny hog.py run through the sandbox at the course's isolation level, one case,
with short limits (20-50 ms where it is well). While the probe fails the grader claims nothing (jobs
wait, queued: nothing is lost) and probes again, each time later (``Backoff``); what it found is kept
with its heartbeat (``Grader.problem``) for the operator and /healthz. Once it passes, the "grader failed"
jobs are put back in the queue (``queue.requeue_failed``), those of the variants whose preparation (what
every grade of the variant shares) succeeds (``grader.server.grading.graders``).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from grader.sandbox import Limits
from grader.sandbox.entry import run_cases

PROBE_SOURCE = "def probe():\n    return 6 * 7\n"
PROBE_CASE = ["probe()"]
PROBE_ANSWER = "42\n"
PROBE_LIMITS = Limits(case_seconds=2.0, total_seconds=10.0, wall_seconds=20.0)
FIRST_WAIT = 1.0       # between the first failed probe and the next
LONGEST_WAIT = 30.0    # between probes while the machine stays unwell: at most this after its cause clears


def line(error: BaseException) -> str:
    """An error in one line: its kind and the first line of what it says."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def probe(isolation: str) -> str | None:
    """None when a grade can start here at ``isolation``, else what stops it, in one line."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="hog-probe-"))
    except OSError as error:
        return f"the scratch folder cannot be used ({tempfile.gettempdir()}): {line(error)}"
    try:
        try:
            (folder / "hog.py").write_text(PROBE_SOURCE, encoding="utf-8")
        except OSError as error:
            return f"cannot write to the scratch folder ({folder.parent}): {line(error)}"
        try:
            report = run_cases(folder / "hog.py", [PROBE_CASE], minimum=isolation, limits=PROBE_LIMITS)
        except Exception as error:   # SandboxUnavailable, a UsageError of the level, a fault of the machine
            return f"a sandbox at isolation {isolation} does not start: {line(error)}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if report.import_error is not None:
        return f"a sandbox at isolation {isolation} could not import a tiny hog.py: {report.import_error}"
    [step] = report.cases[0].steps
    if step.error is not None or step.output != PROBE_ANSWER:
        return (f"a sandbox at isolation {isolation} ran a tiny hog.py wrong: {step.kind.value}, "
                f"{(step.error or step.output).strip()[:200]!r}")
    return None


class Backoff:
    """When to probe again: at once the first time, then FIRST_WAIT later, doubling up to LONGEST_WAIT while
    the probe fails; at once again after it passes."""

    def __init__(self):
        self.due, self.wait = 0.0, FIRST_WAIT

    def ready(self) -> bool:
        return time.monotonic() >= self.due

    def failed(self) -> None:
        self.due = time.monotonic() + self.wait
        self.wait = min(LONGEST_WAIT, self.wait * 2)

    def passed(self) -> None:
        self.due, self.wait = 0.0, FIRST_WAIT
