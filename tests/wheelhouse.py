"""The ``wheelhouse`` fixture: the kit's requirements as wheels, repacked from this test environment.

The Gradescope bundle's setup.sh installs the kit's wheel and its requirements into a virtual environment
of its own; with ``HOG_PIP_OPTIONS="--no-index --find-links <wheelhouse>"`` it takes them from here, so
the tests that run it need no package index, and no requirement installed in the base interpreter (a
fresh virtual environment, where the README's test command runs, has them in its own site-packages).
The folder is under /var/tmp: the simulated container covers /tmp and the folder of this checkout.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from grader import project
from grader.errors import UsageError
from grader.publishing import wheel


def requirements(distribution: str = project.DISTRIBUTION, extras: tuple[str, ...] = ()) -> list[str]:
    """What ``distribution`` needs to run, all the way down (canonical names): each one's Requires-Dist,
    markers evaluated for this interpreter, with no extra but ``extras`` and those a requirement asks for."""
    needed: dict[str, set[str]] = {}
    todo = [(distribution, set(extras))]
    while todo:
        name, extras = todo.pop(0)
        for line in metadata.requires(name) or ():
            requirement = Requirement(line)
            if requirement.marker and not any(requirement.marker.evaluate({"extra": extra})
                                              for extra in {"", *extras}):
                continue
            child = canonicalize_name(requirement.name)
            if child not in needed or not requirement.extras <= needed[child]:
                needed[child] = needed.get(child, set()) | requirement.extras
                todo.append((child, needed[child]))
    return sorted(needed)


@pytest.fixture(scope="session")
def wheelhouse() -> Path:
    """A folder of wheels of the kit's requirements (tests/wheelhouse.py), made once a session."""
    folder = Path(tempfile.mkdtemp(prefix="hog-wheelhouse-", dir="/var/tmp"))
    folder.chmod(0o755)
    try:
        for name in requirements():
            try:
                repacked = wheel.from_installed(name, compress=False)
            except UsageError as error:
                pytest.skip(f"the kit's requirements are repacked from this environment for the bundle's "
                            f"setup.sh: {error}")
            (folder / repacked.name).write_bytes(repacked.data)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
