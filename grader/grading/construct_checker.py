"""The construct check's interpreter, kept for the life of a grading process: a child forked per check.

``grader.grading.construct_check`` decides what is checked and what an answer means; this module runs the
checks. A grading process (``hog grade``, a batch's or the course server's worker) starts one interpreter
of its own (``python -I -S``, the kit's code only: a submission is read, never run), which loads ``ast``
and the kit's ``constructs.py`` once. For each check it is sent the function's name, the constructs
forbidden, the limits and the bytes the grader read; it forks a child that takes the limits
(``Limits.memory_bytes`` as RLIMIT_AS, ``case_seconds`` of CPU time), parses those bytes and walks the
function, and answers one JSON line; the interpreter sends it back with how the child ended. An
interpreter started for each check cost a new nju21 or nju24 submission 35.2 ms of CPU time (its start and
its imports); a child of the kept one costs 4.9 ms (medians of 6 rounds of 35 checks, taking turns).

The interpreter ends when the grading process closes its end of the requests (it exits, or drops it:
a check that ran past the wall-clock backstop, one cancelled, an interpreter that died); a check asked of
a dropped one starts a new one. A process forked from one that had an interpreter starts its own (the
descriptors it inherited are closed in it at once).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

# Runs in the kept interpreter. Requests on stdin: a line of tab-separated fields (memory bytes, CPU seconds,
# the source's size, the function, each construct forbidden), then the source's bytes. Answers on stdout:
# "<exit code> <size>\n" (the child's, as subprocess gives it: -N for signal N), then the child's JSON line,
# written with the C encoder of JSON strings (no json, no re to import).
SERVE = """
import os, resource, sys
from _json import encode_basestring_ascii as text
constructs = sys.argv[1]
namespace = {"__name__": "constructs"}
with open(constructs, encoding="utf-8") as handle:
    exec(compile(handle.read(), constructs, "exec"), namespace)
import ast
requests, answers = os.fdopen(0, "rb"), 1
LISTED = 20   # the findings an answer lists; the others are counted (a file of 1 MiB had 340,950 of them)


def check(source, function, forbidden):
    try:
        try:
            tree = ast.parse(source.decode("utf-8"))
        except (SyntaxError, ValueError):
            tree = None      # a file Python cannot read or parse: the import in the sandbox reports it
        found = [] if tree is None else namespace["violations_in"](tree, function, forbidden)
        return '{"found": [' + ", ".join("[%s, %d, %s]" % (text(kind), line, text(construct))
                                         for kind, line, construct in found[:LISTED]) + \
            '], "unlisted": %d}' % max(0, len(found) - LISTED)
    except MemoryError:
        return '{"limit": "memory"}'
    except RecursionError:
        return '{"limit": "nesting"}'


def write(descriptor, data):
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view):]


while True:
    header = requests.readline()
    if not header.endswith(b"\\n"):
        break            # the grading process closed its end: it ended, or dropped this interpreter
    memory, seconds, size, function, *forbidden = header.decode("utf-8")[:-1].split("\\t")
    source = requests.read(int(size))
    if len(source) < int(size):
        break
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reading)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (int(memory), int(memory)))
            resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds) + 1))
            answer = check(source, function, forbidden)
        except BaseException as error:
            answer = '{"fault": %s}' % text("%s: %s" % (type(error).__name__, error))
        write(writing, answer.encode("ascii"))
        os._exit(0)
    os.close(writing)
    del source
    chunks = []
    while True:
        chunk = os.read(reading, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(reading)
    answer = b"".join(chunks)
    status = os.waitpid(child, 0)[1]
    write(answers, b"%d %d\\n" % (os.waitstatus_to_exitcode(status), len(answer)) + answer)
"""


class CheckerDied(Exception):
    """The kept interpreter ended without answering; args: what it last wrote on stderr."""


class Checker:
    """The kept interpreter of this process, and the checks asked of it, answered in the order asked.
    Its pipes are plain descriptors: a forked process closes them without touching the interpreter."""

    def __init__(self, constructs: Path):
        child_in, self.requests = os.pipe()
        self.answers, child_out = os.pipe()
        self.errors, child_err = os.pipe()
        try:
            self.process = subprocess.Popen([sys.executable, "-I", "-S", "-B", "-c", SERVE, str(constructs)],
                                            stdin=child_in, stdout=child_out, stderr=child_err,
                                            env={"PATH": os.defpath}, cwd="/", start_new_session=True)
        except OSError:
            for descriptor in (self.requests, self.answers, self.errors):
                os.close(descriptor)
            raise
        finally:
            for descriptor in (child_in, child_out, child_err):
                os.close(descriptor)
        os.set_blocking(self.errors, False)
        self.asked = 0                                      # checks sent
        self.read = 0                                       # answers read
        self.answered: dict[int, tuple[int, bytes]] = {}    # answers read and not yet taken, by number
        self.inbox = bytearray()
        self.dropped = False
        self.lock = threading.Lock()   # a process's threads ask and read one at a time

    def ask(self, source: bytes, function: str, forbidden: tuple[str, ...], memory: int, seconds: int) -> int:
        """Send a check; its number, for ``answer``. CheckerDied if the interpreter is gone."""
        header = "\t".join([str(memory), str(seconds), str(len(source)), function, *forbidden]) + "\n"
        view = memoryview(header.encode("utf-8") + source)
        with self.lock:
            try:
                while view:
                    view = view[os.write(self.requests, view):]
            except OSError:
                said = self._said()
                self.drop()
                raise CheckerDied(said) from None
            self.asked += 1
            return self.asked

    def answer(self, number: int, seconds: float) -> tuple[int, bytes] | None:
        """(how the check's child ended, its JSON line) for check ``number``; None if it did not come within
        ``seconds`` (the interpreter is then dropped); CheckerDied if the interpreter ended (or was dropped)
        first."""
        deadline = time.monotonic() + seconds
        with self.lock:
            while number not in self.answered:
                if self.dropped:
                    raise CheckerDied("the interpreter was stopped before it answered")
                if not self._fill(lambda: b"\n" in self.inbox, deadline):
                    self.drop()
                    return None
                end = self.inbox.index(b"\n")
                code, size = (int(field) for field in self.inbox[:end].split())
                if not self._fill(lambda: len(self.inbox) > end + size, deadline):
                    self.drop()
                    return None
                self.read += 1
                self.answered[self.read] = (code, bytes(self.inbox[end + 1:end + 1 + size]))
                del self.inbox[:end + 1 + size]
            return self.answered.pop(number)

    def _fill(self, enough, deadline: float) -> bool:
        """Read what the interpreter sends until ``enough()``; False once the deadline passed first."""
        while not enough():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.answers], [], [], remaining)[0]:
                return False
            chunk = os.read(self.answers, 1 << 16)
            if not chunk:
                said = self._said()
                self.drop()
                raise CheckerDied(said)
            self.inbox += chunk
        return True

    def _said(self) -> str:
        """The last line the interpreter wrote on stderr, or how it ended."""
        try:
            tail = os.read(self.errors, 1 << 16)
        except OSError:
            tail = b""
        lines = [line.strip() for line in tail.decode("utf-8", "replace").splitlines() if line.strip()]
        if lines:
            return lines[-1][:300]
        code = self.process.poll()
        return "it stopped answering" if code is None else f"it ended (exit {code})"

    def drop(self) -> None:
        """End the interpreter and its child; checks not yet answered are lost (``answer`` says so)."""
        if self.dropped:
            return
        self.dropped = True
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except OSError:
            pass
        self.process.wait()
        self._close()

    def _close(self) -> None:
        for descriptor in (self.requests, self.answers, self.errors):
            try:
                os.close(descriptor)
            except OSError:
                pass


_KEPT: Checker | None = None
_INHERITED: list[Checker] = []   # in a forked process: its parent's, kept referenced so that nothing reaps them


def checker(constructs: Path) -> Checker:
    """This process's kept interpreter, started when it has none running."""
    global _KEPT
    if _KEPT is None or _KEPT.dropped or _KEPT.process.poll() is not None:
        if _KEPT is not None:
            _KEPT.drop()
        _KEPT = Checker(constructs)
    return _KEPT


def _forget_in_child() -> None:
    """In a process just forked: the interpreter is its parent's; its descriptors are closed here."""
    global _KEPT
    if _KEPT is not None:
        _KEPT.dropped = True
        _KEPT._close()
        _INHERITED.append(_KEPT)
        _KEPT = None


os.register_at_fork(after_in_child=_forget_in_child)
