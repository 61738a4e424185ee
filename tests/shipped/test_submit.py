"""``python3 submit.py`` in a student's folder, without a server: the report it prints from the server's
``hog grade --format json`` object reads as ``hog grade`` prints it, the token is found (or asked once and
kept for its owner alone), and a server out of reach is said so. Against a live ``hog serve``:
tests/shipped/test_submit_live.py."""

import ast
import dataclasses
import json
import os
import socket
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from grader.cases.unlocking import UnlockStatus
from grader.grading.grade import CaseVerdict, GradeResult, QuestionResult
from grader.report import FORMATS
from grader.shipped.student import submit
from grader.grading import okpy_grade
from grader.spec import Unlock, load_variant, okpy_folder
from tests import TESTS
from tests.report.test_report_goldens import fixed_result

SUBMIT = submit.__file__


def as_student_runs_it(result: GradeResult) -> GradeResult:
    return dataclasses.replace(result, submission="hog.py")


def printed_by_submit(result: GradeResult) -> str:
    return submit.graded_report(json.loads(FORMATS["json"](result)), "hog.py")


def printed_by_hog_grade(result: GradeResult) -> str:
    """hog grade's text report (as students read it) up to its Score: line."""
    text = FORMATS["text"](result, student=True)
    return text[:text.index("\n", text.index("\nScore: ") + 1) + 1]


def import_failed() -> GradeResult:
    variant = load_variant("sp19")
    return GradeResult(variant, "hog.py", [QuestionResult(q, 0.0, [CaseVerdict(q.cases[0], False, got="")])
                                           for q in variant.questions],
                       isolation="files", seconds=0.5, seed=11,
                       import_error="SyntaxError: invalid syntax (hog.py, line 12)")


def with_unlocking() -> GradeResult:
    """An fa19 result (questions 5a and 5b) with two questions worth points for unlocking, one unlocked."""
    variant = load_variant("fa19")
    first, second = (dataclasses.replace(q, unlock=Unlock(points=0.5)) for q in variant.questions[:2])
    questions = [QuestionResult(q, q.points, []) for q in variant.questions]
    questions[3] = QuestionResult(questions[3].question, 1.0, [], "a message of its own")
    return GradeResult(variant, "hog.py", questions, isolation="files", seconds=2.0, seed=3,
                       unlocks=[UnlockStatus(first, True, 4, 4), UnlockStatus(second, False, 1, 3)])


def with_okpy_tests() -> GradeResult:
    """The kit's cases and an imported okpy suite's (--suite kit+NAME) on a submission that loses points in both."""
    suite = okpy_folder.suite(okpy_folder.read(TESTS / "data" / "okpy" / "sp19"), "ok", {}, {})
    buggy = TESTS / "submissions" / "buggy" / "sp19_is_swap_function_object.py"
    return okpy_grade.grade_with(buggy, load_variant("sp19"), suite, True)


@pytest.mark.parametrize("made", [lambda: dataclasses.replace(fixed_result(), seed=1234), fixed_result,
                                  import_failed, with_unlocking, with_okpy_tests],
                         ids=["failed public and hidden cases", "no seed", "import error", "unlocking",
                              "okpy tests"])
def test_the_report_reads_as_hog_grade_prints_it(made):
    result = as_student_runs_it(made())
    assert printed_by_submit(result) == printed_by_hog_grade(result)
    assert printed_by_submit(result).splitlines()[-1].startswith("Score: ")


def test_a_grader_fault_reads_as_hog_grade_prints_it_but_for_the_rules_name():
    result = as_student_runs_it(fixed_result())
    result.grader_error = "the sandbox did not start"
    kit, student = printed_by_hog_grade(result).splitlines(), printed_by_submit(result).splitlines()
    assert kit[1] == "Hog (Demo rules): hog.py" and student[1] == "Hog: hog.py"   # the JSON names no rules
    assert kit[2:] == student[2:] and "grader failed: the sandbox did not start" in student


@pytest.mark.parametrize("name", ["submit.py", "case_report.py"])
def test_submit_py_imports_only_the_standard_library_and_reads_as_python_3_8(name):
    # submit.py takes its report from case_report.py, which ships beside it in every student folder.
    source = open(Path(SUBMIT).with_name(name), encoding="utf-8").read()
    tree = ast.parse(source, feature_version=(3, 8))
    for node in ast.walk(tree):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
        for name in names:
            assert name.split(".")[0] in sys.stdlib_module_names | {"case_report"}, f"submit.py imports {name}"
        if isinstance(node, ast.Attribute):   # str methods newer than 3.8
            assert node.attr not in ("removeprefix", "removesuffix"), node.attr


def test_a_token_is_the_end_of_the_sign_in_link_or_the_token_itself():
    assert submit.token_from("  https://hog.example.edu/signin/abc-DEF_123/\n") == "abc-DEF_123"
    assert submit.token_from("abc-DEF_123\n") == "abc-DEF_123"
    assert submit.token_from("http://127.0.0.1:8000/signin/xyz?next=/") == "xyz"


def test_hog_token_comes_before_the_file(tmp_path, monkeypatch):
    (tmp_path / ".hog-token").write_text("from-the-file\n")
    monkeypatch.setenv("HOG_TOKEN", "from-the-environment")
    assert submit.stored_token(tmp_path) == ("from-the-environment", "in $HOG_TOKEN")
    monkeypatch.delenv("HOG_TOKEN")
    assert submit.stored_token(tmp_path) == ("from-the-file", "in .hog-token")
    (tmp_path / ".hog-token").unlink()
    assert submit.stored_token(tmp_path) == (None, None)


def test_a_kept_token_is_readable_by_its_owner_alone(tmp_path):
    (tmp_path / ".hog-token").write_text("old\n")
    (tmp_path / ".hog-token").chmod(0o644)
    submit.keep_token("new-token", tmp_path)
    path = tmp_path / ".hog-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "new-token\n"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def student_folder(tmp_path, server: str, assignment: str = "hog") -> str:
    source = open(SUBMIT, encoding="utf-8").read()
    source = source.replace('SERVER = ""', f"SERVER = {server!r}", 1).replace('ASSIGNMENT = ""',
                                                                             f"ASSIGNMENT = {assignment!r}", 1)
    (tmp_path / "submit.py").write_text(source)
    shutil.copyfile(Path(SUBMIT).with_name("case_report.py"), tmp_path / "case_report.py")   # ships beside it
    (tmp_path / "hog.py").write_text('"""The Game of Hog (CS 61A Spring 2019 rules)."""\n')
    return str(tmp_path / "submit.py")


def run_submit(script, *args, env=None, stdin="", cwd=None):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=60,
                          input=stdin, cwd=cwd, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", **(env or {})})


def test_a_server_out_of_reach_is_said_so_and_the_typed_token_is_not_kept(tmp_path):
    url = "http://hog.invalid:8000"   # a name that resolves nowhere
    script = student_folder(tmp_path, url)
    done = run_submit(script, stdin="http://x/signin/typed-token\n", env={"HOG_TOKEN": ""})
    assert done.returncode == 1
    assert f"submit.py: cannot reach the course server at {url}" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / ".hog-token").exists()


@pytest.mark.slow
def test_a_server_refusing_connections_is_tried_again_for_a_while_then_said_so(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}"
    done = run_submit(student_folder(tmp_path, url), env={"HOG_TOKEN": "a-token"})
    assert done.returncode == 1
    assert f"The course server at {url} does not answer yet; trying again for {submit.STARTING} s" in done.stderr
    assert f"submit.py: cannot reach the course server at {url} ([Errno 111] Connection refused)" in done.stderr


def test_no_token_at_all_says_where_one_goes(tmp_path):
    script = student_folder(tmp_path, f"http://127.0.0.1:{closed_port()}")
    done = run_submit(script, "--status", stdin="", env={"HOG_TOKEN": ""})
    assert done.returncode == 1
    assert "no token: paste the sign-in link" in done.stderr and "HOG_TOKEN" in done.stderr


def test_a_submit_py_that_names_no_server_says_to_ask_for_the_right_one(tmp_path):
    done = run_submit(SUBMIT, cwd=tmp_path)
    assert done.returncode == 2 and "names no server or assignment" in done.stderr


def test_the_status_line_names_who_of_the_group_submitted():
    line = submit.describe({"id": 4, "assignment": "hog", "submitted_at": "2026-09-01T10:00:00+00:00",
                            "submitted_by": "s2", "status": "graded", "late_days": 1})
    assert line == "Submission 4 of hog, submitted 2026-09-01T10:00:00+00:00 by s2: graded (1 late day)"
