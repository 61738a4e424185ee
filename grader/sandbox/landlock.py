"""Inside the sandbox (part of the harness text): the Landlock file layer of the ``files`` level.

After ``confine_files`` the process (and anything it could start) may read and
map only the paths the grader listed: the Python runtime's standard library
(never site-packages), the system's shared libraries, a few devices
(/dev/null, /dev/zero, /dev/urandom) and the scratch folder.  It may change no
file anywhere, bind or connect no TCP port, and, where the kernel has Landlock
ABI 6 or later, neither signal processes outside its domain nor reach abstract
unix sockets.  /proc is not listed, so the grader's and other sandboxes'
/proc/<pid> entries (command line, descriptors) cannot be opened, and neither
can a terminal.

Raw system calls via ctypes (the numbers are the same on x86_64 and aarch64):
landlock_create_ruleset 444, landlock_add_rule 445, landlock_restrict_self 446.
Landlock needs no privilege, only PR_SET_NO_NEW_PRIVS, which this sets.
"""


def confine_files(paths):
    """Restrict this process to reading ``paths``; returns None, or why it could not."""
    import ctypes
    import os
    import struct

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(ctypes.c_long(444), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        return "the kernel has no Landlock (errno " + str(ctypes.get_errno()) + ")"
    handled = (1 << 13) - 1                      # execute ... make_sym (ABI 1)
    if abi >= 2:
        handled |= 1 << 13                       # refer
    if abi >= 3:
        handled |= 1 << 14                       # truncate
    if abi >= 5:
        handled |= 1 << 15                       # ioctl_dev
    if abi >= 6:
        attr = struct.pack("=QQQ", handled, 3, 3)  # TCP bind+connect; scope: abstract unix, signals
    elif abi >= 4:
        attr = struct.pack("=QQ", handled, 3)
    else:
        attr = struct.pack("=Q", handled)
    ruleset = libc.syscall(ctypes.c_long(444), ctypes.c_char_p(attr), ctypes.c_size_t(len(attr)),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        return "the kernel refused a Landlock rule set (errno " + str(ctypes.get_errno()) + ")"
    reading_dir = 1 | 4 | 8                      # execute, read_file, read_dir
    reading_file = 1 | 4
    try:
        for path in paths:
            try:
                descriptor = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue                         # absent here: nothing to allow
            try:
                access = reading_dir if os.path.isdir(path) else reading_file
                rule = struct.pack("=Qi", access, descriptor)
                if libc.syscall(ctypes.c_long(445), ctypes.c_int(ruleset), ctypes.c_int(1),
                                ctypes.c_char_p(rule), ctypes.c_uint32(0)) != 0:
                    return "the kernel refused a Landlock rule for " + path + \
                        " (errno " + str(ctypes.get_errno()) + ")"
            finally:
                os.close(descriptor)
        libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
        if libc.prctl(38, 1, 0, 0, 0) != 0:      # PR_SET_NO_NEW_PRIVS
            return "the kernel refused PR_SET_NO_NEW_PRIVS (errno " + str(ctypes.get_errno()) + ")"
        if libc.syscall(ctypes.c_long(446), ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            return "the kernel refused to apply Landlock (errno " + str(ctypes.get_errno()) + ")"
    finally:
        os.close(ruleset)
    return None
