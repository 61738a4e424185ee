"""The grading image of the container level, built from the running kit's own wheel.

One image per kit (``grader.sandbox.engine.image``: the version and the digest of the wheel's files), on a
Python base (``python:3.11-slim`` unless ``--base`` or ``HOG_CONTAINER_BASE`` names another: one a course
already has, or one made without a registry). The image holds the kit's wheel unpacked and byte-compiled,
without its requirements: inside, only the sandbox runs, which needs the standard library alone. It holds
no spec of a course, no hidden case, no key: they stay with the grader. The build context (a Dockerfile
and the wheel) is written to the user's cache (``HOG_CACHE/container/``), never into the package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TextIO

from grader import project
from grader.errors import GraderFault, UsageError
from grader.project import package
from grader.project.files import write_atomically
from grader.publishing import wheel
from grader.sandbox import engine as engines

DEFAULT_BASE = "python:3.11-slim"
HOME = "/opt/hog-kit"                  # where the kit is unpacked in the image
BUILD_SECONDS = 1800
DOCKERFILE = """\
FROM {base}
COPY {wheel} {home}/{wheel}
RUN python3 -c "import sys; sys.exit(sys.version_info < (3, 11) and 'the base image needs Python 3.11 or later')" \\
 && python3 -m zipfile -e {home}/{wheel} {home}/lib \\
 && rm {home}/{wheel} \\
 && python3 -m compileall -q {home}/lib/grader \\
 && chmod -R a+rX {home}
ENV PYTHONPATH={home}/lib
LABEL {label}={digest} org.hog-kit.version={version}
"""


def base_image(base: str | None) -> str:
    """The base image: ``--base``, else HOG_CONTAINER_BASE, else python:3.11-slim."""
    chosen = (base or os.environ.get("HOG_CONTAINER_BASE", "")).strip() or DEFAULT_BASE
    if chosen.startswith("-") or any(character.isspace() for character in chosen):
        raise UsageError(f"{chosen!r} is not an image name (e.g. python:3.11-slim, or registry/name:tag)")
    return chosen


def context(base: str) -> Path:
    """The build context in the user's cache: the Dockerfile and the kit's wheel."""
    folder = project.CACHE / "container" / engines.image().replace(":", "-")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / wheel.name(), wheel.build())
    write_atomically(folder / "Dockerfile", DOCKERFILE.format(
        base=base, wheel=wheel.name(), home=HOME, label=engines.LABEL, digest=package.digest(),
        version=project.version()))
    return folder


def build(*, base: str | None = None, out: TextIO) -> str:
    """Build this kit's image in the engine that answers; its name. GraderFault when the engine fails
    (with its last lines), UsageError when there is no engine to build with."""
    found = engines.find()
    if isinstance(found, str):
        raise UsageError(f"cannot build the grading image: {found}")
    name, chosen = engines.image(), base_image(base)
    folder = context(chosen)
    out.write(f"Building {name} on {chosen} with {found.name} (once per kit version)…\n")
    out.flush()
    try:
        done = subprocess.run([found.path, "build", "--tag", name, str(folder)], capture_output=True, text=True,
                              timeout=BUILD_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise GraderFault(f"{found.name} build did not finish within {BUILD_SECONDS} s") from None
    if done.returncode != 0:
        said = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise GraderFault(f"{found.name} could not build {name} on {chosen} (build context: {folder}):\n{said}\n"
                          f"Give another base with --base IMAGE or HOG_CONTAINER_BASE (one with Python 3.11 "
                          f"or later that {found.name} holds or can pull).")
    if not engines.has_image(found, name):
        raise GraderFault(f"{found.name} built {name}, but the image does not carry this kit's digest")
    shutil.rmtree(folder, ignore_errors=True)
    return name


def ensure(*, out: TextIO) -> str | None:
    """This kit's image, built first if the engine lacks it (the container level's first use); None when no
    engine answers (grading then fails as the sandbox says)."""
    found = engines.find()
    if isinstance(found, str):
        return None
    if engines.has_image(found, engines.image()):
        return engines.image()
    return build(out=out)
