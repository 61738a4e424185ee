"""Isolation levels as an operator and a hostile student meet them.

The levels: process < files < bubblewrap.  A minimum that cannot be reached is
a kit fault (never a score); an unknown level name is a usage error; a sandbox
that does not start is retried, then a kit fault; at the files and bubblewrap
levels a submission with no game code that hunts for the kit scores nothing
and reads nothing of the kit, its hidden cases or its key.  The container
(no namespaces, no CAP_SYS_ADMIN) is simulated with tests/tools/nouserns.py
under setpriv.
"""


from __future__ import annotations


import pytest

from grader.grading import grade
from grader.errors import GraderFault, UsageError
from grader.sandbox import Limits, SandboxUnavailable, StepKind, channel, level, namespaces, run_cases
from grader.sandbox import run as sandbox_run
from grader.sandbox.model import Tampered
from grader.spec import load_variant

from tests.sandbox.isolated import FAST, slow_interpreter
from tests.sandbox.isolated import no_level_settings  # noqa: F401 (an autouse fixture)


# ---------------------------------------------------------------------------
# Choosing a level
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("variable", ["HOG_ISOLATION", "HOG_SANDBOX"])
def test_an_unknown_level_name_is_a_usage_error_naming_the_levels(honest, monkeypatch, variable):
    monkeypatch.setenv(variable, "bogus")
    with pytest.raises(UsageError, match=f"{variable}='bogus' is not an isolation level: use process, files, bubblewrap "
                       r"\(from least to most isolated\) or container \(Docker or Podman\)"):
        run_cases(honest, [["square(3)"]], limits=FAST)


def test_an_unknown_minimum_is_a_usage_error_even_through_grade_safely(honest, monkeypatch):
    monkeypatch.setenv("HOG_ISOLATION", "strict")
    with pytest.raises(UsageError):
        grade.grade_safely(honest, load_variant("sp19"), limits=FAST)


def test_a_minimum_that_cannot_be_reached_is_a_kit_fault_never_a_score(honest, monkeypatch):
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    monkeypatch.setattr(level, "landlock_unavailable", lambda: "the kernel offers no Landlock")
    monkeypatch.setattr(level.tree, "unavailable", lambda python: "the grader does not run as root")
    assert run_cases(honest, [["square(3)"]], limits=FAST).level == "process"  # no minimum: fine
    with pytest.raises(SandboxUnavailable) as raised:
        run_cases(honest, [["square(3)"]], limits=FAST, minimum="files")
    assert isinstance(raised.value, GraderFault)
    assert str(raised.value).startswith("isolation 'files' is required, but only 'process' can be reached here: "
                                        "bubblewrap (bwrap) is not installed; the kernel offers no Landlock")
    result, failed = grade.grade_safely(honest, load_variant("sp19"), limits=FAST, minimum="files")
    assert failed and result.grader_error.startswith("SandboxUnavailable: isolation 'files' is required")
    assert result.questions == []


def test_the_environment_gives_the_minimum_where_the_caller_names_none(honest, monkeypatch):
    monkeypatch.setenv("HOG_ISOLATION", "bubblewrap")
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    with pytest.raises(SandboxUnavailable, match="isolation 'bubblewrap' is required"):
        run_cases(honest, [["square(3)"]], limits=FAST)
    assert run_cases(honest, [["square(3)"]], limits=FAST, minimum="process").level in ("process", "files")


def test_a_level_named_in_HOG_SANDBOX_that_cannot_be_reached_is_a_kit_fault(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "bwrap")
    monkeypatch.setattr(namespaces, "bwrap_path", lambda: None)
    with pytest.raises(SandboxUnavailable, match="HOG_SANDBOX=bwrap asks for the bubblewrap level, but "
                                                 "bubblewrap \\(bwrap\\) is not installed"):
        run_cases(honest, [["square(3)"]], limits=FAST)


def test_a_level_asked_below_the_minimum_is_a_usage_error(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    with pytest.raises(UsageError, match="HOG_SANDBOX=process is below the isolation required"):
        run_cases(honest, [["square(3)"]], limits=FAST, minimum="files")


# ---------------------------------------------------------------------------
# Start-up is the kit's business
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_a_sandbox_that_does_not_start_is_retried_then_a_kit_fault(honest, tmp_path, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    slow = slow_interpreter(tmp_path, 5)
    monkeypatch.setattr(namespaces, "interpreter", lambda: slow)
    monkeypatch.setattr(sandbox_run, "STARTUP_SECONDS", 1.0)
    with pytest.raises(SandboxUnavailable, match=r"the sandbox \(process\) did not start, twice: "
                                                 r"it did not start within 1 s"):
        run_cases(honest, [["square(3)"]], limits=FAST)


@pytest.mark.slow
def test_a_slow_start_is_not_counted_against_the_submission(honest, tmp_path, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    slow = slow_interpreter(tmp_path, 3)
    monkeypatch.setattr(namespaces, "interpreter", lambda: slow)
    report = run_cases(honest, [["square(3)"], ["square(4)"]], limits=Limits(case_seconds=1.0, total_seconds=2.0))
    assert [case.steps[0].output for case in report.cases] == ["9\n", "16\n"]


# ---------------------------------------------------------------------------
# What the channel will not read
# ---------------------------------------------------------------------------

@pytest.mark.slow
def test_values_the_harness_never_sends_are_refused_before_they_cost_anything():
    colliding = ["d"] + [item for n in range(55_000) for item in (["i", hex(n * ((1 << 61) - 1))], 0)]
    for message in (colliding, ["l"] * 1 + [["l"]] * 120_000):
        with pytest.raises(Tampered):
            channel.rebuild(message)
    with pytest.raises(Tampered, match="not valid JSON"):
        channel.decode(b"[" * 200_000 + b"]" * 200_000)
    with pytest.raises(Tampered, match="larger than"):
        channel.decode(b" " * (channel.MAX_MESSAGE_BYTES + 1))


def test_long_texts_made_by_the_submission_are_cut_with_the_count(honest, monkeypatch):
    monkeypatch.setenv("HOG_SANDBOX", "process")
    report = run_cases(honest, [["raise ValueError('x' * 7000)"]], limits=FAST)
    error = report.cases[0].steps[0].error
    assert error.endswith("… (7,012 characters, cut)") and len(error) < 500
    assert report.cases[0].steps[0].kind is StepKind.ERROR
