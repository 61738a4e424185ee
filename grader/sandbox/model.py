"""What the sandbox takes and gives back: limits, step results, the report, its one error.

Plain data only; every other module of the sandbox imports from here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from grader.errors import GraderFault


@dataclass(frozen=True)
class Limits:
    """What one submission's batch may use.

    A case may compute for ``case_seconds`` of CPU time and wait (asleep, or blocked on a pipe, a lock,
    ``select``) for ``wait_seconds`` while not computing; both are the submission's own time, which a
    busy machine does not change.  A process that is runnable but starved of CPU is neither: only the
    wall-clock ``backstop`` stops it.  The batch's own time, ``total_seconds``, is shared equally by
    the groups of cases (the questions), so one question can never spend another's share; the whole
    batch has a wall-clock backstop too (``batch_backstop``, start-up excluded)."""

    case_seconds: float = 5.0        # CPU seconds of the submission per case
    total_seconds: float = 120.0     # the submission's own time (CPU + waiting) for the batch, shared by groups
    memory_bytes: int = 1 << 30      # RLIMIT_AS
    cpu_seconds: int = 60            # RLIMIT_CPU for the whole process
    file_bytes: int = 1 << 20        # RLIMIT_FSIZE
    processes: int = 64              # RLIMIT_NPROC where it applies
    wall_seconds: float | None = None  # wall-clock backstop per case (default: 10 x case_seconds + 5)
    wait_seconds: float = 1.0        # time a case may wait without computing (asleep or blocked)

    @property
    def backstop(self) -> float:
        return self.wall_seconds if self.wall_seconds is not None else self.case_seconds * 10 + 5

    @property
    def batch_backstop(self) -> float:
        """Wall-clock time for the whole batch (start-up excluded): for a machine so starved that its
        own-time budget cannot be spent."""
        return self.total_seconds * 5


class StepKind(str, enum.Enum):
    """How a step ended, as the sandbox saw it; the grade layer reads this, never the message text."""

    OK = "ok"               # the step ran (it may still show the wrong output)
    ERROR = "error"         # the step raised, or returned something that cannot be reported
    TIMEOUT = "timeout"     # the case ran out of time (its own, or the batch's)
    CRASH = "crash"         # the submission's process ended or was killed
    TAMPERED = "tampered"   # the result channel carried something the harness never sends
    SKIPPED = "skipped"     # not run (an earlier case of its group timed out, or nothing imported)


@dataclass
class StepResult:
    output: str
    error: str | None
    error_type: str | None
    kind: StepKind = StepKind.OK
    # The value the step returned, rebuilt by the grader from plain data (None when there was none).
    value: object = field(default=None, compare=False, repr=False)
    # The memory the result holds in the grader, as estimated when it was read (``grader.sandbox.channel``).
    held: int = field(default=0, compare=False, repr=False)


@dataclass
class CaseRun:
    steps: list[StepResult]
    seconds: float


@dataclass
class SandboxReport:
    cases: list[CaseRun]
    import_error: str | None
    isolation: str            # the sentence a report shows
    stdout_during_import: str
    level: str = "none"       # the level reached, by name: "process", "files", "bubblewrap" (or "none": not run)
    layers: tuple[str, ...] = ()  # the layers that held: "namespaces (bubblewrap)", "Landlock" or "chroot", "own uid N",
    # "seccomp"
    allowlist: str = "none"   # the layer that limited what it could read: "bubblewrap", "Landlock", "chroot", "none"


class SandboxUnavailable(GraderFault):
    """The sandbox could not be started at the isolation level asked for: a kit fault, never a score."""


class Tampered(Exception):
    """A message the harness never sends: args are (why, [earlier cases it concerns])."""


TAMPERED = "the result channel was tampered with"
SKIPPED_AFTER_TIMEOUT = "not run: an earlier case of the same question ran out of time"
NOT_RUN = "none needed (the submission was not run)"
# Longest text made by the submission that a report quotes.
SHOWN_CHARS = 400


def cap(text: str, limit: int = SHOWN_CHARS) -> str:
    """Text made by a submission, cut to ``limit`` characters with the count said."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters, cut)"


def failed(message: str, error_type: str | None = None, seconds: float = 0.0,
           steps: list[StepResult] | None = None, kind: StepKind = StepKind.ERROR) -> CaseRun:
    return CaseRun(list(steps or []) + [StepResult("", message, error_type, kind)], seconds)


def seconds_text(value: float) -> str:
    return f"{value:g} s"
