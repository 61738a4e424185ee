"""The grader's side of the result channel: bounded reading and rebuilding of what the harness sends.

Nothing the submission's process holds is trusted, the harness included (the
submission runs in the same process and could rewrite it).  So the grader
bounds everything it reads before it costs anything: bytes per message, per
case and per batch; items, nesting and dictionary entries per value (a
dictionary of keys that all collide in one hash bucket costs the square of its
size to rebuild), and what a batch's results hold once read (``MAX_HELD_BYTES``,
enforced by grader.sandbox.run).  Values are rebuilt from a tagged plain form and shown with
the grader's own ``repr``.  Errors while reading (MemoryError, RecursionError,
malformed data) are the submission's failure ("tampered"), never the kit's.

The grader sends the configuration, then {"case": number, "steps": [source, ...]} per case
(with "code": the steps compiled, see grader/sandbox/case_code.py, where the sandbox's
interpreter is the grader's), as JSON lines on the control pipe. The harness answers in single lines of ASCII JSON on
the result pipe:

    ["unavailable", why]                       (the level asked for cannot be reached; exit 71)
    ["ready", unfiltered]                      (locked down, about to import; unfiltered
                                                is null, or why no seccomp filter is in place)
    ["import", ok, stdout, error, error_type]
    ["step", case, step, stdout, value, error, error_type]
    ["end", case]

``value`` is null (nothing to show) or tagged data: null, true, false, a JSON
string, a JSON integer (below 2**53 in size), ["i", hex] (larger integers),
["f", repr], ["l", ...items], ["t", ...items],
["d", key, value, ...] or ["fn", name].
"""

from __future__ import annotations

import json
import json.scanner
import re
import sys

from grader.sandbox import remembered
from grader.sandbox.model import TAMPERED, StepKind, StepResult, Tampered, cap

# Largest single message accepted (the harness's biggest is 1,000,000 characters of output,
# at most 6 bytes each once escaped, plus a value of as much text).
MAX_MESSAGE_BYTES = 16 << 20
# Largest sum of messages for one case, and for the whole batch.
MAX_CASE_BYTES = 32 << 20
MAX_BATCH_BYTES = 256 << 20
# Largest rebuilt value: items, nesting, dictionary entries.
MAX_ITEMS = 110_000
MAX_DEPTH = 110
MAX_DICT_ENTRIES = 2_000
SMALL_INT = 1 << 53  # the harness sends integers below this as JSON numbers
# The most that one batch's results may hold in the grader, as estimated (``StepResult.held``, summed by
# grader.sandbox.run): the texts shown and the values rebuilt. The bytes read are bounded above, but a value
# of small items is rebuilt into several times its size (an empty list, 3 bytes on the pipe, is an object of
# 56 bytes and a place of 8 in the grader): a batch of such values would hold gigabytes.
MAX_HELD_BYTES = 128 << 20
HELD_ITEM_BYTES = 72   # per item of a rebuilt value: its object (a list or tuple, 56 bytes at most; an int, 28)
                       # and its place in its container
HELD_CHAR_BYTES = 4    # per byte of a message with a value: the characters of its strings (4 bytes each at most)
_SCALAR_TYPES = frozenset((int, bool, str, type(None)))
_INT_ONLY = frozenset((int,))
_FLOAT = re.compile(r"-?(?:inf|nan|\d+(?:\.\d+)?(?:e[+-]\d+)?)")
_INT = re.compile(r"-?0x[0-9a-f]+")
# json.loads without its checks of the encoding and the spaces around: what the harness sends has neither.
_scan = json.scanner.make_scanner(json.JSONDecoder())
_remembered = remembered.Remembered()


def decode(line: bytes):
    """One message from its JSON line; Tampered if it is not valid or too costly to read. A line read
    before in this process is not read again (``grader.sandbox.remembered``)."""
    entry = _remembered.get(line, again=True)
    if entry is not None:
        return entry[0]
    message = _decode(line)
    if not (type(message) is list and message and message[0] == "step"):   # a step is kept with its result
        _remembered.keep(line, message)
    return message


def _decode(line: bytes):
    if len(line) > MAX_MESSAGE_BYTES:
        raise Tampered(f"a message larger than {MAX_MESSAGE_BYTES >> 20} MiB")
    try:
        text = line.decode("utf-8")
        value, end = _scan(text, 0)
        if end == len(text):
            return value
    except (StopIteration, ValueError, RecursionError, MemoryError):
        pass   # json.loads says what is wrong, or reads the forms the plain scan does not (spaces around)
    try:
        return json.loads(line)
    except (ValueError, RecursionError, MemoryError):
        raise Tampered("a message that is not valid JSON (or too deeply nested to read)") from None


class Function:
    """A function value as the grader shows it."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, Function) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("function", self.name))


def rebuild(data, depth: int = 0, key: bool = False, count: list[int] | None = None):
    """Plain Python data from the tagged form; Tampered if it is not well formed.

    The harness sends at most 100000 items nested at most 100 deep; anything
    bigger did not come from it.  count = [items, dictionary entries].
    """
    count = [0, 0] if count is None else count
    count[0] += 1
    if depth > MAX_DEPTH or count[0] > MAX_ITEMS:
        raise Tampered("a value larger than the harness ever sends")
    if data is None or type(data) is bool or type(data) is str:
        return data
    if type(data) is int:
        if not -SMALL_INT < data < SMALL_INT:
            raise Tampered("a large integer outside its tagged form")
        return data
    if type(data) is not list or not data or type(data[0]) is not str:
        raise Tampered("a value in an unknown form")
    tag, items = data[0], data[1:]
    if tag == "i" and len(items) == 1 and type(items[0]) is str and len(items[0]) <= 2_000_000 \
            and _INT.fullmatch(items[0]):
        return int(items[0], 16)
    if tag == "f" and len(items) == 1 and type(items[0]) is str and len(items[0]) <= 40 \
            and _FLOAT.fullmatch(items[0]):
        return float(items[0])
    if tag == "t":
        return tuple(rebuild(item, depth + 1, key, count) for item in items)
    if key:
        raise Tampered("a dictionary key that is not hashable plain data")
    if tag == "l":
        kinds = set(map(type, items))   # JSON gave these items: their types are exact
        if kinds <= _SCALAR_TYPES:      # the common case: a table of numbers
            count[0] += len(items)
            if count[0] > MAX_ITEMS:
                raise Tampered("a value larger than the harness ever sends")
            if int in kinds:
                numbers = items if kinds == _INT_ONLY else [item for item in items if type(item) is int]
                if not (-SMALL_INT < min(numbers) and max(numbers) < SMALL_INT):
                    raise Tampered("a large integer outside its tagged form")
            return items
        return [rebuild(item, depth + 1, False, count) for item in items]
    if tag == "d" and len(items) % 2 == 0:
        count[1] += len(items) // 2
        if count[1] > MAX_DICT_ENTRIES:
            raise Tampered(f"a value with more than {MAX_DICT_ENTRIES:,} dictionary entries, "
                           "more than the grader rebuilds")
        return {rebuild(items[i], depth + 1, True, count): rebuild(items[i + 1], depth + 1, False, count)
                for i in range(0, len(items), 2)}
    if tag == "fn" and len(items) == 1 and type(items[0]) is str:
        return Function(cap(items[0], 100))
    raise Tampered("a value in an unknown form")


def optional_text(value) -> bool:
    return value is None or type(value) is str


def step_result(message, line: bytes | None = None) -> tuple[int, int, StepResult]:
    """(case, step, result) from a step message (read from ``line``, when given: one read before in
    this process is not rebuilt again); Tampered if it is malformed."""
    if line is None:
        return _step_result(message, 0)
    entry = _remembered.get(line)
    if entry is not None and entry[1] is not None:
        return entry[1]
    result = _step_result(message, len(line))
    _remembered.keep(line, message, result)
    return result


def _held(result: StepResult, items: int = 0, size: int = 0) -> StepResult:
    """``result``, with what it holds in the grader: its texts, and the ``items`` of a value read from a
    message of ``size`` bytes."""
    result.held = sys.getsizeof(result.output) + (0 if result.error is None else sys.getsizeof(result.error)) \
        + HELD_ITEM_BYTES * items + HELD_CHAR_BYTES * size
    return result


def _step_result(message, size: int) -> tuple[int, int, StepResult]:
    if len(message) != 7:
        raise Tampered("a step message of the wrong length")
    _, case, step, stdout, value, error, error_type = message
    if type(case) is not int or type(step) is not int or type(stdout) is not str \
            or not optional_text(error) or not optional_text(error_type):
        raise Tampered("a step message with fields of the wrong type")
    if error is None and error_type is not None:
        raise Tampered("an error type without an error")
    if error is not None:
        if value is not None:
            raise Tampered("a value together with an error")
        return case, step, _held(StepResult(stdout, cap(error), error_type and cap(error_type, 100), StepKind.ERROR))
    if value is None:
        return case, step, _held(StepResult(stdout, None, None))
    count = [0, 0]
    try:
        shown = rebuild(value, count=count)
        text = "" if shown is None else repr(shown) + "\n"
    except (ValueError, RecursionError, MemoryError):
        return case, step, _held(StepResult(stdout, "returned a value too large to show", None, StepKind.ERROR))
    return case, step, _held(StepResult(stdout + text, None, None, value=shown), count[0], size)


def take_step(message, index: int, steps: list[str], done: list[StepResult], cases_run: list[int],
              line: bytes | None = None) -> bool:
    """Take one message of case ``index`` (read from ``line``) into ``done``; True once the case has ended
    (it joins ``cases_run``, the cases this process ran). Tampered if the message is not the one the
    harness sends next."""
    if type(message) is not list or not message or message[0] not in ("step", "end"):
        raise Tampered("a message of an unknown kind")
    if type(message[1] if len(message) > 1 else None) is int and 0 <= message[1] < index:
        earlier = [message[1]] if message[1] in cases_run else []
        raise Tampered("a message about an earlier case", earlier)
    errored = bool(done) and done[-1].error is not None
    if message[0] == "end":
        if len(message) != 2 or message[1] != index or type(message[1]) is not int:
            raise Tampered("an end message for another case")
        if not errored and len(done) != len(steps):
            raise Tampered("the case ended before all of its steps ran")
        cases_run.append(index)
        return True
    case, step, result = step_result(message, line)
    if case != index:
        raise Tampered("a step message for another case")
    if errored or step != len(done) or step >= len(steps):
        raise Tampered("a step message out of order or repeated")
    done.append(result)
    return False


def tampered(why: str) -> str:
    return f"{TAMPERED}: {why}"
