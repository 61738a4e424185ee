"""The container level without an engine: how it is asked for, what it says when it cannot run, the
container's arguments, and the results' round trip as plain data. (tests/sandbox/test_container.py runs it.)"""

from __future__ import annotations

import pytest

from grader import cli
from grader.errors import UsageError
from grader.grading import grade
from grader.sandbox import CaseRun, Limits, SandboxUnavailable, StepKind, StepResult, container, engine as engines, \
    level, namespaces
from grader.sandbox.channel import Function
from grader.sandbox.level import Level
from grader.spec import load_variant
from tests import ROOT


@pytest.fixture
def no_engine(monkeypatch, tmp_path):
    """A machine where no container engine is installed."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("HOG_CONTAINER_ENGINE", raising=False)
    monkeypatch.delenv("HOG_SANDBOX", raising=False)


@pytest.fixture
def answering(monkeypatch):
    """A machine where Docker answers (not asked: nothing is started)."""
    monkeypatch.setattr(engines, "find", lambda: engines.Engine("docker", "/usr/bin/docker"))


def test_without_an_engine_the_container_level_is_a_grader_failure_not_a_zero(no_engine):
    result, fault = grade.grade_safely(ROOT / "solution" / "sp19", load_variant("sp19"), minimum="container")
    assert fault and result.grader_error == (
        "SandboxUnavailable: isolation 'container' is required, but no container engine is installed (install "
        "Docker Desktop or Podman; HOG_CONTAINER_ENGINE to choose)")


def test_hog_container_engine_names_the_engine_and_a_wrong_name_is_a_usage_error(no_engine, monkeypatch):
    monkeypatch.setenv("HOG_CONTAINER_ENGINE", "podman")
    assert engines.find() == "HOG_CONTAINER_ENGINE=podman is not installed (no podman on PATH)"
    monkeypatch.setenv("HOG_CONTAINER_ENGINE", "dokker")
    with pytest.raises(UsageError, match="HOG_CONTAINER_ENGINE='dokker' is not a container engine: use docker or "
                                         "podman"):
        engines.find()


def test_the_container_level_is_used_only_when_named(answering, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    assert not level.container_named(None) and not level.container_named("bubblewrap")
    assert level.container_named("container")
    monkeypatch.setenv("HOG_ISOLATION", "container")
    assert level.container_named(None)
    monkeypatch.setenv("HOG_SANDBOX", "container")
    assert level.container_named("bubblewrap")     # it meets any minimum
    monkeypatch.setenv("HOG_SANDBOX", "bubblewrap")
    with pytest.raises(UsageError, match="HOG_SANDBOX=bubblewrap is below the isolation required"):
        level.choose("container")
    assert Level.PROCESS < Level.FILES < Level.BUBBLEWRAP < Level.CONTAINER


def test_automatic_choice_never_starts_a_container(answering, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    assert level.choose().level is not Level.CONTAINER


def test_where_files_cannot_be_reached_and_an_engine_answers_the_error_says_to_ask_for_the_container(
        answering, monkeypatch):
    monkeypatch.delenv("HOG_SANDBOX", raising=False)
    monkeypatch.setattr(namespaces, "unavailable", lambda: "bubblewrap (bwrap) is not installed")
    monkeypatch.setattr(level, "_files", lambda notes: "Landlock needs Linux, and the grader is not root")
    with pytest.raises(SandboxUnavailable) as raised:
        level.choose("files")
    assert "only 'process' can be reached here" in str(raised.value)
    assert "A container engine (docker) answers here: grade with --isolation container" in str(raised.value)


def test_the_container_has_no_network_no_host_folder_and_no_capability_beyond_the_kits():
    command = container.arguments(engines.Engine("docker", "/usr/bin/docker"), Limits(), "hog-grade-1")
    text = " ".join(command)
    for expected in ("--network none", "--read-only", "--cap-drop ALL", "--security-opt no-new-privileges",
                     "--ipc none", f"--memory {Limits().memory_bytes + container.OVERHEAD_BYTES + container.SCRATCH_BYTES}",
                     f"--pids-limit {Limits().processes + container.EXTRA_PROCESSES}"):
        assert expected in text, expected
    assert "-v" not in command and "--volume" not in command and "--mount" not in command
    added = [command[index + 1] for index, word in enumerate(command) if word == "--cap-add"]
    assert added == list(container.CAPABILITIES)


def test_results_come_back_from_the_container_as_the_sandbox_gave_them():
    values = [None, 7, -(1 << 70), 0.1, float("inf"), "texte", True, (1, (2, "x")), [1, [2.5]],
              {(1, 2): {"a": [None]}}, Function("play")]
    run = CaseRun([StepResult(f"{value!r}\n", None, None, value=value) for value in values]
                  + [StepResult("", "ZeroDivisionError: division by zero", "ZeroDivisionError", StepKind.ERROR)], 0.25)
    back = container.decode_run(container.encode_run(run))
    assert back == run and [step.value for step in back.steps] == values + [None]


def test_a_result_the_kit_inside_never_sends_is_a_grader_failure():
    with pytest.raises(SandboxUnavailable, match="the kit inside the container sent a result it never sends"):
        container.decode_run({"seconds": 0, "steps": [["", None, None, "ok", ["x", 1]]]})


def test_hog_doctor_lists_every_level_with_why_not(no_engine, capsys):
    assert cli.main(["doctor"]) == 0
    shown = capsys.readouterr().out
    assert [line.split()[0] for line in shown.splitlines()[1:5]] == ["process", "files", "bubblewrap", "container"]
    assert "why not: no container engine is installed (install Docker Desktop or Podman" in shown


def test_hog_container_build_without_an_engine_says_so(no_engine, capsys):
    assert cli.main(["container", "build"]) == cli.USAGE_ERROR
    assert "cannot build the grading image: no container engine is installed" in capsys.readouterr().err
