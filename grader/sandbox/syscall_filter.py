"""Inside the sandbox (part of the harness text): the system call filter, the same at every level.

It refuses with EPERM: new processes and programs, tracing, signals to other
processes, network sockets (AF_UNIX only), namespaces and mounts, watching
files (inotify, fanotify: which the grader's files Landlock hides are made,
read and removed) and reading the mount table (statmount, listmount),
memfd_create and memfd_secret (memory that RLIMIT_AS does not count), terminal
ioctls that change a terminal's settings or push input
(TCSETS*, TIOCSTI), and every change to the file system: open/openat asking
for O_WRONLY, O_RDWR, O_CREAT, O_TRUNC or O_APPEND, creat, unlink, rename,
mkdir, rmdir, link, symlink, mknod, truncate, fallocate, chmod, chown, utime
and the xattr setters, in all their forms.  openat2 (whose flags sit behind a
pointer the filter cannot read) fails with ENOSYS, so Python and the C library
fall back to openat.  Reading files, and write() on descriptors already open
(the result pipe, stdout on /dev/null), still work.

Nothing the sandbox makes may outlive it or be shared with another process,
so it also refuses every object named by a key, a path or a name: System V
shared memory, message queues and semaphores (all their calls), POSIX message
queues, the kernel's key rings, and a unix socket addressed by name (bind,
listen, accept, connect, a sendto that names an address, and sendmsg/sendmmsg,
whose address sits behind a pointer).  A pair of connected sockets
(socketpair) and send() on it still work.  So do file locks and signal owners
on descriptors: fcntl F_SETLK, F_SETLKW, F_OFD_SETLK(W), F_SETLEASE, F_SETOWN
(another process's SIGIO) and F_SETOWN_EX are refused, as is flock.  What a
process may change of another process of its uid (its nice value, I/O
priority, CPU affinity, scheduling, memory placement) it may change only of
itself: setpriority and ioprio_set on itself (not its whole uid), the sched_set*
calls on pid 0, and no migrate_pages, move_pages, process_madvise or
process_mrelease.

The filter needs a known machine type (x86_64, aarch64) and a kernel that
accepts it; ``install_filter`` returns None once it is in place, else why not.
"""


def syscall_tables():
    """Per machine: the audit architecture, a few numbers the filter inspects, and the refused ones."""
    # System call numbers: arch/x86/entry/syscalls/syscall_64.tbl, and for
    # aarch64 include/uapi/asm-generic/unistd.h (which has only the *at forms).
    # Numbers from 424 on are the same on every architecture.
    return {
        "x86_64": {
            "arch": 0xC000003E, "x32": True, "capset": 126,
            "kill": 62, "tgkill": 234, "prlimit64": 302, "socket": 41, "prctl": 157,
            "open": 2, "openat": 257, "ioctl": 16, "sendto": 44, "fcntl": 72,
            "setpriority": 141, "ioprio_set": 251,
            # sched_setaffinity, sched_setscheduler, sched_setparam, sched_setattr
            "self_only": [203, 144, 142, 314],
            "deny": [
                # processes, programs, tracing, other processes' memory and signals
                57, 58, 56, 435, 59, 322, 101, 310, 311, 200, 424, 438, 129, 297, 312,
                # namespaces, mounts, kernel facilities
                272, 308, 165, 166, 155, 161, 321, 298, 323, 425, 426, 427, 250, 248, 249,
                246, 320, 175, 313, 176, 169, 167, 168, 304, 303, 430, 432, 429, 428, 433,
                442, 467, 179, 163, 164, 227, 159, 103, 153, 170, 171,
                # changes to the file system: creat, unlink(at), rename(at, at2),
                # mkdir(at), rmdir, link(at), symlink(at), mknod(at), truncate,
                # ftruncate, fallocate, chmod, fchmod(at, at2), chown, fchown,
                # lchown, fchownat, utime, utimes, futimesat, utimensat
                85, 87, 263, 82, 264, 316, 83, 258, 84, 86, 265, 88, 266, 133, 259,
                76, 77, 285, 90, 91, 268, 452, 92, 93, 94, 260, 132, 235, 261, 280,
                # setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr,
                # fremovexattr, setxattrat, removexattrat, file_setattr
                188, 189, 190, 197, 198, 199, 463, 466, 469,
                # bind (a socket file), connect (other processes' services),
                # mq_open, mq_unlink
                49, 42, 240, 241,
                # memfd_create, memfd_secret (memory outside RLIMIT_AS)
                319, 447,
                # objects shared by key or name: System V shmget, shmat, shmctl,
                # shmdt, semget, semop, semctl, semtimedop, msgget, msgsnd,
                # msgrcv, msgctl; listen, accept, accept4, sendmsg, sendmmsg;
                # mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr; flock
                29, 30, 31, 67, 64, 65, 66, 220, 68, 69, 70, 71, 50, 43, 288, 46, 307,
                242, 243, 244, 245, 73,
                # other processes' memory placement and advice: migrate_pages,
                # move_pages, process_madvise, process_mrelease
                256, 279, 440, 448,
                # watching files and reading the mount table: inotify_init, inotify_init1,
                # inotify_add_watch, fanotify_init, fanotify_mark, statmount, listmount
                253, 294, 254, 300, 301, 457, 458,
            ],
        },
        "aarch64": {
            "arch": 0xC00000B7, "x32": False, "capset": 91,
            "kill": 129, "tgkill": 131, "prlimit64": 261, "socket": 198, "prctl": 167,
            "open": None, "openat": 56, "ioctl": 29, "sendto": 206, "fcntl": 25,
            "setpriority": 140, "ioprio_set": 30, "self_only": [122, 119, 118, 274],
            "deny": [
                220, 435, 221, 281, 117, 270, 271, 130, 424, 438, 138, 240, 272,
                97, 268, 40, 39, 41, 51, 280, 241, 282, 425, 426, 427, 219, 217, 218,
                104, 294, 105, 273, 106, 142, 224, 225, 265, 264, 430, 432, 429, 428,
                433, 442, 467, 60, 89, 170, 112, 171, 116, 58, 161, 162,
                # unlinkat, renameat, renameat2, mkdirat, linkat, symlinkat,
                # mknodat, truncate, ftruncate, fallocate, fchmod, fchmodat,
                # fchmodat2, fchownat, fchown, utimensat
                35, 38, 276, 34, 37, 36, 33, 45, 46, 47, 52, 53, 452, 54, 55, 88,
                5, 6, 7, 14, 15, 16, 463, 466, 469,
                200, 203, 180, 181,
                279, 447,
                # the same objects shared by key or name, in the order above
                194, 196, 195, 197, 190, 193, 191, 192, 186, 189, 188, 187, 201, 202, 242, 211, 269,
                182, 183, 184, 185, 32,
                238, 239, 440, 448,
                # watching files and reading the mount table, in the order above (no inotify_init here)
                26, 27, 262, 263, 457, 458,
            ],
        },
    }


def install_filter(pid):
    """Install the filter for this process (``pid`` is the one process it may signal)."""
    import ctypes
    import os
    import struct

    table = syscall_tables().get(os.uname().machine)
    if table is None:
        return "no system call filter is known for this machine type (" + os.uname().machine + ")"
    code = assemble(filter_program(table, pid), struct)
    if code is None:
        return "the system call filter is too long to assemble"
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int] + [ctypes.c_ulong] * 4
    libc.prctl.restype = ctypes.c_int
    filters = ctypes.create_string_buffer(code)

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Program(len(code) // 8, ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(38, 1, 0, 0, 0) != 0:                 # PR_SET_NO_NEW_PRIVS
        return "the kernel refused PR_SET_NO_NEW_PRIVS (errno " + str(ctypes.get_errno()) + ")"
    if libc.prctl(22, 2, ctypes.addressof(prog), 0, 0) != 0:   # PR_SET_SECCOMP, FILTER
        return "the kernel refused the seccomp filter (errno " + str(ctypes.get_errno()) + ")"
    return None


def filter_program(table, pid):
    """The BPF program as a list of (code, true label, false label, k) and label names.

    One straight list of jumps, read top to bottom: the checks a reader must
    audit are the branches below, so it stays in one function.
    """
    allow, deny, kill = 0x7FFF0000, 0x00050000 | 1, 0x80000000   # deny: EPERM
    enosys = 0x00050000 | 38
    # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND (the same on both machines;
    # O_TMPFILE needs O_WRONLY or O_RDWR, so it is covered too).
    writing = 0o1 | 0o2 | 0o100 | 0o1000 | 0o2000
    # TCSETS, TCSETSW, TCSETSF, TIOCSTI, TCSETS2, TCSETSW2, TCSETSF2 (asm-generic ioctls)
    terminal = [0x5402, 0x5403, 0x5404, 0x5412, 0x402C542B, 0x402C542C, 0x402C542D]
    # F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE (locks other processes see),
    # F_SETOWN, F_SETOWN_EX (SIGIO sent to another process)
    shared_fcntl = [6, 7, 37, 38, 1024, 8, 15]
    program = []

    def op(code, k, true=None, false=None):
        program.append((code, true, false, k))

    LOAD, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
    ARG = [16 + 8 * number for number in range(6)]  # low half of each argument (little-endian)
    op(LOAD, 4)                                   # architecture
    op(JEQ, table["arch"], None, "kill")
    op(LOAD, 0)                                   # system call number
    if table["x32"]:
        op(JGE, 0x40000000, "kill", None)
    op(JEQ, table["openat"], "openat", None)      # the most frequent of these first
    if table["open"] is not None:
        op(JEQ, table["open"], "open", None)
    op(JEQ, 437, "enosys", None)                  # openat2
    for number in table["deny"]:
        op(JEQ, number, "deny", None)
    op(JEQ, table["kill"], "pid_or_zero", None)
    op(JEQ, table["tgkill"], "own_pid", None)
    op(JEQ, table["prlimit64"], "pid_or_zero", None)
    op(JEQ, table["socket"], "socket", None)
    op(JEQ, table["prctl"], "prctl", None)
    op(JEQ, table["ioctl"], "ioctl", None)
    op(JEQ, table["sendto"], "sendto", None)
    op(JEQ, table["fcntl"], "fcntl", None)
    op(JEQ, table["setpriority"], "setpriority", None)
    op(JEQ, table["ioprio_set"], "ioprio_set", None)
    for number in table["self_only"]:
        op(JEQ, number, "pid_zero", None)
    op(RET, allow)
    program.append("openat")
    op(LOAD, ARG[2])                              # openat(dirfd, path, flags, mode)
    op(JSET, writing, "deny", "allow")
    if table["open"] is not None:
        program.append("open")
        op(LOAD, ARG[1])                          # open(path, flags, mode)
        op(JSET, writing, "deny", "allow")
    program.append("pid_or_zero")
    op(LOAD, ARG[0])
    op(JEQ, 0, "allow", None)
    program.append("own_pid")
    op(LOAD, ARG[0])
    op(JEQ, pid, "allow", "deny")
    program.append("socket")
    op(LOAD, ARG[0])
    op(JEQ, 1, "allow", "deny")                   # AF_UNIX only
    program.append("prctl")
    op(LOAD, ARG[0])
    op(JEQ, 1, "deny", "allow")                   # no clearing PR_SET_PDEATHSIG
    program.append("ioctl")
    op(LOAD, ARG[1])                              # ioctl(fd, request, ...)
    for request in terminal:
        op(JEQ, request, "deny", None)
    op(RET, allow)
    program.append("sendto")
    op(LOAD, ARG[4])                              # sendto(fd, buffer, length, flags, address, size)
    op(JEQ, 0, None, "deny")                      # an address (either half of the pointer): refused
    op(LOAD, ARG[4] + 4)
    op(JEQ, 0, "allow", "deny")
    program.append("setpriority")
    op(LOAD, ARG[0])                              # setpriority(which, who, value): PRIO_PROCESS, itself
    op(JEQ, 0, None, "deny")                      # (PRIO_USER 0 would be every process of its uid)
    op(LOAD, ARG[1])
    op(JEQ, 0, "allow", "deny")
    program.append("ioprio_set")
    op(LOAD, ARG[0])                              # ioprio_set(which, who, priority): IOPRIO_WHO_PROCESS, itself
    op(JEQ, 1, None, "deny")
    op(LOAD, ARG[1])
    op(JEQ, 0, "allow", "deny")
    program.append("pid_zero")
    op(LOAD, ARG[0])                              # the sched_set* calls: on itself only
    op(JEQ, 0, "allow", "deny")
    program.append("fcntl")
    op(LOAD, ARG[1])                              # fcntl(fd, command, ...)
    for command in shared_fcntl:
        op(JEQ, command, "deny", None)
    op(RET, allow)
    program.append("allow")
    op(RET, allow)
    program.append("deny")
    op(RET, deny)
    program.append("enosys")
    op(RET, enosys)
    program.append("kill")
    op(RET, kill)
    return program


def assemble(program, struct):
    """Bytes of the BPF program, or None if a jump is too far."""
    positions = {}
    count = 0
    for item in program:
        if isinstance(item, str):
            positions[item] = count
        else:
            count += 1
    code_bytes = []
    index = 0
    for item in program:
        if isinstance(item, str):
            continue
        code, true, false, k = item
        jt = 0 if true is None else positions[true] - index - 1
        jf = 0 if false is None else positions[false] - index - 1
        if not (0 <= jt <= 255 and 0 <= jf <= 255):
            return None
        code_bytes.append(struct.pack("=HBBI", code, jt, jf, k))
        index += 1
    return b"".join(code_bytes)
