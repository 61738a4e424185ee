"""`hog report OUTDIR --canvas EXPORT` writes the column Canvas imports: every student of Canvas's export
in its order with their score, the Points Possible row, and every submission or student it leaves out listed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from grader import cli
from grader.report import canvas
from tests.report.test_report_classroom import VARIANT, craft

FULL = {q.label: q.points for q in VARIANT.questions}
TOTAL = str(int(VARIANT.points)) if VARIANT.points == int(VARIANT.points) else str(VARIANT.points)
# Canvas's gradebook export: Student, ID, SIS User ID, SIS Login ID, Section, one column per assignment
# named with its id, read-only totals; a Points Possible row under the header; the test student.
EXPORT = """\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Project 1 (101),Current Score
    Points Possible,,,,,10,(read only)
"Lovelace, Ada",1001,s001,ada,Lab 1,7,70
"Okafor, Bo",1002,s002,bo@uni.edu,Lab 1,,0
"Young, Cy",1003,s003,cy,Lab 2,,
"Dee, Di",1004,S004,di,Lab 2,,
"Student, Test",1005,,,Lab 1,,
"""


def result(out: Path, name: str, scores: dict[str, float], *, failed: bool = False) -> None:
    craft(out, name, scores)
    path = out / f"{name}.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "grader_failed": failed}))


def rows(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture
def export(tmp_path) -> Path:
    path = tmp_path / "export.csv"
    path.write_text(EXPORT, encoding="utf-8")
    return path


@pytest.fixture
def out(tmp_path) -> Path:
    folder = tmp_path / "graded"
    folder.mkdir()
    result(folder, "s001", FULL)                          # by SIS User ID
    result(folder, "bo", {"1": 1.5})                      # by the local part of the SIS Login ID
    result(folder, "CY", {}, failed=True)                 # by login, without case: its grader failed
    result(folder, "ada", {"1": FULL["1"]})               # Ada again, by login: her first result is kept
    result(folder, "zed@uni.edu", {"1": 1.0})             # nobody's
    return folder


def test_each_student_of_the_export_gets_their_score_under_the_points_possible_row(out, export, capsys):
    assert cli.main(["report", str(out), "--canvas", str(export)]) == 0
    assert rows(out / "canvas.csv") == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Hog (sp19)"],
        ["Points Possible", "", "", "", "", TOTAL],
        ["Lovelace, Ada", "1001", "s001", "ada", "Lab 1", str(FULL["1"]).removesuffix(".0")],
        ["Okafor, Bo", "1002", "s002", "bo@uni.edu", "Lab 1", "1.5"],
        ["Young, Cy", "1003", "s003", "cy", "Lab 2", ""],
        ["Dee, Di", "1004", "S004", "di", "Lab 2", ""],
        ["Student, Test", "1005", "", "", "Lab 1", ""],
    ]
    said = capsys.readouterr().out
    assert "no submission: Dee, Di (S004, di), line 6" in said
    assert "no submission: Student, Test (no SIS id or login), line 7" in said
    assert "no score for Young, Cy (s003, cy): CY's grader failed: rerun grade-batch" in said
    assert "not in the Canvas column: zed@uni.edu: no student" in said
    assert "not in the Canvas column: s001: Lovelace, Ada (s001, ada) already has the score of ada" in said
    assert "2 of 5 students scored; 3 submissions left out" in said
    assert (out / "report.html").exists()


def test_the_submissions_left_out_are_listed_in_their_own_file(out, export):
    canvas.write(out, export)
    listed = rows(out / "canvas-unmatched.csv")
    assert listed[0] == ["submission", "score", "max_score", "reason"]
    by_name = {row[0]: row for row in listed[1:]}
    assert set(by_name) == {"s001", "zed@uni.edu", "CY"}
    assert by_name["zed@uni.edu"][1:3] == ["1", TOTAL]
    assert by_name["CY"][1:] == ["", TOTAL, "grader failed: rerun grade-batch"]


def test_a_grader_failure_is_never_written_as_a_zero(tmp_path, export):
    result(tmp_path, "s003", {}, failed=True)
    column = canvas.write(tmp_path, export)
    assert rows(tmp_path / "canvas.csv")[4] == ["Young, Cy", "1003", "s003", "cy", "Lab 2", ""]
    assert column.scored == 0 and [name for _, name in column.failed] == ["s003"]


def test_the_assignment_is_named_as_asked_and_an_existing_column_by_its_id(out, export):
    canvas.write(out, export, assignment="Project 1 (101)")
    assert rows(out / "canvas.csv")[0][-1] == "Project 1 (101)"


def test_a_roster_batch_matches_submissions_named_by_email_through_the_manifest(tmp_path, export, capsys):
    out = tmp_path / "graded"
    out.mkdir()
    result(out, "ada.lovelace@uni.edu", FULL)
    result(out, "di.dee@uni.edu", {"1": 2.0})
    manifest = tmp_path / "manifest.csv"
    manifest.write_text("student_id,email,section,variant\ns001,ada.lovelace@uni.edu,Lab 1,sp19\n"
                        "S004,Di.Dee@uni.edu,Lab 2,sp19\n")
    assert cli.main(["report", str(out), "--canvas", str(export)]) == 0
    assert [row[-1] for row in rows(out / "canvas.csv")[2:]] == ["", "", "", "", ""]
    assert cli.main(["report", str(out), "--canvas", str(export), "--manifest", str(manifest)]) == 0
    assert [row[-1] for row in rows(out / "canvas.csv")[2:]] == [str(VARIANT.points).removesuffix(".0"), "", "",
                                                                 "2", ""]
    assert rows(out / "canvas-unmatched.csv") == [["submission", "score", "max_score", "reason"]]
    assert "2 of 5 students scored; 0 submissions left out" in capsys.readouterr().out


def test_a_login_shared_by_two_students_matches_neither(tmp_path):
    export = tmp_path / "export.csv"
    export.write_text("Student,ID,SIS User ID,SIS Login ID,Section\nA,1,,ann@a.edu,\nB,2,,ann@b.edu,\n")
    result(tmp_path, "ann", {"1": 1.0})
    result(tmp_path, "ann@b.edu", {"1": 2.0})
    column = canvas.write(tmp_path, export)
    assert [row[-1] for row in rows(tmp_path / "canvas.csv")[2:]] == ["", "2"]
    assert [u.submission for u in column.unmatched] == ["ann"]


def test_results_out_of_different_maxima_take_the_largest_as_points_possible(tmp_path, export, capsys):
    result(tmp_path, "s001", FULL)
    path = tmp_path / "s002.json"
    result(tmp_path, "s002", {"1": 1.0})
    path.write_text(json.dumps({**json.loads(path.read_text()), "max_score": VARIANT.points + 10}))
    assert cli.main(["report", str(tmp_path), "--canvas", str(export)]) == 0
    assert rows(tmp_path / "canvas.csv")[1][-1] == str(int(VARIANT.points + 10))
    assert "results out of different maximum scores" in capsys.readouterr().out


@pytest.mark.parametrize("text, said", [
    ("Student,ID,SIS User ID,Section\nA,1,s1,L\n", "export.csv:1: the Canvas export has no SIS Login ID column"),
    ("", "export.csv is empty"),
    ("Student,ID,SIS User ID,SIS Login ID,Section\n    Points Possible,,,,\n", "export.csv lists no student"),
    (b"Student,ID,SIS User ID,SIS Login ID,Section\n\xff\xfe,1,,,\n", "not a CSV file in UTF-8"),
])
def test_an_unusable_export_is_a_usage_error_naming_the_file_and_the_fix(tmp_path, capsys, text, said):
    export = tmp_path / "export.csv"
    export.write_bytes(text if isinstance(text, bytes) else text.encode())
    result(tmp_path, "s001", FULL)
    assert cli.main(["report", str(tmp_path), "--canvas", str(export)]) == 2
    error = capsys.readouterr().err
    assert said in error and "Export Entire Gradebook" in error
    assert not (tmp_path / "canvas.csv").exists()


def test_a_missing_export_and_a_lone_manifest_are_usage_errors(tmp_path, capsys):
    result(tmp_path, "s001", FULL)
    assert cli.main(["report", str(tmp_path), "--canvas", str(tmp_path / "nowhere.csv")]) == 2
    assert "cannot read the Canvas export" in capsys.readouterr().err
    assert cli.main(["report", str(tmp_path), "--manifest", "m.csv"]) == 2
    assert "give --canvas EXPORT.csv too" in capsys.readouterr().err


def test_a_folder_without_results_is_a_usage_error(tmp_path, export, capsys):
    empty = tmp_path / "graded"
    empty.mkdir()
    assert cli.main(["report", str(empty), "--canvas", str(export)]) == 2
    assert "holds no result of grade-batch" in capsys.readouterr().err


def test_a_result_that_cannot_be_read_is_listed_not_dropped(tmp_path, export, capsys):
    result(tmp_path, "s001", FULL)
    (tmp_path / "=bo.json").write_text("{not json")
    assert cli.main(["report", str(tmp_path), "--canvas", str(export)]) == 0
    assert rows(tmp_path / "canvas-unmatched.csv")[1][:3] == ["'=bo", "", ""]
    assert "not in the Canvas column: =bo: =bo.json: not readable as JSON" in capsys.readouterr().out
