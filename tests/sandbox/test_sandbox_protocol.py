"""The sandbox leaves nothing behind, and its protocol: the values it rebuilds, the harness's captured
builtins, timeouts within a group, results read before a limit is declared, the harness sent compiled."""

from __future__ import annotations

import ast
import marshal
import builtins
import os
import sys
import time

import pytest

import grader
from grader import sandbox
from grader.sandbox import Limits, StepKind, boot, channel, child, namespaces, run_cases
from tests.sandbox.sandboxed import run, errors, assert_honest_case_passes, leftovers


# ---------------------------------------------------------------------------
# Cleaning up
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_no_process_or_scratch_folder_is_left_behind(tmp_path, mode, made):
    report = run(tmp_path, [["forever()"], ["square(3)"]], hostile="loops.py")
    assert report.cases[0].steps[-1].error == "Timeout: the case used more than 1 s of CPU time"
    assert_honest_case_passes(report.cases[1])
    forks = run(tmp_path, [["spawn_sleeper()"], ["fork_bomb()"]], hostile="fork_bomb.py")
    assert all(error.startswith("PermissionError") for error in errors(forks))
    assert made and not any(os.path.exists(folder) for folder in made)
    assert leftovers(made) == []


# ---------------------------------------------------------------------------
# Protocol details
# ---------------------------------------------------------------------------

def test_rebuilt_values_reject_malformed_data():
    assert channel.rebuild(["t", ["i", "-0x2a"], ["f", "inf"], "s", None, True]) == \
        (-42, float("inf"), "s", None, True)
    assert repr(channel.rebuild(["d", ["t", ["i", "0x1"]], ["fn", "strategy"]])) == \
        "{(1,): <function strategy>}"
    assert channel.rebuild(["l", 3, -7, True, None, "s"]) == [3, -7, True, None, "s"]
    for bad in (["i", "42"], ["f", "1+1"], ["d", ["l"], None], ["x"], 1 << 60, ["l", 1 << 60], ["d", ["i", "0x1"]],
                ["l", ["i"]], {"i": 1}, ["l"] + [None] * 200_000):
        with pytest.raises(sandbox.model.Tampered):
            channel.rebuild(bad)


def test_harness_uses_only_builtins_captured_before_the_import():
    """Code in main() that runs after the submission is imported never looks up a builtin by name.

    Top-level statements of main() before the import run first and may use
    builtins (that is where they are captured); function bodies and every
    statement from the import on must use the captured names.
    """
    tree = ast.parse(boot.HARNESS.read_text())
    main = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main")
    bound = {arg.arg for arg in main.args.args}
    for node in ast.walk(main):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
            if isinstance(node, ast.FunctionDef):
                bound.update(arg.arg for arg in node.args.args)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    importing = next(index for index, statement in enumerate(main.body)
                     if any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                            and node.func.id == "_import" for node in ast.walk(statement)))
    checked = [statement for index, statement in enumerate(main.body)
               if index >= importing or isinstance(statement, (ast.FunctionDef, ast.ClassDef))]
    assert len(checked) > 10
    problems = [f"line {node.lineno}: {node.id}"
                for statement in checked for node in ast.walk(statement)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.id not in bound and hasattr(builtins, node.id)]
    assert problems == []


@pytest.mark.slow
def test_after_a_timeout_the_rest_of_its_group_is_not_run(tmp_path):
    hog = tmp_path / "hog.py"
    hog.write_text("def spin():\n    while True:\n        pass\n\ndef two():\n    return 2\n")
    cases = [["spin()"], ["spin()"], ["two()"], ["spin()"], ["two()"]]
    report = run_cases(hog, cases, limits=Limits(case_seconds=1.0), groups=["a", "a", "b", "a", "c"])
    errors = [case.steps[0].error for case in report.cases]
    assert report.cases[0].steps[0].kind is StepKind.TIMEOUT
    assert [report.cases[i].steps[0].kind for i in (1, 3)] == [StepKind.SKIPPED] * 2
    assert errors[1] == errors[3] == sandbox.SKIPPED_AFTER_TIMEOUT
    assert [report.cases[i].steps[0].output for i in (2, 4)] == ["2\n", "2\n"]


@pytest.mark.slow
def test_a_result_already_written_is_read_before_a_time_limit_is_declared(tmp_path):
    """The sandbox runs ahead of the grader: when the grader looks at the CPU time, the end of the
    case may already be waiting, and the time spent since belongs to the next case."""
    script = "import os, sys\nos.write(int(sys.argv[2]), b'[\"end\", 0]\\n')\nwhile True:\n    pass\n"
    spinning = child.Child([sys.executable, "-c", script], dict(os.environ), str(tmp_path), False)
    try:
        time.sleep(0.5)   # the message is in the pipe; the process has used CPU time since
        waiting = spinning.next(time.monotonic() + 10, cpu_limit=0.0)
        assert waiting.kind == "message" and waiting.message == ["end", 0]
        assert spinning.next(time.monotonic() + 10, cpu_limit=0.0).kind == "timeout"
        late = spinning.next(time.monotonic() - 1)   # past the wall-clock deadline, nothing waiting
        assert late.kind == "timeout" and late.detail == "wall"
    finally:
        spinning.kill()


def test_the_harness_is_compiled_once_kept_signed_and_sent_down_the_control_pipe(tmp_path, monkeypatch):
    monkeypatch.setattr(grader.project, "CACHE", tmp_path)
    monkeypatch.setattr(boot, "_made", {})
    arguments, preamble = boot.start(namespaces.interpreter())
    assert arguments == ["-c", boot.BOOT]
    size, code = int.from_bytes(preamble[:8], "big"), preamble[8:]
    assert size == len(code) and marshal.loads(code).co_filename == "<harness>"
    stored, = (tmp_path / "harness").glob("harness-*.marshal")
    assert stored.read_bytes().split(b"\n", 1)[1] == code
    stored.write_bytes(stored.read_bytes()[:-1] + b"\0")           # changed on disk: noticed, compiled again
    monkeypatch.setattr(boot, "_made", {})
    assert boot.start(namespaces.interpreter())[1] == preamble
    # Another interpreter (another Python version, maybe) gets the text, which it compiles itself.
    assert boot.start("/usr/bin/true") == (["-c", boot.harness_text()], b"")
    (tmp_path / "text").mkdir()
    monkeypatch.setattr(boot, "compiled", lambda python: None)
    assert_honest_case_passes(run(tmp_path / "text", [["square(3)"]]).cases[0])
