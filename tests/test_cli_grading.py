"""`hog grade`, `hog test` and `hog grade-batch` as CI jobs, instructors and students call them."""

import csv
import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from grader import cases, cli, project
from grader.grading import grade
from grader.publishing import assign
from grader.errors import GraderFault
from grader.spec import load_variant
from tests.publishing.test_assign import unpacked


def hog(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=cwd or project.ROOT, timeout=600)


@pytest.mark.slow
def test_grade_prints_gradescope_json_and_exits_0_whatever_the_score():
    result = hog("grade", "skeleton/sp19", "--variant", "sp19", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == 0 and data["max_score"] == load_variant("sp19").points == 23
    assert {"score", "max_score", "execution_time", "output", "tests"} <= set(data)
    for test in data["tests"]:   # a failing case's diagnosis beside what Gradescope reads
        assert set(test) - {"diagnosis"} == {"name", "number", "score", "max_score", "status", "output", "visibility"}
    assert data["tests"][0]["status"] == "failed" and "# Error: expected" in data["tests"][0]["output"]
    assert data["tests"][0]["diagnosis"]["text"].startswith("roll_dice(")


@pytest.mark.slow
def test_grade_writes_junit_to_a_file(tmp_path):
    target = tmp_path / "report.xml"
    result = hog("grade", "solution/fa18/hog.py", "--variant", "fa18", "--format", "junit", "--output", str(target))
    assert result.returncode == 0 and result.stdout == ""
    suite = ElementTree.parse(target).getroot()
    assert suite.get("tests") == "12" and suite.get("failures") == "0"
    assert suite.find("properties/property[@name='seed']").get("value").isdigit()


@pytest.mark.slow
def test_grade_text_names_the_failing_case_and_the_rerun_command():
    result = hog("grade", "skeleton/nju24", "--variant", "nju24")
    assert result.returncode == 0
    assert "Question 2 > Case q02-1" in result.stdout
    assert "Run only this question:  python -m pytest -k q02" in result.stdout
    assert "Score: 0/2403" in result.stdout   # NJU's own scale (2400), and the final strategy's 3


@pytest.mark.slow
@pytest.mark.parametrize("args, message", [
    (["grade", "skeleton/sp19", "--variant", "sp91"], "Error: specs: no variant 'sp91' (did you mean 'sp19'?)"),
    (["grade", "nowhere", "--variant", "sp19"], "Error: no submission at nowhere"),
    (["grade", "specs", "--variant", "sp19"], "Error: specs holds no hog.py"),
    (["grade", "skeleton/sp19", "--variant", "sp19", "--format", "pdf"], "argument --format: invalid choice"),
])
def test_usage_errors_exit_2_with_one_clear_line(args, message):
    result = hog(*args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_a_fault_of_the_grader_exits_1_with_a_visible_zero(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("the engine broke")
    monkeypatch.setattr("grader.grading.grade.grade", broken)
    assert cli.main(["grade", str(project.SOLUTION / "sp19"), "--variant", "sp19", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 0 and data["tests"][0]["name"] == "grader failed"
    assert "RuntimeError: the engine broke" in data["tests"][0]["output"]


@pytest.mark.slow
def test_hog_test_runs_one_question_and_finds_the_variant_itself(tmp_path):
    folder = tmp_path / "hw"
    shutil.copytree(project.SKELETON / "fa19", folder)
    result = hog("test", "-q", "2", cwd=folder)
    assert result.returncode == 1
    assert "Question   2  free_bacon" in result.stdout and "Question   3" not in result.stdout
    assert "Run only this question:  hog test -q 02" in result.stdout
    shutil.copy(project.SOLUTION / "fa19" / "hog.py", folder / "hog.py")
    assert hog("test", cwd=folder).returncode == 0
    assert "hidden" not in hog("test", cwd=folder).stdout


@pytest.mark.slow
def test_hog_test_of_a_problem_in_two_parts_runs_both_and_a_part_alone(tmp_path):
    folder = tmp_path / "hw"
    shutil.copytree(project.SKELETON / "fa19", folder)
    both = hog("test", "-q", "5", cwd=folder)
    assert both.returncode == 1 and "Question  5a" in both.stdout and "Question  5b" in both.stdout
    assert "Question   6" not in both.stdout
    part = hog("test", "-q", "5b", cwd=folder)
    assert "Question  5b" in part.stdout and "Question  5a" not in part.stdout
    missing = hog("test", "-q", "13", cwd=folder)
    assert missing.returncode == 2 and "5a, 5b" in missing.stderr


@pytest.mark.slow
def test_hog_test_asks_for_the_variant_when_it_cannot_tell(tmp_path):
    (tmp_path / "hog.py").write_text("def roll_dice(): pass\n")
    result = hog("test", str(tmp_path))
    assert result.returncode == 2 and "cannot tell the variant" in result.stderr and "--variant" in result.stderr


def make_batch(folder: Path) -> None:
    folder.mkdir()
    shutil.copytree(project.SOLUTION / "sp19", folder / "ada")
    shutil.copytree(project.SKELETON / "sp19", folder / "grace")
    (folder / "linus.py").write_text("import sys\nsys.exit(3)\n")
    (folder / "empty").mkdir()


@pytest.mark.slow
def test_grade_batch_writes_each_result_and_a_gradebook_and_resumes(tmp_path):
    make_batch(tmp_path / "in")
    out = tmp_path / "out"
    result = hog("grade-batch", str(tmp_path / "in"), "--variant", "sp19", "--jobs", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "graded 4, skipped 0 already graded, 0 grader faults" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == ["ada.json", "empty.json", "grace.json", "gradebook.csv",
                                                      "instructor", "linus.json"]
    rows = {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}
    assert rows["ada"]["score"] == "24.0" or float(rows["ada"]["score"]) >= 23
    assert float(rows["grace"]["score"]) == 0 and float(rows["linus"]["score"]) == 0
    assert rows["ada"]["q1"] == "2.0"
    (out / "grace.json").write_text("{ half written")
    again = hog("grade-batch", str(tmp_path / "in"), "--variant", "sp19", "--out", str(out))
    assert "graded 1, skipped 3 already graded" in again.stdout
    assert json.loads((out / "grace.json").read_text())["score"] == 0


# ------------------------------------------------------------------ isolation required, seeds


def unreachable(*args, **kwargs):
    raise GraderFault("the sandbox cannot reach isolation 'bubblewrap' here (bwrap cannot start)")


@pytest.mark.slow
def test_an_isolation_that_cannot_be_reached_is_a_visible_grader_failure_never_a_score(monkeypatch, capsys):
    monkeypatch.setattr("grader.grading.grade.run_cases", unreachable)
    status = cli.main(["grade", str(project.SOLUTION / "sp19"), "--variant", "sp19", "--format", "json",
                       "--isolation", "bubblewrap"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1 and data["score"] == 0 and data["grader_failed"] is True
    assert data["tests"][0]["name"] == "grader failed" and "cannot reach isolation" in data["tests"][0]["output"]


@pytest.mark.slow
def test_a_sandbox_that_ran_below_the_required_level_is_not_scored(monkeypatch, capsys):
    """Whatever the sandbox was asked, the level it reports is checked after the run."""
    real = grade.run_cases

    def below(submission, sessions, **options):   # a run that reports less than was required
        return dataclasses.replace(real(submission, sessions, **options), level="process",
                                   isolation="process limits only (file isolation off: bwrap cannot start)")
    monkeypatch.setattr("grader.grading.grade.run_cases", below)
    status = cli.main(["grade", str(project.SOLUTION / "fa18"), "--variant", "fa18", "--format", "json",
                       "--isolation", "files"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1 and data["score"] == 0 and data["grader_failed"] is True
    assert "isolation 'files' was required, but the sandbox reached only 'process'" in data["output"]
    assert cli.main(["grade", str(project.SOLUTION / "fa18"), "--variant", "fa18", "--format", "json",
                     "--isolation", "process"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == load_variant("fa18").points


@pytest.mark.slow
def test_grade_batch_requires_its_isolation_and_regrades_the_failures_once_it_is_there(tmp_path, monkeypatch,
                                                                                      capsys):
    subs = tmp_path / "in"
    subs.mkdir()
    shutil.copy(project.SKELETON / "sp19" / "hog.py", subs / "bob.py")
    out = tmp_path / "out"
    with monkeypatch.context() as patched:
        patched.setattr("grader.grading.grade.run_cases", unreachable)
        assert cli.main(["grade-batch", str(subs), "--variant", "sp19", "--out", str(out)]) == 1
    assert "1 grader faults; isolation required: files" in capsys.readouterr().out
    data = json.loads((out / "bob.json").read_text())
    assert data["grader_failed"] is True and data["score"] == 0
    assert cli.main(["grade-batch", str(subs), "--variant", "sp19", "--out", str(out)]) == 0
    assert "graded 1, skipped 0 already graded, 0 grader faults" in capsys.readouterr().out
    assert json.loads((out / "bob.json").read_text())["grader_failed"] is False


def test_an_unknown_isolation_level_in_the_environment_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setenv("HOG_ISOLATION", "namespaces")
    assert cli.main(["grade", str(project.SOLUTION / "fa18"), "--variant", "fa18"]) == 2
    assert capsys.readouterr().err == ("Error: HOG_ISOLATION='namespaces' is not an isolation level: use process, "
                                       "files, bubblewrap (from least to most isolated) or container (Docker or "
                                       "Podman)\n")


@pytest.mark.slow
def test_a_regrade_with_the_same_seed_reproduces_the_verdict_and_another_seed_draws_other_cases(tmp_path):
    variant = load_variant("sp19")
    assert cases._generate(variant, 7) == cases._generate(variant, 7)
    assert cases._generate(variant, 7) != cases._generate(variant, 8)
    buggy = tmp_path / "hog.py"
    source = (project.SOLUTION / "sp19" / "hog.py").read_text()
    buggy.write_text(source.replace("def roll_dice(num_rolls, dice=six_sided):",
                                    "def roll_dice(num_rolls, dice=six_sided):\n    if num_rolls == 7:\n"
                                    "        return 7\n", 1))
    assert buggy.read_text() != source
    shutil.copy(project.SOLUTION / "sp19" / "dice.py", tmp_path / "dice.py")
    runs = [json.loads(hog("grade", str(tmp_path), "--variant", "sp19", "--format", "json", "--seed", "7").stdout)
            for _ in range(2)]
    assert runs[0]["seed"] == runs[1]["seed"] == 7
    assert runs[0]["tests"] == runs[1]["tests"] and runs[0]["score"] < 26
    fresh = json.loads(hog("grade", str(tmp_path), "--variant", "sp19", "--format", "json").stdout)
    assert fresh["seed"] != 7 and isinstance(fresh["seed"], int)


@pytest.mark.slow
def test_the_gradescope_script_requires_file_isolation_unless_the_bundle_names_another_level(tmp_path):
    root = unpacked(assign.autograder_zip(load_variant("fa18")), tmp_path / "autograder")
    script = (root / "source" / "run_autograder").read_text()
    assert "ISOLATION=files\n" in script and '--isolation "$ISOLATION"' in script
    (root / "submission").mkdir(parents=True)
    shutil.copy(project.SOLUTION / "fa18" / "hog.py", root / "submission" / "hog.py")
    (root / "source" / "isolation").write_text("chroot\n")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "HOG_KIT_PYTHON": sys.executable}
    done = subprocess.run([str(root / "source/run_autograder")], env=env, capture_output=True, text=True,
                          timeout=600)
    results = json.loads((root / "results/results.json").read_text())
    assert done.returncode == 2 and results["score"] == 0
    assert "argument --isolation: invalid choice: 'chroot'" in results["output"]
