"""`hog assign ID --out DIR`: the student folder, the autograder bundle, and bad input."""

import base64
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from grader import project
from grader.publishing import assign, build
from grader.cases import hidden_cases
from grader.cli import main
from grader.report import style
from grader.spec import all_variants, load_variant

VARIANTS = all_variants()
IDS = [variant.id for variant in VARIANTS]
PROBLEM = re.compile(r"^\s*# BEGIN PROBLEM (\w+)\n(?P<body>.*?)^\s*# END PROBLEM \1\n", re.S | re.M)


def assigned(tmp_path, variant_id="sp19"):
    out = tmp_path / "bundle"
    assert main(["assign", variant_id, "--out", str(out)]) == 0
    return out


def files_under(folder):
    return {path.relative_to(folder).as_posix(): path for path in sorted(folder.rglob("*")) if path.is_file()}


def pytest_in(folder, *args):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


# ------------------------------------------------------------- the student


@pytest.mark.slow
def test_the_bundle_holds_a_student_folder_and_an_autograder_folder(tmp_path, capsys):
    out = assigned(tmp_path)
    variant = load_variant("sp19")
    tests = [f"student/tests/{question.key}.md" for question in variant.questions]
    wiring = [f"student/{name}" for name in build.STUDENT_FILES]
    assert "student/conftest.py" in wiring and "student/pytest.ini" in wiring and "student/hog_gui.py" in wiring
    assert sorted(files_under(out)) == sorted([
        "autograder/.github/workflows/grade.yml", "autograder/README.md", "autograder/autograder.zip",
        "student/dice.py", "student/handout.html", "student/handout.md", "student/hog.py",
        "student/tests/diagnoses.json", *wiring, *tests, *(f"student/{name}" for name in style.SHEETS)])
    assert (out / "student/hog.py").read_text() == build.skeleton_source(variant)
    assert (out / "student/handout.md").read_text() == (project.DOCS / "sp19/handout.md").read_text()
    assert capsys.readouterr().out.startswith(f"wrote {project.display(out / 'student')}/ (")
    assert [path.name for path in tmp_path.iterdir()] == ["bundle"]


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_student_folder_holds_nothing_hidden_no_solution_code_and_no_spec(variant):
    files = assign.student_files(variant)
    assert not [name for name in files if name.endswith((".yaml", ".yml"))]
    texts = "\n".join(files.values())
    assert (project.SPECS / f"{variant.id}.yaml").read_text() not in texts and "session: |" not in texts
    hidden = hidden_cases(variant)
    assert hidden
    public = "".join(case.session for case in variant.cases if not case.hidden)
    for case in hidden:
        if case.session not in public:   # a generated call can happen to repeat a public one
            assert case.session not in texts, f"hidden case {case.id} is in the student folder"
    bodies = [match["body"] for match in PROBLEM.finditer(build.solution_source(variant))]
    assert len(bodies) >= len(variant.questions) - 1   # two questions can share one problem's code
    for body in bodies:
        code = [line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]
        if not code:
            continue
        assert "\n".join(line for line in body.splitlines() if line.strip()) not in texts
        for line in code:
            if len(line) >= 30:
                assert line not in texts, f"solution line {line!r} is in the student folder"
    # No picture or table of the optimal strategy: it is the final strategy question's answer.
    assert not [name for name in files if name.endswith(".svg")] and "<svg" not in texts
    assert not [row for row in build.final_rows(variant) if row in texts]


@pytest.mark.slow
def test_the_student_runs_the_public_cases_with_plain_pytest(tmp_path):
    student = assigned(tmp_path) / "student"
    questions = len(load_variant("sp19").questions)
    started = pytest_in(student)
    assert started.returncode == 1 and f"{questions} failed" in started.stdout
    assert "# Error: expected" in started.stdout and "Run only this question:  python -m pytest -k q01" \
        in started.stdout
    shutil.copy(project.SOLUTION / "sp19" / "hog.py", student / "hog.py")
    solved = pytest_in(student)
    assert solved.returncode == 0 and f"{questions} passed" in solved.stdout, solved.stdout
    one = pytest_in(student, "-k", "q03")
    locked = sum(case.locked for case in load_variant("sp19").question("03").cases)
    assert one.returncode == 0 and f"1 passed, {locked} skipped" in one.stdout, one.stdout


# ---------------------------------------------------------- the autograder


def test_autograder_zip_has_the_scripts_at_the_top_and_the_kit_inside(tmp_path):
    out = assigned(tmp_path)
    with zipfile.ZipFile(out / "autograder/autograder.zip") as archive:
        names = archive.namelist()
        modes = {info.filename: info.external_attr >> 16 for info in archive.infolist()}
        run = archive.read("run_autograder").decode()
        wheel = archive.read(f"kit/hog_kit-{project.version()}-py3-none-any.whl")
        config = archive.read("course/hog-course.toml").decode()
    assert names[:2] == ["setup.sh", "run_autograder"]
    assert modes["setup.sh"] & stat.S_IXUSR and modes["run_autograder"] & stat.S_IXUSR
    assert sorted(names) == sorted(["setup.sh", "run_autograder", "grading_failed.py", "kit/README.md",
                                    f"kit/hog_kit-{project.version()}-py3-none-any.whl", "course/hog-course.toml"])
    with zipfile.ZipFile(io.BytesIO(wheel)) as kit:
        inside = kit.namelist()
    for name in ("grader/cli/__init__.py", "grader/spec/__init__.py", "grader/shipped/dice.py", "grader/data/final/sp19.txt",
                 "grader/templates/handout/handout.html.j2", *[f"grader/specs/{v}.yaml" for v in IDS]):
        assert name in inside
    assert not [name for name in inside if "__pycache__" in name or name.endswith(".pyc")]
    assert not [name for name in inside if not name.startswith(("grader/", "hog_kit-"))]
    assert 'variants = ["sp19"]' in config and "[points.sp19]" in config
    assert "\nVARIANT=sp19\n" in run
    assert "--course \"$COURSE\" grade \"$submission\" --variant \"$VARIANT\" --force-variant --format json" in run
    assert "HOG_ROOT" not in run and "PYTHONPATH" not in run
    assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in run


def test_the_same_kit_makes_the_same_zip():
    variant = load_variant("sp19")
    assert assign.autograder_zip(variant) == assign.autograder_zip(variant)


@pytest.mark.parametrize("script", ["setup.sh", "run_autograder"])
def test_the_scripts_are_valid_bash(script):
    with zipfile.ZipFile(io.BytesIO(assign.autograder_zip(load_variant("sp19")))) as archive:
        text = archive.read(script).decode()
    assert text.startswith("#!/usr/bin/env bash\n")
    result = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_setup_installs_bubblewrap_and_the_kit_and_run_autograder_installs_nothing(tmp_path):
    with zipfile.ZipFile(io.BytesIO(assign.autograder_zip(load_variant("sp19")))) as archive:
        setup, run = archive.read("setup.sh").decode(), archive.read("run_autograder").decode()
    assert "apt-get install -y -qq --no-install-recommends bubblewrap" in setup
    assert 'pip install --quiet --disable-pip-version-check ${HOG_PIP_OPTIONS:-} "$wheel"' in setup
    assert "HOG_ROOT" not in setup and "PYTHONPATH" not in setup
    warm = next(line for line in setup.splitlines() if "hidden_cases(v) for v in all_variants()" in line)
    # The line setup.sh runs fills the cache with every variant's hidden cases.
    subprocess.run([sys.executable, "-c", warm.strip().strip("'")], check=True, timeout=120,
                   env={**os.environ, "HOG_CACHE": str(tmp_path)})
    cached = sorted(path.name.split("-")[0] for path in (tmp_path / "hidden").glob("*.json"))
    assert cached == sorted(variant.id for variant in VARIANTS)
    for installer in ("apt-get ", "pip ", "ensurepip", "-m venv"):
        assert installer not in run


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_the_github_workflow_runs_the_public_cases_on_push_with_no_secret(variant):
    text = assign.autograder_files(variant)[".github/workflows/grade.yml"].decode()
    workflow = yaml.safe_load(text)
    assert "push" in workflow[True]          # YAML 1.1 reads the key `on` as true
    assert workflow["env"]["HOG_VARIANT"] == variant.id
    steps = workflow["jobs"]["grade"]["steps"]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert "python -m pytest --junitxml=public-cases.xml" in runs
    assert "secrets." not in text and "HOG_KIT" not in text   # nothing a student's edit could print
    assert steps[-1]["uses"] == "classroom-resources/autograding-grading-reporter@v1"


def summarise(tmp_path, variant, folder):
    """Run the workflow's Summarise step on the public cases of ``folder``; its report and summary."""
    workflow = yaml.safe_load(assign.autograder_files(variant)[".github/workflows/grade.yml"])
    script = next(step for step in workflow["jobs"]["grade"]["steps"] if step.get("name") == "Summarise")["run"]
    work = tmp_path / "repository"
    shutil.copytree(folder, work)
    subprocess.run([sys.executable, "-m", "pytest", "--junitxml=public-cases.xml", "-q"], cwd=work,
                   capture_output=True, timeout=300)
    env = {**os.environ, "HOG_QUESTIONS": workflow["env"]["HOG_QUESTIONS"],
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GITHUB_OUTPUT": str(tmp_path / "output")}
    subprocess.run([sys.executable, "-c", script], cwd=work, env=env, check=True, timeout=60)
    encoded = (tmp_path / "output").read_text().strip().removeprefix("result=")
    return json.loads(base64.b64decode(encoded)), (tmp_path / "summary.md").read_text()


@pytest.mark.slow
def test_the_workflow_reports_the_public_cases_question_by_question(tmp_path):
    variant = load_variant("fa19")
    report, summary = summarise(tmp_path / "solution", variant, project.SOLUTION / "fa19")
    final = variant.questions[-1]
    assert report["status"] == "pass" and report["max_score"] == variant.points - final.points
    assert [test["score"] for test in report["tests"]] == [q.points for q in variant.questions[:-1]] + [0]
    assert "the instructor's grading" in report["tests"][-1]["message"]
    assert summary.startswith(f"## Hog, public cases: {variant.points - final.points:g} / ")
    report, summary = summarise(tmp_path / "skeleton", variant, project.SKELETON / "fa19")
    assert report["status"] == "fail" and sum(test["score"] for test in report["tests"]) == 0
    assert "| Question 1: " in summary and "| failed |" in summary


def unpacked(bundle, root: Path) -> Path:
    """Gradescope's /autograder at ``root``: the bundle (a zip's bytes or path) unpacked in source/,
    its run_autograder executable."""
    with zipfile.ZipFile(io.BytesIO(bundle) if isinstance(bundle, bytes) else bundle) as archive:
        archive.extractall(root / "source")
    (root / "source" / "run_autograder").chmod(0o755)
    return root


def fake_autograder(tmp_path, variant_id, hog_folder):
    """A copy of Gradescope's /autograder tree: the zip unpacked in source/, a submission."""
    root = unpacked(assign.autograder_zip(load_variant(variant_id)), tmp_path / "autograder")
    (root / "submission").mkdir()
    for name in ("hog.py", "dice.py"):
        shutil.copy(hog_folder / name, root / "submission" / name)
    return root


def run_autograder(root):
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "HOG_KIT_PYTHON": sys.executable,
           "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run([str(root / "source/run_autograder")], env=env, capture_output=True, text=True,
                            timeout=600)
    results = json.loads((root / "results/results.json").read_text())
    return result, results


@pytest.mark.slow
def test_run_autograder_gives_the_solution_full_marks_and_the_skeleton_none(tmp_path):
    variant = load_variant("sp19")
    result, results = run_autograder(fake_autograder(tmp_path / "solved", "sp19", project.SOLUTION / "sp19"))
    assert result.returncode == 0, result.stderr
    by_name = {test["name"]: test for test in results["tests"]}
    unlockable = [question for question in variant.questions if question.locked]
    assert len(by_name) == len(variant.questions) + len(unlockable)
    for question in unlockable:   # nothing unlocked in this submission: reported, worth no points by default
        assert by_name[f"Question {question.label}: unlocked"]["status"] == "failed"
    for question in variant.questions:
        test = next(test for name, test in by_name.items() if name.startswith(f"Question {question.label}:"))
        assert test["max_score"] == question.points
        assert test["score"] == question.points, test["output"]
    assert results["score"] == variant.points
    direct = tmp_path / "direct.json"
    subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(project.SOLUTION / "sp19"), "--variant", "sp19", "--format", "json",
                    "--output", str(direct)], check=True, capture_output=True)
    assert results["score"] == json.loads(direct.read_text())["score"]
    result, results = run_autograder(fake_autograder(tmp_path / "started", "sp19", project.SKELETON / "sp19"))
    assert result.returncode == 0, result.stderr
    assert results["score"] == 0 and len(results["tests"]) == len(variant.questions) + len(unlockable)


@pytest.mark.slow
def test_run_autograder_tells_the_student_when_grading_cannot_complete(tmp_path):
    root = fake_autograder(tmp_path, "sp19", project.SOLUTION / "sp19")
    (root / "source/course/hog-course.toml").write_text("isolation = 'chroot'\n")
    result, results = run_autograder(root)
    assert result.returncode == 2
    assert results["score"] == 0 and results["tests"] == []
    assert results["output"].startswith("The autograder could not grade this submission:\n\n")
    assert "Error: " in results["output"]
    assert results["output"].endswith("Check that you submitted hog.py. If you did, tell your instructor.")


# ------------------------------------------------------------- bad input


def test_an_unknown_variant_writes_nothing(tmp_path, capsys):
    assert main(["assign", "sp91", "--out", str(tmp_path / "bundle")]) == 2
    assert capsys.readouterr().err == "Error: specs: no variant 'sp91' (did you mean 'sp19'?)\n"
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_that_is_not_empty_is_left_alone(tmp_path, capsys):
    out = tmp_path / "bundle"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(["assign", "sp19", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"Error: {out} already exists and is not empty "
                                       f"(choose a new folder for --out, or remove {out} first)\n")
    assert [path.name for path in tmp_path.iterdir()] == ["bundle"]
    assert [path.name for path in out.iterdir()] == ["notes.txt"]


def test_an_existing_empty_folder_is_filled(tmp_path):
    (tmp_path / "bundle").mkdir()
    out = assigned(tmp_path)
    assert (out / "student/hog.py").exists() and (out / "autograder/autograder.zip").exists()


def test_a_folder_inside_a_file_cannot_be_written(tmp_path, capsys):
    (tmp_path / "notes").write_text("mine")
    assert main(["assign", "sp19", "--out", str(tmp_path / "notes" / "bundle")]) == 2
    assert capsys.readouterr().err == (f"Error: {tmp_path / 'notes'} is a file, not a folder "
                                       f"(choose an --out inside a folder you can write to)\n")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write in any folder")
def test_a_folder_without_write_permission_cannot_be_written(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert main(["assign", "sp19", "--out", str(locked / "bundle")]) == 2
    finally:
        locked.chmod(0o755)
    assert capsys.readouterr().err == (f"Error: cannot write in {locked}: Permission denied "
                                       f"(choose an --out inside a folder you can write to)\n")
    assert list(locked.iterdir()) == []


def test_a_failure_while_writing_leaves_nothing_half_written(tmp_path, capsys, monkeypatch):
    written = []

    def write_bytes(path, data):
        if len(written) == 5:
            raise OSError(28, "No space left on device")
        written.append(path)
        with open(path, "wb") as file:
            file.write(data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    assert main(["assign", "sp19", "--out", str(tmp_path / "bundle")]) == 2
    assert capsys.readouterr().err == (f"Error: cannot write {tmp_path / 'bundle'}: No space left on device "
                                       f"(check the free space and permissions of {tmp_path})\n")
    assert len(written) == 5 and list(tmp_path.iterdir()) == []


def test_folders_made_for_the_output_are_removed_when_writing_fails(tmp_path, capsys, monkeypatch):
    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    assert main(["assign", "sp19", "--out", str(tmp_path / "term" / "week3" / "bundle")]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_output_that_is_a_file_is_named_so(tmp_path, capsys):
    (tmp_path / "bundle").write_text("")
    assert main(["assign", "sp19", "--out", str(tmp_path / "bundle")]) == 2
    assert capsys.readouterr().err == f"Error: {tmp_path / 'bundle'} is a file (choose a new folder for --out)\n"


@pytest.mark.slow
def test_the_autograder_bundle_carries_an_okpy_suite_s_course_files_and_grades_with_them(tmp_path):
    """An okpy suite whose tests import the course's helpers (tests/check_strategy.py, hog_gui.py) and read its
    data (tests/play.sol): autograder.zip holds them beside suite.json, and run_autograder earns the reference
    every point with them."""
    course = tmp_path / "course"
    assert main(["init", str(course), "--variant", "fa18"]) == 0
    okpy = project.PACKAGE.parent / "tests" / "data" / "okpy" / "fa18"
    assert main(["--course", str(course), "import-ok", str(okpy), "--name", "ok"]) == 0
    assert main(["--course", str(course), "assign", "fa18", "--out", str(tmp_path / "out"), "--suite", "ok"]) == 0
    root = unpacked(tmp_path / "out" / "autograder" / "autograder.zip", tmp_path / "autograder")
    kept = root / "source" / "course" / "suites" / "ok" / "files"
    assert (kept / "tests" / "play.sol").read_bytes() == (okpy / "tests" / "play.sol").read_bytes()
    assert (kept / "hog_gui.py").is_file() and (kept / "gui_files" / "common_server.py").is_file()
    (root / "submission").mkdir()
    shutil.copy(project.PACKAGE.parent / "solution" / "fa18" / "hog.py", root / "submission" / "hog.py")
    result, results = run_autograder(root)
    assert result.returncode == 0, result.stderr
    assert {test["name"]: test["score"] for test in results["tests"]} == {
        "Question 1": 2.0, "Question 5": 3.0, "Question 5b": 1.0, "Question 8": 2.0}


@pytest.mark.slow
def test_the_autograder_bundle_carries_an_okpy_suite_and_grades_with_it(tmp_path):
    """hog assign --suite NAME: autograder.zip holds the imported suite in its course, and run_autograder grades
    with it (the reference 14 of 14, its results named by the okpy tests' names); a suite never imported is
    refused before anything is written."""
    course = tmp_path / "course"
    assert main(["init", str(course), "--variant", "sp19"]) == 0
    okpy = project.PACKAGE.parent / "tests" / "data" / "okpy" / "sp19"
    reference = project.PACKAGE.parent / "solution" / "sp19"
    assert main(["--course", str(course), "import-ok", str(okpy), "--name", "ok"]) == 0
    assert main(["--course", str(course), "assign", "sp19", "--out", str(tmp_path / "none"), "--suite", "nope"]) == 2
    assert not (tmp_path / "none").exists()
    assert main(["--course", str(course), "assign", "sp19", "--out", str(tmp_path / "out"), "--suite", "ok"]) == 0
    root = unpacked(tmp_path / "out" / "autograder" / "autograder.zip", tmp_path / "autograder")
    assert (root / "source" / "course" / "suites" / "ok" / "suite.json").is_file()
    (root / "submission").mkdir()
    shutil.copy(reference / "hog.py", root / "submission" / "hog.py")
    result, results = run_autograder(root)
    assert result.returncode == 0, result.stderr
    assert [test["name"] for test in results["tests"]] == [f"Question {n}" for n in range(1, 8)]
    assert results["score"] == results["max_score"] == 14
