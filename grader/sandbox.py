"""Run a student's hog.py against cases in a sandbox and bring back plain data.

Threat model
------------
A submission is untrusted code.  It may loop forever, sleep, exit, crash, fork,
allocate without end, write huge files, read the kit's own files (reference
solution, specs, grader), reach the network, rebind builtins or library
functions at import time, return objects that lie about their value, or write
forged results to any file descriptor it can find.  The grader must never run
it in its own process, and nothing the submission does may turn a failure into
a pass or move one case's result to another case.

What the sandbox does
---------------------
* The submission runs in a separate Python process, one per batch (a fresh one
  only after a case timed out, ended the process or tampered with the results).
  The process is started in a new session, with a clean environment, no
  site-packages, and a scratch directory holding only hog.py, the student's
  other ``*.py`` files and the kit's support files (which replace student
  copies of the same name).
* With bubblewrap (``bwrap``) that process sees only /usr, the Python install
  (its site-packages hidden), the scratch directory (read-only), a small empty
  /tmp and /dev/shm, and its own /proc: no /work, nothing of the home folder
  (beyond the Python install if it lives there), no network, no other
  processes.  Where bwrap is missing or fails its start-up check, or
  ``HOG_SANDBOX=process`` is set, the same process limits apply without file
  isolation, and ``SandboxReport.isolation`` says so and why.
* A submission whose hog.py is a symbolic link, not a regular file or
  unreadable is not run: the report gives that as its import error.
* Inside, ``grader/harness.py`` (passed with ``-c``, so no file can stand in
  for it) sets resource limits, drops every capability, dies with the grader,
  and installs a seccomp filter that refuses new processes and programs,
  signals to other processes, tracing, network sockets (and bind/connect),
  and every change to the file system: opening for writing or creating,
  rename, unlink, mkdir, link, truncate, chmod, chown, utime and the rest
  (see ``lockdown`` in harness.py).  Then it imports the submission.  The
  filter is the same in both modes: under bubblewrap it backs up the private
  view; without bubblewrap it is what keeps the submission from rewriting the
  grader's cache of hidden cases, the kit, or another student's result file.
  It cannot stop reading: without bubblewrap the submission can read whatever
  the grader's user can, and the report says file isolation was off.
* The filter needs a known machine type (x86_64, aarch64) and a kernel that
  accepts it; the harness says at "ready" whether it is in place.  Without
  it and without bubblewrap, nothing on disk is safe from a submission that
  runs as the grader's user (it could edit the kit itself, or read the key
  that signs the cache of hidden cases), and ``SandboxReport.isolation`` says
  the submission could read and write the grader's files.
* Expected answers never enter that process.  The grader side compares
  outputs; the sandbox only reports what happened.

Protocol
--------
The grader writes one JSON line per message to the harness's control pipe: a
configuration line, then one case at a time, each only after the previous
case's results are complete.  The harness answers on a dedicated result pipe
(never stdout or stderr, which the submission controls; stdout goes to
/dev/null, stderr is kept only to explain a failed start)::

    ["ready", unfiltered]        (unfiltered: null, or why there is no seccomp filter)
    ["import", ok, stdout, error, error_type]
    ["step", case, step, stdout, value, error, error_type]
    ["end", case]

Start-up (bwrap and the interpreter) ends at "ready"; the import allowance
(``case_seconds``) starts there.  Values are tagged plain data (see grader/harness.py); the grader rebuilds them
and computes ``repr`` itself, so a submission's ``__repr__`` is never trusted.
A function value is shown as ``<function NAME>``, NAME being its code object's
``co_name``.

The grader checks the stream strictly.  While case k is in flight, it accepts
only step messages for case k with the next step number, no step after an
error, then ``end`` for case k once every step ran or one failed, with nothing
further already waiting in the pipe.  A malformed, duplicate, out-of-order or
extra message marks the case involved as failed ("the result channel was
tampered with") and the batch goes on in a fresh process.  A message that
names a case which already ended fails that case, and the case that was
running is run again in a fresh process.  Because a case is only sent once the previous one is complete
and expected answers never reach the sandbox, a forged message can at most
claim an output for the case that is running right now, which the submission
could equally have produced by returning that value; it cannot shift results
between cases or hide a timeout, a crash or a failed check.
"""

from __future__ import annotations

import json
import math
import os
import re
import selectors
import shutil
import signal
import site
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

__all__ = ["Limits", "StepResult", "CaseRun", "SandboxReport", "run_cases"]


@dataclass(frozen=True)
class Limits:
    case_seconds: float = 5.0        # wall time per case
    total_seconds: float = 120.0     # wall time for the whole batch
    memory_bytes: int = 1 << 30      # RLIMIT_AS
    cpu_seconds: int = 60            # RLIMIT_CPU for the whole process
    file_bytes: int = 1 << 20        # RLIMIT_FSIZE
    processes: int = 64              # RLIMIT_NPROC where it applies


@dataclass
class StepResult:
    output: str
    error: str | None
    error_type: str | None


@dataclass
class CaseRun:
    steps: list[StepResult]
    seconds: float


@dataclass
class SandboxReport:
    cases: list[CaseRun]
    import_error: str | None
    isolation: str
    stdout_during_import: str


# Where the scratch directory appears inside bubblewrap.
INSIDE = "/submission"
# Time allowed for the interpreter (and bwrap) to start, before the import allowance begins.
STARTUP_SECONDS = 10.0
# Largest single message accepted from the sandbox.
MAX_LINE = 32 << 20
# Size of the sandbox's /tmp and /dev/shm under bubblewrap (each).
TMPFS_BYTES = 64 << 20
HARNESS = Path(__file__).with_name("harness.py")
# Whether the harness installs its seccomp filter; only tests turn it off, to see what the report says then.
SECCOMP = True
TAMPERED = "the result channel was tampered with"
_FLOAT = re.compile(r"-?(?:inf|nan|\d+(?:\.\d+)?(?:e[+-]\d+)?)")
_INT = re.compile(r"-?0x[0-9a-f]+")
_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


# ---------------------------------------------------------------------------
# Choosing the isolation
# ---------------------------------------------------------------------------

_probe_lock = threading.Lock()
_probe_cache: dict[tuple[str, str], str | None] = {}


def _bwrap_path() -> str | None:
    found = shutil.which("bwrap")
    if found:
        return found
    return "/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None


def _interpreter() -> str:
    """The real interpreter binary, which must live under sys.base_prefix or /usr."""
    base = os.path.realpath(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [getattr(sys, "_base_executable", None), sys.executable,
                  os.path.join(base, "bin", version), os.path.join(base, "bin", "python3")]
    for candidate in candidates:
        if not candidate:
            continue
        real = os.path.realpath(candidate)
        if os.access(real, os.X_OK) and (_inside(real, base) or _inside(real, "/usr")):
            return real
    return os.path.realpath(sys.executable)


def _inside(path: str, folder: str) -> bool:
    folder = folder.rstrip("/")
    return path == folder or path.startswith(folder + "/")


def _bwrap_arguments(bwrap: str, scratch: str, python: str) -> list[str]:
    args = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib32", "lib64", "sbin"):
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    if os.path.exists("/etc/ld.so.cache"):
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    bound = ["/usr", "/bin", "/lib", "/lib32", "/lib64", "/sbin"]
    for prefix in {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix),
                   os.path.dirname(os.path.dirname(python))}:
        if not any(_inside(prefix, folder) for folder in bound):
            args += ["--ro-bind", prefix, prefix]
            bound.append(prefix)
    # Hide installed packages (the kit itself may be installed there) and the kit.
    for hidden in sorted(_hidden_paths()):
        if os.path.isdir(hidden) and any(_inside(hidden, folder) for folder in bound):
            args += ["--tmpfs", hidden]
    args += ["--ro-bind", scratch, INSIDE]
    if _bwrap_has_size(bwrap):
        args += ["--size", str(TMPFS_BYTES)]
    args += ["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
    if _bwrap_has_size(bwrap):
        args += ["--size", str(TMPFS_BYTES)]
    args += ["--tmpfs", "/dev/shm", "--chdir", INSIDE, "--"]
    return args


def _hidden_paths() -> set[str]:
    paths = set()
    try:
        paths.update(site.getsitepackages())
    except AttributeError:
        pass
    user_site = site.getusersitepackages()
    if isinstance(user_site, str):
        paths.add(user_site)
    for scheme_vars in ({}, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        found = sysconfig.get_paths(vars=scheme_vars)
        paths.update(found[key] for key in ("purelib", "platlib"))
    package = Path(__file__).resolve().parent
    paths.update({str(package), str(package.parent)})
    return {os.path.realpath(path) for path in paths}


_size_cache: dict[str, bool] = {}


def _bwrap_has_size(bwrap: str) -> bool:
    if bwrap not in _size_cache:
        try:
            result = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
            _size_cache[bwrap] = "--size" in result.stdout + result.stderr
        except (OSError, subprocess.SubprocessError):
            _size_cache[bwrap] = False
    return _size_cache[bwrap]


def _probe(bwrap: str, python: str) -> str | None:
    """None if bwrap can start the interpreter here, else the reason it cannot."""
    folder = tempfile.mkdtemp(prefix="hog-sandbox-probe-")
    try:
        argv = _bwrap_arguments(bwrap, folder, python) + [python, "-S", "-s", "-B", "-c", "import ctypes"]
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=20, env=_environment(INSIDE))
    except subprocess.TimeoutExpired:
        return "bubblewrap did not start within 20 s"
    except OSError as error:
        return f"bubblewrap could not be started ({error.strerror})"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if result.returncode != 0:
        lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        detail = lines[-1] if lines else f"exit code {result.returncode}"
        return f"bubblewrap failed its start-up check: {detail}"
    return None


def _isolation() -> tuple[str | None, str]:
    """(bwrap path or None, text for SandboxReport.isolation)."""
    choice = os.environ.get("HOG_SANDBOX", "").strip().lower()
    if choice not in ("", "auto", "process", "bwrap", "bubblewrap"):
        raise ValueError(f"HOG_SANDBOX must be 'process', 'bwrap' or 'auto', not {choice!r}")
    if choice == "process":
        return None, "process limits only (file isolation off: HOG_SANDBOX=process is set)"
    bwrap = _bwrap_path()
    if bwrap is None:
        reason = "bubblewrap (bwrap) is not installed"
    else:
        key = (bwrap, _interpreter())
        with _probe_lock:
            if key not in _probe_cache:
                _probe_cache[key] = _probe(*key)
            reason = _probe_cache[key]
        if reason is None:
            return bwrap, "bubblewrap"
    if choice in ("bwrap", "bubblewrap"):
        raise RuntimeError(f"HOG_SANDBOX={choice} asks for bubblewrap, but {reason}")
    return None, f"process limits only (file isolation off: {reason})"


def _environment(home: str) -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "HOME": home}


# ---------------------------------------------------------------------------
# Preparing the scratch directory
# ---------------------------------------------------------------------------

def _submission_files(submission: Path) -> tuple[Path, list[Path]]:
    """hog.py and the student's other *.py files (only when given a folder)."""
    submission = Path(submission)
    if submission.is_dir():
        hog = submission / "hog.py"
        if not hog.exists() and not hog.is_symlink():
            raise FileNotFoundError(f"no hog.py in the submission folder {submission}")
        others = sorted(path for path in submission.glob("*.py")
                        if path.name != "hog.py" and path.is_file() and not path.is_symlink())
    elif submission.exists() or submission.is_symlink():
        hog, others = submission, []
    else:
        raise FileNotFoundError(f"the submission {submission} does not exist")
    if hog.is_symlink():
        raise _Unusable(f"{hog.name} is a symbolic link; the grader only takes the file itself "
                        "(submit a copy of the file, not a link to it)")
    if not hog.is_file():
        raise _Unusable(f"{hog.name} is not a regular file")
    return hog, others


class _Unusable(Exception):
    """The submission's own files cannot be graded: its fault, reported like an import error."""


NOT_RUN = "none needed (the submission was not run)"


def _not_run(cases: list[list[str]], problem: str) -> SandboxReport:
    note = f"the submission did not import: {problem}"
    return SandboxReport([_failed(note) for _ in cases], problem, NOT_RUN, "")


def _prepare(scratch: Path, hog: Path, others: list[Path], support_files: Mapping[str, str]) -> None:
    for path in others:
        if path.name not in support_files:
            _copy_regular(path, scratch / path.name)
    _copy_regular(hog, scratch / "hog.py")
    for name, text in support_files.items():
        (scratch / name).write_text(text, encoding="utf-8")
    for path in scratch.iterdir():
        path.chmod(0o644)
    scratch.chmod(0o755)


def _copy_regular(source: Path, target: Path) -> None:
    """Copy without following a symbolic link swapped in after the check."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(source, flags)
    except OSError as error:
        if source.is_symlink():
            raise _Unusable(f"{source.name} is a symbolic link; the grader only takes the file itself "
                            "(submit a copy of the file, not a link to it)") from None
        raise _Unusable(f"cannot read {source.name}: {error.strerror}") from None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise _Unusable(f"{source.name} is not a regular file")
        target.write_bytes(handle.read())


def _remove(scratch: Path) -> None:
    """Delete the scratch directory, even where the submission changed permissions inside."""
    def retry(function, path, _error):
        try:
            os.chmod(os.path.dirname(path), 0o700)
            os.chmod(path, 0o700)
            function(path)
        except OSError:
            pass

    if sys.version_info >= (3, 12):
        shutil.rmtree(scratch, onexc=retry)
    else:
        shutil.rmtree(scratch, onerror=retry)


def _check_arguments(cases, setup, support_files, limits, names) -> tuple[list[list[str]], list[str], list[str] | None]:
    if isinstance(cases, (str, bytes)):
        raise TypeError("cases must be a list of cases, each a list of steps")
    checked = []
    for number, case in enumerate(cases):
        if isinstance(case, (str, bytes)):
            raise TypeError(f"case {number} must be a list of steps, not a single string")
        steps = list(case)
        for step in steps:
            if not isinstance(step, str):
                raise TypeError(f"case {number} has a step that is not a string: {step!r}")
        checked.append(steps)
    if isinstance(setup, (str, bytes)) or not all(isinstance(step, str) for step in setup):
        raise TypeError("setup must be a list of strings")
    if names is not None and (isinstance(names, (str, bytes))
                              or not all(isinstance(name, str) for name in names)):
        raise TypeError("names must be a list of strings or None")
    for name, text in support_files.items():
        if not isinstance(text, str):
            raise TypeError(f"support file {name!r} must be given as text")
        if not _NAME.fullmatch(name) or name.startswith(".") or name == "hog.py":
            raise ValueError(f"support file name {name!r} must be a plain file name other than hog.py")
    for field in ("case_seconds", "total_seconds"):
        value = getattr(limits, field)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ValueError(f"Limits.{field} must be a positive number of seconds")
    for field in ("memory_bytes", "cpu_seconds", "file_bytes", "processes"):
        value = getattr(limits, field)
        if not isinstance(value, int) or value <= 0:
            raise ValueError(f"Limits.{field} must be a positive whole number")
    return checked, list(setup), None if names is None else list(names)


# ---------------------------------------------------------------------------
# One sandboxed process
# ---------------------------------------------------------------------------

def _seconds(value: float) -> str:
    return f"{value:g} s"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class _Event:
    __slots__ = ("kind", "message", "more", "detail")

    def __init__(self, kind: str, message=None, more: bool = False, detail: str = ""):
        self.kind, self.message, self.more, self.detail = kind, message, more, detail


class _Child:
    """A sandboxed interpreter running the harness, with its pipes."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str, bubblewrap: bool):
        self.bubblewrap = bubblewrap
        control_read, self.control = os.pipe()
        self.results, result_write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [*argv, str(control_read), str(result_write)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, pass_fds=(control_read, result_write),
                start_new_session=True, env=env, cwd=cwd)
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
        self.outbox = bytearray()
        self.error_tail = bytearray()
        self.ended = False
        self.closed = False
        self.cases_run: list[int] = []

    # -- writing --
    def send(self, message) -> None:
        self.outbox += json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode() + b"\n"
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
    def next(self, deadline: float) -> _Event:
        """The next message, or an event: 'timeout', 'ended' or 'bad'."""
        while True:
            newline = self.inbox.find(b"\n")
            if newline >= 0:
                line = bytes(self.inbox[:newline])
                del self.inbox[:newline + 1]
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    return _Event("bad", detail="a message that is not valid JSON")
                return _Event("message", message, more=bool(self.inbox))
            if len(self.inbox) > MAX_LINE:
                return _Event("bad", detail="a message larger than 32 MiB")
            if self.ended:
                return _Event("ended", more=bool(self.inbox))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _Event("timeout")
            for key, events in self.selector.select(remaining):
                descriptor = key.fd
                if descriptor == self.control:
                    self._flush()
                elif descriptor == self.results:
                    self._read_results()
                elif descriptor == self.stderr:
                    self._read_stderr()

    def _read_results(self) -> None:
        try:
            chunk = os.read(self.results, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            self.inbox += chunk
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
            return f"the submission's process was killed by {_signal_name(number)}{doing}"
        if code == 70 and not importing:
            return f"{TAMPERED}: the harness could not write its results"
        return f"the submission ended the process{doing} (exit code {code})"

    def error_output(self) -> str:
        lines = [line.strip() for line in self.error_tail.decode("utf-8", "replace").splitlines()]
        lines = [line for line in lines if line]
        return lines[-1][:500] if lines else ""

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
            inner = _descendants(self.process.pid) if self.bubblewrap else []
            for pid in inner:
                _kill(pid)
            _kill(self.process.pid)
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            _wait_gone(inner, 2.0)
        self.selector.close()
        for descriptor in (self.results,):
            try:
                os.close(descriptor)
            except OSError:
                pass
        self.process.stderr.close()


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _parents() -> dict[int, int]:
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rpartition(b")")[2].split()
            table[int(entry)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return table


def _descendants(root: int) -> list[int]:
    parents = _parents()
    found, frontier = [], [root]
    while frontier:
        current = frontier.pop()
        for pid, parent in parents.items():
            if parent == current:
                found.append(pid)
                frontier.append(pid)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def _wait_gone(pids: list[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.005)


# ---------------------------------------------------------------------------
# Checking what comes back
# ---------------------------------------------------------------------------

class _Tampered(Exception):
    pass


class _Function:
    """A function value as the grader shows it."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"<function {self.name}>"

    def __eq__(self, other) -> bool:
        return isinstance(other, _Function) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("function", self.name))


SKIPPED_AFTER_TIMEOUT = "not run: an earlier case of the same question ran out of time"
SMALL_INT = 1 << 53  # the harness sends integers below this as JSON numbers
_SCALARS = (int, bool, str, type(None))


def _rebuild(data, depth: int = 0, key: bool = False, count: list[int] | None = None):
    """Plain Python data from the tagged form; _Tampered if it is not well formed.

    The harness sends at most 100000 items nested at most 100 deep; anything
    bigger did not come from it.
    """
    count = [0] if count is None else count
    count[0] += 1
    if depth > 110 or count[0] > 110_000:
        raise _Tampered("a value larger than the harness ever sends")
    if data is None or type(data) is bool or type(data) is str:
        return data
    if type(data) is int:
        if not -SMALL_INT < data < SMALL_INT:
            raise _Tampered("a large integer outside its tagged form")
        return data
    if type(data) is not list or not data or type(data[0]) is not str:
        raise _Tampered("a value in an unknown form")
    tag, items = data[0], data[1:]
    if tag == "i" and len(items) == 1 and type(items[0]) is str and _INT.fullmatch(items[0]) \
            and len(items[0]) <= 2_000_000:
        return int(items[0], 16)
    if tag == "f" and len(items) == 1 and type(items[0]) is str and _FLOAT.fullmatch(items[0]):
        return float(items[0])
    if tag == "t":
        return tuple(_rebuild(item, depth + 1, key, count) for item in items)
    if key:
        raise _Tampered("a dictionary key that is not hashable plain data")
    if tag == "l":
        if all(type(item) in _SCALARS for item in items):  # the common case: a table of numbers
            count[0] += len(items)
            if count[0] > 110_000 or any(type(item) is int and not -SMALL_INT < item < SMALL_INT
                                         for item in items):
                raise _Tampered("a value larger than the harness ever sends")
            return items
        return [_rebuild(item, depth + 1, False, count) for item in items]
    if tag == "d" and len(items) % 2 == 0:
        return {_rebuild(items[i], depth + 1, True, count): _rebuild(items[i + 1], depth + 1, False, count)
                for i in range(0, len(items), 2)}
    if tag == "fn" and len(items) == 1 and type(items[0]) is str:
        return _Function(items[0])
    raise _Tampered("a value in an unknown form")


def _optional_text(value) -> bool:
    return value is None or type(value) is str


def _step_result(message) -> tuple[int, int, StepResult]:
    if len(message) != 7:
        raise _Tampered("a step message of the wrong length")
    _, case, step, stdout, value, error, error_type = message
    if type(case) is not int or type(step) is not int or type(stdout) is not str \
            or not _optional_text(error) or not _optional_text(error_type):
        raise _Tampered("a step message with fields of the wrong type")
    if error is None and error_type is not None:
        raise _Tampered("an error type without an error")
    output = stdout
    if value is not None:
        if error is not None:
            raise _Tampered("a value together with an error")
        shown = _rebuild(value)
        if shown is not None:
            try:
                output += repr(shown) + "\n"
            except (ValueError, RecursionError, MemoryError):
                return case, step, StepResult(stdout, "returned a value too large to show", None)
    return case, step, StepResult(output, error, error_type)


# ---------------------------------------------------------------------------
# The batch
# ---------------------------------------------------------------------------

_harness_text: list[str] = []


def _harness_source() -> str:
    if not _harness_text:
        _harness_text.append(HARNESS.read_text(encoding="utf-8"))
    return _harness_text[0]


def _failed(message: str, error_type: str | None = None, seconds: float = 0.0,
            steps: list[StepResult] | None = None) -> CaseRun:
    return CaseRun(list(steps or []) + [StepResult("", message, error_type)], seconds)


class _Batch:
    def __init__(self, scratch: Path, bwrap: str | None, isolation: str, cases: list[list[str]],
                 setup: list[str], names: list[str] | None, limits: Limits, groups: Sequence[str] | None = None):
        self.cases, self.limits, self.isolation = cases, limits, isolation
        self.groups, self.timed_out = groups, set()
        self.started = False             # whether any process reached "ready"
        self.unfiltered: list[str] = []  # why a process ran without the seccomp filter
        python = _interpreter()
        # -S -s -P and a clean environment give what -I would, while keeping
        # PYTHONHASHSEED=0 (which -I, through -E, would ignore).
        command = [python, "-S", "-s", "-B", "-P", "-c", _harness_source()]
        if bwrap:
            self.argv = _bwrap_arguments(bwrap, str(scratch), python) + command
            folder = INSIDE
        else:
            self.argv = command
            folder = str(scratch)
        self.bubblewrap = bwrap is not None
        self.cwd = str(scratch)
        self.env = _environment(folder)
        self.config = {"dir": folder, "setup": setup, "names": names,
                       "mode": "bwrap" if bwrap else "process", "parent": os.getpid(), "filter": SECCOMP,
                       "limits": {"memory_bytes": limits.memory_bytes, "cpu_seconds": limits.cpu_seconds,
                                  "file_bytes": limits.file_bytes, "processes": limits.processes}}

    def run(self) -> SandboxReport:
        limits = self.limits
        total = _seconds(limits.total_seconds)
        results: list[CaseRun | None] = [None] * len(self.cases)
        import_error: str | None = None
        import_stdout = ""
        start = time.monotonic()
        self.total_deadline = start + limits.total_seconds
        index = 0
        first = True
        while first or index < len(self.cases):
            if time.monotonic() >= self.total_deadline:
                break
            child = _Child(self.argv, self.env, self.cwd, self.bubblewrap)
            try:
                child.send(self.config)
                ok, stdout, error, error_type = self._import(child)
                if not ok:
                    if first:
                        import_error = error
                        note = f"the submission did not import: {error}"
                    else:
                        note = f"the submission did not import when the sandbox restarted: {error}"
                    for later in range(index, len(self.cases)):
                        results[later] = _failed(note, error_type)
                    index = len(self.cases)
                    break
                if first:
                    import_stdout = stdout
                first = False
                restart = False
                while index < len(self.cases):
                    if time.monotonic() >= self.total_deadline:
                        break
                    if self.groups and self.groups[index] in self.timed_out:
                        results[index] = _failed(SKIPPED_AFTER_TIMEOUT)
                        index += 1
                        continue
                    run, keep, earlier = self._case(child, index)
                    for number in earlier:
                        results[number] = _failed(f"{TAMPERED}: a message about this case came "
                                                  "after it had ended", seconds=results[number].seconds)
                    if earlier:
                        # The running case was disturbed by another case's messages:
                        # run it again in a fresh process rather than blame it.
                        restart = True
                        break
                    results[index] = run
                    if self.groups and run.steps and (run.steps[-1].error or "").startswith("Timeout"):
                        self.timed_out.add(self.groups[index])
                    index += 1
                    if not keep:
                        restart = True
                        break
                if restart:
                    child.kill()
                else:
                    child.finish()
            finally:
                child.kill()
            if not restart:
                break
        for number, run in enumerate(results):
            if run is None:
                results[number] = _failed(f"not run: the whole batch ran longer than {total}")
        return SandboxReport(results, import_error, self._isolation_text(), import_stdout)

    def _isolation_text(self) -> str:
        """What isolated the submission, as the report says it."""
        if not self.started:
            return self.isolation
        if self.unfiltered:
            why = "; ".join(self.unfiltered)
            if self.bubblewrap:
                return f"{self.isolation} (no system call filter: {why})"
            return (f"{self.isolation[:-1]}; no system call filter either: {why}, so the submission "
                    "could read and write the grader's files)")
        if self.bubblewrap:
            return self.isolation
        return (f"{self.isolation[:-1]}; the system call filter refused every change to files, "
                "but the submission could read the grader's files)")

    def _import(self, child: _Child) -> tuple[bool, str, str | None, str | None]:
        allowance = self.limits.case_seconds
        event = child.next(min(time.monotonic() + STARTUP_SECONDS, self.total_deadline))
        # Nothing of the submission's has run before "ready"; what follows it is checked below.
        message = event.message
        if event.kind == "message" and type(message) is list and len(message) == 2 \
                and message[0] == "ready" and _optional_text(message[1]):
            self.started = True
            if message[1] is not None and message[1] not in self.unfiltered:
                self.unfiltered.append(message[1][:200])
            deadline = min(time.monotonic() + allowance, self.total_deadline)
            event = child.next(deadline)
            starting = False
        else:
            deadline = self.total_deadline
            starting = event.kind != "message"
        if event.kind == "timeout":
            if time.monotonic() >= self.total_deadline:
                why = f"the whole batch ran longer than {_seconds(self.limits.total_seconds)}"
            elif starting:
                why = f"the sandbox did not start within {_seconds(STARTUP_SECONDS)}"
            else:
                why = f"importing the submission took longer than {_seconds(allowance)}"
            return False, "", f"Timeout: {why}", None
        if event.kind == "ended":
            if starting:
                message = "the sandbox process ended before the submission was imported"
            else:
                message = child.how_it_ended(importing=True)
            said = child.error_output()
            if said:
                message += f"; its last line of error output was: {said}"
            return False, "", message, None
        message = event.message
        if event.kind == "bad" or event.more or type(message) is not list or len(message) != 5 \
                or message[0] != "import" or type(message[1]) is not bool \
                or type(message[2]) is not str or not _optional_text(message[3]) \
                or not _optional_text(message[4]) or (message[1] != (message[3] is None)):
            return False, "", f"{TAMPERED} while the submission was importing", None
        return message[1], message[2], message[3], message[4]

    def _case(self, child: _Child, index: int) -> tuple[CaseRun, bool, list[int]]:
        """Run one case.

        Returns its result, whether the process may run the next case, and the
        earlier cases (run by this process) that a late message showed to be
        tampered with; when there are any, the result is to be discarded.
        """
        steps = self.cases[index]
        start = time.monotonic()
        deadline = min(start + self.limits.case_seconds, self.total_deadline)
        child.send({"case": index, "steps": steps})
        done: list[StepResult] = []
        errored = False
        while True:
            event = child.next(deadline)
            elapsed = time.monotonic() - start
            if event.kind == "timeout":
                if deadline >= self.total_deadline and self.total_deadline < start + self.limits.case_seconds:
                    why = f"Timeout: the whole batch ran longer than {_seconds(self.limits.total_seconds)}"
                else:
                    why = f"Timeout: the case ran longer than {_seconds(self.limits.case_seconds)}"
                return _failed(why, None, elapsed, done), False, []
            if event.kind == "ended":
                return _failed(child.how_it_ended(), None, elapsed, done), False, []
            if event.kind == "bad":
                return _failed(f"{TAMPERED}: {event.detail}", None, elapsed), False, []
            message = event.message
            try:
                if type(message) is not list or not message or message[0] not in ("step", "end"):
                    raise _Tampered("a message of an unknown kind")
                if type(message[1] if len(message) > 1 else None) is int and 0 <= message[1] < index:
                    earlier = [message[1]] if message[1] in child.cases_run else []
                    raise _Tampered("a message about an earlier case", earlier)
                if message[0] == "end":
                    if len(message) != 2 or message[1] != index or type(message[1]) is not int:
                        raise _Tampered("an end message for another case")
                    if not errored and len(done) != len(steps):
                        raise _Tampered("the case ended before all of its steps ran")
                    if event.more:
                        raise _Tampered("more messages after the case ended")
                    child.cases_run.append(index)
                    return CaseRun(done, elapsed), True, []
                case, step, result = _step_result(message)
                if case != index:
                    raise _Tampered("a step message for another case")
                if errored or step != len(done) or step >= len(steps):
                    raise _Tampered("a step message out of order or repeated")
                done.append(result)
                errored = result.error is not None
            except _Tampered as problem:
                earlier = problem.args[1] if len(problem.args) > 1 else []
                return _failed(f"{TAMPERED}: {problem.args[0]}", None, elapsed), False, earlier


def run_cases(submission: Path, cases: Sequence[Sequence[str]], *,
              setup: Sequence[str] = ("from hog import *",),
              support_files: Mapping[str, str] = {}, limits: Limits = Limits(),
              names: Sequence[str] | None = None, groups: Sequence[str] | None = None) -> SandboxReport:
    """Run each case (a list of steps typed at the >>> prompt) against a submission.

    ``submission`` is a hog.py file or a folder holding one (then the student's
    other top-level *.py files come along, except names in ``support_files``).
    Every case gets a CaseRun, in order, whatever happened.  Bad arguments
    raise TypeError, ValueError or FileNotFoundError with a message for the user.
    A submission whose files cannot be used (hog.py is a symbolic link, not a
    regular file, or unreadable) is the submission's fault, not the caller's:
    it is reported like an import error (``import_error`` says why, every case
    fails with it) and nothing is run.

    ``groups`` labels each case (e.g. with its question); once a case runs out
    of time, the later cases of its group are not run, so one endless loop costs
    one case's time limit per group rather than per case.
    """
    checked, setup_steps, name_list = _check_arguments(cases, setup, support_files, limits, names)
    if groups is not None and (len(groups) != len(checked) or not all(type(g) is str for g in groups)):
        raise ValueError("groups must give one text label per case")
    try:
        hog, others = _submission_files(Path(submission))
    except _Unusable as problem:
        return _not_run(checked, str(problem))
    bwrap, isolation = _isolation()
    scratch = Path(tempfile.mkdtemp(prefix="hog-sandbox-"))
    try:
        try:
            _prepare(scratch, hog, others, support_files)
        except _Unusable as problem:
            return _not_run(checked, str(problem))
        batch = _Batch(scratch, bwrap, isolation, checked, setup_steps, name_list, limits, groups)
        return batch.run()
    finally:
        _remove(scratch)
