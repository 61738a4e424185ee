"""Every way a case can try to end the process."""
import ctypes
import os
import signal
import sys


def square(x):
    return x * x


def call_sys_exit():
    sys.exit(3)


def raise_system_exit():
    raise SystemExit(4)


def interrupt():
    raise KeyboardInterrupt


def call_os_exit():
    os._exit(3)


def crash():
    ctypes.string_at(0)  # reads address 0: segmentation fault


def kill_self():
    os.kill(os.getpid(), signal.SIGKILL)
