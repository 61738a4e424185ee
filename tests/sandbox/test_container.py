"""The container level in a real engine: Debian's docker.io (and Podman where it runs), on the base image
made with debootstrap (tests/tools/base_image.sh; no registry is reachable), the kit's image built from
its own wheel on it, as ``hog container build --base`` does.

What the user sees: the reference grades full, the skeleton scores nothing, the audit's hunter (which
looks for the kit, its cache and key, a world-readable copy of the solutions planted on this machine and
the instructor's home) scores nothing and finds nothing, a sleeping function costs only its own points,
a hog.py that tries the network reaches none, a batch uses one container per worker, and a container
that cannot start is "grader failed", never a zero. Skipped, saying why, without an engine or base
image; failed where HOG_REQUIRE_DOCKER=1 (tests/container_engines.py).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from grader import cli, project
from grader import cases as case_source
from grader.grading import grade
from grader.project import package
from grader.publishing import image as kit_image
from grader.sandbox import Limits, container, engine as engines, run_cases
from grader.spec import load_variant
from tests import ROOT, TESTS, container_engines
from tests.sandbox.test_old_container import _hunter_for

# One test process builds and removes the kit's images (their tags and build contexts are the machine's).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("containers")]

HOSTILE = TESTS / "submissions" / "hostile"
FAST = Limits(case_seconds=2.0, total_seconds=60.0)


@pytest.fixture(scope="module")
def place():
    """A folder outside the kit's (under /var/tmp, readable by all): the hidden-case cache with its key,
    and a world-readable copy of the solutions, as a course machine may hold one."""
    folder = Path(tempfile.mkdtemp(prefix="hog-container-test-", dir="/var/tmp"))
    shutil.copytree(ROOT / "solution", folder / "srv" / "course" / "solution",
                    ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["chmod", "-R", "a+rX", str(folder)], check=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOG_CACHE", str(folder / "cache"))
        patch.setattr(project, "CACHE", folder / "cache")
        patch.delenv("HOG_SANDBOX", raising=False)
        case_source.hidden_cases.cache_clear()
        case_source.grading_cases(load_variant("sp19"))
        yield folder
        case_source.hidden_cases.cache_clear()
    shutil.rmtree(folder, ignore_errors=True)


def _built(engine: str) -> str:
    """This kit's image in ``engine``, built on the debootstrap base (skips or fails as the module says)."""
    base = container_engines.base_image(engine)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOG_CONTAINER_ENGINE", engine)
        shown = io.StringIO()
        name = kit_image.build(base=base, out=shown)
    assert f"on {base} with {engine}" in shown.getvalue()
    return name


@pytest.fixture(scope="module")
def docker(place) -> str:
    return _built("docker")


@pytest.fixture
def in_docker(docker, monkeypatch) -> str:
    monkeypatch.setenv("HOG_CONTAINER_ENGINE", "docker")
    return docker


@pytest.fixture(params=["docker", "podman"])
def in_engine(request, place, monkeypatch) -> str:
    """Each engine that runs here, its image built; Podman is skipped (not failed) where it cannot run."""
    if request.param == "podman" and container_engines.unavailable("podman"):
        pytest.skip(container_engines.unavailable("podman"))
    request.getfixturevalue("docker") if request.param == "docker" else _built("podman")
    monkeypatch.setenv("HOG_CONTAINER_ENGINE", request.param)
    return request.param


def test_the_image_holds_the_kits_wheel_unpacked_and_nothing_of_a_course(in_docker):
    listed = subprocess.run(["docker", "run", "--rm", "--network", "none", in_docker, "python3", "-c",
                             "import os, json; print(json.dumps([sorted(os.listdir('/opt/hog-kit/lib')), "
                             "sorted(k for k in os.environ if k.startswith('HOG'))]))"],
                            capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr
    folders, hog_variables = json.loads(listed.stdout)
    assert folders == ["grader", f"hog_kit-{project.version()}.dist-info"]
    assert hog_variables == []   # no key, no cache, no course: they travel per run
    labels = subprocess.run(["docker", "image", "inspect", "--format", "{{json .Config.Labels}}", in_docker],
                            capture_output=True, text=True, check=True).stdout
    assert json.loads(labels)[engines.LABEL] == package.digest()
    assert in_docker == engines.image() and project.version() in in_docker


def test_at_the_container_level_the_reference_grades_full_and_the_skeleton_nothing(in_engine):
    variant = load_variant("sp19")
    solved = grade.grade(ROOT / "solution" / "sp19", variant, minimum="container")
    assert (solved.score, solved.max_score, solved.grader_error) == (23, 23, None)
    assert (solved.isolation_level, solved.isolation_allowlist) == ("container", "Landlock")
    assert solved.isolation.startswith(f"container ({in_engine}, image {engines.image()}: no network, read-only root")
    assert "inside it files (layers: Landlock" in solved.isolation
    skeleton = grade.grade(ROOT / "skeleton" / "sp19", variant, minimum="container")
    assert (skeleton.score, skeleton.grader_error, skeleton.isolation_level) == (0, None, "container")


def test_the_hunter_finds_neither_the_kit_nor_the_planted_solutions_nor_the_home_folder(in_docker, place, tmp_path):
    planted = place / "srv" / "course"
    hunter = _hunter_for(tmp_path, [planted, planted / "solution", place / "cache", Path.home(), ROOT / "grader"])
    report = run_cases(hunter, [["loot()"], ["'play' in dir()"], ["reach_out()"]], minimum="container",
                       limits=Limits(case_seconds=20.0))
    assert report.level == "container" and report.layers[0] == "container (docker)"
    loot, has_play, reached = (case.steps[-1].output or case.steps[-1].error for case in report.cases)
    assert loot.startswith("([], ") and "True" not in loot, loot
    assert has_play == "False\n"
    assert reached.startswith("([], "), reached
    result = grade.grade(hunter, load_variant("sp19"), minimum="container")
    assert (result.score, result.grader_error, result.isolation_level) == (0, None, "container")


def test_a_sleeping_function_costs_only_its_own_points_as_at_the_files_level(in_docker, tmp_path):
    text = (ROOT / "solution" / "sp19" / "hog.py").read_text()
    marker = "    # BEGIN PROBLEM 2\n"
    (tmp_path / "hog.py").write_text(text.replace(marker, marker + "    import time\n    time.sleep(3600)\n"))
    variant = load_variant("sp19")
    boxed = grade.grade(tmp_path / "hog.py", variant, minimum="container")
    files = grade.grade(tmp_path / "hog.py", variant, minimum="files")
    assert boxed.grader_error is None and 0 < boxed.score < boxed.max_score
    assert [q.score for q in boxed.questions] == [q.score for q in files.questions]
    assert "waited more than 1 s without computing" in boxed.questions[1].first_failure.got


def test_a_submission_that_tries_the_network_reaches_nothing(in_docker, tmp_path):
    shutil.copy(HOSTILE / "network.py", tmp_path / "hog.py")
    report = run_cases(tmp_path / "hog.py", [["connect('1.1.1.1', 53)"], ["connect('127.0.0.1', 22)"],
                                            ["square(3)"]], minimum="container", limits=FAST)
    assert all(case.steps[-1].error for case in report.cases[:2]), report.cases
    assert report.cases[2].steps[0].output == "9\n"


def test_the_container_itself_has_no_network_but_its_loopback(in_docker):
    command = container.arguments(engines.find(), Limits(), "hog-network-test")
    done = subprocess.run(command + [in_docker, "python3", "-c",
                                     "import socket; print(sorted(name for _, name in socket.if_nameindex()))"],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['lo']"


def test_one_process_grades_every_submission_in_one_container(in_docker, tmp_path):
    (tmp_path / "hog.py").write_text("def square(x):\n    return x * x\n")
    first = run_cases(tmp_path / "hog.py", [["square(3)"]], minimum="container", limits=FAST)
    name = container._session.name
    again = run_cases(tmp_path / "hog.py", [["square(4)"]], minimum="container", limits=FAST)
    assert (first.cases[0].steps[0].output, again.cases[0].steps[0].output) == ("9\n", "16\n")
    assert container._session.name == name


def test_a_batch_runs_one_container_per_worker(in_docker, tmp_path):
    folder = tmp_path / "class"
    for number in range(4):
        (folder / f"s{number}").mkdir(parents=True)
        shutil.copy(ROOT / ("skeleton" if number == 3 else "solution") / "sp19" / "hog.py", folder / f"s{number}")
    began = int(time.time())
    status = cli.main(["grade-batch", str(folder), "--variant", "sp19", "--out", str(tmp_path / "out"),
                       "--jobs", "2", "--isolation", "container"])
    ended = int(time.time()) + 1
    assert status == 0
    book = (tmp_path / "out" / "gradebook.csv").read_text().splitlines()
    assert [line.split(",")[1] for line in book[1:]] == ["23.0", "23.0", "23.0", "0.0"], book
    started = subprocess.run(["docker", "events", "--since", str(began), "--until", str(ended), "--filter",
                              "event=start", "--filter", f"label={engines.LABEL}={package.digest()}",
                              "--format", "{{.Actor.Attributes.name}}"],
                             capture_output=True, text=True, timeout=60).stdout.split()
    # the graders' containers, not this process's own nor another test's started in the same second
    started = [name for name in started
               if name.startswith("hog-grade-") and not name.startswith(f"hog-grade-{os.getpid()}-")]
    assert 1 <= len(started) <= 2, started


def test_an_image_that_is_missing_is_a_grader_failure_not_a_zero(in_docker, monkeypatch):
    monkeypatch.setattr(engines, "image", lambda: "hog-kit-grader:no-such-image")
    result, fault = grade.grade_safely(ROOT / "solution" / "sp19", load_variant("sp19"), minimum="container")
    assert fault and "holds no image of this kit (hog-kit-grader:no-such-image)" in result.grader_error
    assert "hog container build" in result.grader_error


def test_a_contest_tabulates_each_final_strategy_in_the_container(in_docker, tmp_path, capsys):
    for name in ("ada", "bob"):
        (tmp_path / "entrants" / name).mkdir(parents=True)
        shutil.copy(ROOT / "solution" / "sp19" / "hog.py", tmp_path / "entrants" / name)
    assert cli.main(["contest", str(tmp_path / "entrants"), "--variant", "sp19", "--out", str(tmp_path / "out"),
                     "--isolation", "container"]) == 0
    shown = capsys.readouterr().out
    assert "2 tables tabulated in the sandbox" in shown and "0 disqualified" in shown, shown
