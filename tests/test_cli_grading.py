"""`hog grade`, `hog test` and `hog grade-batch` as CI jobs, instructors and students call them."""

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest

from grader import cli, commands, project


def hog(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], capture_output=True, text=True,
                          cwd=cwd or project.ROOT, timeout=600)


def test_grade_prints_gradescope_json_and_exits_0_whatever_the_score():
    result = hog("grade", "skeleton/sp19", "--variant", "sp19", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == 0 and data["max_score"] == 26
    assert {"score", "max_score", "execution_time", "output", "tests"} <= set(data)
    for test in data["tests"]:
        assert set(test) == {"name", "number", "score", "max_score", "status", "output", "visibility"}
    assert data["tests"][0]["status"] == "failed" and "# Error: expected" in data["tests"][0]["output"]


def test_grade_writes_junit_to_a_file(tmp_path):
    target = tmp_path / "report.xml"
    result = hog("grade", "solution/fa18/hog.py", "--variant", "fa18", "--format", "junit", "--output", str(target))
    assert result.returncode == 0 and result.stdout == ""
    suite = ElementTree.parse(target).getroot()
    assert suite.get("tests") == "12" and suite.get("failures") == "0"


def test_grade_text_names_the_failing_case_and_the_rerun_command():
    result = hog("grade", "skeleton/nju24", "--variant", "nju24")
    assert result.returncode == 0
    assert "Question 2 > Case q02-1" in result.stdout
    assert "Run only this question:  python -m pytest -k q02" in result.stdout
    assert "Score: 0/23" in result.stdout


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
    monkeypatch.setattr("grader.grade.grade", broken)
    assert cli.main(["grade", str(project.SOLUTION / "sp19"), "--variant", "sp19", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 0 and data["tests"][0]["name"] == "grader failed"
    assert "RuntimeError: the engine broke" in data["tests"][0]["output"]


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


def test_grade_batch_writes_each_result_and_a_gradebook_and_resumes(tmp_path):
    make_batch(tmp_path / "in")
    out = tmp_path / "out"
    result = hog("grade-batch", str(tmp_path / "in"), "--variant", "sp19", "--jobs", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "graded 4, skipped 0 already graded, 0 grader faults" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == ["ada.json", "empty.json", "grace.json", "gradebook.csv",
                                                      "linus.json"]
    rows = {row["submission"]: row for row in csv.DictReader((out / "gradebook.csv").open())}
    assert rows["ada"]["score"] == "24.0" or float(rows["ada"]["score"]) >= 23
    assert float(rows["grace"]["score"]) == 0 and float(rows["linus"]["score"]) == 0
    assert rows["ada"]["q1"] == "2.0"
    (out / "grace.json").write_text("{ half written")
    again = hog("grade-batch", str(tmp_path / "in"), "--variant", "sp19", "--out", str(out))
    assert "graded 1, skipped 3 already graded" in again.stdout
    assert json.loads((out / "grace.json").read_text())["score"] == 0
