"""What the tests of the isolation levels share: limits, a level chosen (skipped where the machine lacks it),
no level set from outside (``no_level_settings``, an autouse fixture a module takes by importing it), an
interpreter slow to start, the hunter of tests/submissions/hostile/steal_kit.py, and a simulated container
(no namespaces, no CAP_SYS_ADMIN: tests/tools/nouserns.py under setpriv)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import Limits, level, namespaces
from tests import ROOT
from tests.sandbox.sandboxed import HOSTILE

FAST = Limits(case_seconds=2.0, total_seconds=60.0)
# The hunter walks the visible disk at import for up to 3 s of wall time; on a machine whose disk cache
# is cold (a fresh CI machine) much of that is waiting on reads, which FAST's one second of waiting
# would cut short: then the walk, not the sandbox, would be what kept it from the kit's files.
HUNT = Limits(case_seconds=6.0, total_seconds=60.0, wait_seconds=6.0)
LEVELS = ["bubblewrap", "files"]


@pytest.fixture(autouse=True)
def no_level_settings(monkeypatch):
    monkeypatch.delenv("HOG_ISOLATION", raising=False)
    monkeypatch.delenv("HOG_SANDBOX", raising=False)


def use_level(monkeypatch, name: str) -> None:
    if name == "bubblewrap" and namespaces.unavailable():
        pytest.skip(namespaces.unavailable())
    if name == "files" and level.landlock_unavailable():
        pytest.skip(level.landlock_unavailable())
    monkeypatch.setenv("HOG_SANDBOX", name)


def slow_interpreter(tmp_path: Path, seconds: float) -> str:
    script = tmp_path / "slow-python"
    script.write_text(f"#!/bin/sh\nsleep {seconds}\nexec {namespaces.interpreter()} \"$@\"\n")
    script.chmod(0o755)
    return str(script)


def hunter(tmp_path: Path, cache: Path) -> Path:
    """tests/submissions/hostile/steal_kit.py, told where the cache is."""
    folder = tmp_path / "hunter"
    folder.mkdir()
    source = (HOSTILE / "steal_kit.py").read_text().replace("CACHE = None", f"CACHE = {str(cache)!r}")
    (folder / "hog.py").write_text(source)
    return folder


CONTAINED = """
import json, sys
from grader.sandbox import run_cases, Limits
report = run_cases(sys.argv[1], [["loot()"], ["'play' in dir()"], ["reach_out()"]], minimum="files",
                   limits=Limits(case_seconds=2.0))
print(json.dumps([report.level, [case.steps[-1].output or case.steps[-1].error for case in report.cases]]))
"""
REACH_OUT = """

def reach_out():
    import os
    tried = []
    for path in ("/dev/tty", f"/proc/{os.getppid()}/fd", f"/proc/{os.getppid()}/cmdline", "/proc/self/fd"):
        try:
            os.listdir(path) if path.endswith("fd") else open(path, "rb").read(1)
            tried.append(path + " opened")
        except OSError as error:
            tried.append(type(error).__name__)
    try:
        os.memfd_create("x")
        tried.append("memfd made")
    except OSError as error:
        tried.append(type(error).__name__)
    return tried
"""


def in_container(command: list[str], *, env: dict | None = None, timeout: float = 600,
                 **options) -> subprocess.CompletedProcess:
    """``command`` as in a container that refuses namespaces (tests/tools/nouserns.py, without
    CAP_SYS_ADMIN); skipped where that cannot be simulated. ``env``: the whole environment (default:
    this one with the checkout on PYTHONPATH and no HOG_SANDBOX)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0 or level.landlock_unavailable():
        pytest.skip("needs root, setpriv and Landlock to simulate a container")
    if env is None:
        env = {key: value for key, value in os.environ.items() if key != "HOG_SANDBOX"}
        env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin", sys.executable,
                           str(ROOT / "tests" / "tools" / "nouserns.py"), *command],
                          capture_output=True, text=True, env=env, timeout=timeout, **options)
