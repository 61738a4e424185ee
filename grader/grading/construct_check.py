"""The construct check of a submitted hog.py, bounded: what the grader's own process spends on it is fixed.

A question may forbid constructs in its function (``forbid:``, see
``grader/shipped/student/constructs.py``). Parsing with ``ast`` costs about 200
bytes of memory per byte of source, so the grader never parses a submission in
its own process: it looks at the file's size (a ``hog.py`` over
``MAX_SOURCE_BYTES`` is not checked and the question earns nothing, said to the
student), then parses it in a separate interpreter of its own (``python -I -S``,
our code only: the submission is read, never run) under the sandbox's memory
limit (``Limits.memory_bytes`` as RLIMIT_AS) and CPU time (``Limits.case_seconds``),
started before the sandbox and read after it (``start``, then ``Pending.result``),
so the grader waits for it only when it outlasts the sandbox.
A parse that runs out of either is the submission's: the question earns nothing,
with why. Only a check that cannot start or answers what it never sends is a
fault of the kit.

The grader reads the file once (``MAX_SOURCE_BYTES`` at most) and hands the check
a private copy of those bytes, so what was checked is what was read. A check that
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
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.errors import GraderFault
from grader.project import signed_cache
from grader.sandbox import Limits
from grader.shipped.student.constructs import Found

MAX_SOURCE_BYTES = 1 << 20          # a hog.py larger than this is not checked: the question earns nothing
KEPT_CHECKS = 5000                  # checks kept in the signed cache (the newest)
CACHE = "constructs"                # its folder in the signed cache
CONSTRUCTS_FILE = project.SHIPPED / "student" / "constructs.py"

# Runs in the separate interpreter: limits first, then the kit's constructs.py (by path, standard
# library only), then the source from the descriptor the grader gave it (a private copy of what it read).
# It prints one JSON line, written with the C encoder of JSON strings: importing json (and with it re)
# was an eighth of the check's CPU time (a check of a new hog.py: 38.2 -> 33.6 ms, medians of 10 rounds).
_CHECK = """
import os, resource, sys
from _json import encode_basestring_ascii as text
memory, seconds, constructs, function = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
descriptor, most, forbidden = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7:]
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
namespace = {"__name__": "constructs"}
with open(constructs, encoding="utf-8") as handle:
    exec(compile(handle.read(), constructs, "exec"), namespace)
with open(descriptor, "rb") as handle:
    source = handle.read(most + 1)
    if len(source) > most:       # it grew since the grader looked
        print('{"size": %d}' % max(len(source), os.fstat(handle.fileno()).st_size))
        sys.exit(0)
try:
    text_of = source.decode("utf-8")
except UnicodeDecodeError:
    text_of = ""     # the import in the sandbox reports a file Python cannot read
import ast
try:
    tree = ast.parse(text_of)
except (SyntaxError, ValueError):
    tree = None          # the import in the sandbox reports it
except MemoryError:
    print('{"limit": "memory"}')
    sys.exit(0)
except RecursionError:
    print('{"limit": "nesting"}')
    sys.exit(0)
try:
    found = [] if tree is None else namespace["violations_in"](tree, function, forbidden)
    print('{"found": [' + ", ".join("[%s, %d, %s]" % (text(kind), line, text(construct))
                                    for kind, line, construct in found) + ']}')
except MemoryError:
    print('{"limit": "memory"}')
except RecursionError:
    print('{"limit": "nesting"}')
"""


@dataclass(frozen=True)
class Checked:
    """What the check found: (construct, line) pairs, or why it could not be done (the submission's)."""

    found: tuple[Found, ...] = ()
    problem: str | None = None


class Pending:
    """A check under way in its own interpreter (``start``); ``result`` waits for its answer."""

    def __init__(self, function: str, limits: Limits, checked: Checked | None = None,
                 process: subprocess.Popen | None = None, key: str | None = None):
        self.function, self.limits, self.checked, self.process = function, limits, checked, process
        self.key = key   # the signed cache's key of what is checked (None: nothing to keep)

    def result(self) -> Checked:
        if self.checked is None:
            self.checked = self._answer()
            if self.key is not None and self.checked.problem is None:
                signed_cache.store(CACHE, _file(self.key), self.key,
                                   json.dumps([list(found) for found in self.checked.found]).encode("utf-8"),
                                   keep=("check-*.json", KEPT_CHECKS))
        return self.checked

    def cancel(self) -> None:
        """Stop the interpreter if it still runs (grading ended another way)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.communicate()

    def _answer(self) -> Checked:
        function, limits = self.function, self.limits
        try:
            stdout, stderr = self.process.communicate(timeout=limits.backstop)
        except subprocess.TimeoutExpired:
            self.cancel()
            return _over(function, f"{limits.backstop:g} s of wall-clock time")
        if self.process.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
            return _over(function, f"{_cpu_seconds(limits)} s of CPU time")
        try:
            answer = json.loads(stdout.decode("utf-8").splitlines()[-1])
            if "size" in answer:
                return Checked(problem=_too_large(function, int(answer["size"])))
            if "limit" in answer:
                return _over(function, {"memory": f"{limits.memory_bytes >> 20} MiB of memory",
                                        "nesting": "the parser's nesting depth"}[answer["limit"]])
            return Checked(found=tuple(Found(str(kind), int(line), str(construct))
                                       for kind, line, construct in answer["found"]))
        except (ValueError, IndexError, KeyError, TypeError):
            tail = stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise GraderFault(f"the construct check failed (exit {self.process.returncode}): "
                              f"{tail[0][:300]}") from None


def start(hog: Path, function: str, forbidden: tuple[str, ...], limits: Limits) -> Pending:
    """Start checking ``function`` of the submitted ``hog`` for ``forbidden`` constructs, within ``limits``:
    the grader runs the sandbox meanwhile. The grader opens the file; the check's interpreter reads it."""
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
    with tempfile.TemporaryFile() as copy:   # the check reads these very bytes, whatever becomes of the file
        copy.write(source)
        copy.flush()
        copy.seek(0)
        command = [sys.executable, "-I", "-S", "-B", "-c", _CHECK, str(limits.memory_bytes),
                   str(_cpu_seconds(limits)), str(CONSTRUCTS_FILE), function, str(copy.fileno()),
                   str(MAX_SOURCE_BYTES), *forbidden]
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, pass_fds=(copy.fileno(),), env={"PATH": os.defpath},
                                       cwd="/")
        except OSError as error:
            raise GraderFault(f"the construct check could not start: {error.strerror}") from None
    return Pending(function, limits, process=process, key=key)


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
    return hashlib.sha256(_CHECK.encode("utf-8") + CONSTRUCTS_FILE.read_bytes()).hexdigest()


def _key(source: bytes, function: str, forbidden: tuple[str, ...], limits: Limits) -> str:
    digest = hashlib.sha256(json.dumps([_check_digest(), function, list(forbidden), limits.memory_bytes,
                                        _cpu_seconds(limits)]).encode("utf-8") + b"\n" + source)
    return digest.hexdigest()


def _load(payload: bytes) -> Checked | None:
    try:
        found = json.loads(payload)
        return Checked(found=tuple(Found(str(kind), int(line), str(construct)) for kind, line, construct in found))
    except (ValueError, TypeError):
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
