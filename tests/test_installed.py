"""The kit as an instructor installs it: a wheel in a fresh virtual environment, used from an empty folder.

The wheel and sdist are built once per session (``python -m build``). The virtual environment is a fresh
one of the base interpreter, without the system's site-packages (where the checkout may be installed in
editable mode): ``pip install hog-kit`` finds the wheel in the build's folder (``PIP_FIND_LINKS``) and the
kit's requirements (NumPy, SciPy, Jinja2, PyYAML) on the package index, through pip's usual cache. Its
site-packages is made read-only after the install, and every file under it is compared before and
after: the kit never writes inside itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from grader import project

CHECKOUT = Path(__file__).resolve().parent.parent
README = CHECKOUT / "README.md"

# One test process runs this module, in order: ``python -m build`` writes build/ and an egg-info into the
# checkout (two at once would race), and the Gradescope test grades the course the first one made.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("installed-wheel")]


PORT = "8000"    # where the quickstart's hog serve listens; the tests use a free port instead
STOP_ON_FAILURE = "trap 'if [ $? -ne 0 ]; then kill $(jobs -p) 2>/dev/null; fi; wait' EXIT"


def quickstart() -> list[str]:
    """The commands of the README's instructor quickstart (every sh block of its section), as written."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Instructor quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def as_script(commands: list[str], port: int) -> str:
    """Commands to run in one shell, on ``port`` in place of the quickstart's; a command that fails stops the
    hog serve it left in the background (and the shell waits for it to end)."""
    return "\n".join([STOP_ON_FAILURE, *commands]).replace(PORT, str(port))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The wheel and the sdist, built once from the checkout."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(CHECKOUT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def wheel_of(dist: Path) -> Path:
    return next(dist.glob("hog_kit-*.whl"))


def snapshot(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def read_only(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def writable(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


@pytest.fixture(scope="session")
def venv(tmp_path_factory) -> Path:
    """A fresh virtual environment (the base interpreter's, not this one's) with nothing of the kit."""
    folder = tmp_path_factory.mktemp("venv") / "hog"
    base = Path(sys.base_prefix) / "bin" / "python3"
    subprocess.run([str(base), "-m", "venv", str(folder)], check=True, timeout=300)
    found = subprocess.run([str(folder / "bin" / "python"), "-c", "import grader"], capture_output=True,
                           cwd=folder, env={"PATH": "/usr/bin:/bin"})
    assert found.returncode != 0, "the fresh environment must not already see a kit"
    yield folder
    writable(folder)


def environment(venv: Path, home: Path, dist: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HOG_", "PYTHON", "VIRTUAL_ENV", "PIP_"))}
    env.update(PATH=f"{venv / 'bin'}:/usr/bin:/bin", HOME=str(home), HOG_CACHE=str(home / "cache"),
               PIP_FIND_LINKS=str(dist), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip"))
    return env


def test_the_wheel_and_sdist_carry_the_built_in_variants_and_what_the_verbs_read(dist):
    with zipfile.ZipFile(wheel_of(dist)) as archive:
        names = set(archive.namelist())
    ids = sorted(path.stem for path in (CHECKOUT / "grader" / "data" / "final").glob("*.txt"))
    assert len(ids) == 5
    for variant_id in ids:
        assert f"grader/specs/{variant_id}.yaml" in names and f"grader/data/final/{variant_id}.txt" in names
    for name in ("grader/shipped/dice.py", "grader/shipped/student/hog_gui.py", "grader/shipped/autograder/setup.sh",
                 "grader/templates/autograder/run_autograder.j2", "grader/templates/handout/handout.html.j2",
                 "grader/templates/server/submission.html", "grader/server/store/migrations/env.py",
                 "grader/server/store/migrations/versions/0001_first.py",
                 "grader/server/store/migrations/versions/0002_health.py", "grader/server/web/static/live.js",
                 "grader/data/server/hog-serve.service", "grader/data/server/compose.yaml"):
        assert name in names
    assert not [name for name in names if name.startswith(("tests/", "solution/", "skeleton/", "specs/"))]
    with tarfile.open(next(dist.glob("hog_kit-*.tar.gz")) if list(dist.glob("hog_kit-*.tar.gz"))
                      else next(dist.glob("hog-kit-*.tar.gz"))) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {f"specs/{variant_id}.yaml" for variant_id in ids} <= members and "setup.py" in members
    check = subprocess.run([sys.executable, "-m", "twine", "check", *map(str, dist.iterdir())],
                           capture_output=True, text=True)
    if "No module named twine" not in check.stderr:
        assert check.returncode == 0, check.stdout + check.stderr


def run(command: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def score(done: subprocess.CompletedProcess) -> tuple[float, float]:
    data = json.loads(done.stdout)
    return data["score"], data["max_score"]


def test_from_an_empty_folder_the_installed_kit_runs_a_course(dist, venv, tmp_path):
    env = environment(venv, tmp_path / "home", dist)
    empty = tmp_path / "empty"
    empty.mkdir()
    commands = quickstart()
    assert commands[0] == "pip install 'hog-kit[server]'"
    run(commands[0], empty, env)                       # the kit from the wheel, its requirements from the index
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "grader" / "specs").is_dir() and not (site / "specs").exists()
    before = snapshot(site)
    read_only(site)

    assert run("hog --version", empty, env).stdout == f"hog-kit {project.version()}\n"
    listed = run("hog variants", empty, env).stdout.splitlines()[1:]
    assert sorted(line.split()[0] for line in listed) == ["fa18", "fa19", "nju21", "nju24", "sp19"]

    # The other verbs that need only the built-in variants, from the empty folder.
    assert run("hog cases sp19", empty, env).stdout.count("question") > 10
    run("hog handout sp19 --out handout.html", empty, env)
    assert (empty / "handout.html").is_file()
    sheets = [empty / name for name in ("bootstrap.min.css", "kit.css")]   # the page's look, beside it
    assert all(sheet.is_file() for sheet in sheets)
    assert json.loads(run("hog analyze fa18 --json", empty, env).stdout)["variant_id"] == "fa18"
    play = subprocess.Popen(["hog", "play", "sp19", "--no-browser"], cwd=empty, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert play.stdout.readline().startswith("Hog is at http://127.0.0.1:")
    finally:
        play.terminate()
        play.wait(timeout=30)
    for written in (empty / "handout.html", *sheets):
        written.unlink()

    # The README's quickstart, each command as written, in one shell: a batch graded, then hog serve and
    # a student's submit.py printing the grade.
    done = run(as_script(commands[1:], free_port()), empty, env)
    course = empty / "cs88"
    assert "\nScore: 0/23\n" in done.stdout and (course / "server" / "hog.sqlite3").is_file()
    token = course / "release" / "hog" / "student" / ".hog-token"
    assert not token.exists()    # given in HOG_TOKEN, so never asked for nor kept
    assert (course / "hog-course.toml").is_file()
    assert (course / "release" / "fa18" / "autograder" / "autograder.zip").is_file()
    report = json.loads((course / "graded" / "report.json").read_text())
    assert (course / "graded" / "report.html").is_file() and report

    # The course's points appear in the report: change one, regrade, report again.
    config = course / "hog-course.toml"
    config.write_text(config.read_text().replace("q01 = 2", "q01 = 5", 1))
    run("hog grade-batch submissions --variant fa18 --out regraded --report", course, env)
    regraded = json.loads((course / "regraded" / "starter.json").read_text())
    assert regraded["tests"][0]["max_score"] == 5 and regraded["kit_version"] == project.version()
    again = json.loads((course / "regraded" / "report.json").read_text())
    assert again["score"]["max_score"] == report["score"]["max_score"] + 3      # 2 → 5 points
    assert f"Out of {again['score']['max_score']:g}" in (course / "regraded" / "report.html").read_text()
    gradebook = (course / "regraded" / "gradebook.csv").read_text().splitlines()
    assert "kit_version" in gradebook[0] and project.version() in gradebook[1]

    # The course server's operator verbs: a backup of the server the quickstart ran, restored into a new course
    # folder (its sign-in links and submissions with it), and the systemd unit for the course.
    run("hog serve backup ../cs88-backup", course, env)
    run("hog init restored --variant fa18 && cp cs88/hog-course.toml restored/", empty, env)
    assert "restored ../cs88-backup into server/" in run("hog serve restore ../cs88-backup", empty / "restored",
                                                         env).stdout
    people = "server/people.csv"
    assert (empty / "restored" / people).read_bytes() == (course / people).read_bytes()
    assert f"WorkingDirectory={course}" in run("hog serve unit", course, env).stdout

    # The release: its skeleton scores 0, the fa18 reference (hog build, in the course) full marks.
    assert score(run("hog grade release/fa18/student --format json", course, env))[0] == 0
    run("hog build --variant fa18", course, env)
    got, total = score(run("hog grade solution/fa18 --format json", course, env))
    assert got == total > 0

    # A variant minted for the course: written into it, built, graded.
    run("hog mint fa26 --seed 7", course, env)
    assert (course / "specs" / "fa26.yaml").is_file() and (course / "specs" / "final" / "fa26.txt").is_file()
    run("hog build --variant fa26", course, env)
    got, total = score(run("hog grade solution/fa26 --variant fa26 --format json", course, env))
    assert got == total > 0
    assert score(run("hog grade skeleton/fa26 --variant fa26 --format json", course, env))[0] == 0
    run("hog assign fa26 --out release/fa26", course, env)
    with zipfile.ZipFile(course / "release" / "fa26" / "autograder" / "autograder.zip") as archive:
        assert {"course/specs/fa26.yaml", "course/specs/final/fa26.txt", "course/hog-course.toml"} <= \
            set(archive.namelist())
    run("cp solution/fa18/hog.py submissions/ada.py && cp solution/fa26/hog.py submissions/fa26.py", course, env)
    run("hog contest submissions --variant fa18 --out contest", course, env)
    assert (course / "contest" / "leaderboard.csv").read_text().count("\n") >= 2
    other = run("hog variants", empty, env).stdout
    assert "fa26" not in other                         # outside the course, the built-in variants alone

    assert snapshot(site) == before                    # nothing was written inside the installed kit
    GRADESCOPE["course"] = course


GRADESCOPE: dict[str, Path] = {}


def test_the_gradescope_bundle_set_up_from_the_wheel_grades_in_a_container(dist, venv, tmp_path):
    """setup.sh, then run_autograder for each submission, as Gradescope runs them, in the container
    simulation (no user namespaces, no CAP_SYS_ADMIN); /autograder is a temporary folder."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to simulate a container")
    course = GRADESCOPE.get("course")
    if course is None:
        pytest.skip("the course of test_from_an_empty_folder_the_installed_kit_runs_a_course is needed")
    env = environment(venv, tmp_path / "home", dist)
    root = tmp_path / "autograder"
    with zipfile.ZipFile(course / "release" / "fa18" / "autograder" / "autograder.zip") as archive:
        archive.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)
    # apt-get is Gradescope's image's: here bubblewrap is installed already, so it only records its call.
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    (stubs / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "apt.log"}\n')
    (stubs / "apt-get").chmod(0o755)
    setup_env = {**env, "AUTOGRADER_ROOT": str(root), "PATH": f"{stubs}:{Path(sys.base_prefix) / 'bin'}:/usr/bin:/bin"}
    setup_env.pop("PIP_FIND_LINKS")   # the bundle brings its own wheel
    done = subprocess.run([str(root / "source" / "setup.sh")], env=setup_env, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "bubblewrap" in (tmp_path / "apt.log").read_text()
    installed = subprocess.run([str(root / "hog-venv" / "bin" / "python"), "-c",
                                "import grader, sys; print(grader.__file__)"], capture_output=True, text=True,
                               cwd=root, env={"PATH": "/usr/bin:/bin"})
    assert str(root / "hog-venv") in installed.stdout      # the wheel, installed; no checkout on any path

    nouserns = CHECKOUT / "tests" / "tools" / "nouserns.py"
    for name, source, expected in (("reference", course / "solution" / "fa18" / "hog.py", "full"),
                                   ("no code", None, 0)):
        submission = root / "submission"
        shutil.rmtree(submission, ignore_errors=True)
        submission.mkdir()
        if source is None:
            (submission / "hog.py").write_text('"""Nothing written yet."""\n')
        else:
            shutil.copy(source, submission / "hog.py")
        graded = subprocess.run([setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin",
                                 sys.executable, str(nouserns), str(root / "source" / "run_autograder")],
                                env={**setup_env, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                                timeout=900)
        results = json.loads((root / "results" / "results.json").read_text())
        assert graded.returncode == 0, (name, graded.stderr[-3000:], results.get("output"))
        assert results["isolation_level"] == "files" and results["kit_version"] == project.version()
        assert results["score"] == (results["max_score"] if expected == "full" else 0), (name, results["output"])
        assert results["max_score"] > 0
