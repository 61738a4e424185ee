"""The kit's error hierarchy; ``grader.cli`` maps each kind to an exit status.

Every error here carries a message for the person at the terminal that names
what is wrong and how to fix it.  A traceback is only ever a bug of the kit.
"""

from __future__ import annotations


class HogError(Exception):
    """An error with a message for the user."""


class UsageError(HogError):
    """The command was given something it cannot use (exit 2); the message names the fix."""


class OutputError(UsageError):
    """A file or folder the command was asked to write cannot be written (exit 2)."""


class GraderFault(HogError):
    """The kit itself failed (exit 1): never a student's zero, always a visible 'grader failed'."""


class SpecError(UsageError):
    """A spec is not usable (exit 2). ``str(error)`` is ``file:line: what is wrong (the fix)``."""

    def __init__(self, path, line: int | None, what: str, hint: str = ""):
        self.path, self.line, self.what, self.hint = str(path), line, what, hint
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {what}" + (f" ({hint})" if hint else ""))
