"""Cases that never finish: a busy loop, a long sleep, waits on a pipe, a lock and select, one that ignores signals."""
import signal
import time


def square(x):
    return x * x


def forever():
    while True:
        pass


def nap():
    time.sleep(60)


def stubborn():
    for name in ("SIGTERM", "SIGALRM", "SIGINT", "SIGHUP", "SIGXCPU"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    while True:
        try:
            time.sleep(60)
        except BaseException:
            pass


def wait_on_pipe():
    import os
    reading, _writing = os.pipe()
    return os.read(reading, 1)      # nobody writes: blocked for ever


def wait_on_lock():
    import _thread
    lock = _thread.allocate_lock()
    lock.acquire()
    return lock.acquire()           # its own lock, taken twice: blocked for ever


def wait_in_select():
    import select
    return select.select([], [], [], 60)


def spin(seconds):
    """Computes for ``seconds`` of CPU time, then answers."""
    import time
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass
    return "done"
