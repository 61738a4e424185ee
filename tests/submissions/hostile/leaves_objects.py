"""Appended to a correct hog.py: at import, makes objects that would outlive the sandbox or reach
the host: System V shared memory, a message queue and a semaphore set (mode 0666, a key of its own),
a POSIX message queue, a key in the user's key ring, and a datagram to a unix socket by path, by
sendto and by sendmsg.  ``KEY`` and ``SOCKET`` are set by the test.  ``left_behind()`` says what
each attempt gave."""

KEY = None
SOCKET = None


def _leave_behind():
    import ctypes
    import socket
    libc = ctypes.CDLL(None, use_errno=True)
    tried = {}

    def attempt(name, call):
        try:
            got = call()
        except OSError as error:
            tried[name] = type(error).__name__
            return
        tried[name] = "refused" if got == -1 else "made"
        if got == -1:
            tried[name] += " (errno " + str(ctypes.get_errno()) + ")"

    create = 0o1000 | 0o666                       # IPC_CREAT, mode 0666
    attempt("shm", lambda: libc.shmget(KEY, 1 << 20, create))
    attempt("msg", lambda: libc.msgget(KEY + 1, create))
    attempt("sem", lambda: libc.semget(KEY + 2, 4, create))
    attempt("shm private", lambda: libc.shmget(0, 1 << 20, create))
    attempt("mq", lambda: libc.mq_open(b"/hog-left-behind", 0o100 | 0o2, 0o666, None))  # O_CREAT | O_RDWR
    add_key = {"x86_64": 248, "aarch64": 217}.get(__import__("os").uname().machine)
    if add_key is not None:                       # a key in the user's key ring, which outlives the process
        attempt("key", lambda: libc.syscall(add_key, b"user", b"hog-left-behind", b"x", 1, -4))  # user keyring
    for kind in (socket.SOCK_DGRAM,):
        def sendto():
            with socket.socket(socket.AF_UNIX, kind) as sender:
                return sender.sendto(b"from the sandbox", SOCKET)
        attempt("sendto", sendto)

        def sendmsg():
            with socket.socket(socket.AF_UNIX, kind) as sender:
                return sender.sendmsg([b"from the sandbox"], [], 0, SOCKET)
        attempt("sendmsg", sendmsg)

        def paired():
            left, right = socket.socketpair(socket.AF_UNIX, kind)
            with left, right:
                return left.sendto(b"from the sandbox", SOCKET)
        attempt("socketpair sendto", paired)

        def connect():
            with socket.socket(socket.AF_UNIX, kind) as sender:
                sender.connect(SOCKET)
                return sender.send(b"from the sandbox")
        attempt("connect", connect)

    def pair_works():
        left, right = socket.socketpair()
        with left, right:
            left.send(b"ok")
            return 0 if right.recv(2) == b"ok" else -1
    attempt("socketpair", pair_works)

    def event_loop_works():                       # asyncio wakes its loop through a socketpair
        import asyncio

        async def seven():
            await asyncio.sleep(0)
            return 7
        return 0 if asyncio.run(seven()) == 7 else -1
    attempt("asyncio", event_loop_works)
    return tried


_TRIED = _leave_behind()


def left_behind():
    return sorted(_TRIED.items())
