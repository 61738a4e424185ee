"""`hog assign ID --out DIR --platform prairielearn`: the question folder, its results, and grading in /grade."""

import dataclasses
import io
import json
import os
import shutil
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import pytest

from grader import project
from grader.cli import main
from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult
from grader.publishing import prairielearn
from grader.report import FORMATS
from grader.spec import load_variant
from tests import TESTS

QUESTION = "questions/hog-sp19"
HOSTILE = TESTS / "submissions" / "hostile"


def assigned(tmp_path, variant_id="sp19"):
    out = tmp_path / "bundle"
    assert main(["assign", variant_id, "--out", str(out), "--platform", "prairielearn"]) == 0
    return out


# ---------------------------------------------------------------- the question


def test_the_question_folder_holds_the_question_the_downloads_the_grader_and_the_image(tmp_path, capsys):
    out = assigned(tmp_path)
    assert "questions/hog-sp19/" in capsys.readouterr().out
    for name in ("info.json", "question.html", "tests/grade.sh", "tests/grading_failed.py",
                 "tests/course/hog-course.toml", "clientFilesQuestion/hog.py", "clientFilesQuestion/dice.py",
                 "clientFilesQuestion/handout.html", "clientFilesQuestion/hog-sp19.zip"):
        assert (out / QUESTION / name).is_file(), name
    for name in ("Dockerfile", "setup.sh", "kit/README.md", "course/hog-course.toml"):
        assert (out / "grader-image" / name).is_file(), name
    assert list((out / "grader-image/kit").glob("hog_kit-*.whl"))
    assert (out / "README.md").is_file() and not (out / "student").exists()


def test_info_json_is_an_externally_graded_v3_question_run_by_the_entrypoint_in_tests():
    info = json.loads(prairielearn.question_files(load_variant("sp19"))["info.json"])
    assert uuid.UUID(info["uuid"]) and info["title"] == "Hog (CS 61A Spring 2019 rules)" and info["topic"]
    assert info["type"] == "v3" and info["gradingMethod"] == "External"
    options = info["externalGradingOptions"]
    assert options["enabled"] is True and options["image"]
    assert options["entrypoint"] == "/grade/tests/grade.sh"
    assert 0 < options["timeout"] <= 600   # PrairieLearn's limit


def test_each_variant_has_its_own_question_uuid_the_same_every_time():
    ids = {prairielearn.info(load_variant(name))["uuid"] for name in ("sp19", "fa19")}
    assert len(ids) == 2 and prairielearn.info(load_variant("sp19"))["uuid"] in ids


def test_the_question_shows_the_handout_takes_hog_py_and_shows_the_grader_results():
    files = prairielearn.question_files(load_variant("sp19"))
    html = files["question.html"].decode()
    assert '<pl-file-upload file-names="hog.py" optional-file-names=".hog_unlock.json">' in html
    assert "<pl-external-grader-results>" in html
    assert '<pl-file-download file-name="hog-sp19.zip"' in html
    assert '<pl-file-download file-name="handout.html" label="the handout" force-download="false">' in html
    assert "<h2>The rules</h2>" in html or 'id="rules"' in html
    assert "{{" not in html and "<style>" not in html   # Mustache reads the page; PrairieLearn styles it


def test_the_downloads_are_the_student_folder_and_nothing_hidden():
    files = prairielearn.question_files(load_variant("sp19"))
    assert files["clientFilesQuestion/hog.py"] == (project.SKELETON / "sp19/hog.py").read_bytes()
    with zipfile.ZipFile(io.BytesIO(files["clientFilesQuestion/hog-sp19.zip"])) as archive:
        names = archive.namelist()
    assert "hog-sp19/hog.py" in names and "hog-sp19/dice.py" in names and "hog-sp19/tests/q01.md" in names
    assert not any("hidden" in name or name.endswith(".yaml") for name in names)


def test_the_image_runs_the_gradescope_setup_on_a_slim_python():
    files = prairielearn.image_files(load_variant("sp19"))
    dockerfile = files["Dockerfile"].decode()
    assert "ARG BASE=python:3.11-slim\nFROM ${BASE}" in dockerfile
    assert "setup.sh" in dockerfile and files["setup.sh"] == (prairielearn.assign.SHIPPED / "setup.sh").read_bytes()


def test_a_roster_has_no_prairielearn_question(tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    roster.write_text("sid,email,section\n1,a@x.edu,A\n")
    assert main(["assign", "--roster", str(roster), "--out", str(tmp_path / "out"), "--platform",
                 "prairielearn"]) == 2
    assert "--platform prairielearn" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------- results


def result_of(variant, failing=None, **options):
    """A GradeResult built by hand (no sandbox): every question full but ``failing``'s, which failed ``case``."""
    questions = []
    for question in variant.questions:
        if failing is not None and question.number == failing.question:
            verdict = CaseVerdict(failing, False, step=len(failing.steps) - 1, got="[]\n")
            questions.append(QuestionResult(question, 0.0, [verdict]))
        else:
            questions.append(QuestionResult(question, question.points, []))
    return GradeResult(variant, "hog.py", questions, isolation="files", seconds=1.0, **options)


def pl_results(result):
    return json.loads(FORMATS["prairielearn"](result))


def test_full_marks_are_a_score_of_one_with_a_line_per_question():
    variant = load_variant("sp19")
    results = pl_results(result_of(variant, seed=7))
    assert results["gradable"] is True and results["score"] == 1.0 and results["seed"] == 7
    assert [test["max_points"] for test in results["tests"]] == [q.points for q in variant.questions]
    assert all(test["points"] == test["max_points"] and test["name"].startswith("Question ")
               for test in results["tests"])


def test_a_failing_public_case_shows_the_ok_session_and_costs_its_question():
    variant = load_variant("fa19")
    case = next(case for case in variant.cases if case.rule == "Feral Hogs" and case.example == 1)
    results = pl_results(result_of(variant, case))
    question = next(q for q in variant.questions if q.number == case.question)
    assert results["score"] == pytest.approx((variant.points - question.points) / variant.points)
    failed = next(test for test in results["tests"] if test["points"] < test["max_points"])
    assert failed["message"] == "0/1 cases passed"
    assert ">>> " in failed["output"] and "# Error: expected" in failed["output"]
    assert "(rules, Feral Hogs, example 1)" in failed["output"] and ".yaml" not in failed["output"]


def test_a_failing_hidden_case_is_only_counted():
    variant = load_variant("sp19")
    public = variant.cases[0]
    hidden = dataclasses.replace(public, hidden=True)
    output = next(test for test in pl_results(result_of(variant, hidden))["tests"]
                  if test["points"] < test["max_points"])["output"]
    assert "hidden" in output and ">>> " not in output and "expected" not in output


def test_a_grader_fault_is_not_gradable_and_says_why():
    variant = load_variant("sp19")
    fault = GradeResult(variant, "hog.py", [], "unknown", 0.0, grader_error="SandboxUnavailable: no files level")
    results = pl_results(fault)
    assert results["gradable"] is False and "score" not in results and results["grader_failed"] is True
    assert "SandboxUnavailable: no files level" in results["message"]
    assert results["format_errors"] == [results["message"]]


# ------------------------------------------------------- grading in /grade


def fake_grade(tmp_path, hog_source: str, variant_id: str = "sp19") -> Path:
    """A copy of PrairieLearn's /grade: the question's tests/ and a submitted hog.py in student/."""
    root = tmp_path / "grade"
    files = prairielearn.question_files(load_variant(variant_id))
    for name, data in files.items():
        if name.startswith("tests/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
    (root / "student").mkdir()
    (root / "student/hog.py").write_text(hog_source)
    return root


def run_grade(root):
    env = {**os.environ, "GRADE_ROOT": str(root), "HOG_KIT_PYTHON": sys.executable, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(["bash", str(root / "tests/grade.sh")], env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads((root / "results/results.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("variant_id", ["sp19", "nju24", "nju21", "fa19", "fa18"])
def test_grading_in_grade_gives_the_reference_full_marks_and_the_skeleton_none(tmp_path, variant_id):
    solved = (project.SOLUTION / variant_id / "hog.py").read_text()
    results = run_grade(fake_grade(tmp_path / "solved", solved, variant_id))
    assert results["gradable"] is True and results["score"] == 1.0, results["tests"]
    assert results["isolation_level"] in ("files", "bubblewrap")
    started = (project.SKELETON / variant_id / "hog.py").read_text()
    results = run_grade(fake_grade(tmp_path / "started", started, variant_id))
    assert results["gradable"] is True and results["score"] == 0
    assert all(test["points"] == 0 for test in results["tests"])


@pytest.mark.slow
def test_grading_in_grade_gives_a_submission_that_hunts_for_the_kit_nothing(tmp_path):
    results = run_grade(fake_grade(tmp_path, (HOSTILE / "steal_kit.py").read_text()))
    assert results["gradable"] is True and results["score"] == 0


@pytest.mark.slow
def test_grading_in_grade_costs_a_sleeping_function_only_its_points(tmp_path):
    variant = load_variant("sp19")
    source = (project.SOLUTION / "sp19/hog.py").read_text() + (
        "\n\ndef swap_strategy(score, opponent_score, margin=8, num_rolls=4):\n"
        "    import time\n    time.sleep(60)\n")
    results = run_grade(fake_grade(tmp_path, source))
    lost = [test for test in results["tests"] if test["points"] < test["max_points"]]
    assert [test["name"] for test in lost] == ["Question 11: The swap strategy (swap_strategy)"]
    assert "Timeout" in lost[0]["output"]
    question = next(q for q in variant.questions if q.function == "swap_strategy")
    assert results["score"] == pytest.approx((variant.points - question.points) / variant.points, abs=1e-6)


@pytest.mark.slow
def test_grading_that_cannot_complete_is_not_gradable_and_says_why(tmp_path):
    root = fake_grade(tmp_path, (project.SOLUTION / "sp19/hog.py").read_text())
    (root / "tests/course/hog-course.toml").write_text("isolation = 'chroot'\n")
    results = run_grade(root)
    assert results["gradable"] is False and "score" not in results
    assert results["message"].startswith("The autograder could not grade this submission:\n\n")
    assert "Error: " in results["message"]


def test_the_entrypoint_is_valid_bash_and_closes_the_course_before_grading():
    script = prairielearn.question_files(load_variant("sp19"))["tests/grade.sh"].decode()
    assert shutil.which("bash")
    subprocess.run(["bash", "-n"], input=script, text=True, check=True)
    assert script.index('chmod -R go-rwx "$TESTS"') < script.index("grader.cli")
    assert 'ROOT="${GRADE_ROOT:-/grade}"' in script and "--format prairielearn" in script


def test_a_question_and_its_image_carry_the_course_files_of_an_okpy_suite(tmp_path):
    course = tmp_path / "course"
    assert main(["init", str(course), "--variant", "fa18"]) == 0
    assert main(["--course", str(course), "import-ok", str(TESTS / "data" / "okpy" / "fa18"), "--name", "ok"]) == 0
    files = prairielearn.bundle(load_variant("fa18"), "ok")
    for where in ("questions/hog-fa18/tests/course", "grader-image/course"):
        assert files[f"{where}/suites/ok/files/tests/play.sol"] == (
            TESTS / "data" / "okpy" / "fa18" / "tests" / "play.sol").read_bytes()
        assert f"{where}/suites/ok/files/tests/check_strategy.py" in files
        assert f"{where}/suites/ok/files/hog_gui.py" in files


@pytest.mark.slow
def test_a_question_assigned_with_an_okpy_suite_carries_it_and_grades_with_it(tmp_path):
    """hog assign --platform prairielearn --suite kit+NAME: the question's tests/ and the grader image's course
    hold the suite, and grade.sh grades with the kit's cases and the okpy tests."""
    course = tmp_path / "course"
    assert main(["init", str(course), "--variant", "sp19"]) == 0
    assert main(["--course", str(course), "import-ok", str(TESTS / "data" / "okpy" / "sp19"), "--name", "ok"]) == 0
    files = prairielearn.bundle(load_variant("sp19"), "kit+ok")
    assert "questions/hog-sp19/tests/course/suites/ok/suite.json" in files
    assert "grader-image/course/suites/ok/suite.json" in files
    root = tmp_path / "grade"
    for name, data in prairielearn.question_files(load_variant("sp19"), "kit+ok").items():
        if name.startswith("tests/"):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
    (root / "student").mkdir()
    shutil.copy(project.PACKAGE.parent / "solution" / "sp19" / "hog.py", root / "student" / "hog.py")
    results = run_grade(root)
    names = [test["name"] for test in results["tests"]]
    assert results["score"] == 1.0 and [name for name in names if ":" not in name] == [
        f"Question {n}" for n in range(1, 8)]   # the kit's are "Question N: its title (its function)"
    assert len([name for name in names if not name.endswith(": unlocked")]) == len(load_variant("sp19").questions) + 7
