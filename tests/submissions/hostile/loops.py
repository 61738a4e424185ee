"""Cases that never finish: a busy loop, a long sleep, and one that ignores signals."""
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
