"""The sandbox's processes: every one below its interpreter (bwrap's included), whether one still lives.

Used to read the CPU time of each (``Child``) and to kill them all, none left behind.
"""

from __future__ import annotations

import os
import signal
import time


def kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _parents() -> dict[int, int]:
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            table[int(entry)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return table


def descendants(root: int) -> list[int]:
    """Every process below ``root``: from the kernel's lists of children where it keeps them,
    else by reading the parent of every process."""
    if os.path.exists(f"/proc/{root}/task/{root}/children"):
        found, frontier = [], [root]
        while frontier:
            current = frontier.pop()
            children = []
            try:
                for task in os.listdir(f"/proc/{current}/task"):   # each thread keeps its own list
                    with open(f"/proc/{current}/task/{task}/children", "rb") as handle:
                        children += [int(pid) for pid in handle.read().split()]
            except (OSError, ValueError):
                pass          # it has just ended
            found += children
            frontier += children
        return found
    parents = _parents()
    found, frontier = [], [root]
    while frontier:
        current = frontier.pop()
        for pid, parent in parents.items():
            if parent == current:
                found.append(pid)
                frontier.append(pid)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs: an exited one lingering as a zombie, ended but not reaped, does not."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def wait_gone(pids: list[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.005)
