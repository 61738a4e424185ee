"""Reaches for what lies outside its own sandbox: the terminal, other processes' /proc entries, memfd."""
import os


def square(x):
    return x * x


def attempt(action):
    try:
        action()
        return "done"
    except OSError as error:
        return type(error).__name__


def terminal():
    """Open the controlling terminal (to switch off echo and read what the operator types)."""
    return attempt(lambda: os.close(os.open("/dev/tty", os.O_RDONLY)))


def parent_descriptors():
    """List the grader's descriptors (to drain another sandbox's result pipe)."""
    return attempt(lambda: os.listdir(f"/proc/{os.getppid()}/fd"))


def parent_command_line():
    """Read the grader's command line (to find the kit)."""
    return attempt(lambda: open(f"/proc/{os.getppid()}/cmdline", "rb").close())


def watch_files():
    """Watch the temporary folder for files made, read and removed (the grader's cache, another sandbox's)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    descriptor = libc.inotify_init1(0)
    if descriptor < 0:
        return os.strerror(ctypes.get_errno())
    watched = libc.inotify_add_watch(descriptor, b"/tmp", 0xFFF)
    os.close(descriptor)
    return "watched" if watched >= 0 else os.strerror(ctypes.get_errno())


def mounts():
    """List the machine's mounts (listmount, Linux 6.8) and their filesystems."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    request = (ctypes.c_uint64 * 4)(32, 0xFFFFFFFFFFFFFFFF, 0, 0)   # mnt_id_req: size, LSMT_ROOT, last id, ns
    found = (ctypes.c_uint64 * 64)()
    number = {"x86_64": 458, "aarch64": 458}.get(os.uname().machine)
    listed = libc.syscall(number, request, found, 64, 0)
    return os.strerror(ctypes.get_errno()) if listed < 0 else f"{listed} mounts"


def memory_file():
    """Make memory that RLIMIT_AS does not count."""
    return attempt(lambda: os.close(os.memfd_create("hoard")))


def descriptors():
    """The descriptors this process holds beyond stdin, stdout and stderr."""
    held = []
    for number in range(3, 1024):
        try:
            os.fstat(number)
            held.append(number)
        except OSError:
            pass
    return held


def flood():
    """Write 64 MiB without a newline to every descriptor it might hold, as if the harness's caps were gone."""
    chunk = b"x" * (1 << 20)
    for number in range(3, 64):
        try:
            for _ in range(64):
                os.write(number, chunk)
        except OSError:
            pass
    return 1
