"""The ``container`` level: the kit's own sandbox, run inside a container of Docker or Podman.

A grading process starts one container (``Session``) at its first submission and keeps it for the
ones that follow, so a batch's worker grades its whole chunk in one container; each submission still
gets a sandbox of its own inside, at ``files`` (``grader.sandbox.inside`` calls ``run_cases`` there).
The container has no network, a read-only root, a private ``/tmp`` in memory, the memory and process
limits below, no capability but ``CAPABILITIES`` and no new privileges, and no folder of the host:
the submission's files and the cases' steps travel on its standard input, one JSON line per
submission, and the results come back on its standard output as the sandbox's do, as plain data.
Expected answers, hidden-case caches and keys never enter it: it only runs the steps it is sent.

A container that does not start, answers out of turn or not in time is the kit's failure
(``SandboxUnavailable``: "grader failed"), never the submission's.
"""

from __future__ import annotations

import atexit
import base64
import dataclasses
import json
import os
import resource
import secrets
import selectors
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, Mapping, Sequence

from grader.project import package
from grader.sandbox import channel, scratch as scratch_folder
from grader.sandbox.engine import Engine
from grader.sandbox.model import CaseRun, Limits, SandboxReport, SandboxUnavailable, StepKind, StepResult, Tampered

# What the kit inside needs of root's powers, and no more: a uid of its own per sandbox (SETUID, SETGID,
# CHOWN to hand it its scratch folder, KILL to stop it, DAC_OVERRIDE and FOWNER to remove what it left),
# and, where Landlock is refused, the chroot tree (SYS_CHROOT). The sandbox itself drops them all.
CAPABILITIES = ("CHOWN", "DAC_OVERRIDE", "FOWNER", "KILL", "SETGID", "SETUID", "SYS_CHROOT")
INSIDE_COMMAND = ("python3", "-s", "-m", "grader.sandbox.inside")
SCRATCH = "/tmp"
SCRATCH_BYTES = 256 << 20           # the private /tmp, in memory (counted in the container's memory)
OVERHEAD_BYTES = 512 << 20          # the kit's own interpreter inside, beside the sandbox's memory limit
EXTRA_PROCESSES = 64                # the kit's own processes inside, beside the sandbox's
OPEN_FILES = 1024                   # descriptors per process inside (the sandbox itself allows 32)
# RLIMIT_NPROC of the container's first process (the grader's own if lower): set, as Podman would otherwise set
# one higher than it may; high enough for a rootful engine, which counts the host's processes of root with it.
ROOT_PROCESSES = 4096
START_SECONDS = 120.0               # for the container to start and the kit in it to say it is ready
SUBMISSION_BYTES = 32 << 20         # the largest submission (its files together) sent to a container
MAX_ANSWER_BYTES = 2 * channel.MAX_BATCH_BYTES


def arguments(engine: Engine, limits: Limits, name: str) -> list[str]:
    """The engine's command line for a grading container (image and command excluded)."""
    memory = limits.memory_bytes + OVERHEAD_BYTES + SCRATCH_BYTES
    caps = [part for cap in CAPABILITIES for part in ("--cap-add", cap)]
    return [engine.path, "run", "-i", "--rm", "--name", name, "--network", "none", "--ipc", "none",
            "--read-only", "--tmpfs", f"{SCRATCH}:rw,exec,nosuid,nodev,mode=1777,size={SCRATCH_BYTES}",
            "--memory", str(memory), "--memory-swap", str(memory), "--pids-limit",
            str(limits.processes + EXTRA_PROCESSES), "--cap-drop", "ALL", *caps,
            "--security-opt", "no-new-privileges", *_ulimits(), "--user", "0:0", "--log-driver", "none",
            "-e", f"HOG_CACHE={SCRATCH}/hog-cache", "-e", f"TMPDIR={SCRATCH}"]


def _ulimits() -> list[str]:
    """Resource limits for the container's first process, none above the grader's own: an engine that
    would raise them (Podman's defaults) fails to start where it may not. The container's process
    limit (``--pids-limit``) is what bounds its processes; the sandbox inside sets its own limits."""
    files = min(OPEN_FILES, *(limit for limit in resource.getrlimit(resource.RLIMIT_NOFILE)
                              if limit != resource.RLIM_INFINITY))
    processes = min(ROOT_PROCESSES, *(limit for limit in resource.getrlimit(resource.RLIMIT_NPROC)
                                      if limit != resource.RLIM_INFINITY))
    return ["--ulimit", f"nofile={files}:{files}", "--ulimit", f"nproc={processes}:{processes}"]


class Session:
    """One container, started at the first submission, answering one submission at a time."""

    def __init__(self, engine: Engine, image: str, limits: Limits):
        self.engine, self.image, self.limits = engine, image, limits
        self.name = f"hog-grade-{os.getpid()}-{secrets.token_hex(4)}"
        self.errors = tempfile.TemporaryFile()
        self.pid = os.getpid()
        self.process = subprocess.Popen(arguments(engine, limits, self.name) + [image, *INSIDE_COMMAND],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors)
        self.pending = b""
        first = self._next(time.monotonic() + START_SECONDS)
        if first == "late":
            first = f"it did not say it was ready within {round(START_SECONDS)} s"
        if first != ["ready", package.digest()]:
            self.close()
            raise SandboxUnavailable(f"the container ({engine.name}, {image}) did not start: "
                                     f"{self._said(first)}")

    def fits(self, engine: Engine, image: str, limits: Limits) -> bool:
        return (self.pid == os.getpid() and self.process.poll() is None and (engine, image) == (self.engine, self.image)
                and limits.memory_bytes <= self.limits.memory_bytes and limits.processes <= self.limits.processes)

    def grade(self, request: dict, on_result: "Callable[[int, CaseRun], object] | None",
              deadline: float, seconds: float) -> SandboxReport:
        """The inner report for one request; each case's result to ``on_result`` as it comes."""
        received: dict[int, CaseRun] = {}
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except OSError as error:
            self.close()
            raise SandboxUnavailable(f"the container ({self.engine.name}) stopped taking work ({error})") from None
        while True:
            message = self._next(deadline)
            if message == "late":
                message = f"did not answer within {round(seconds)} s"
            if type(message) is list and len(message) == 2 and message[0] == "cases" and type(message[1]) is list:
                for number, run in _numbered(message[1]):
                    received[number] = run
                    if on_result is not None:
                        on_result(number, run)
                continue
            if type(message) is list and len(message) == 2 and message[0] == "report" and type(message[1]) is dict:
                return decode_report(message[1], received)
            self.close()
            if type(message) is list and len(message) == 2 and message[0] == "fault" and type(message[1]) is str:
                raise SandboxUnavailable(f"inside the container: {message[1]}")
            raise SandboxUnavailable(f"the container ({self.engine.name}) {self._said(message)}")

    def _next(self, deadline: float):
        """The container's next message, or a str saying why there is none."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return "late"
                if not selector.select(min(left, 1.0)):
                    continue
                chunk = os.read(self.process.stdout.fileno(), 1 << 20)
                if not chunk:
                    return "ended"
                self.pending += chunk
                if len(self.pending) > MAX_ANSWER_BYTES:
                    return "sent more than the kit inside ever sends"
        line, _, self.pending = self.pending.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            return "sent a line that is not JSON"

    def _said(self, problem) -> str:
        self.close()
        self.errors.seek(0)
        lines = [line.strip() for line in self.errors.read().decode("utf-8", "replace").splitlines() if line.strip()]
        why = problem if isinstance(problem, str) else "answered out of turn"
        return why + (f"; its last line of error output was: {lines[-1][:300]}" if lines else "")

    def close(self) -> None:
        """Stop the container: its input closed, then killed if it does not end at once."""
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                subprocess.run([self.engine.path, "kill", self.name], capture_output=True, timeout=60)
                self.process.kill()
                self.process.wait()


_session: Session | None = None


def _session_for(engine: Engine, image: str, limits: Limits) -> Session:
    """This process's container, started (again) when there is none or it does not fit ``limits``."""
    global _session
    if _session is not None and not _session.fits(engine, image, limits):
        if _session.pid == os.getpid():
            _session.close()
        _session = None
    if _session is None:
        _session = Session(engine, image, limits)
    return _session


@atexit.register
def _close() -> None:
    if _session is not None and _session.pid == os.getpid():
        _session.close()


def run_cases(submission: Path, cases: list[list[str]], setup: list[str], support_files: Mapping[str, str | bytes],
              limits: Limits, names: list[str] | None, groups: Sequence[str] | None,
              on_result: "Callable[[int, CaseRun], object] | None", engine: Engine, image: str,
              startup_seconds: float) -> SandboxReport:
    """``grader.sandbox.run_cases`` at the container level (arguments already checked); ``startup_seconds``:
    what a sandbox inside may take to start, twice per submission at most."""
    try:
        files = submission_files(submission)
    except scratch_folder.Unusable as problem:
        return scratch_folder.not_run(cases, str(problem))
    request = {"files": {name: base64.b64encode(data).decode() for name, data in files.items()},
               "cases": cases, "setup": setup, "support": {name: base64.b64encode(
                   content.encode("utf-8") if isinstance(content, str) else content).decode()
                   for name, content in support_files.items()}, "names": names,
               "groups": None if groups is None else list(groups), "limits": dataclasses.asdict(limits)}
    session = _session_for(engine, image, limits)
    seconds = limits.batch_backstop + 2 * startup_seconds + 30
    deadline = time.monotonic() + seconds
    inner = session.grade(request, on_result, deadline, seconds)
    layers = (f"container ({engine.name})",) + inner.layers
    text = (f"container ({engine.name}, image {image}: no network, read-only root, a private /tmp, "
            f"memory and process limits, capabilities {', '.join(CAPABILITIES)} only, no new privileges), "
            f"inside it {inner.isolation}") if inner.level != "none" else inner.isolation
    return dataclasses.replace(inner, isolation=text, level="container" if inner.level != "none" else "none",
                               layers=layers if inner.level != "none" else ())


def submission_files(submission: Path) -> dict[str, bytes]:
    """The submission's files as the sandbox would copy them (hog.py and the student's other *.py);
    ``scratch.Unusable`` if they cannot be used or are too large to send."""
    hog, others = scratch_folder.submission_files(Path(submission))
    folder = Path(tempfile.mkdtemp(prefix="hog-container-"))
    try:
        scratch_folder.prepare(folder, hog, others, {})
        files = {path.name: path.read_bytes() for path in sorted(folder.iterdir())}
    finally:
        scratch_folder.remove(folder)
    if sum(map(len, files.values())) > SUBMISSION_BYTES:
        raise scratch_folder.Unusable(f"the submission's files are larger than {SUBMISSION_BYTES >> 20} MiB together")
    return files


# -- The results as plain data, both ways (the kit inside writes them, the grader reads them). --

def tagged(value):
    """A value the sandbox rebuilt, in the channel's tagged form again (``channel.rebuild`` reads it)."""
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if kind is int:
        return value if -channel.SMALL_INT < value < channel.SMALL_INT else ["i", hex(value)]
    if kind is float:
        return ["f", repr(value)]
    if kind in (list, tuple):
        kinds = set(map(type, value))
        if kinds == {int} and -channel.SMALL_INT < min(value) and max(value) < channel.SMALL_INT:
            return ["l" if kind is list else "t", *value]    # a row of a table: as it is
        return ["l" if kind is list else "t", *map(tagged, value)]
    if kind is dict:
        return ["d", *(part for key, item in value.items() for part in (tagged(key), tagged(item)))]
    if kind is channel.Function:
        return ["fn", value.name]
    raise TypeError(f"a value of type {kind.__name__} is not one the sandbox rebuilds")


def _numbered(items: list) -> list[tuple[int, CaseRun]]:
    """The cases of a "cases" message, each [number, run]; SandboxUnavailable if malformed."""
    if not all(type(item) is list and len(item) == 2 and type(item[0]) is int for item in items):
        raise SandboxUnavailable("the kit inside the container sent a result it never sends (a case's number)")
    return [(number, decode_run(run)) for number, run in items]


def encode_run(run: CaseRun) -> dict:
    return {"seconds": run.seconds, "steps": [[step.output, step.error, step.error_type, step.kind.value,
                                               None if step.value is None else tagged(step.value)]
                                              for step in run.steps]}


def encode_report(report: SandboxReport, sent: "dict[int, CaseRun]") -> dict:
    """The report; a case whose final result is the one ``sent`` already holds for it goes as null."""
    return {"cases": [None if sent.get(number) is run else encode_run(run) for number, run in enumerate(report.cases)],
            "import_error": report.import_error,
            "isolation": report.isolation, "stdout_during_import": report.stdout_during_import,
            "level": report.level, "layers": list(report.layers), "allowlist": report.allowlist}


def decode_run(data) -> CaseRun:
    try:
        steps = [StepResult(output, error, error_type, StepKind(kind),
                            None if value is None else channel.rebuild(value))
                 for output, error, error_type, kind, value in data["steps"]]
        if not all(type(step.output) is str and channel.optional_text(step.error)
                   and channel.optional_text(step.error_type) for step in steps):
            raise ValueError("a step's texts")
        return CaseRun(steps, float(data["seconds"]))
    except (TypeError, ValueError, KeyError, Tampered, RecursionError, MemoryError) as error:
        raise SandboxUnavailable(f"the kit inside the container sent a result it never sends ({error})") from None


def decode_report(data: dict, received: "dict[int, CaseRun]") -> SandboxReport:
    """The report; a null case is the one ``received`` holds for it (sent as it came)."""
    try:
        texts = [data[key] for key in ("isolation", "stdout_during_import", "level", "allowlist")]
        if not all(type(text) is str for text in texts) or not channel.optional_text(data["import_error"]) \
                or not all(type(layer) is str for layer in data["layers"]):
            raise ValueError("a field of the wrong type")
        cases = [received[number] if run is None else decode_run(run) for number, run in enumerate(data["cases"])]
        return SandboxReport(cases, data["import_error"], texts[0], texts[1],
                             texts[2], tuple(data["layers"]), texts[3])
    except (TypeError, ValueError, KeyError, IndexError) as error:
        raise SandboxUnavailable(f"the kit inside the container sent a report it never sends ({error})") from None
