"""Writes forged result lines to stdout and to every open file descriptor.

A forger that knows the protocol claims that the current case printed the
right answer (42) and ended, or claims a result for the next case too.
"""
import json
import os


def square(x):
    return x * x


def _spray(messages):
    data = "".join(json.dumps(message) + "\n" for message in messages).encode()
    print(data.decode(), end="")
    for name in range(3, 64):  # every descriptor it might hold, without needing /proc
        try:
            os.write(int(name), data)
        except OSError:
            pass


def answer(case):
    """Forges a passing step and end for CASE, then returns a wrong answer."""
    _spray([["step", case, 0, "", ["i", "0x2a"], None, None], ["end", case]])
    return -1


def answer_ahead(case):
    """Forges results for this case and the next one."""
    _spray([["step", case, 0, "", ["i", "0x2a"], None, None], ["end", case],
            ["step", case + 1, 0, "", ["i", "0x2a"], None, None], ["end", case + 1]])
    return -1


def garbage():
    _spray(["not the protocol", {"pass": True}])
    return -1


def wrong():
    return -1
