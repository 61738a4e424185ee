"""The run loop: start a sandbox, import the submission, run the cases one at a time, check every answer.

Protocol
--------
The grader writes one JSON line per message to the harness's control pipe: a
configuration line, then the cases, each with its number.  Up to ``WINDOW``
cases are queued ahead of the one whose results are being read (topped up in
one write when half have been read), so the sandbox never waits for the grader to read.  The harness answers on the result
pipe (never stdout or stderr, which the submission controls); see
grader/sandbox/harness.py for the messages.  Start-up ends at "ready": nothing
of the submission's has run before it, so a sandbox that does not get there is
the kit's failure. It is retried once, then ``SandboxUnavailable`` (a "grader
failed", never a zero); start-up time is not counted against the submission.

Time: each case (and the import) may use ``Limits.case_seconds`` of CPU time
of the submission's process, measured by the grader from the end of the case
before it, and wait without computing (asleep, blocked) ``Limits.wait_seconds``,
told from the process's state and CPU time (``Child.next``): a runnable process
starved by a busy machine is not waiting, so load does not change a verdict; a
wall-clock backstop (``Limits.backstop``) stops a case too starved to run.  The
batch's own time (``Limits.total_seconds``) is shared equally by the groups
(questions): a group out of its share, or whose case timed out, has its other
cases skipped; every other group still runs (in a fresh process).

The grader reads the stream strictly, in the order it sent the cases.  While
it reads case k, it accepts only step messages for case k with the next step
number, no step after an error, then ``end`` for case k once every step ran or
one failed.  A malformed, duplicate, out-of-order or extra message marks the
case being read as failed ("the result channel was tampered with") and the
batch goes on in a fresh process.  A message that names a case which already
ended fails that case, and the cases read after it (the one being read
included) are run again in a fresh process.

What a forged message can do: the submission owns its process (every case
starts with ``from hog import *``, which runs its code), so it could make any
case it was sent show any output, forged or not; what it cannot do is see an
expected answer (they never enter the sandbox), make the grader read beyond
its bounds, or have one case's messages counted for another without the
order breaking.  Once the order breaks, the process is replaced, so cases
after a tampering one run in a process the tampering did not touch.

Bounds per batch: what the results read hold in the grader (their texts and
rebuilt values, as ``channel`` estimates them) by ``channel.MAX_HELD_BYTES``,
where the step that passes it fails; and the cases forged, by ``MAX_FORGED``
(each starts a process).  Past either, the cases not yet read are not run.
"""

from __future__ import annotations

import collections
import os
import time
from pathlib import Path
from typing import Callable, Sequence

from grader.sandbox import channel, level, scratch as scratch_folder
from grader.sandbox.case_code import case_line, travels_compiled
from grader.sandbox.child import Child, spawn
from grader.sandbox.early import EarlyFailed
from grader.sandbox.level import Choice, Level
from grader.sandbox.model import (SKIPPED_AFTER_TIMEOUT, TAMPERED, CaseRun, Limits, SandboxReport, SandboxUnavailable,
                                  StepKind, StepResult, Tampered, cap, failed, seconds_text)

# Time allowed for the interpreter (and bwrap) to start; not the submission's time.
STARTUP_SECONDS = 60.0
# Whether the harness installs its seccomp filter; only tests turn it off, to see what the report says then.
SECCOMP = True
# Cases sent ahead of the one being read: enough to keep the sandbox busy while the grader reads;
# sent in one write once half of them have been read.
WINDOW = 32
# A batch whose results would hold more of the grader's memory than channel.MAX_HELD_BYTES: the step that
# passed it fails, and the cases after it are not run ({mib}: that bound in MiB).
HELD_FULL = ("returned more than the grader keeps of one submission's results: its values and printed output "
             "so far would hold more than {mib} MiB of the grader's memory")
NOT_RUN_FULL = "not run: the submission's earlier results filled what the grader keeps of one submission ({mib} MiB)"
# Cases whose messages were forged (out of order, malformed, late) in one batch before the rest is not run: each
# sends the cases after it to a fresh process, so forging every case would start a process for each (and, at
# the container level, a container). The harness forges none; a submission that forges some stays graded.
MAX_FORGED = 10
NOT_RUN_FORGED = f"not run: the submission tampered with the result channel in {MAX_FORGED} cases"


class Batch:
    """One submission's cases, run in as few sandboxed processes as its behaviour allows."""

    def __init__(self, folder: Path, choice: Choice, uid: int | None, cases: list[list[str]],
                 setup: list[str], names: list[str] | None, limits: Limits, groups: Sequence[str] | None,
                 on_result: "Callable[[int, CaseRun], object] | None" = None, first: Child | None = None,
                 later: scratch_folder.Later | None = None):
        self.cases, self.limits, self.choice, self.uid = list(cases), limits, choice, uid
        self.folder, self.on_result, self.first, self.later = folder, on_result, first, later
        self.groups, self.timed_out = None if groups is None else list(groups), set()
        self.compiled = travels_compiled()   # send the cases' code too
        self.unfiltered: list[str] = []  # why a process ran without the seccomp filter
        inside = choice.seen_inside(folder)
        self.config = {"dir": inside, "setup": setup, "names": names, "tree": choice.tree, "uid": uid,
                       "mode": "bwrap" if choice.level is Level.BUBBLEWRAP else choice.level.label,
                       "parent": os.getpid(), "filter": SECCOMP,
                       "landlock": level.readable_paths(inside) if choice.level is Level.FILES and choice.landlock
                       else None,
                       "limits": {"memory_bytes": limits.memory_bytes, "cpu_seconds": limits.cpu_seconds,
                                  "file_bytes": limits.file_bytes, "processes": limits.processes}}
        self.total_deadline = 0.0
        self.read_bytes = 0              # what every process of this batch sent so far (bounded per batch)
        self.held = 0                    # what the results read so far hold in the grader (bounded per batch)
        self.forged = 0                  # cases whose messages were forged (bounded per batch)
        # The batch's own time, shared equally by the groups (the later cases' too); what each group has spent.
        self.share = self._share()
        self.spent: collections.Counter[str] = collections.Counter()
        self.setup, self.names = setup, names

    def _share(self) -> float:
        return self.limits.total_seconds / max(1, len(set(self.groups or [""])))

    def take_later(self, results: list | None = None) -> None:
        """The cases ``later`` gives, added after the others (and a place for each in ``results``). Called
        once the first cases are sent, so that the sandbox runs them while ``later`` works the rest out."""
        if self.later is None:
            return
        before = len(self.cases)
        self.cases, self.groups = scratch_folder.with_later(self.cases, self.groups, self.later, self.setup,
                                                            self.names, self.limits)
        self.later = None
        if results is not None:
            results += [None] * (len(self.cases) - before)
        self.share = self._share()

    # -- starting --
    def start(self) -> Child:
        """A sandbox that reached "ready"; tried twice, then SandboxUnavailable. A sandbox started
        early (``first``) is tried once: EarlyFailed if it does not get there."""
        problems = []
        for _attempt in range(2):
            began = time.monotonic()
            early = self.first is not None
            child, self.first = self.first or spawn(self.folder, self.choice, self.uid), None
            child.send(self.config)
            problem = self._ready(child)
            self.total_deadline += time.monotonic() - began   # start-up is not the submission's time
            if problem is None:
                child.case_bytes, child.batch_bytes = 0, self.read_bytes
                return child
            child.kill()
            if early:
                raise EarlyFailed(problem)
            problems.append(problem)
        raise SandboxUnavailable(f"the sandbox ({self.choice.level.label}) did not start, twice: "
                                 f"{'; then '.join(dict.fromkeys(problems))}")

    def _ready(self, child: Child) -> str | None:
        """None once the harness says "ready", else why it did not get there."""
        event = child.next(time.monotonic() + STARTUP_SECONDS)
        message = event.message
        if event.kind == "timeout":
            return f"it did not start within {seconds_text(STARTUP_SECONDS)}"
        if event.kind == "ended":
            said = child.error_output()
            return "it ended before it was ready" + (f" ({said})" if said else "")
        if event.kind == "bad" or type(message) is not list or len(message) != 2 \
                or not channel.optional_text(message[1]):
            return "its first message was not one the harness sends"
        if message[0] == "unavailable":
            return cap(message[1] or "", 300)
        if message[0] != "ready":
            return "its first message was not one the harness sends"
        if message[1] is not None and message[1] not in self.unfiltered:
            self.unfiltered.append(cap(message[1], 200))
        return None

    # -- the batch --
    def run(self) -> SandboxReport:
        results: list[CaseRun | None] = [None] * len(self.cases)
        imported: tuple | None = None
        self.total_deadline = time.monotonic() + self.limits.batch_backstop
        index = 0
        while imported is None or index < len(self.cases):
            if time.monotonic() >= self.total_deadline:
                break
            child = self.start()
            try:
                ok, stdout, error, error_type, kind = self._import(child)
                if not ok:
                    self.take_later(results)
                    note = "the submission did not import" + ("" if imported is None else
                                                              " when the sandbox restarted") + f": {error}"
                    for later in range(index, len(self.cases)):
                        results[later] = failed(note, error_type, kind=kind)
                    imported = imported or (error, "")
                    break
                imported = imported or (None, cap(stdout))
                index, restart = self._cases(child, index, results)
                if not (restart or self.stopped):
                    child.finish()
            finally:
                child.kill()
                self.read_bytes = child.batch_bytes
            if not restart:
                break
        self.take_later(results)   # not taken when the batch's time ran out first: those cases were not run
        for number, run in enumerate(results):
            if run is None and self.stopped:
                results[number] = failed(self.stopped, kind=StepKind.SKIPPED)
            elif run is None:
                results[number] = failed(f"not run: the whole batch ran longer than "
                                         f"{seconds_text(self.limits.batch_backstop)} (wall clock)",
                                         kind=StepKind.TIMEOUT)
        import_error, import_stdout = imported or (None, "")
        return SandboxReport(results, import_error, self._isolation_text(), import_stdout,
                             self.choice.level.label, level.layers(self.choice, self.uid, not self.unfiltered),
                             self.choice.allowlist)

    def _cases(self, child: Child, index: int, results: list) -> tuple[int, bool]:
        """Run cases from ``index`` in this process: (the next index, whether a fresh process is needed)."""
        sent: collections.deque[int] = collections.deque()
        following = index            # the next case to send
        began, cpu_start = time.monotonic(), child.cpu_seconds()
        while True:
            if len(sent) <= WINDOW // 2:
                batch = []
                while following < len(self.cases) and len(sent) < WINDOW:
                    if self.groups and self.groups[following] in self.timed_out:
                        results[following] = failed(SKIPPED_AFTER_TIMEOUT, kind=StepKind.SKIPPED)
                    else:
                        batch.append(case_line(following, tuple(self.cases[following]), self.compiled))
                        sent.append(following)
                    following += 1
                child.send_lines(batch)
                if self.later is not None:
                    self.take_later(results)   # while the sandbox runs what it was just sent
                    continue
            if not sent:
                return following, False
            current = sent[0]
            if time.monotonic() >= self.total_deadline:
                return current, False
            group = self._group(current)
            run, keep, earlier = self._case(child, current, began, cpu_start, self.share - self.spent[group])
            ended = child.cpu_seconds()   # read once: this case's end is the next one's start
            self.spent[group] += max(ended - cpu_start, 0.0) + child.waited
            for number in earlier:
                results[number] = failed(channel.tampered("a message about this case came after it had "
                                                          "ended"), seconds=results[number].seconds,
                                         kind=StepKind.TAMPERED)
            if earlier:
                # Cases read after the one a late message names may hold what that message's writer
                # forged ahead: run them, and the case being read, again in a fresh process.
                later = [number for number in child.cases_run if number > min(earlier)]
                if self.stopped:   # or not at all
                    for number in later:
                        results[number] = None
                    return len(self.cases), False
                return min(later, default=current), True
            results[current] = run
            if self.on_result is not None:
                self.on_result(current, run)
            sent.popleft()
            if self.stopped:
                return current + 1, False
            if self.groups and run.steps and run.steps[-1].kind is StepKind.TIMEOUT:
                self.timed_out.add(group)
            if not keep:
                return current + 1, True
            began, cpu_start = time.monotonic(), ended

    @property
    def full(self) -> bool:
        """Whether the results read so far hold more of the grader's memory than a batch's may."""
        return self.held > channel.MAX_HELD_BYTES

    @property
    def stopped(self) -> str | None:
        """Why the cases not yet read are not run, once they are not: the results held too much, or too many
        cases were forged."""
        if self.full:
            return NOT_RUN_FULL.format(mib=channel.MAX_HELD_BYTES >> 20)
        return NOT_RUN_FORGED if self.forged >= MAX_FORGED else None

    def _isolation_text(self) -> str:
        """What isolated the submission, as the report says it."""
        text = level.describe(self.choice, self.uid, not self.unfiltered)
        if self.unfiltered:
            why = "; ".join(self.unfiltered)
            if self.choice.level is not Level.PROCESS:
                return f"{text} (no system call filter: {why})"
            return (f"{text[:-1]}; no system call filter either: {why}, so the submission "
                    "could read and write the grader's files)")
        if self.choice.level is not Level.PROCESS:
            return text
        return (f"{text[:-1]}; the system call filter refused every change to files, "
                "but the submission could read the grader's files)")

    def _group(self, index: int) -> str:
        return self.groups[index] if self.groups else ""

    def _timeout(self, detail: str, began: float, what: str, share_bound: bool = False) -> str:
        if time.monotonic() >= self.total_deadline and detail == "wall":
            return (f"Timeout: the whole batch ran longer than {seconds_text(self.limits.batch_backstop)} "
                    "(wall clock)")
        if share_bound and detail in ("cpu", "wait"):
            return (f"Timeout: {what} used up what was left of its question's share of the time "
                    f"({seconds_text(round(self.share, 2))} of the submission's own time)")
        if detail == "cpu":
            return f"Timeout: {what} used more than {seconds_text(self.limits.case_seconds)} of CPU time"
        if detail == "wait":
            return (f"Timeout: {what} waited more than {seconds_text(self.limits.wait_seconds)} without "
                    "computing (asleep or blocked)")
        return f"Timeout: {what} ran longer than {seconds_text(self._backstop())} (wall clock)"

    def _backstop(self) -> float:
        return self.limits.backstop

    def _import(self, child: Child) -> tuple[bool, str, str | None, str | None, StepKind]:
        began = time.monotonic()
        deadline = min(began + self._backstop(), self.total_deadline)
        child.start_case()
        event = child.next(deadline, child.cpu_seconds() + self.limits.case_seconds, self.limits.wait_seconds)
        if event.kind == "timeout":
            return False, "", self._timeout(event.detail, began, "importing the submission"), None, \
                StepKind.TIMEOUT
        if event.kind == "ended":
            message = child.how_it_ended(importing=True)
            said = child.error_output()
            if said:
                message += f"; its last line of error output was: {said}"
            return False, "", message, None, StepKind.CRASH
        message = event.message
        if event.kind == "bad" or event.more or type(message) is not list or len(message) != 5 \
                or message[0] != "import" or type(message[1]) is not bool \
                or type(message[2]) is not str or not channel.optional_text(message[3]) \
                or not channel.optional_text(message[4]) or (message[1] != (message[3] is None)):
            return False, "", f"{TAMPERED} while the submission was importing", None, StepKind.TAMPERED
        if message[1]:
            return True, message[2], None, None, StepKind.OK
        return False, message[2], cap(message[3]), message[4] and cap(message[4], 100), StepKind.ERROR

    def _case(self, child: Child, index: int, began: float, cpu_start: float,
              left: float) -> tuple[CaseRun, bool, list[int]]:
        """Read the results of case ``index`` (already sent), timed from ``began`` and ``cpu_start``,
        with ``left`` seconds of its group's share of the batch's own time.

        Returns its result, whether the process may run the next case, and the
        earlier cases (run by this process) that a late message showed to be
        tampered with; when there are any, the result is to be discarded.
        """
        steps = self.cases[index]
        deadline = min(began + self._backstop(), self.total_deadline)
        left = max(left, 0.0)       # of the group's share: the case may use no more
        cpu_limit = cpu_start + min(self.limits.case_seconds, left)
        wait_limit = min(self.limits.wait_seconds, left)
        child.start_case()
        done: list[StepResult] = []
        while True:
            event = child.next(deadline, cpu_limit, wait_limit)
            elapsed = time.monotonic() - began
            if event.kind == "timeout":
                bound = left < (self.limits.case_seconds if event.detail == "cpu" else self.limits.wait_seconds)
                why = self._timeout(event.detail, began, "the case", bound)
                return failed(why, None, elapsed, done, StepKind.TIMEOUT), False, []
            if event.kind == "ended":
                return failed(child.how_it_ended(), None, elapsed, done, StepKind.CRASH), False, []
            if event.kind == "bad":   # forged, unless it is more than the grader reads (which output can be)
                self.forged += not child.read_too_much
                return failed(channel.tampered(event.detail), None, elapsed, kind=StepKind.TAMPERED), False, []
            taken = len(done)
            try:
                ended = channel.take_step(event.message, index, steps, done, child.cases_run, event.line)
            except Tampered as problem:
                self.forged += 1
                earlier = problem.args[1] if len(problem.args) > 1 else []
                return failed(channel.tampered(problem.args[0]), None, elapsed, kind=StepKind.TAMPERED), \
                    False, earlier
            if len(done) > taken:
                self.held += done[-1].held
                if self.full:   # nothing more is read: this step is not kept, and no later case runs
                    return failed(HELD_FULL.format(mib=channel.MAX_HELD_BYTES >> 20), None, elapsed,
                                  done[:-1]), False, []
            if ended:
                return CaseRun(done, elapsed), True, []
