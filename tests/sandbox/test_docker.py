"""The Gradescope bundle in a real container engine (Debian's docker.io), as Gradescope runs it.

A base image made with debootstrap (tests/tools/base_image.sh; no registry is reachable), the bundle's
``setup.sh`` run in it as the image is built (its pip reading a wheelhouse made from this test
environment, so no index is needed), then ``run_autograder`` for each submission. A world-readable
copy of the reference solutions sits at /srv/course, outside every folder of the kit's: a hog.py with
no game code that hunts for it (and for the kit, its cache, the venv) must score 0, the reference in
full. Twice: with the engine's default system call profile (Landlock allowed: the allowlist is
Landlock's) and with a profile that refuses Landlock and namespaces, as an older engine or kernel does
(the allowlist is the chroot tree).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from grader.publishing import assign
from grader.spec import load_variant
from tests import ROOT, container_engines
from tests.sandbox.test_old_container import _hunter_for

# One test process builds and removes the kit's images (their tags and build contexts are the machine's).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("containers")]

# What an engine before Landlock was allowed (or a kernel without it) leaves a container: no Landlock,
# and, as in Docker's default profile for a container without CAP_SYS_ADMIN, no namespaces.
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
NO_LANDLOCK_PROFILE = {
    "defaultAction": "SCMP_ACT_ALLOW",
    "syscalls": [
        {"names": ["landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self", "unshare", "setns"],
         "action": "SCMP_ACT_ERRNO", "errnoRet": 1},
        {"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": 38},
        *({"names": ["clone"], "action": "SCMP_ACT_ERRNO", "errnoRet": 1,
           "args": [{"index": 0, "value": flag, "valueTwo": flag, "op": "SCMP_CMP_MASKED_EQ"}]}
          for flag in NAMESPACE_FLAGS),
    ],
}
# Inside the container: the bundle set up as Gradescope does, then each submission graded.
GRADESCOPE = r"""
set -euo pipefail
mkdir -p /autograder/source /autograder/results
python3 -m zipfile -e /bundle/autograder.zip /autograder/source
HOG_PIP_OPTIONS="--no-index --find-links /wheels --no-compile" bash /autograder/source/setup.sh > /autograder/setup.log 2>&1 \
  || { tail -40 /autograder/setup.log >&2; exit 3; }
cp /autograder/source/run_autograder /autograder/run_autograder
for name in reference hunter; do
  rm -rf /autograder/submission && mkdir -p /autograder/submission
  cp "/submissions/$name/hog.py" /autograder/submission/
  bash /autograder/run_autograder > /dev/null 2>&1 || true
  python3 - "$name" <<'PY'
import json, sys
result = json.load(open("/autograder/results/results.json"))
print(json.dumps({"name": sys.argv[1], "score": result["score"], "allowlist": result.get("isolation_allowlist"),
                  "level": result["isolation_level"], "isolation": result["isolation"],
                  "failed": result.get("grader_failed")}))
PY
done
"""


@pytest.fixture(scope="module")
def image() -> str:
    return container_engines.base_image("docker")


@pytest.fixture(scope="module")
def mounts(wheelhouse):
    """The folders the container reads: the bundle, the wheelhouse (tests/wheelhouse.py: the kit's
    requirements repacked from this environment), the submissions, the planted copy."""
    place = Path(tempfile.mkdtemp(prefix="hog-docker-", dir="/var/tmp"))
    (place / "bundle").mkdir()
    (place / "bundle" / "autograder.zip").write_bytes(assign.autograder_zip(load_variant("sp19")))
    submissions = place / "submissions"
    (submissions / "reference").mkdir(parents=True)
    shutil.copy(ROOT / "solution" / "sp19" / "hog.py", submissions / "reference" / "hog.py")
    hunter = _hunter_for(place, [Path("/srv/course"), Path("/srv/course/solution"), Path("/autograder/source"),
                                 Path("/autograder/source/kit"), Path("/autograder/hog-venv"), Path("/autograder")])
    shutil.copytree(hunter, submissions / "hunter")
    planted = place / "course"
    shutil.copytree(ROOT / "solution", planted / "solution", ignore=shutil.ignore_patterns("__pycache__"))
    (place / "no-landlock.json").write_text(json.dumps(NO_LANDLOCK_PROFILE))
    subprocess.run(["chmod", "-R", "a+rX", str(place)], check=True)
    yield {"place": place, "wheels": wheelhouse}
    shutil.rmtree(place, ignore_errors=True)


def _grade_in_container(image: str, mounts: dict, *options: str) -> dict[str, dict]:
    place = mounts["place"]
    command = ["docker", "run", "--rm", *options,
               "-v", f"{place / 'bundle'}:/bundle:ro", "-v", f"{mounts['wheels']}:/wheels:ro",
               "-v", f"{place / 'submissions'}:/submissions:ro", "-v", f"{place / 'course'}:/srv/course:ro",
               image, "bash", "-c", GRADESCOPE]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {entry["name"]: entry for entry in found}


def test_with_the_engines_default_profile_the_bundle_grades_by_landlock_and_the_planted_copy_stays_out(image, mounts):
    graded = _grade_in_container(image, mounts)
    assert graded["reference"]["score"] == 23, graded
    assert graded["hunter"]["score"] == 0, graded
    for entry in graded.values():
        assert (entry["level"], entry["allowlist"], entry["failed"]) == ("files", "Landlock", False), entry


def test_with_landlock_refused_the_bundle_grades_in_the_chroot_tree_and_the_planted_copy_stays_out(image, mounts):
    graded = _grade_in_container(image, mounts, "--security-opt",
                                 f"seccomp={mounts['place'] / 'no-landlock.json'}")
    assert graded["reference"]["score"] == 23, graded
    assert graded["hunter"]["score"] == 0, graded
    for entry in graded.values():
        assert (entry["level"], entry["allowlist"], entry["failed"]) == ("files", "chroot", False), entry
        assert "chroot: only the Python standard library" in entry["isolation"], entry

