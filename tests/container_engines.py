"""Whether a container engine and the debootstrap base image can be used here, for the tests that need them.

Such a test skips, saying why, where there is no engine (or it does not answer) or no base image, except
where ``HOG_REQUIRE_DOCKER=1`` is set (CI, where ``.ci/run`` installs and starts them): there it fails, so
that a machine meant to run them never passes them by silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests import TESTS

BASE_IMAGE = os.environ.get("HOG_TEST_IMAGE", "hog-kit-test-base:bookworm")


def unavailable(engine: str = "docker") -> str | None:
    """Why ``engine`` cannot run a container here, or None."""
    if shutil.which(engine) is None:
        return f"no {engine} (apt-get install {'docker.io' if engine == 'docker' else engine}; .ci/run installs it)"
    info = subprocess.run([engine, "info", "--format", "{{json .}}"], capture_output=True, text=True, timeout=60)
    if info.returncode != 0:
        return f"{engine} does not answer (start its service): {info.stderr.strip()[-200:]}"
    return None


def cannot(why: str):
    """Skip with ``why``; fail instead where HOG_REQUIRE_DOCKER=1."""
    if os.environ.get("HOG_REQUIRE_DOCKER") == "1":
        pytest.fail(f"HOG_REQUIRE_DOCKER=1, but {why}")
    pytest.skip(why)


def base_image(engine: str = "docker") -> str:
    """The debootstrap base image (tests/tools/base_image.sh) in ``engine``'s store, made or copied there
    first; skips (or fails) where it cannot be had."""
    problem = unavailable(engine)
    if problem:
        cannot(problem)
    if engine == "docker":
        if shutil.which("debootstrap") is None and subprocess.run(
                ["docker", "image", "inspect", BASE_IMAGE], capture_output=True).returncode != 0:
            cannot("no base image and no debootstrap to make one (apt-get install debootstrap)")
        made = subprocess.run(["bash", str(TESTS / "tools" / "base_image.sh"), BASE_IMAGE], capture_output=True,
                              text=True, timeout=1800)
        if made.returncode != 0:
            cannot(f"the base image could not be made here (tests/tools/base_image.sh): {made.stderr[-300:]}")
        return BASE_IMAGE
    local = f"localhost/{BASE_IMAGE}"
    if subprocess.run([engine, "image", "inspect", local], capture_output=True).returncode != 0:
        docker_image = base_image("docker")
        copied = subprocess.run(f"docker save {docker_image} | {engine} load", shell=True, capture_output=True,
                                text=True, timeout=1800)
        if copied.returncode != 0:
            cannot(f"the base image could not be copied from docker to {engine}: {copied.stderr[-300:]}")
    return local
