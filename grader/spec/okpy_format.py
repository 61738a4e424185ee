"""okpy's test format, read as okpy reads it, never run: an assignment's ``.ok`` config and its test files.

An okpy assignment is a folder holding a JSON config (``hog.ok``: ``name``, ``src``, ``tests`` mapping
globs to a source such as ``ok_test``, ``default_tests``) and the test files it names, each a Python
module assigning ``test = {'name', 'points', 'suites': [...]}``. The kit reads that assignment with
``ast.literal_eval``, never ``exec``: a test file that is not a literal is refused.

A doctest case is okpy's interpreter session: ``>>> `` and ``... `` prompts, each followed by the lines it
shows. The rules here are okpy 1.18.1's own (``client/sources/common/interpreter.py``): a prompt ends at the
next ``>>> `` or blank line; the lines after it are its answer, where ``Traceback (most recent call last):``
first makes it an expected error whose detail starts at the first line beginning with a letter or digit; a
``# locked`` line marks a hashed answer, other ``# key: value`` lines are okpy's notes (dropped); a prompt
followed by no answer must show nothing. A locked answer is an HMAC-MD5 of each line keyed by the
assignment's ``name`` (okpy's ``client/utils/locking.py``).
"""

from __future__ import annotations

import ast
import hmac
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass, field

PS1, PS2 = ">>> ", "... "
TRACEBACK = "Traceback (most recent call last):"
EXCEPTION_HEADERS = (TRACEBACK, "Traceback (innermost last):")
_STATUS = re.compile(r"^#\s*(.+?):\s*(.*)\s*$")
_LOCKED = re.compile(r"^#\s*locked\s*$")

# The keys okpy accepts at each level (it refuses any other), with their defaults where they may be left out.
TEST_KEYS = {"name": None, "points": None, "suites": None, "partner": "", "description": ""}
DOCTEST_KEYS = {"type": None, "cases": None, "scored": True, "setup": "", "teardown": ""}
# ``multiline`` (how a student types a locked answer when unlocking) is written by NJU's ok client and
# CS 61A's of later terms; okpy 1.18.1 does not know it. It changes nothing the kit runs.
CASE_KEYS = {"code": None, "hidden": False, "locked": False, "multiline": False}
DEPTH = 100        # brackets nested in a test file: okpy's tests are a few deep
SUITE_TYPES = ("doctest", "concept", "logic", "scheme", "sqlite", "wwpp")   # okpy's suite types


class Rejected(ValueError):
    """What okpy itself would refuse in a test, in words (the caller names the file and the test)."""


@dataclass
class Answer:
    """What a prompt shows, as okpy's ``CodeAnswer``: output lines, or an expected error's detail lines."""
    output: list[str] = field(default_factory=list)
    exception: bool = False
    detail: list[str] = field(default_factory=list)
    locked: bool = False

    def update(self, line: str) -> None:
        """One more line of the answer, as ``CodeAnswer.update`` takes it."""
        if self.exception:
            if self.detail or (line and line[0].isalnum()):
                self.detail.append(line)
            return
        if not self.output and line in EXCEPTION_HEADERS:
            self.exception = True
            return
        if _LOCKED.match(line):
            self.locked = True
            return
        match = _STATUS.match(line)
        if not match:
            self.output.append(line)
        elif match.group(1) == "locked":
            self.locked = True

    def lines(self) -> list[str]:
        """What the answer compares, as ``CodeAnswer.output_lines``."""
        return [TRACEBACK, "  ..."] + self.detail if self.exception else list(self.output)


@dataclass
class Prompt:
    """One prompt of a case: the code typed (prompts stripped) and what it must show."""
    source: str
    answer: Answer


def _split(code: str) -> list:
    """okpy's ``CodeCase.split_code``: each line as typed (a prompt or a blank line), or an Answer."""
    lines: list = []
    for line in textwrap.dedent(code).splitlines():
        if not line or line.startswith(PS1) or line.startswith(PS2):
            lines.append(line)
            continue
        if not lines:
            raise Rejected(f"its code starts with {line!r}, an answer before any '>>> ' prompt")
        if not isinstance(lines[-1], Answer):
            lines.append(Answer())
        lines[-1].update(line)
    return lines


def _strip(line: str) -> str:
    return line[len(PS1):] if line.startswith(PS1) else line[len(PS2):] if line.startswith(PS2) else line


def prompts(code: str) -> list[Prompt]:
    """A case's code as okpy runs it (``Console._interpret_lines`` with every prompt compared): each prompt
    with its answer, a prompt with none expecting to show nothing."""
    found, current = [], []
    for line in _split(code) + [""]:
        if isinstance(line, str):
            if current and (line.startswith(PS1) or not line):
                found.append(Prompt("\n".join(current), Answer()))
                current = []
            current.append(_strip(line))
        else:
            found.append(Prompt("\n".join(current), line))
            current = []
    return [prompt for prompt in found if prompt.source.strip() or prompt.answer.lines()]


def statements(text: str) -> list[str]:
    """Setup or teardown code as okpy runs it (``_interpret_lines``, nothing compared): the code of each prompt."""
    found, current = [], []
    for line in textwrap.dedent(text).splitlines() + [""]:
        if current and (line.startswith(PS1) or not line):
            found.append("\n".join(current))
            current = []
        current.append(_strip(line))
    return [source for source in found if source.strip()]


def normalize(text: str) -> str:
    """okpy's ``format.normalize``: runs of whitespace as one space, none at the ends (what it hashes)."""
    return " ".join(text.strip().split())


def lock(key: str, text: str) -> str:
    """okpy's hash of one locked line (``client/utils/locking.py``), keyed by the assignment's name."""
    return hmac.new(key.encode("utf-8"), text.encode("utf-8"), digestmod="md5").hexdigest()


def _depth(text: str) -> int:
    """How deep brackets nest in ``text``, read token by token (never recursively, never evaluated)."""
    deepest = depth = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
                deepest = max(deepest, depth)
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass   # ast.parse says what is wrong
    return deepest


def read_test(text: str) -> dict:
    """The ``test = {...}`` a test file assigns, read with ``ast.literal_eval`` (never run); Rejected if
    the file is not that."""
    if _depth(text) > DEPTH:
        raise Rejected(f"its literal is nested deeper than {DEPTH} levels (okpy's tests are a few levels deep): "
                       f"the kit does not read it")
    try:
        tree = ast.parse(text)
    except (MemoryError, RecursionError):
        raise Rejected("it is too large or too deeply nested for the kit to read") from None
    except SyntaxError as error:
        raise Rejected(f"it is not valid Python (line {error.lineno}: {error.msg})") from None
    assigned = [node for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == "test" for target in node.targets)]
    if not assigned:
        raise Rejected("it assigns no 'test = {...}'")
    try:
        value = ast.literal_eval(assigned[-1].value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise Rejected(f"its 'test = ...' (line {assigned[-1].lineno}) is not a literal: the kit reads test files, "
                       f"it never runs them (write the dict out, with no names or calls in it)") from None
    if not isinstance(value, dict):
        raise Rejected(f"its 'test' is a {type(value).__name__}, not a dict")
    return value


def checked(data: dict, keys: dict, what: str) -> dict:
    """``data`` with okpy's defaults filled in; Rejected for a key okpy refuses or one it requires missing."""
    unknown = sorted(set(data) - set(keys), key=str)
    if unknown:
        raise Rejected(f"{what} has a key okpy does not accept: {unknown[0]!r} (it accepts {', '.join(keys)})")
    missing = [key for key, default in keys.items() if default is None and key not in data]
    if missing:
        raise Rejected(f"{what} has no {missing[0]!r}, which okpy requires")
    return {**{key: default for key, default in keys.items() if default is not None}, **data}


def typed(value, kinds: tuple[type, ...], what: str):
    """``value`` if it has one of okpy's types for a field (a bool is no number), else Rejected."""
    if type(value) not in kinds:
        names = " or ".join({str: "a string", int: "a number", float: "a number", bool: "True or False",
                             list: "a list", dict: "a dict"}[kind] for kind in dict.fromkeys(kinds))
        raise Rejected(f"{what} is {value!r}, not {names}")
    return value
