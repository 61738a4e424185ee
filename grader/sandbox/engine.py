"""The container engine (Docker or Podman) and the kit's image: found, asked, never guessed.

``HOG_CONTAINER_ENGINE`` names the engine (``docker``, ``podman``, or a path to either); otherwise the
first of Docker and Podman that is installed and answers. The image is named after the kit: its version
and the digest of the files its wheel carries (``grader.project.package``), so a new kit, or an edited
checkout, never runs in an old image. ``hog container build`` makes it (``grader.publishing.image``).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from grader import project
from grader.errors import UsageError
from grader.project import package

ENGINES = ("docker", "podman")
REPOSITORY = "hog-kit-grader"         # the image's name; its tag is the kit's version and digest
LABEL = "org.hog-kit.digest"          # the label holding the whole digest, read back to check an image
ASK_SECONDS = 30.0                    # how long `ENGINE info` may take to answer


@dataclass(frozen=True)
class Engine:
    name: str      # "docker" or "podman"
    path: str      # the program


def image() -> str:
    """The image this kit runs in: ``hog-kit-grader:<version>-<digest, 12 hex digits>``."""
    version = re.sub(r"[^A-Za-z0-9_.-]", "_", project.version())
    return f"{REPOSITORY}:{version}-{package.digest()[:12]}"


def _named() -> str | None:
    named = os.environ.get("HOG_CONTAINER_ENGINE", "").strip()
    return named or None


def find() -> "Engine | str":
    """The engine to use, or why there is none (not installed, or not answering)."""
    named = _named()
    if named is not None:
        path = shutil.which(named)
        kind = os.path.basename(named)
        if kind not in ENGINES:
            raise UsageError(f"HOG_CONTAINER_ENGINE={named!r} is not a container engine: use docker or podman "
                             "(or a path to either)")
        if path is None:
            return f"HOG_CONTAINER_ENGINE={named} is not installed (no {named} on PATH)"
        problem = _answers(path)
        return Engine(kind, path) if problem is None else f"{kind} does not answer: {problem}"
    problems = []
    for kind in ENGINES:
        path = shutil.which(kind)
        if path is None:
            continue
        problem = _answers(path)
        if problem is None:
            return Engine(kind, path)
        problems.append(f"{kind} does not answer: {problem}")
    if not problems:
        return "no container engine is installed (install Docker Desktop or Podman; HOG_CONTAINER_ENGINE to choose)"
    return "; ".join(problems)


@functools.lru_cache(maxsize=None)
def _answers(path: str) -> str | None:
    """None if the engine's service answers (asked once a process), else its complaint."""
    try:
        done = subprocess.run([path, "info", "--format", "{{json .}}"], capture_output=True, text=True,
                              timeout=ASK_SECONDS, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        return (lines[-1] if lines else f"exit status {done.returncode}")[:300] + \
            (" (is its service running? start Docker Desktop, or 'podman machine start')" if lines else "")
    return None


_held: set[tuple[str, str]] = set()     # (engine, image) found already by this process


def forget() -> None:
    """Ask the engines again at the next ``find`` (``level.forget``)."""
    _answers.cache_clear()


def has_image(engine: Engine, name: str) -> bool:
    """Whether the engine holds the image ``name`` with the digest of this kit (once found, not asked again)."""
    if (engine.path, name) in _held:
        return True
    done = subprocess.run([engine.path, "image", "inspect", "--format", f'{{{{index .Config.Labels "{LABEL}"}}}}',
                           name], capture_output=True, text=True, timeout=ASK_SECONDS, stdin=subprocess.DEVNULL)
    if done.returncode == 0 and done.stdout.strip() == package.digest():
        _held.add((engine.path, name))
        return True
    return False


def unavailable() -> str | None:
    """None if the container level can run here now (an engine answers and holds this kit's image),
    else why not, with what to do."""
    found = find()
    if isinstance(found, str):
        return found
    if not has_image(found, image()):
        return (f"{found.name} holds no image of this kit ({image()}): run 'hog container build' "
                "(or grade once with the container level, which builds it)")
    return None
