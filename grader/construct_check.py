"""The construct check of a submitted hog.py, bounded: what the grader's own process spends on it is fixed.

A question may forbid constructs in its function (``forbid:``, see
``grader/shipped/student/constructs.py``). Parsing with ``ast`` costs about 200
bytes of memory per byte of source, so the grader never parses a submission in
its own process: it looks at the file's size (a ``hog.py`` over
``MAX_SOURCE_BYTES`` is not checked and the question earns nothing, said to the
student), then parses it in a separate interpreter of its own (``python -I -S``,
our code only: the submission is read, never run) under the sandbox's memory
limit (``Limits.memory_bytes`` as RLIMIT_AS) and CPU time (``Limits.case_seconds``).
A parse that runs out of either is the submission's: the question earns nothing,
with why. Only a check that cannot start or answers what it never sends is a
fault of the kit.
"""

from __future__ import annotations

import json
import math
import os
import signal
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.errors import GraderFault
from grader.sandbox import Limits

MAX_SOURCE_BYTES = 1 << 20          # a hog.py larger than this is not checked: the question earns nothing
CONSTRUCTS_FILE = project.SHIPPED / "student" / "constructs.py"

# Runs in the separate interpreter: limits first, then the kit's constructs.py (by path, standard
# library only), then the source from stdin.  It prints one JSON line.
_CHECK = """
import json, resource, sys
memory, seconds, constructs, function = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
forbidden = json.loads(sys.argv[5])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
namespace = {"__name__": "constructs"}
with open(constructs, encoding="utf-8") as handle:
    exec(compile(handle.read(), constructs, "exec"), namespace)
source = sys.stdin.buffer.read()
try:
    text = source.decode("utf-8")
except UnicodeDecodeError:
    text = ""        # the import in the sandbox reports a file Python cannot read
try:
    print(json.dumps({"found": namespace["violations"](text, function, forbidden)}))
except MemoryError:
    print(json.dumps({"limit": "memory"}))
except RecursionError:
    print(json.dumps({"limit": "nesting"}))
"""


@dataclass(frozen=True)
class Checked:
    """What the check found: (construct, line) pairs, or why it could not be done (the submission's)."""

    found: tuple[tuple[str, int], ...] = ()
    problem: str | None = None


def check(hog: Path, function: str, forbidden: tuple[str, ...], limits: Limits) -> Checked:
    """The forbidden constructs in ``function`` of the submitted ``hog``, within ``limits``."""
    source = _read(hog, function)
    if isinstance(source, Checked):
        return source
    seconds = max(1, math.ceil(limits.case_seconds))
    command = [sys.executable, "-I", "-S", "-B", "-c", _CHECK, str(limits.memory_bytes), str(seconds),
               str(CONSTRUCTS_FILE), function, json.dumps(list(forbidden))]
    try:
        done = subprocess.run(command, input=source, capture_output=True, timeout=limits.backstop,
                              env={"PATH": os.defpath}, cwd="/")
    except subprocess.TimeoutExpired:
        return _over(function, f"{limits.backstop:g} s of wall-clock time")
    except OSError as error:
        raise GraderFault(f"the construct check could not start: {error.strerror}") from None
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return _over(function, f"{seconds} s of CPU time")
    try:
        answer = json.loads(done.stdout.decode("utf-8").splitlines()[-1])
        if "limit" in answer:
            return _over(function, {"memory": f"{limits.memory_bytes >> 20} MiB of memory",
                                    "nesting": "the parser's nesting depth"}[answer["limit"]])
        return Checked(found=tuple((str(kind), int(line)) for kind, line in answer["found"]))
    except (ValueError, IndexError, KeyError, TypeError):
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
        raise GraderFault(f"the construct check failed (exit {done.returncode}): {tail[0][:300]}") from None


def _read(hog: Path, function: str) -> bytes | Checked:
    """The bytes of ``hog`` if it is a regular file (not a link) of at most MAX_SOURCE_BYTES."""
    try:
        descriptor = os.open(hog, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return Checked()      # nothing to check: the import reports a missing hog.py
    except OSError:
        return Checked(problem=f"{function} earns nothing: hog.py is not a file the grader can read "
                               f"(a link, or not readable), so its constructs cannot be checked")
    with os.fdopen(descriptor, "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            return Checked(problem=f"{function} earns nothing: hog.py is not a regular file, so its "
                                   f"constructs cannot be checked")
        if status.st_size > MAX_SOURCE_BYTES:
            return Checked(problem=_too_large(function, status.st_size))
        source = handle.read(MAX_SOURCE_BYTES + 1)
    if len(source) > MAX_SOURCE_BYTES:     # it grew while being read
        return Checked(problem=_too_large(function, len(source)))
    return source


def _too_large(function: str, size: int) -> str:
    return (f"{function} earns nothing: hog.py is {size:,} bytes, and the grader checks {function} for "
            f"forbidden constructs only in a hog.py of at most {MAX_SOURCE_BYTES:,} bytes (1 MiB); "
            f"remove what the project does not need")


def _over(function: str, what: str) -> Checked:
    return Checked(problem=f"{function} earns nothing: checking hog.py for forbidden constructs took more "
                           f"than {what} (the sandbox's limit); hog.py is too large or too deeply nested")
