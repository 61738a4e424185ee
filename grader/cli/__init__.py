"""The ``hog`` command: argument parsing only (``parsing`` and the verbs' groups); each verb calls one
function of ``grader.commands`` (``handlers``)."""

from __future__ import annotations

import argparse
import errno
import gc
import os
import signal
import sys
from pathlib import Path

from grader import project
from grader.cli.handlers import HANDLERS
from grader.cli.options import USAGE_ERROR
from grader.cli.parsing import parser
from grader.errors import HogError, UsageError

__all__ = ["HANDLERS", "USAGE_ERROR", "exit_status", "main", "parser", "run"]

GRADER_FAULT = 1
BROKEN_PIPE = 128 + 13   # as a shell reports a process ended by SIGPIPE
STDOUT_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)   # standard output cannot take more


def exit_status(error: HogError) -> int:
    """The exit status of an error the user is told about: 2 for usage errors (bad input,
    a spec, a file that cannot be written), 1 for a fault of the kit."""
    return USAGE_ERROR if isinstance(error, UsageError) else GRADER_FAULT


# The verbs that grade what a folder holds: a course config inside it is never read.
GRADED = {"grade": "submission", "grade-batch": "folder", "contest": "folder"}


def _before_verb(argv: list[str]) -> tuple[str | None, str | None]:
    """What a command line gives before its verb: ``--course DIR`` (read first: the verb list's help names
    the course's variants), and the verb itself (its first word that is no option nor --course's value),
    each None if absent or unknown."""
    course, words = None, iter(argv)
    for word in words:
        if word == "--course":
            course = next(words, None)
        elif word.startswith("--course="):
            course = word.split("=", 1)[1]
        elif not word.startswith("-"):
            return course, (word if word in HANDLERS else None)
    return course, None


def _choose_place(args: argparse.Namespace) -> None:
    """The course this run is for; a grading verb passes over a course config inside what it grades."""
    graded = getattr(args, GRADED[args.verb]) if args.verb in GRADED else None
    graded = Path(graded) if graded else None
    if graded is not None and graded.name == "hog.py":
        graded = graded.parent   # a student's hog.py: its folder is the submission, config and all
    place = project.use(args.course, graded=graded)
    for ignored in place.ignored:
        print(f"Note: ignored {ignored}: a course config inside what is graded is never read (using "
              f"{project.display(place.config) if place.config else 'the built-in defaults'})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    course, verb = _before_verb(argv)
    try:
        project.use(course)
    except HogError as error:
        print(f"Error: {error}", file=sys.stderr)
        return exit_status(error)
    args = parser(verb).parse_args(argv)
    try:
        _choose_place(args)
        status = HANDLERS[args.verb](args)
        sys.stdout.flush()
        return status
    except HogError as error:
        print(f"Error: {error}", file=sys.stderr)
        return exit_status(error)
    except BrokenPipeError:
        # The reader went away (``hog cases sp19 | head``): stop quietly, as a shell tool does.
        _drop_stdout()
        return BROKEN_PIPE
    except OSError as error:
        if error.filename is not None or error.errno not in STDOUT_FULL:
            raise  # not standard output: a bug of the kit
        # Standard output cannot be written (``hog grade ... > /dev/full``): one line, nothing half-said.
        _drop_stdout()
        print(f"Error: cannot write to standard output: {error.strerror}", file=sys.stderr)
        return GRADER_FAULT
    except KeyboardInterrupt as stop:
        number = getattr(stop, "signum", signal.SIGINT)
        print(f"Stopped by {signal.Signals(number).name}.", file=sys.stderr)
        return 128 + number


def _drop_stdout() -> None:
    """Send what is left in standard output's buffer nowhere, so that exiting does not fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run() -> None:
    """The ``hog`` command (and ``python -m grader.cli``): ``main``, then exit with its status."""
    status = main()
    # The process ends here. What it made stays alive until then, so the interpreter's last garbage
    # collection need not walk it all: with NumPy and a variant's rules loaded that walk is about 30 ms
    # of a grade's wall time. Exit handlers and the flushing of standard output run as usual.
    gc.freeze()
    sys.exit(status)

