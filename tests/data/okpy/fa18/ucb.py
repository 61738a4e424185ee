"""The course's utilities: main runs a module's main function when it is run as a script."""

import sys


def main(fn):
    """Call fn with command line arguments when the module that defines it is run as a script."""
    if sys._getframe(1).f_globals.get('__name__') == '__main__':
        fn(*sys.argv[1:])
    return fn


def trace(fn):
    """Print each call of fn and what it returned."""
    def wrapped(*args, **kwargs):
        print(fn.__name__, args, kwargs)
        value = fn(*args, **kwargs)
        print(fn.__name__, '->', value)
        return value
    return wrapped
