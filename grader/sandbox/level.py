"""Choosing the isolation level: named, ordered, and never lowered in silence.

``process`` < ``files`` < ``bubblewrap``, and ``container`` beside bubblewrap:

* ``process``: resource limits and the system call filter; the submission
  could read whatever the grader's user can read.
* ``files``: ``process`` plus an allowlist of what the submission may read: the
  Python standard library, the system libraries it loads and the scratch folder;
  no /proc, no terminal, nothing else whatever the machine holds. Landlock makes
  it where the kernel allows it, with, where the grader is root, a uid of the
  sandbox's own.  Needs no namespaces, so it is what a container (Gradescope's
  Docker) reaches.  Where Landlock is refused (older kernels and container
  engines), a root grader makes it with chroot: a tree holding only those files
  (``grader.sandbox.tree``), entered before the switch to the sandbox's uid.
  Where neither can be had, the level is not reached.
* ``bubblewrap``: ``process`` plus a private file-system view, network and
  process namespace.
* ``container``: the kit's own sandbox at ``files`` run inside a container of
  Docker or Podman (``grader.sandbox.container``): no network, a read-only
  root, no folder of the host, the engine's namespaces and cgroup limits.  It
  holds what ``files`` holds plus namespaces of its own, so it meets any
  minimum, bubblewrap's included; it ranks last.  But it starts an engine and
  needs an image, so it is used only when named: ``--isolation container``
  (or ``HOG_ISOLATION=container``) as the minimum, or ``HOG_SANDBOX=container``;
  never chosen on its own, so the choice where nothing names it stays
  bubblewrap, else files, else process.  Where the minimum cannot be reached
  and an engine answers, the error says to ask for it.

The caller names a minimum (``--isolation``); ``HOG_ISOLATION`` is the default when it names none.  ``HOG_SANDBOX``
names exactly the level to use (default: the highest one available), so an
operator or a test can run a given level on purpose.  When the minimum, or the
level HOG_SANDBOX names, cannot be reached, ``choose`` raises
``SandboxUnavailable`` with why; a HOG_SANDBOX level below the minimum is a
UsageError.
"""

from __future__ import annotations

import enum
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from grader import project
from grader.errors import UsageError
from grader.sandbox import engine as engines, namespaces, tree, user
from grader.sandbox.model import SandboxUnavailable


class Level(enum.IntEnum):
    PROCESS = 1
    FILES = 2
    BUBBLEWRAP = 3
    CONTAINER = 4       # beside bubblewrap, used only when named (the module's docstring)

    @property
    def label(self) -> str:
        return self.name.lower()


NAMES = {"process": Level.PROCESS, "files": Level.FILES, "bubblewrap": Level.BUBBLEWRAP,
         "bwrap": Level.BUBBLEWRAP, "container": Level.CONTAINER}
assert tuple(level.label for level in Level) == project.ISOLATION_LEVELS


def parse(name: "str | Level", where: str) -> Level:
    """A level from its name; UsageError naming ``where`` it came from otherwise."""
    if isinstance(name, Level):
        return name
    found = NAMES.get(str(name).strip().lower())
    if found is None:
        raise UsageError(f"{where}={name!r} is not an isolation level: use process, files, bubblewrap "
                         "(from least to most isolated) or container (Docker or Podman)")
    return found


@dataclass(frozen=True)
class Choice:
    level: Level
    bwrap: str | None              # the bwrap binary, at the bubblewrap level
    uid_drop: bool                 # whether each sandbox runs under a uid of its own (files level)
    notes: tuple[str, ...]         # why higher levels (or the uid, or Landlock) are not in use
    landlock: bool = True          # whether Landlock makes the allowlist (files level)
    tree: str | None = None        # else the file tree the sandbox enters with chroot (files level)
    engine: engines.Engine | None = None   # Docker or Podman, and the kit's image in it (container level)
    image: str | None = None

    @property
    def allowlist(self) -> str:
        """The layer that limits what the submission may read: "bubblewrap", "Landlock", "chroot", or
        "none" (the process level)."""
        if self.level is Level.BUBBLEWRAP:
            return "bubblewrap"
        if self.level is Level.FILES:
            return "Landlock" if self.landlock else "chroot"
        return "none"

    def seen_inside(self, folder: Path) -> str:
        """A scratch folder's path as the sandbox sees it: under bubblewrap, in a chroot tree, or as it is."""
        if self.level is Level.BUBBLEWRAP:
            return namespaces.INSIDE
        return tree.inside(folder, Path(self.tree)) if self.tree else str(folder)


def minimum_from(default: "str | Level | None", otherwise: Level = Level.PROCESS) -> Level:
    """The minimum: the caller's (``--isolation``), else ``HOG_ISOLATION``, else ``otherwise`` (the
    sandbox's own default is ``process``; the grading verbs ask for ``files``). The one reader of
    HOG_ISOLATION."""
    if default is not None:
        return parse(default, "minimum")
    named = os.environ.get("HOG_ISOLATION", "").strip()
    return parse(named, "HOG_ISOLATION") if named else otherwise


def _wanted() -> str | None:
    """What HOG_SANDBOX names, or None when it names no level ("" or "auto")."""
    wanted = os.environ.get("HOG_SANDBOX", "").strip()
    return None if wanted in ("", "auto") else wanted


def container_named(minimum: "str | Level | None" = None) -> bool:
    """Whether the container level is asked for: by HOG_SANDBOX, else as the minimum."""
    wanted = _wanted()
    if wanted is not None:
        return parse(wanted, "HOG_SANDBOX") is Level.CONTAINER
    return minimum_from(minimum) is Level.CONTAINER


def expected() -> Choice | None:
    """The level the sandbox is expected to reach when nothing forces one, without probing:
    bubblewrap where bwrap is installed; None otherwise (``grader.sandbox.early`` starts nothing)."""
    if _wanted() is not None or namespaces.bwrap_path() is None:
        return None
    return _reached(Level.BUBBLEWRAP, [])


def choose(minimum: "str | Level | None" = None) -> Choice:
    """The highest level available (or exactly the one HOG_SANDBOX names), at least the minimum."""
    least = minimum_from(minimum)
    wanted = _wanted()
    exact = None if wanted is None else parse(wanted, "HOG_SANDBOX")
    if exact is not None and exact < least:
        raise UsageError(f"HOG_SANDBOX={wanted} is below the isolation required ({least.label}); "
                         f"unset HOG_SANDBOX or lower the minimum (HOG_ISOLATION, --isolation)")
    if exact is Level.CONTAINER or (exact is None and least is Level.CONTAINER):
        return _container(f"HOG_SANDBOX={wanted} asks for the container level" if exact is not None
                          else "isolation 'container' is required")
    notes: list[str] = [f"HOG_SANDBOX={wanted} is set"] if exact is not None and exact < Level.BUBBLEWRAP else []
    for candidate in (Level.BUBBLEWRAP, Level.FILES):
        if exact is not None and candidate is not exact:
            continue
        found = (namespaces.unavailable() or _reached(candidate, notes)) if candidate is Level.BUBBLEWRAP \
            else _files(notes)
        if not isinstance(found, str):
            chosen = found
            break
        problem = found    # why the candidate cannot be reached
        if exact is not None:
            raise SandboxUnavailable(f"HOG_SANDBOX={wanted} asks for the {exact.label} level, but {problem}")
        notes.append(problem)
    else:
        chosen = Choice(Level.PROCESS, None, False, tuple(notes))
    if chosen.level < least:
        raise SandboxUnavailable(
            f"isolation '{least.label}' is required, but only '{chosen.level.label}' can be reached here: "
            f"{'; '.join(notes)}. {_elsewhere()}")
    return chosen


def forget() -> None:
    """Forget what was probed of the levels here (bubblewrap's start, the chroot tree's entry, the container
    engine's answer), so that the next ``choose`` probes again: after a fault of the machine, a level that
    vanished (or came back) is seen as it is now."""
    namespaces.forget()
    tree.forget()
    engines.forget()


def _elsewhere() -> str:
    """What to do when the minimum cannot be reached: the container level where an engine answers."""
    found = engines.find()
    if isinstance(found, engines.Engine):
        return (f"A container engine ({found.name}) answers here: grade with --isolation container (the kit's "
                "sandbox inside a container; 'hog container build' makes its image), or lower the minimum "
                "(HOG_ISOLATION or --isolation) if you accept less.")
    return ("Run where it can be reached, grade with --isolation container where Docker or Podman runs, or lower "
            "the minimum (HOG_ISOLATION or --isolation) if you accept less.")


def _container(why: str) -> Choice:
    """The container level: an engine that answers and holds this kit's image; else SandboxUnavailable."""
    problem = engines.unavailable()
    if problem is not None:
        raise SandboxUnavailable(f"{why}, but {problem}")
    found = engines.find()
    return Choice(Level.CONTAINER, None, False, (), engine=found, image=engines.image())


def reachable() -> list[tuple[Level, str | None]]:
    """Each level and None where it can be reached here, else why not (``hog doctor``); the container level
    where an engine answers (its image is made on first use)."""
    files = _files([])
    return [(Level.PROCESS, None),
            (Level.FILES, files if isinstance(files, str) else None),
            (Level.BUBBLEWRAP, namespaces.unavailable()),
            (Level.CONTAINER, engines.find() if isinstance(engines.find(), str) else None)]


def _reached(candidate: Level, notes: list[str]) -> Choice:
    if candidate is Level.BUBBLEWRAP:
        return Choice(Level.BUBBLEWRAP, namespaces.bwrap_path(), False, ())
    why_not = user.unavailable(namespaces.interpreter())
    return Choice(Level.FILES, None, why_not is None, tuple(notes + ([why_not] if why_not else [])))


def _files(notes: list[str]) -> "Choice | str":
    """The files level with Landlock (and the uid where it can be had), else with a chroot tree and the
    sandbox's own uid; else why the level cannot be reached."""
    no_landlock = landlock_unavailable()
    if no_landlock is None:
        return _reached(Level.FILES, notes)
    python = namespaces.interpreter()
    no_tree = tree.unavailable(python)
    if no_tree is not None:
        return f"{no_landlock}, and {no_tree}"
    return Choice(Level.FILES, None, True, tuple(notes + [no_landlock]), landlock=False,
                  tree=str(tree.location(python)))


def landlock_unavailable() -> str | None:
    """None if this kernel offers Landlock to an unprivileged process, else why not."""
    if sys.platform != "linux":
        return "Landlock needs Linux"
    import ctypes   # here: only the files level asks, and the other levels need no ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(ctypes.c_long(444), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        return f"the kernel offers no Landlock (errno {ctypes.get_errno()})"
    return None


def readable_paths(scratch: str) -> list[str]:
    """What a ``files``-level sandbox may read: standard library (no site-packages), system libraries, scratch."""
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    hidden = namespaces.hidden_paths()
    paths = [os.path.join(stdlib, name) for name in sorted(os.listdir(stdlib))
             if name not in ("site-packages", "dist-packages")
             and os.path.realpath(os.path.join(stdlib, name)) not in hidden]
    base_lib = os.path.join(os.path.realpath(sys.base_prefix), "lib")
    if os.path.isdir(base_lib):
        paths += [os.path.join(base_lib, name) for name in sorted(os.listdir(base_lib))
                  if name.startswith("libpython")]
    multiarch = sysconfig.get_config_var("MULTIARCH") or f"{os.uname().machine}-linux-gnu"
    paths += [f"/usr/lib/{multiarch}", f"/lib/{multiarch}", "/lib64", "/usr/lib64", "/etc/ld.so.cache",
              "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", scratch]
    return paths


def layers(choice: Choice, slot_uid: int | None, filtered: bool) -> tuple[str, ...]:
    """The layers that held, by name: "namespaces (bubblewrap)", "Landlock", "own uid N", "seccomp"."""
    held = ["namespaces (bubblewrap)"] if choice.level is Level.BUBBLEWRAP else []
    if choice.level is Level.FILES:
        held.append(choice.allowlist)
    if choice.level is Level.FILES and slot_uid is not None:
        held.append(f"own uid {slot_uid}")
    return tuple(held + (["seccomp"] if filtered else []))


def describe(choice: Choice, slot_uid: int | None, filtered: bool = True) -> str:
    """The first part of SandboxReport.isolation, naming the layers that held."""
    named = ", ".join(layers(choice, slot_uid, filtered))
    if choice.level is Level.BUBBLEWRAP:
        return "bubblewrap"     # the report's word for it since the first release (SandboxReport.layers lists them)
    if choice.level is Level.FILES and choice.landlock:
        who = f"its own uid {slot_uid}" if slot_uid is not None else \
            f"the grader's uid ({'; '.join(choice.notes[-1:]) or 'no uid switch'})"
        return (f"files (layers: {named}; Landlock: only the Python standard library, system libraries and "
                f"the submission's folder readable; no namespaces; ran as {who})")
    if choice.level is Level.FILES:
        return (f"files (layers: {named}; no Landlock: {choice.notes[-1]}; chroot: only the Python standard "
                "library, the system libraries it loads and the submission's folder exist for it, no /proc; "
                f"ran as its own uid {slot_uid}; no namespaces)")
    return f"process limits only (file isolation off: {'; '.join(choice.notes) or 'not asked for'})"
