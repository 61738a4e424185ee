"""Which of some processes still run: what the tests of runs that end (killed, stopped, their parent gone) ask."""

from __future__ import annotations

import time

from grader.sandbox.processes import alive


def living(pids: list[int], within: float = 0.0) -> list[int]:
    """Those of ``pids`` still running once they all ended or ``within`` seconds passed (an exited one may
    linger as a zombie, ended but not yet reaped: not running)."""
    deadline = time.monotonic() + within
    while (running := [pid for pid in pids if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    return running


def gone(pids: list[int], within: float = 5.0) -> bool:
    """Whether all of ``pids`` ended within ``within`` seconds."""
    return living(pids, within) == []
