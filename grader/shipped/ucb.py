"""The course's ucb module, for hog.py files written on the course's skeleton
(``from ucb import main, trace, interact``). Standard library only.

- ``main`` runs the decorated function with the command line's arguments when
  its module is run as a program (``python3 hog.py``), and never on import.
- ``trace`` prints each call of the decorated function and what it returned.
- ``interact`` opens an interactive prompt with the caller's names; without a
  terminal (as under the grader) it does nothing.
"""

import functools
import sys

_PREFIX = ""


def main(fn):
    """Call FN with the command-line arguments if its module is run as a program."""
    if sys._getframe(1).f_globals.get("__name__") == "__main__":
        fn(*sys.argv[1:])
    return fn


def log(message):
    """Print MESSAGE, indented as deep as the traced calls around it."""
    print(_PREFIX + str(message).replace("\n", "\n" + _PREFIX))


def log_current_line():
    """Print the line of the caller (older skeletons import it)."""
    frame = sys._getframe(1)
    log(f"Current line: File \"{frame.f_code.co_filename}\", line {frame.f_lineno}")


def trace(fn):
    """A decorator that prints FN's calls and return values."""
    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        global _PREFIX
        shown = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
        call = f"{fn.__name__}({', '.join(shown)})"
        log(call + ":")
        _PREFIX += "    "
        try:
            result = fn(*args, **kwargs)
        except Exception:
            _PREFIX = _PREFIX[:-4]
            log(fn.__name__ + " exited via exception")
            raise
        _PREFIX = _PREFIX[:-4]
        log(f"{call} -> {result!r}")
        return result
    return wrapped


def interact(msg=None):
    """Start an interactive prompt holding the caller's names (nothing without a terminal)."""
    if sys.stdin is None or not sys.stdin.isatty():
        return
    frame = sys._getframe(1)
    namespace = dict(frame.f_globals)
    namespace.update(frame.f_locals)
    if msg is None:
        msg = f"Interacting at File \"{frame.f_code.co_filename}\", line {frame.f_lineno}\n" \
              "    Unix:    <Control>-D continues the program; \n" \
              "    Windows: <Control>-Z <Enter> continues the program; \n"
    import code   # the console, only when one opens: every grade of a hog.py that imports ucb loads this module
    code.interact(msg, None, namespace)
