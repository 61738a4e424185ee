"""The allowlist without Landlock: a tree holding only what the sandbox may read, entered with chroot.

Where the kernel (or a container engine's system call profile) refuses Landlock and namespaces,
a grader that runs as root still has ``chroot`` (CAP_SYS_CHROOT is in Docker's default set, and
its default profile allows the call with it). The sandbox's process then starts as root, enters
this tree and switches to its own uid (``harness``: ``enter_tree``) before any of the submission's
code runs; from then on nothing else of the machine exists for it, whatever that holds (a checkout
of the kit, a copy of the solutions, other users' files), and without the capability it cannot leave.

The tree holds, at their own paths: the interpreter, its standard library (never site-packages, never
the kit), the shared libraries the interpreter and its extension modules load (``ldd`` names them), the
loader's cache, the devices /dev/null, /dev/zero, /dev/urandom and /dev/random where they can be made,
and ``sandboxes/``, where each sandbox's scratch folder is made. Files are copies, folders on the way
can be passed through but not listed. The tree is made once per interpreter (the Gradescope bundle's ``setup.sh`` makes it when the image is built), in the kit's
private cache, made whole or not at all, and checked by entering it once per process.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

from grader import project
from grader.sandbox import namespaces

FOLDER = "files-tree"   # in the kit's cache; the bundle's setup.sh names it too (it leaves the modes inside as made)
FORMAT = 5              # changes whenever what a tree holds changes
SANDBOXES = "sandboxes"
COMPLETE = ".complete"  # written last: a tree without it is unfinished and is made again
DEVICES = {"/dev/null": (1, 3), "/dev/zero": (1, 5), "/dev/random": (1, 8), "/dev/urandom": (1, 9)}
PROBE_SECONDS = 60
# The standard library's entries the tree leaves out: installed packages (the kit may be one), and the
# interpreter's own tests, tools and windows, which no Hog submission is graded with.
LEFT_OUT = {"site-packages", "dist-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
            "pydoc_data"}
KEPT = 4                # trees kept in the cache (one per interpreter and kit version): the newest

_lock = threading.Lock()
_checked: dict[str, str | None] = {}


class TreeError(Exception):
    """The tree cannot be made or entered here; the message says why."""


def location(python: str) -> Path:
    """Where the tree of ``python`` lives (it may not exist yet)."""
    key = hashlib.sha256(f"{FORMAT}\n{python}\n{sys.version}\n{_stdlib()}".encode("utf-8")).hexdigest()[:20]
    return project.CACHE / FOLDER / key


def inside(folder: Path, tree: Path) -> str:
    """A scratch folder's path as the sandbox sees it once inside ``tree``."""
    return "/" + Path(folder).relative_to(tree).as_posix()


def unavailable(python: str) -> str | None:
    """None if a sandbox can be confined to the tree here (made if missing, entered once per process),
    else why not."""
    if sys.platform != "linux":
        return "chroot trees are made on Linux only"
    if os.geteuid() != 0:
        return "the grader does not run as root, so it cannot enter a tree of its own (chroot)"
    with _lock:
        if python not in _checked:
            try:
                _checked[python] = _probe(python, prepared(python))
            except (OSError, TreeError) as error:
                _checked[python] = f"the sandbox's file tree could not be made ({error})"
        return _checked[python]


def prepared(python: str) -> Path:
    """The tree of ``python``, made now if it is missing or unfinished."""
    tree = location(python)
    if (tree / COMPLETE).is_file():
        return tree
    tree.parent.mkdir(parents=True, exist_ok=True)
    project.CACHE.chmod(0o700)
    with open(tree.parent / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # one process makes it; the workers of a batch wait for it
        if not (tree / COMPLETE).is_file():
            _make(tree, python)
    return tree


def _make(tree: Path, python: str) -> None:
    building = Path(tempfile.mkdtemp(prefix="building-", dir=tree.parent))
    try:
        wanted = _wanted(python)
        _fill(building, wanted)
        (building / COMPLETE).write_text("\n".join(sorted(wanted)) + "\n", encoding="utf-8")
        building.chmod(0o711)
        shutil.rmtree(tree, ignore_errors=True)   # an unfinished one, left by a build that was stopped
        building.rename(tree)
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    made = sorted((folder for folder in tree.parent.iterdir() if (folder / COMPLETE).is_file()),
                  key=lambda folder: (folder / COMPLETE).stat().st_mtime, reverse=True)
    for old in made[KEPT:]:
        shutil.rmtree(old, ignore_errors=True)


def _stdlib() -> str:
    return os.path.realpath(sysconfig.get_paths()["stdlib"])


def _wanted(python: str) -> set[str]:
    """Every path the tree holds besides devices and sandboxes: the interpreter, the standard library's
    entries (not site-packages, nothing of the kit; not ``LEFT_OUT`` nor the static library to build
    against it), libpython, and the libraries all of them load."""
    stdlib, hidden = _stdlib(), namespaces.hidden_paths()
    paths = {python} | {os.path.join(stdlib, name) for name in os.listdir(stdlib)
                        if name not in LEFT_OUT and not name.startswith("config-")
                        and os.path.realpath(os.path.join(stdlib, name)) not in hidden}
    base_lib = os.path.join(os.path.realpath(sys.base_prefix), "lib")
    if os.path.isdir(base_lib):
        paths |= {os.path.join(base_lib, name) for name in os.listdir(base_lib) if name.startswith("libpython")}
    dynload = os.path.join(stdlib, "lib-dynload")
    elves = [python] + [path for path in paths if ".so" in os.path.basename(path)]
    if os.path.isdir(dynload):
        elves += [os.path.join(dynload, name) for name in os.listdir(dynload) if name.endswith(".so")]
    return paths | _loaded_by(elves) | ({"/etc/ld.so.cache"} if os.path.isfile("/etc/ld.so.cache") else set())


def _loaded_by(elves: list[str]) -> set[str]:
    """The shared libraries (and the loader) that ``elves`` load, as ``ldd`` resolves them."""
    ldd = shutil.which("ldd")
    if ldd is None:
        raise TreeError("ldd is not installed, so the libraries the interpreter loads cannot be listed")
    found: set[str] = set()
    for start in range(0, len(elves), 200):
        listed = subprocess.run([ldd, *elves[start:start + 200]], capture_output=True, text=True, timeout=120)
        for line in listed.stdout.splitlines():
            words = line.split()
            if "=>" in words and len(words) > words.index("=>") + 1 and words[words.index("=>") + 1].startswith("/"):
                found.add(words[words.index("=>") + 1])
            elif words and words[0].startswith("/") and not words[0].endswith(":"):
                found.add(words[0])
    return found


def _fill(building: Path, wanted: set[str]) -> None:
    for path in sorted(wanted):
        _add(building, path)
    (building / "dev").mkdir(exist_ok=True)
    for device, (major, minor) in DEVICES.items():
        try:
            os.mknod(building / device.lstrip("/"), stat.S_IFCHR | 0o666, os.makedev(major, minor))
            os.chmod(building / device.lstrip("/"), 0o666)
        except OSError:
            pass   # no CAP_MKNOD: Python needs none of them (it draws randomness with getrandom)
    # Whatever the umask: the sandbox's uid lists the folders it imports from (the standard library's),
    # and only passes through the folders on the way to them (it cannot list /root or /usr/lib).
    listed = tuple({_stdlib()} | {os.path.realpath(path) for path in wanted if os.path.isdir(path)})
    for folder, _folders, _files in os.walk(building):
        seen = "/" + os.path.relpath(folder, building).removeprefix(".")
        os.chmod(folder, 0o755 if any(seen == top or seen.startswith(top + "/") for top in listed) else 0o711)
    (building / SANDBOXES).mkdir(mode=0o711)
    (building / SANDBOXES).chmod(0o711)   # it reaches its own folder there, and lists nothing


def _add(building: Path, path: str) -> None:
    """``path`` into the tree at the same place: a symbolic link on the way as the same link (and what
    it points at), a folder with everything in it, a file linked or copied."""
    parts = Path(path).parts
    for depth in range(2, len(parts) + 1):
        current = os.path.join(*parts[:depth])
        if os.path.islink(current):
            target = building / current.lstrip("/")
            if not target.is_symlink():
                target.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(os.readlink(current), target)
            _add(building, os.path.join(os.path.realpath(current), *parts[depth:]))
            return
    if os.path.isdir(path):
        (building / path.lstrip("/")).mkdir(parents=True, exist_ok=True)
        for entry in sorted(os.listdir(path)):
            _add(building, os.path.join(path, entry))
    elif os.path.isfile(path) and ".opt-" not in os.path.basename(path):   # -O's compiled files: never run
        _file(path, building / path.lstrip("/"))


def _file(source: str, target: Path) -> None:
    """A copy, never a hard link: a link would make the tree's files the system's own, so that changing
    the cache's modes (``chmod -R`` on it) would change the interpreter's."""
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    target.chmod(0o755 if os.stat(source).st_mode & stat.S_IXUSR else 0o644)


def forget() -> None:
    """Enter the tree again at the next ``unavailable`` (``level.forget``)."""
    with _lock:
        _checked.clear()


def _probe(python: str, tree: Path) -> str | None:
    """None if the interpreter, entered into ``tree`` and out of root's uid, imports from the standard
    library there; else why not (the kit's tree is unusable here)."""
    code = ("import os, sys; os.chroot(sys.argv[1]); os.chdir('/'); os.setgroups([]); os.setgid(65534); "
            "os.setuid(65534); import json, decimal, ctypes; print('entered')")
    try:
        done = subprocess.run([python, "-S", "-s", "-B", "-P", "-c", code, str(tree)], capture_output=True,
                              text=True, timeout=PROBE_SECONDS, env=namespaces.environment("/"))
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"entering the sandbox's file tree failed ({error})"
    if done.returncode != 0 or done.stdout.strip() != "entered":
        lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
        return f"entering the sandbox's file tree (chroot) failed: {(lines[-1] if lines else done.returncode)}"
    return None
