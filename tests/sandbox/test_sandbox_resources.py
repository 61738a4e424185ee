"""What a submission cannot take or forge in the sandbox: processes, memory, files that grow, signals; values
that lie about what they are, and results forged on the channel."""

from __future__ import annotations


import pytest

from grader.sandbox import Limits, StepKind, channel
from grader.sandbox import run as sandbox_run
from tests.sandbox.sandboxed import NOT_PLAIN, bubblewrap_missing, Step, run, errors, assert_honest_case_passes


# ---------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------

def test_processes_threads_and_programs_cannot_be_started(tmp_path, mode):
    report = run(tmp_path, [["fork_bomb()"], ["spawn_sleeper()"], ["start_thread()"],
                            ["replace_process()"], ["square(3)"]], hostile="fork_bomb.py")
    assert errors(report)[:4] == ["PermissionError: [Errno 1] Operation not permitted",
                                  "PermissionError: [Errno 1] Operation not permitted",
                                  "RuntimeError: can't start new thread",
                                  "PermissionError: [Errno 1] Operation not permitted"]
    assert_honest_case_passes(report.cases[4])


def test_no_terminal_no_memfd_and_only_the_two_channels(tmp_path, mode):
    report = run(tmp_path, [["terminal()"], ["memory_file()"], ["descriptors()"], ["parent_command_line()"],
                            ["parent_descriptors()"], ["square(3)"]], hostile="reach_out.py")
    terminal, memfd, held, command_line, descriptors, honest = [case.steps[0].output for case in report.cases]
    assert terminal in ("'OSError'\n", "'PermissionError'\n")   # no controlling terminal (ENXIO), or Landlock
    assert memfd == "'PermissionError'\n"
    assert held.count(",") == 1  # the control pipe and the result pipe (and nothing the grader holds)
    if mode == "files":  # /proc is not readable at all
        assert command_line == descriptors == "'PermissionError'\n"
    assert_honest_case_passes(report.cases[5])


def test_a_flood_on_the_result_channel_is_cut_off_as_tampering(tmp_path, mode):
    report = run(tmp_path, [["flood()"], ["square(3)"]], hostile="reach_out.py")
    flooded = report.cases[0].steps[-1]
    assert flooded.kind is StepKind.TAMPERED and flooded.error == (
        "the result channel was tampered with: a message larger than 16 MiB")
    assert_honest_case_passes(report.cases[1])


@pytest.mark.slow   # a batch at each level runs until its answers reach the budget
def test_answers_that_would_fill_the_graders_memory_stop_the_batch_where_they_do(tmp_path, mode, monkeypatch):
    """Each answer of 99,999 empty lists is 600 KB on the channel, within its bounds on bytes, and about 10 MB
    once rebuilt and shown: what a batch's results hold in the grader is bounded (here at 16 MiB, 128 by
    default). The step that passes the bound fails, saying so; the cases after it are not run; the earlier
    ones stand."""
    monkeypatch.setattr(channel, "MAX_HELD_BYTES", 16 << 20)
    report = run(tmp_path, [["square(3)"]] + [["empty_lists()"]] * 3 + [["square(4)"]], hostile="hoards.py")
    assert_honest_case_passes(report.cases[0])
    assert report.cases[1].steps[0].output == repr([[]] * 99_999) + "\n"
    assert report.cases[2].steps == [Step("", "returned more than the grader keeps of one submission's results: its "
                                             "values and printed output so far would hold more than 16 MiB of the "
                                             "grader's memory")]
    not_run = "not run: the submission's earlier results filled what the grader keeps of one submission (16 MiB)"
    assert [case.steps for case in report.cases[3:]] == [[Step("", not_run, kind=StepKind.SKIPPED)]] * 2
    assert sum(step.held for case in report.cases for step in case.steps) <= 16 << 20


@pytest.mark.slow
def test_memory_hog_fails_cleanly(tmp_path, mode):
    # A smaller limit than the default 1 GiB keeps the test quick: filling memory takes time.
    limits = Limits(case_seconds=5.0, memory_bytes=256 << 20)
    report = run(tmp_path, [["allocate_4gb()"], ["grow_forever()"], ["square(3)"]],
                 hostile="memory_hog.py", limits=limits)
    assert report.cases[0].steps == [Step("", "MemoryError", "MemoryError")]
    assert report.cases[1].steps == [Step("", "MemoryError", "MemoryError")]
    assert_honest_case_passes(report.cases[2])


def test_no_file_can_be_written_so_none_grows_huge(tmp_path, mode):
    report = run(tmp_path, [["write_huge_temp_file()"], ["write_beside_submission()"],
                            ["fill_shared_memory()"], ["square(3)"]], hostile="huge_file.py")
    temp, beside, shared, honest = report.cases
    # tempfile tries /tmp, /var/tmp, /usr/tmp and the current folder, and may write in none.
    assert temp.steps[0].error.startswith("FileNotFoundError: [Errno 2] No usable temporary directory found in ")
    assert beside.steps == [Step(
        "", "PermissionError: [Errno 1] Operation not permitted: 'notes.txt'", "PermissionError")]
    assert shared.steps == [Step("'PermissionError after 0 files: Operation not permitted'\n", None, None)]
    assert not (tmp_path / "submission" / "notes.txt").exists()
    assert_honest_case_passes(honest)


def test_without_the_filter_the_size_limit_still_stops_a_huge_file(tmp_path, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    if bubblewrap_missing():
        pytest.skip("bubblewrap is not available here")
    monkeypatch.setattr(sandbox_run, "SECCOMP", False)
    report = run(tmp_path, [["write_huge_temp_file()"], ["write_beside_submission()"]], hostile="huge_file.py")
    assert report.isolation == "bubblewrap (no system call filter: the grader turned it off)"
    assert report.cases[0].steps == [Step("", "OSError: [Errno 27] File too large", "OSError")]
    # The submission's folder is read-only inside bubblewrap.
    assert report.cases[1].steps == [Step(
        "", "OSError: [Errno 30] Read-only file system: 'notes.txt'", "OSError")]


def test_signals_tracing_and_limits_stay_inside(tmp_path, mode):
    report = run(tmp_path, [["signal_parent()"], ["signal_everyone()"], ["raise_memory_limit()"],
                            ["survive_grader()"], ["square(3)"]], hostile="escape.py")
    assert errors(report)[:2] == ["PermissionError: [Errno 1] Operation not permitted"] * 2
    assert report.cases[2].steps[0].error_type == "ValueError"  # not allowed to raise a limit
    assert report.cases[3].steps[0].error_type == "PermissionError"
    assert_honest_case_passes(report.cases[4])


# ---------------------------------------------------------------------------
# Lies and forgeries
# ---------------------------------------------------------------------------

def test_values_that_lie_are_not_plain(tmp_path, mode):
    report = run(tmp_path, [["roll()"], ["word()"], ["pair()"], ["nested()"], ["explode_on_repr()"],
                            ["roll() == 6", "square(3)"]], hostile="lying_values.py")
    assert errors(report)[:5] == [
        f"returned a value of type hog.Sneaky, {NOT_PLAIN}",
        f"returned a value of type hog.SneakyText, {NOT_PLAIN}",
        f"returned a value of type hog.SneakyTuple, {NOT_PLAIN}",
        f"returned a value containing an object of type hog.Sneaky, {NOT_PLAIN}",
        f"returned a value of type hog.Loud, {NOT_PLAIN}",
    ]
    # A comparison made inside the case still returns a real bool the grader can trust.
    assert report.cases[5].steps == [Step("True\n", None, None), Step("9\n", None, None)]


def test_an_impostor_in_a_table_of_numbers_is_refused_without_running_its_code(tmp_path, mode):
    report = run(tmp_path, [["table()"], ["posed()"]], hostile="lying_values.py")
    assert errors(report)[0] == f"returned a value containing an object of type hog.Impostor, {NOT_PLAIN}"
    assert report.cases[1].steps == [Step("False\n", None, None)]


def test_tables_of_numbers_come_back_exactly(tmp_path, mode):
    report = run(tmp_path, [["[3, -7, 2**53 - 1, -(2**53 - 1)]", "(1, 2, 2**53)", "[True, 1]", "[0]",
                             "list(range(-5000, 5000))", "[[1, 2], (3, -4)]", "[s > 2 for s in range(5)]"]])
    assert [step.output for step in report.cases[0].steps] == [
        "[3, -7, 9007199254740991, -9007199254740991]\n", "(1, 2, 9007199254740992)\n", "[True, 1]\n", "[0]\n",
        f"{list(range(-5000, 5000))}\n", "[[1, 2], (3, -4)]\n", "[False, False, False, True, True]\n"]
    assert report.cases[0].steps[4].value == list(range(-5000, 5000))


def test_builtins_json_and_doctest_patched_at_import_change_nothing(tmp_path, mode):
    report = run(tmp_path, [["roll()"], ["repr(roll())", "len([1, 2])", "type(1) is int"],
                            ["shout('hi')"], ["print('plain')", "square(4)"], ["1 / 0"]],
                 hostile="monkeypatch.py")
    assert report.import_error is None
    assert [[step.output for step in case.steps] for case in report.cases[:4]] == [
        ["5\n"], ["'5'\n", "2\n", "True\n"], ["HI\n"], ["plain\n", "16\n"]]
    assert errors(report) == [None, None, None, None, "ZeroDivisionError: division by zero"]


@pytest.mark.slow
def test_forged_results_fail_the_forging_case_and_later_cases_stay_truthful(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["answer(1)"], ["square(3)"], ["answer_ahead(3)"],
                            ["wrong()"], ["garbage()"], ["square(3)"], ["wrong()"]],
                 hostile="forge_results.py")
    assert_honest_case_passes(report.cases[0])
    for forged in (1, 3, 5):
        case = report.cases[forged]
        assert len(case.steps) == 1 and case.steps[0].error.startswith(
            "the result channel was tampered with"), case
        assert "42" not in case.steps[0].output
    assert_honest_case_passes(report.cases[2])
    assert report.cases[4].steps == [Step("-1\n", None, None)]  # no forged 42 leaked here
    assert_honest_case_passes(report.cases[6])
    assert report.cases[7].steps == [Step("-1\n", None, None)]


def test_a_submission_that_forges_case_after_case_has_the_rest_not_run(tmp_path, mode):
    """Each forged case sends the cases after it to a fresh process: a grade of sp19 that forged every case
    from the 400th on took 22.9 s rather than 0.3 s (at the container level, each process is a container's
    start). After 10 forged cases in a batch, the cases not yet read are not run; what was read stands."""
    cases = [["square(3)"]] + [[f"answer({number})"] for number in range(1, 13)] + [["square(4)"]]
    report = run(tmp_path, cases, hostile="forge_results.py")
    assert_honest_case_passes(report.cases[0])
    assert all(case.steps[0].error.startswith("the result channel was tampered with") for case in report.cases[1:11])
    not_run = Step("", "not run: the submission tampered with the result channel in 10 cases", kind=StepKind.SKIPPED)
    assert [case.steps for case in report.cases[11:]] == [[not_run]] * 3


def test_forged_import_and_results_at_import_time_fail_everything(tmp_path, mode):
    report = run(tmp_path, [["square(3)"], ["square(3)"]], hostile="forge_at_import.py")
    assert report.import_error == "the result channel was tampered with while the submission was importing"
    assert all(case.steps[0].error.startswith("the submission did not import") for case in report.cases)


