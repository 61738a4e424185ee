"""The machine's verbs: ``hog container build`` (the container level's image) and ``hog doctor`` (which
isolation levels can be reached here, and why not)."""

from __future__ import annotations

import sys
from typing import TextIO

from grader.errors import UsageError
from grader.sandbox import engine as engines, level
from grader.sandbox.level import Level

# What each level keeps from the submission, in one line (docs/architecture/isolation.md says it all).
GUARANTEES = {
    Level.PROCESS: "limits and a system call filter; it can read whatever your user can (not for grading)",
    Level.FILES: "process, plus only the Python standard library and its own folder readable (Landlock or chroot)",
    Level.BUBBLEWRAP: "process, plus a private view of the files, no network, its own processes (namespaces)",
    Level.CONTAINER: "files, inside a Docker or Podman container: no network, no folder of this machine",
}


def build(*, action: str, base: str | None, out: TextIO) -> int:
    """``hog container build [--base IMAGE]``: this kit's grading image, built now."""
    if action != "build":
        raise UsageError(f"unknown action {action!r}: hog container build")
    from grader.publishing import image   # as in ensure_image: `hog grade` imports this module too
    name = image.build(base=base, out=out)
    out.write(f"Built {name}: grade with --isolation container (or HOG_ISOLATION=container).\n")
    return 0


def ensure_image(minimum: str) -> None:
    """When the container level is asked for, its image made if the engine lacks it (first use); a note on
    standard error, as the build takes a while. Without an engine, grading says why (grader failed)."""
    if level.container_named(minimum):
        from grader.publishing import image   # the wheel and the engine's tools: only at the container level
        image.ensure(out=sys.stderr)


def doctor(*, out: TextIO) -> int:
    """``hog doctor``: each isolation level, whether it can be reached here, and why not."""
    rows = [(choice.label, "yes" if why is None else "no", GUARANTEES[choice], why or "")
            for choice, why in level.reachable()]
    found = engines.find()
    out.write("level       here  what it keeps from a submission\n")
    for label, here, what, why in rows:
        out.write(f"{label:<11} {here:<5} {what}\n")
        if why:
            out.write(f"{'':<18}why not: {why}\n")
    engine_line = found if isinstance(found, str) else f"{found.name} ({found.path}); image {engines.image()} " + (
        "built" if engines.has_image(found, engines.image()) else "not built yet ('hog container build', or the "
                                                                  "first grading at the container level, makes it)")
    out.write(f"\nContainer engine: {engine_line}\n"
              "Grading requires files unless told otherwise (--isolation, HOG_ISOLATION, the course config); "
              "container is used only when named.\n")
    return 0
