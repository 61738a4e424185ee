"""The child process's life and death: starting the harness, its pipes, its CPU time, killing it.

The child starts in a new session (no controlling terminal) with stdin and
stdout on /dev/null, stderr kept only to explain a failed start, and no
descriptor but the two channels: the control pipe (grader → harness) and the
result pipe (harness → grader).  At the ``files`` level with a root grader it
runs under a uid of its own.  Killing it kills every process it left behind.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import time
from pathlib import Path

from grader.sandbox import boot, channel, namespaces, processes
from grader.sandbox.level import Choice, Level
from grader.sandbox.model import TAMPERED, Tampered

_TICKS = os.sysconf("SC_CLK_TCK")
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode
# How often the grader looks at the submission's CPU time and state while it waits for a message.
WAIT_SAMPLE = 0.1
# A reading of the CPU time younger than this is used again rather than read anew: the messages of
# quick cases come many a millisecond, and a reading costs more than the grader's work on a message.
FRESH_READING = 0.002


def spawn(folder: Path, choice: Choice, uid: int | None = None) -> "Child":
    """The sandbox's interpreter for the submission in ``folder``, at ``choice``'s level, started and
    given its harness; it waits for its configuration (``Child.send``) before it does anything else.
    In a chroot tree it starts as root and the harness switches to ``uid`` once inside."""
    python = namespaces.interpreter()
    # -S -s -P and a clean environment give what -I would, while keeping
    # PYTHONHASHSEED=0 (which -I, through -E, would ignore).
    arguments, preamble = boot.start(python)
    command = [python, "-S", "-s", "-B", "-P", *arguments]
    bubblewrap = choice.level is Level.BUBBLEWRAP
    if bubblewrap:
        command = namespaces.bwrap_arguments(choice.bwrap, str(folder), python) + command
    child = Child(command, namespaces.environment(choice.seen_inside(folder)), str(folder), bubblewrap,
                  None if choice.tree else uid)
    if preamble:
        child.send_bytes(preamble)
    return child


class Event:
    __slots__ = ("kind", "message", "more", "detail", "line")

    def __init__(self, kind: str, message=None, more: bool = False, detail: str = "", line: bytes | None = None):
        self.kind, self.message, self.more, self.detail, self.line = kind, message, more, detail, line


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class Child:
    """A sandboxed interpreter running the harness, with its pipes."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str, bubblewrap: bool, uid: int | None = None):
        self.bubblewrap = bubblewrap
        control_read, self.control = os.pipe()
        self.results, result_write = os.pipe()
        user = {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}
        try:
            self.process = subprocess.Popen(
                [*argv, str(control_read), str(result_write)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(control_read, result_write),
                start_new_session=True, env=env, cwd=cwd, **user)
        except BaseException:
            for descriptor in (self.control, self.results):
                os.close(descriptor)
            raise
        finally:
            os.close(control_read)
            os.close(result_write)
        self.stderr = self.process.stderr.fileno()
        for descriptor in (self.control, self.results, self.stderr):
            os.set_blocking(descriptor, False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.results, selectors.EVENT_READ)
        self.selector.register(self.stderr, selectors.EVENT_READ)
        self.inbox = bytearray()
        self.taken = 0                              # bytes at the start of inbox already taken as messages
        self.outbox = bytearray()
        self.error_tail = bytearray()
        self.ended = False
        self.closed = False
        self.cases_run: list[int] = []
        self.case_bytes = 0
        self.batch_bytes = 0
        self.waited = 0.0                           # seconds the current case spent blocked
        self._sampled: tuple[float, float, int] | None = None
        self._reading: tuple[float, float, bool] = (float("-inf"), 0.0, False)   # (when, CPU, runnable)
        self._cpu_files: list[int] | None = None

    # -- writing --
    def send_bytes(self, data: bytes) -> None:
        self.outbox += data
        self._flush()

    def send(self, message) -> None:
        self.send_all([message])

    def send_all(self, messages: list) -> None:
        """The messages, one JSON line each, in one write where the pipe takes them."""
        self.send_lines([_ENCODE(message).encode() + b"\n" for message in messages])

    def send_lines(self, lines: list[bytes]) -> None:
        """Messages already made (JSON lines), in one write where the pipe takes them."""
        self.outbox += b"".join(lines)
        self._flush()

    def _flush(self) -> None:
        if self.control < 0:
            return
        while self.outbox:
            try:
                written = os.write(self.control, self.outbox)
            except BlockingIOError:
                break
            except OSError:  # the process is gone; its results will say so
                self.outbox.clear()
                break
            del self.outbox[:written]
        self._watch_control()

    def _watch_control(self) -> None:
        wanted = bool(self.outbox)
        registered = self.control in self.selector.get_map()
        if wanted and not registered:
            self.selector.register(self.control, selectors.EVENT_WRITE)
        elif registered and not wanted:
            self.selector.unregister(self.control)

    # -- reading --
    def start_case(self) -> None:
        """A new case (or the import) is being read: its bytes and its waiting count from zero."""
        self.case_bytes = 0
        self.waited = 0.0
        self._sampled = None

    @property
    def read_too_much(self) -> bool:
        """Whether the results sent pass what the grader reads of one case or one batch (output can: the
        harness bounds each message, not how many a case or a batch sends)."""
        return self.case_bytes > channel.MAX_CASE_BYTES or self.batch_bytes > channel.MAX_BATCH_BYTES

    def next(self, deadline: float, cpu_limit: float | None = None, wait_limit: float | None = None) -> Event:
        """The next message, or an event: 'timeout' (detail 'cpu', 'wait' or 'wall'), 'ended' or 'bad'.

        ``cpu_limit``: the CPU seconds of the submission's process at which to stop waiting.
        ``wait_limit``: the seconds it may spend blocked (``waited``, see ``_note_waiting``).
        """
        while True:
            newline = self.inbox.find(b"\n", self.taken)
            if newline >= 0:
                line = bytes(self.inbox[self.taken:newline])
                self.taken = newline + 1
                more = self.taken < len(self.inbox)
                try:
                    message = channel.decode(line)
                except Tampered as problem:
                    return Event("bad", detail=problem.args[0])
                return Event("message", message, more=more, line=line)
            del self.inbox[:self.taken]    # once per wait, not once per message
            self.taken = 0
            if len(self.inbox) > channel.MAX_MESSAGE_BYTES:
                return Event("bad", detail=f"a message larger than {channel.MAX_MESSAGE_BYTES >> 20} MiB")
            if self.read_too_much:
                return Event("bad", detail="more output than the grader reads for one case or one batch")
            if self.ended:
                return Event("ended", more=bool(self.inbox))
            remaining = deadline - time.monotonic()
            passed = "wall" if remaining <= 0 else None     # the limit passed, if any
            if passed is None and cpu_limit is not None:
                fresh = time.monotonic() - self._reading[0] >= FRESH_READING
                cpu, runnable = self._sample() if fresh else self._reading[1:]
                if cpu >= cpu_limit:
                    passed = "cpu"
                elif wait_limit is not None and fresh and self._note_waiting(cpu, runnable) >= wait_limit:
                    passed = "wait"
                remaining = min(remaining, WAIT_SAMPLE)
            if passed is not None:
                # The sandbox runs ahead of the grader: the end of this case may already be in the
                # pipe (and the CPU time past it belong to the next case): what was written is read first.
                if self._take_waiting():
                    continue
                return Event("timeout", detail=passed)
            for key, _events in self.selector.select(remaining):
                if key.fd == self.control:
                    self._flush()
                elif key.fd == self.results:
                    self._read_results()
                elif key.fd == self.stderr:
                    self._read_stderr()

    def _take_waiting(self) -> bool:
        """Read what is already in the result pipe; whether a whole message came with it."""
        while not self.ended and len(self.inbox) <= channel.MAX_MESSAGE_BYTES:
            before = len(self.inbox)
            self._read_results()
            if self.inbox.find(b"\n", before) >= 0 or self.ended:
                return True
            if len(self.inbox) == before:
                return False    # nothing more is waiting
        return False

    def _read_results(self) -> None:
        try:
            chunk = os.read(self.results, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self.inbox += chunk
            self.case_bytes += len(chunk)
            self.batch_bytes += len(chunk)
        else:
            self.ended = True
            self.selector.unregister(self.results)

    def _read_stderr(self) -> None:
        try:
            chunk = os.read(self.stderr, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.selector.unregister(self.stderr)
            return
        self.error_tail += chunk
        del self.error_tail[:-4096]

    def _note_waiting(self, cpu: float, runnable: bool) -> float:
        """Count the time since the last sample as waiting when the submission was blocked through it:
        no process of its runnable now, no CPU time used and nothing sent to the grader since.  A
        starved process is runnable (state R) and is not counted; a sleeping or blocked one is in
        state S, D or T (one blocked writing a long answer the grader is still reading has sent
        something).  An interval counts for at most two sample periods, so a grader that was itself
        starved of CPU between samples counts no more than it watched.  Returns the case's waiting."""
        now = time.monotonic()
        if self._sampled is not None:
            at, before, received = self._sampled
            if not runnable and cpu <= before and self.batch_bytes == received:
                self.waited += min(now - at, 2 * WAIT_SAMPLE)
        self._sampled = (now, cpu, self.batch_bytes)
        return self.waited

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the sandboxed interpreter has used so far (as read at most
        ``FRESH_READING`` seconds ago)."""
        if time.monotonic() - self._reading[0] < FRESH_READING:
            return self._reading[1]
        return self._sample()[0]

    def _sample(self) -> tuple[float, bool]:
        """(CPU time used so far, whether any of its processes is runnable).

        Its /proc stat files stay open, so each reading is one pread."""
        if self._cpu_files is None:
            self._cpu_files = []
            for pid in processes.descendants(self.process.pid) if self.bubblewrap else [self.process.pid]:
                try:
                    self._cpu_files.append(os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC))
                except OSError:
                    continue
        total, runnable = 0, False
        for descriptor in self._cpu_files:
            try:
                fields = os.pread(descriptor, 1024, 0).rpartition(b")")[2].split()
                total += int(fields[11]) + int(fields[12])
                runnable = runnable or fields[0] == b"R"
            except (OSError, ValueError, IndexError):
                continue
        self._reading = (time.monotonic(), total / _TICKS, runnable)
        return total / _TICKS, runnable

    def how_it_ended(self, importing: bool = False) -> str:
        """Say why the process stopped, once its result pipe has closed."""
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return f"{TAMPERED}: the submission closed it"
        if code < 0:
            number = -code
        elif self.bubblewrap and code > 128 and code - 128 < signal.NSIG:
            number = code - 128  # bwrap reports a signal as 128 + its number
        else:
            number = 0
        doing = " while importing" if importing else ""
        if number == signal.SIGXCPU:
            return f"the submission used up its CPU time{doing} (killed by SIGXCPU)"
        if number:
            return f"the submission's process was killed by {signal_name(number)}{doing}"
        if code == 70 and not importing:
            return f"{TAMPERED}: the harness could not write its results"
        return f"the submission ended the process{doing} (exit code {code})"

    def error_output(self) -> str:
        lines = [line.strip() for line in self.error_tail.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        return lines[-1][:300] if lines else ""

    # -- stopping --
    def finish(self) -> None:
        """Let the harness exit after its last case; kill it if it does not."""
        self._close_control()
        try:
            self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def _close_control(self) -> None:
        if self.control >= 0:
            if self.control in self.selector.get_map():
                self.selector.unregister(self.control)
            os.close(self.control)
            self.control = -1

    def kill(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._close_control()
        if self.process.poll() is None:
            inner = processes.descendants(self.process.pid) if self.bubblewrap else []
            for pid in inner:
                processes.kill(pid)
            processes.kill(self.process.pid)
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            processes.wait_gone(inner, 2.0)
        self.selector.close()
        for descriptor in [self.results, *(self._cpu_files or ())]:
            try:
                os.close(descriptor)
            except OSError:
                pass
        self._cpu_files = []
        self.process.stderr.close()
