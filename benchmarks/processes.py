"""What a benchmark's processes and the machine use, read from /proc: a process tree, a process's resident
memory and own CPU time, the machine's CPU time in use."""

from __future__ import annotations

import contextlib
import os
from typing import Callable, TypeVar

from grader.sandbox import processes as sandbox_processes

T = TypeVar("T")


def descendants(pid: int) -> list[int]:
    """``pid`` and every process under it (the sandbox's own reading of /proc)."""
    return [pid, *sandbox_processes.descendants(pid)]


def resident(pid: int) -> int:
    """A process's resident memory in bytes (0 once it is gone)."""
    with contextlib.suppress(OSError, StopIteration, ValueError):
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return int(next(line for line in status if line.startswith("VmRSS:")).split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float | None:
    """A process's own CPU time, user and system (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[float, float]:
    """The machine's CPU seconds so far, of every process (sandboxes that came and went included): (in use,
    all), from /proc/stat. In use: user, nice, system, irq, softirq; not idle, waiting for I/O, nor time a
    virtual machine's host gave to others (steal)."""
    with open("/proc/stat", encoding="ascii") as stat:
        user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in stat.readline().split()[1:9])
    ticks = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / ticks, (user + nice + system + idle + iowait + irq + softirq
                                                             + steal) / ticks


def machine_spent(run: Callable[[], T]) -> tuple[T, float]:
    """``run()``'s result, and the CPU seconds the whole machine spent in use meanwhile (``machine_times``)."""
    before = machine_times()[0]
    result = run()
    return result, machine_times()[0] - before
