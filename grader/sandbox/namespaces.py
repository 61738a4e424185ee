"""The bubblewrap layer: a private view of the file system, network, processes and IPC.

Used at the ``bubblewrap`` level only.  The submission then sees /usr, the
Python runtime (its site-packages hidden), its scratch folder (read-only), a
small empty /tmp and /dev/shm and its own /proc; nothing of /work or the home
folder, no network, no other processes.  ``probe`` says whether bwrap can
start the interpreter here (it cannot in most containers, which refuse user
namespaces).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

from grader.project import signed_cache
from grader.sandbox import scratch_space

# Where the scratch directory appears inside bubblewrap.
INSIDE = "/submission"
# Size of the sandbox's /tmp and /dev/shm under bubblewrap (each).
TMPFS_BYTES = 64 << 20
# How long the probe waits for bwrap to start the interpreter once.
PROBE_SECONDS = 60

_lock = threading.Lock()
_probed: dict[tuple[str, str], str | None] = {}
_size_cache: dict[str, bool] = {}


def bwrap_path() -> str | None:
    found = shutil.which("bwrap")
    if found:
        return found
    return "/usr/bin/bwrap" if os.access("/usr/bin/bwrap", os.X_OK) else None


def interpreter() -> str:
    """The real interpreter binary, which must live under sys.base_prefix or /usr."""
    base = os.path.realpath(sys.base_prefix)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [getattr(sys, "_base_executable", None), sys.executable,
                  os.path.join(base, "bin", version), os.path.join(base, "bin", "python3")]
    for candidate in candidates:
        if not candidate:
            continue
        real = os.path.realpath(candidate)
        if os.access(real, os.X_OK) and (inside(real, base) or inside(real, "/usr")):
            return real
    return os.path.realpath(sys.executable)


def inside(path: str, folder: str) -> bool:
    folder = folder.rstrip("/")
    return path == folder or path.startswith(folder + "/")


def environment(home: str) -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1", "HOME": home}


def hidden_paths() -> set[str]:
    """Installed packages (the kit itself may be installed there) and the kit."""
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
    package = Path(__file__).resolve().parent.parent
    paths.update({str(package), str(package.parent)})
    return {os.path.realpath(path) for path in paths}


def bwrap_arguments(bwrap: str, scratch: str, python: str) -> list[str]:
    """bwrap's command line for a sandbox of the folder ``scratch`` (what it mounts around that folder
    is worked out once per process)."""
    before, after = _around_scratch(bwrap, python)
    return [*before, "--ro-bind", scratch, INSIDE, *after]


@functools.lru_cache(maxsize=4)
def _around_scratch(bwrap: str, python: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
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
        if not any(inside(prefix, folder) for folder in bound):
            args += ["--ro-bind", prefix, prefix]
            bound.append(prefix)
    for hidden in sorted(hidden_paths()):
        if os.path.isdir(hidden) and any(inside(hidden, folder) for folder in bound):
            args += ["--tmpfs", hidden]
    after = ["--size", str(TMPFS_BYTES)] if _has_size(bwrap) else []
    after += ["--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev"]
    if _has_size(bwrap):
        after += ["--size", str(TMPFS_BYTES)]
    after += ["--tmpfs", "/dev/shm", "--chdir", INSIDE, "--"]
    return tuple(args), tuple(after)


def _has_size(bwrap: str) -> bool:
    """Whether ``bwrap`` takes ``--size`` (bubblewrap 0.5 and later), as its ``--help`` says: asked once per
    bwrap binary (its path, inode, size and time) and kept in the grader's private cache, rather than
    asked again by every ``hog grade``'s new process, each waiting on a process of its own for it."""
    if bwrap not in _size_cache:
        try:
            found = os.stat(bwrap)
        except OSError:
            _size_cache[bwrap] = False
            return False
        key = hashlib.sha256(f"{bwrap}\n{found.st_ino}\n{found.st_size}\n{found.st_mtime_ns}".encode()).hexdigest()[:24]
        _size_cache[bwrap] = signed_cache.kept("bwrap", f"size-{key}.json", key, "bubblewrap's options",
                                               lambda: _asked_size(bwrap), load=signed_cache.json_of(bool),
                                               dump=lambda known: json.dumps(known).encode("ascii"),
                                               keep=("size-*.json", 4))
    return _size_cache[bwrap]


def _asked_size(bwrap: str) -> bool:
    try:
        result = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return False
    return "--size" in result.stdout + result.stderr


def unavailable() -> str | None:
    """None if bubblewrap can start the interpreter here, else why not (probed once per process)."""
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    key = (bwrap, interpreter())
    with _lock:
        if key not in _probed:
            _probed[key] = _probe(*key)
        return _probed[key]


def forget() -> None:
    """Probe again at the next ``unavailable`` (``level.forget``)."""
    with _lock:
        _probed.clear()
    _around_scratch.cache_clear()


def _probe(bwrap: str, python: str) -> str | None:
    folder = str(scratch_space.sandbox_folder(prefix="hog-sandbox-probe-"))
    try:
        argv = bwrap_arguments(bwrap, folder, python) + [python, "-S", "-s", "-B", "-P", "-c", "import ctypes"]
        result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=PROBE_SECONDS, env=environment(INSIDE))
    except subprocess.TimeoutExpired:
        return f"bubblewrap did not start within {PROBE_SECONDS} s"
    except OSError as error:
        return f"bubblewrap could not be started ({error.strerror})"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if result.returncode != 0:
        lines = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        detail = lines[-1] if lines else f"exit code {result.returncode}"
        return f"bubblewrap failed its start-up check: {detail[:200]}"
    return None
