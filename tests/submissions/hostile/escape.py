"""Tries to reach outside its own process: signals, tracing, limits, parent-death."""
import ctypes
import os
import resource


def square(x):
    return x * x


def signal_parent():
    os.kill(os.getppid(), 0)  # signal 0 only checks; harmless even if it were allowed
    return "signalled the parent"


def signal_everyone():
    os.kill(-1, 0)
    return "signalled every process"


def raise_memory_limit():
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return "raised the memory limit"


def survive_grader():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(1, 0, 0, 0, 0) != 0:  # PR_SET_PDEATHSIG = 0
        raise PermissionError(ctypes.get_errno(), "prctl refused")
    return "cleared the parent-death signal"
