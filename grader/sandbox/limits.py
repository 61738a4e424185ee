"""Inside the sandbox (part of the harness text): resource limits, parent-death signal, no capabilities.

This file runs in the child only, concatenated into the ``-c`` text (see
``grader.sandbox.boot.harness_text``); it uses the standard library alone and
imports inside its functions, so nothing here is shared with the grader.
"""


def set_limits(config, limits):
    """Resource limits and the parent-death signal; then no capabilities are left.

    RLIMIT_CPU is the whole process's CPU time (SIGXCPU, then SIGKILL a second
    later); the grader measures each case's CPU time itself.  RLIMIT_NOFILE is
    low: the harness needs a handful of descriptors, and a submission has no
    business opening many.
    """
    import ctypes
    import os
    import resource
    import _signal as signal  # the C module: the signal package would import enum

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    libc.prctl.restype = ctypes.c_int
    if config["mode"] != "bwrap":
        # Die with the grader; if it is already gone, stop now.
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != config["parent"]:
            os._exit(0)

    def limit(kind, soft, hard=None):
        hard = soft if hard is None else hard
        current = resource.getrlimit(kind)[1]
        if current != resource.RLIM_INFINITY:
            soft, hard = min(soft, current), min(hard, current)
        resource.setrlimit(kind, (soft, hard))

    limit(resource.RLIMIT_AS, limits["memory_bytes"])
    limit(resource.RLIMIT_FSIZE, limits["file_bytes"])
    limit(resource.RLIMIT_NPROC, limits["processes"])
    limit(resource.RLIMIT_CORE, 0)
    limit(resource.RLIMIT_NOFILE, 32)
    limit(resource.RLIMIT_CPU, limits["cpu_seconds"], limits["cpu_seconds"] + 1)
    drop_capabilities(libc)


def drop_capabilities(libc):
    """Give up every capability (a grader run as root keeps its uid but loses its powers)."""
    import ctypes
    import os
    import struct

    numbers = {"x86_64": 126, "aarch64": 91}   # capset
    number = numbers.get(os.uname().machine)
    if number is None:
        return
    header = struct.pack("=Ii", 0x20080522, 0)
    libc.syscall(ctypes.c_long(number), ctypes.c_char_p(header), ctypes.c_char_p(bytes(24)))
