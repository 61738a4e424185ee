"""Run a command as a container runs it by default: no namespaces can be made.

Usage: python tests/tools/nouserns.py [--no-landlock] COMMAND [ARGS...]

Installs a seccomp filter like Docker's default profile for a container
without CAP_SYS_ADMIN: unshare and setns fail with EPERM, clone with any
namespace flag fails with EPERM, clone3 fails with ENOSYS (so the C library
falls back to clone).  Then runs the command, whose children inherit the
filter.  Pair it with ``setpriv --bounding-set -sys_admin --inh-caps -sys_admin``
to take the capability away as well.  x86_64 and aarch64.

``--no-landlock`` also refuses the Landlock system calls (landlock_create_ruleset,
landlock_add_rule, landlock_restrict_self: EPERM), as the default profiles of
container engines released before Landlock was allowed do (Docker before 23.0,
containerd before 1.6).
"""

import ctypes
import os
import struct
import sys

LOAD, JEQ, JSET, RET = 0x20, 0x15, 0x45, 0x06
ALLOW, ERRNO = 0x7FFF0000, 0x00050000
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
# (unshare, setns, clone3, clone) per machine
NUMBERS = {"x86_64": (0xC000003E, 272, 308, 435, 56), "aarch64": (0xC00000B7, 97, 268, 435, 220)}


LANDLOCK = (444, 445, 446)   # the same numbers on both machines
JUMP = 0x05


def program(arch: int, unshare: int, setns: int, clone3: int, clone: int, no_landlock: bool = False) -> bytes:
    steps = [
        (LOAD, 0, 0, 4),            # 0: architecture
        (JEQ, 1, 0, arch),          # 1: ours -> 3
        (RET, 0, 0, ALLOW),         # 2: another architecture: leave it alone
        (LOAD, 0, 0, 0),            # 3: system call number
        (JEQ, 7, 0, unshare),       # 4: -> 12
        (JEQ, 6, 0, setns),         # 5: -> 12
        (JEQ, 6, 0, clone3),        # 6: -> 13
        (JEQ, 1, 0, clone),         # 7: -> 9
        (RET, 0, 0, ALLOW),         # 8
        (LOAD, 0, 0, 16),           # 9: clone flags (first argument, low half)
        (JSET, 1, 0, NAMESPACES),   # 10: any namespace flag -> 12
        (RET, 0, 0, ALLOW),         # 11
        (RET, 0, 0, ERRNO | 1),     # 12: EPERM
        (RET, 0, 0, ERRNO | 38),    # 13: ENOSYS
    ]
    if no_landlock:
        # After the number is loaded (step 3): each Landlock call -> EPERM, the rest on to step 4.
        # Jumps are relative, so the steps after the insertion keep theirs.
        refuse = [(JEQ, 3, 0, LANDLOCK[0]), (JEQ, 2, 0, LANDLOCK[1]), (JEQ, 1, 0, LANDLOCK[2]),
                  (JUMP, 0, 0, 1), (RET, 0, 0, ERRNO | 1)]
        steps = steps[:4] + refuse + steps[4:]
    return b"".join(struct.pack("=HBBI", *step) for step in steps)


def main(argv: list[str]) -> None:
    no_landlock = bool(argv) and argv[0] == "--no-landlock"
    argv = argv[1:] if no_landlock else argv
    if not argv:
        sys.exit(__doc__)
    numbers = NUMBERS.get(os.uname().machine)
    if numbers is None:
        sys.exit(f"nouserns: no filter known for {os.uname().machine}")
    code = ctypes.create_string_buffer(program(*numbers, no_landlock=no_landlock))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Program(len(code.raw) // 8, ctypes.cast(code, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:                       # PR_SET_NO_NEW_PRIVS
        sys.exit(f"nouserns: prctl: {os.strerror(ctypes.get_errno())}")
    if libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0:      # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        sys.exit(f"nouserns: seccomp: {os.strerror(ctypes.get_errno())}")
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
