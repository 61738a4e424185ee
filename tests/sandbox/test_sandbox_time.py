"""The sandbox's time limits, as a user of the grader sees them: cases that loop, sleep, block or end the
process; a machine too busy to run a case; a question that uses up its share of the submission's time."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.sandbox import Limits, run_cases
from tests.sandbox.sandboxed import (Step, submit, run, errors, assert_honest_case_passes, SHARES, A_THEN_B,
                                     assert_a_ran_out_of_its_share_and_b_ran)


# ---------------------------------------------------------------------------
# Cases that do not finish, or end the process
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_loops_sleeps_and_ignored_signals_time_out_and_the_batch_goes_on(tmp_path, mode):
    report = run(tmp_path, [["square(2)", "forever()"], ["square(3)"], ["nap()"], ["square(3)"],
                            ["stubborn()"], ["square(3)"]], hostile="loops.py")
    # A busy loop is stopped by its CPU time, whatever the load; a sleep after a second of waiting.
    busy, sleeping, stubborn = report.cases[0:6:2]
    assert busy.steps[-1] == Step("", "Timeout: the case used more than 1 s of CPU time")
    assert busy.seconds > 0.9
    for timed_out in (sleeping, stubborn):
        assert timed_out.steps[-1] == Step("", "Timeout: the case waited more than 1 s without computing "
                                               "(asleep or blocked)")
        assert 0.9 < timed_out.seconds < 5
    assert report.cases[0].steps[0] == Step("4\n", None, None)  # ran before the loop
    for honest in report.cases[1:6:2]:
        assert_honest_case_passes(honest)


@pytest.mark.slow   # 3 s a level
def test_a_case_blocked_on_a_pipe_a_lock_or_select_is_out_of_time_after_a_second_of_waiting(tmp_path, mode):
    started = time.monotonic()
    report = run(tmp_path, [["wait_on_pipe()"], ["wait_on_lock()"], ["wait_in_select()"], ["square(3)"]],
                 hostile="loops.py")
    assert errors(report)[:3] == ["Timeout: the case waited more than 1 s without computing (asleep or blocked)"] * 3
    assert_honest_case_passes(report.cases[3])
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("call, error, error_type", [
    ("call_sys_exit()", "SystemExit: 3 (the submission tried to end the process)", "SystemExit"),
    ("raise_system_exit()", "SystemExit: 4 (the submission tried to end the process)", "SystemExit"),
    ("interrupt()", "KeyboardInterrupt", "KeyboardInterrupt"),
    ("call_os_exit()", "the submission ended the process (exit code 3)", None),
    ("crash()", "the submission's process was killed by SIGSEGV", None),
    ("kill_self()", "the submission's process was killed by SIGKILL", None),
])
def test_ending_the_process_fails_only_that_case(tmp_path, mode, call, error, error_type):
    report = run(tmp_path, [["square(3)"], [call, "square(3)"], ["square(3)"]], hostile="exits.py")
    assert_honest_case_passes(report.cases[0])
    assert report.cases[1].steps == [Step("", error, error_type)]
    assert_honest_case_passes(report.cases[2])


@pytest.mark.slow
def test_a_case_starved_of_the_cpu_by_a_busy_machine_is_not_waiting(tmp_path, monkeypatch):
    """A busy process of high priority shares one core with the sandbox (and the grader), so the
    case's 0.03 s of computing take seconds of wall-clock time in which its CPU time hardly moves,
    runnable all along: that is not waiting, though it lasts far longer than the 0.2 s allowed."""
    if os.geteuid() != 0 or not os.path.exists("/proc/self/autogroup"):
        pytest.skip("needs root and scheduler autogroups to starve a process on purpose")
    monkeypatch.setenv("HOG_SANDBOX", "process")
    core = {min(os.sched_getaffinity(0))}
    kept = os.sched_getaffinity(0)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
    try:
        os.sched_setaffinity(busy.pid, core)
        Path(f"/proc/{busy.pid}/autogroup").write_text("-20")
        os.sched_setaffinity(0, core)
        report = run_cases(submit(tmp_path, hostile="loops.py"), [["spin(0.03)"]],
                           limits=Limits(case_seconds=3.0, total_seconds=60.0, wait_seconds=0.2))
    finally:
        os.sched_setaffinity(0, kept)
        busy.kill()
        busy.wait()
    assert report.cases[0].steps == [Step("'done'\n")]
    assert report.cases[0].seconds > 1.0      # starved far longer than it may wait


@pytest.mark.slow
def test_a_question_that_uses_up_its_share_of_the_time_skips_only_its_own_cases(tmp_path, mode):
    """Two groups share 1.6 s of the submission's own time: 0.8 s each. Question a's cases each compute
    for 0.5 s, under the case limit; the second one runs past a's share, a's third is skipped, and
    question b still runs in full."""
    report = run_cases(submit(tmp_path, hostile="loops.py"), A_THEN_B, groups=["a", "a", "a", "b", "b"],
                       limits=SHARES)
    assert_a_ran_out_of_its_share_and_b_ran(report)


