"""The PrairieLearn question's grader image, built from its Dockerfile and run as PrairieLearn runs it.

The image is built on the container tests' Debian base (tests/tools/base_image.sh: no registry is
reachable, so not on python:3.11-slim) with pip reading a wheelhouse put in the build context; then,
for each submission, a /grade laid out as PrairieLearn lays it out (the question's tests/, the
student's hog.py) and the entrypoint run as root. A world-readable copy of the reference solutions
sits at /srv/course: the hunter that looks for it, the kit and the question's tests/ scores 0, the
reference 1. Twice, as the Gradescope bundle's container tests: the engine's default profile
(Landlock) and one that refuses Landlock and namespaces (the chroot tree).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from grader.publishing import prairielearn
from grader.spec import load_variant
from tests import ROOT
from tests.sandbox.test_docker import NO_LANDLOCK_PROFILE, image  # noqa: F401  (``image``: a fixture)
from tests.sandbox.test_old_container import _hunter_for

# One test process builds and removes the kit's images (their tags and build contexts are the machine's).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("containers")]

# Inside the container: PrairieLearn's /grade for each submission, then its entrypoint.
PRAIRIELEARN = r"""
set -euo pipefail
for name in reference hunter; do
  rm -rf /grade && mkdir -p /grade/student
  cp -r /question/tests /grade/tests
  cp "/submissions/$name/hog.py" /grade/student/
  chmod +x /grade/tests/grade.sh && /grade/tests/grade.sh > /dev/null 2>&1
  python3 - "$name" <<'PY'
import json, sys
result = json.load(open("/grade/results/results.json"))
print(json.dumps({"name": sys.argv[1], "gradable": result["gradable"], "score": result.get("score"),
                  "allowlist": result.get("isolation_allowlist"), "level": result.get("isolation_level"),
                  "message": result.get("message")}))
PY
done
"""


@pytest.fixture(scope="module")
def built(image, wheelhouse):  # noqa: F811
    """The grader image built from the question's Dockerfile, and the folders the container reads."""
    place = Path(tempfile.mkdtemp(prefix="hog-prairielearn-", dir="/var/tmp"))
    variant = load_variant("sp19")
    context = place / "grader-image"
    for name, data in prairielearn.image_files(variant).items():
        (context / name).parent.mkdir(parents=True, exist_ok=True)
        (context / name).write_bytes(data)
    shutil.copytree(wheelhouse, context / "wheels")
    for name, data in prairielearn.question_files(variant).items():
        if name.startswith("tests/"):
            (place / "question" / name).parent.mkdir(parents=True, exist_ok=True)
            (place / "question" / name).write_bytes(data)
    submissions = place / "submissions"
    (submissions / "reference").mkdir(parents=True)
    shutil.copy(ROOT / "solution" / "sp19" / "hog.py", submissions / "reference" / "hog.py")
    hunter = _hunter_for(place, [Path("/srv/course"), Path("/srv/course/solution"), Path("/grade/tests"),
                                 Path("/grade/tests/course"), Path(prairielearn.HOME),
                                 Path(prairielearn.HOME) / "source", Path(prairielearn.HOME) / "hog-venv"])
    shutil.copytree(hunter, submissions / "hunter")
    shutil.copytree(ROOT / "solution", place / "course" / "solution", ignore=shutil.ignore_patterns("__pycache__"))
    (place / "no-landlock.json").write_text(json.dumps(NO_LANDLOCK_PROFILE))
    subprocess.run(["chmod", "-R", "a+rX", str(place)], check=True)
    tag = f"hog-prairielearn-test:{os.getpid()}"
    done = subprocess.run(["docker", "build", "-q", "-t", tag, "--build-arg", f"BASE={image}", "--build-arg",
                           f"HOG_PIP_OPTIONS=--no-index --find-links {prairielearn.HOME}/source/wheels --no-compile",
                           str(context)], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    yield {"tag": tag, "place": place}
    subprocess.run(["docker", "rmi", "-f", tag], capture_output=True)
    shutil.rmtree(place, ignore_errors=True)


def _grade_in_container(built: dict, *options: str) -> dict[str, dict]:
    place = built["place"]
    command = ["docker", "run", "--rm", "--network", "none", *options,
               "-v", f"{place / 'question'}:/question:ro", "-v", f"{place / 'submissions'}:/submissions:ro",
               "-v", f"{place / 'course'}:/srv/course:ro", built["tag"], "bash", "-c", PRAIRIELEARN]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return {entry["name"]: entry for entry in map(json.loads, filter(None, done.stdout.splitlines()))}


def test_with_the_engines_default_profile_the_image_grades_by_landlock_and_the_hunter_scores_nothing(built):
    graded = _grade_in_container(built)
    assert graded["reference"]["score"] == 1.0, graded
    assert graded["hunter"]["score"] == 0, graded
    for entry in graded.values():
        assert (entry["gradable"], entry["level"], entry["allowlist"]) == (True, "files", "Landlock"), entry


def test_with_landlock_refused_the_image_grades_in_the_chroot_tree_and_the_hunter_scores_nothing(built):
    graded = _grade_in_container(built, "--security-opt", f"seccomp={built['place'] / 'no-landlock.json'}")
    assert graded["reference"]["score"] == 1.0, graded
    assert graded["hunter"]["score"] == 0, graded
    for entry in graded.values():
        assert (entry["gradable"], entry["level"], entry["allowlist"]) == (True, "files", "chroot"), entry
