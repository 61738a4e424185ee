"""The construct check of a submitted hog.py, bounded: what the grader's own process spends on it is fixed.

A question may forbid constructs in its function (``forbid:``, see
``grader/shipped/student/constructs.py``). Parsing with ``ast`` costs about 200
bytes of memory per byte of source, so the grader never parses a submission in
its own process: it looks at the file's size (a ``hog.py`` over
``MAX_SOURCE_BYTES`` is not checked and the question earns nothing, said to the
student), then parses it in a separate interpreter of its own (``python -I -S``,
our code only: the submission is read, never run; kept for the grading process's
life, a child forked per check: ``grader.grading.construct_checker``) under the
sandbox's memory limit (``Limits.memory_bytes`` as RLIMIT_AS) and CPU time
(``Limits.case_seconds``), asked before the sandbox starts and read after it
(``start``, then ``Pending.result``), so the grader waits for it only when it
outlasts the sandbox.
A parse that runs out of either is the submission's: the question earns nothing,
with why. Only a check that cannot start or answers what it never sends is a
fault of the kit.

The grader reads the file once (``MAX_SOURCE_BYTES`` at most) and sends the check
those bytes, so what was checked is what was read. A check that
found its answer is kept in the grader's signed cache under the digest of those
bytes, the question, the limits and the check's own code: the same hog.py checked
again (a regrade after a spec fix, the same file submitted twice, ``hog grade`` run
again) is not parsed again. A check that ran out of a limit is never kept.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import signal
import stat
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.errors import GraderFault
from grader.grading import construct_checker
from grader.project import signed_cache
from grader.sandbox import Limits
from grader.shipped.student.constructs import Found

MAX_SOURCE_BYTES = 1 << 20          # a hog.py larger than this is not checked: the question earns nothing
KEPT_CHECKS = 5000                  # checks kept in the signed cache (the newest)
CACHE = "constructs"                # its folder in the signed cache
CONSTRUCTS_FILE = project.SHIPPED / "student" / "constructs.py"

@dataclass(frozen=True)
class Checked:
    """What the check found: (construct, line) pairs, or why it could not be done (the submission's)."""

    found: tuple[Found, ...] = ()
    problem: str | None = None
    unlisted: int = 0     # found but not listed: the check's answer lists the first few


class Pending:
    """A check asked of the check's interpreter (``start``); ``result`` waits for its answer."""

    def __init__(self, function: str, limits: Limits, checked: Checked | None = None,
                 asked: tuple[construct_checker.Checker | None, int, bytes, tuple[str, ...]] | None = None,
                 key: str | None = None):
        self.function, self.limits, self.checked, self.asked = function, limits, checked, asked
        self.key = key   # the signed cache's key of what is checked (None: nothing to keep)

    def result(self) -> Checked:
        if self.checked is None:
            self.checked = self._answer()
            if self.key is not None and self.checked.problem is None:
                signed_cache.store(CACHE, _file(self.key), self.key,
                                   json.dumps({"found": [list(found) for found in self.checked.found],
                                               "unlisted": self.checked.unlisted}).encode("utf-8"),
                                   keep=("check-*.json", KEPT_CHECKS))
        return self.checked

    def cancel(self) -> None:
        """Stop the check if it is still under way (grading ended another way): its interpreter is dropped."""
        if self.checked is None and self.asked is not None and self.asked[0] is not None:
            self.asked[0].drop()

    def _answer(self) -> Checked:
        function, limits = self.function, self.limits
        kept, number, source, forbidden = self.asked
        try:
            if kept is None:
                raise construct_checker.CheckerDied("it could not be asked")
            answered = kept.answer(number, limits.backstop)
        except construct_checker.CheckerDied:
            # The interpreter ended before it answered (another check dropped it, or it died): asked once
            # more of a new one, as a sandbox that did not start is started again.
            try:
                kept, number = _ask(source, function, forbidden, limits)
                answered = kept.answer(number, limits.backstop)
            except construct_checker.CheckerDied as died:
                raise GraderFault(f"the construct check failed: its interpreter ended ({died.args[0]})") from None
        if answered is None:
            return _over(function, f"{limits.backstop:g} s of wall-clock time")
        code, line = answered
        if code in (-signal.SIGXCPU, -signal.SIGKILL):
            return _over(function, f"{_cpu_seconds(limits)} s of CPU time")
        try:
            answer = json.loads(line.decode("utf-8"))
            if "limit" in answer:
                return _over(function, {"memory": f"{limits.memory_bytes >> 20} MiB of memory",
                                        "nesting": "the parser's nesting depth"}[answer["limit"]])
            return _checked(answer)
        except (ValueError, IndexError, KeyError, TypeError, AttributeError):
            said = line.decode("utf-8", "replace") or "no answer"   # {"fault": why}, or whatever came
            raise GraderFault(f"the construct check failed (exit {code}): {said[:300]}") from None


def start(hog: Path, function: str, forbidden: tuple[str, ...], limits: Limits) -> Pending:
    """Start checking ``function`` of the submitted ``hog`` for ``forbidden`` constructs, within ``limits``:
    the grader runs the sandbox meanwhile. The grader reads the file; the check's interpreter is sent its bytes."""
    opened = _open(hog, function)
    if isinstance(opened, Checked):
        return Pending(function, limits, checked=opened)
    try:
        source = os.pread(opened, MAX_SOURCE_BYTES + 1, 0)
    except OSError:
        source = None
    finally:
        os.close(opened)
    if source is None:
        return Pending(function, limits, checked=Checked(problem=f"{function} earns nothing: hog.py could not be "
                                                                 f"read, so its constructs cannot be checked"))
    if len(source) > MAX_SOURCE_BYTES:   # it grew since the grader looked
        return Pending(function, limits, checked=Checked(problem=_too_large(function, len(source))))
    key = _key(source, function, forbidden, limits)
    known = signed_cache.found(CACHE, _file(key), key, "construct check", _load)
    if known is not None:
        return Pending(function, limits, checked=known)
    try:
        kept, number = _ask(source, function, forbidden, limits)
    except construct_checker.CheckerDied:   # asked again, of a new interpreter, when the answer is wanted
        kept, number = None, 0
    return Pending(function, limits, asked=(kept, number, source, forbidden), key=key)


def _ask(source: bytes, function: str, forbidden: tuple[str, ...],
         limits: Limits) -> tuple[construct_checker.Checker, int]:
    """The check asked of this process's interpreter: (it, the check's number). CheckerDied if it is gone."""
    try:
        kept = construct_checker.checker(CONSTRUCTS_FILE)
    except OSError as error:
        raise GraderFault(f"the construct check could not start: {error.strerror}") from None
    return kept, kept.ask(source, function, forbidden, limits.memory_bytes, _cpu_seconds(limits))


def check(hog: Path, function: str, forbidden: tuple[str, ...], limits: Limits) -> Checked:
    """The forbidden constructs in ``function`` of the submitted ``hog``, within ``limits`` (waiting for them)."""
    pending = start(hog, function, forbidden, limits)
    try:
        return pending.result()
    finally:
        pending.cancel()


@functools.cache
def _check_digest() -> str:
    """What a kept check's answer depends on besides its input: the check's code and constructs.py."""
    return hashlib.sha256(construct_checker.SERVE.encode("utf-8") + CONSTRUCTS_FILE.read_bytes()).hexdigest()


def _key(source: bytes, function: str, forbidden: tuple[str, ...], limits: Limits) -> str:
    digest = hashlib.sha256(json.dumps([_check_digest(), function, list(forbidden), limits.memory_bytes,
                                        _cpu_seconds(limits)]).encode("utf-8") + b"\n" + source)
    return digest.hexdigest()


def _checked(answer: dict) -> Checked:
    """A check's answer (or what the cache kept of one) as the grader holds it."""
    unlisted = answer["unlisted"]
    if type(unlisted) is not int or unlisted < 0:
        raise ValueError("a count of findings that is not one")
    found = tuple(Found(str(kind), int(line), str(construct)) for kind, line, construct in answer["found"])
    return Checked(found=found, unlisted=unlisted)


def _load(payload: bytes) -> Checked | None:
    try:
        return _checked(json.loads(payload))
    except (ValueError, TypeError, KeyError, IndexError):
        return None


def _file(key: str) -> str:
    return f"check-{key[:40]}.json"


def _cpu_seconds(limits: Limits) -> int:
    return max(1, math.ceil(limits.case_seconds))


def _open(hog: Path, function: str) -> int | Checked:
    """A descriptor of ``hog`` if it is a regular file (not a link) of at most MAX_SOURCE_BYTES."""
    try:
        descriptor = os.open(hog, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return Checked()      # nothing to check: the import reports a missing hog.py
    except OSError:
        return Checked(problem=f"{function} earns nothing: hog.py is not a file the grader can read "
                               f"(a link, or not readable), so its constructs cannot be checked")
    status = os.fstat(descriptor)
    problem = None
    if not stat.S_ISREG(status.st_mode):
        problem = f"{function} earns nothing: hog.py is not a regular file, so its constructs cannot be checked"
    elif status.st_size > MAX_SOURCE_BYTES:
        problem = _too_large(function, status.st_size)
    if problem is not None:
        os.close(descriptor)
        return Checked(problem=problem)
    return descriptor


def _too_large(function: str, size: int) -> str:
    return (f"{function} earns nothing: hog.py is {size:,} bytes, and the grader checks {function} for "
            f"forbidden constructs only in a hog.py of at most {MAX_SOURCE_BYTES:,} bytes (1 MiB); "
            f"remove what the project does not need")


def _over(function: str, what: str) -> Checked:
    return Checked(problem=f"{function} earns nothing: checking hog.py for forbidden constructs took more "
                           f"than {what} (the sandbox's limit); hog.py is too large or too deeply nested")
