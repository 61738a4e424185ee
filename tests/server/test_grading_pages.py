"""The pages of grading by hand: staff read the code numbered and highlighted beside the autograder's result,
apply rubric items with one click, comment on lines (and reuse a saved comment), are told when their page is
stale, move to the next ungraded submission and release; the student then reads it all on their submission's
page, asks for a regrade and reads the answer. A student reaches none of the staff's pages."""

from __future__ import annotations

import io
import re

import pytest

from tests.server.conftest import csrf, issue, signed_in
from tests.server.reviewing import graded, rubric_app, rubric_course


@pytest.fixture
def served(tmp_path, migrated_sqlite):
    course = rubric_course(tmp_path)
    app = rubric_app(course, migrated=migrated_sqlite)
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    return app, tokens


def form(page: str, **fields) -> dict:
    """The grading form's hidden state as the page holds it, with ``fields`` added."""
    found = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page)[1],
             "version": re.search(r'name="version" value="(\d+)"', page)[1],
             "applied": re.findall(r'name="applied" value="([^"]+)"', page),
             "comment_line": re.findall(r'name="comment_line" value="([^"]+)"', page),
             "comment_end": re.findall(r'name="comment_end" value="([^"]+)"', page),
             "comment_text": re.findall(r'name="comment_text" value="([^"]*)"', page)}
    return {**found, **fields}


def test_staff_grade_with_clicks_and_a_line_comment_and_the_student_reads_it_after_release(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    staff = signed_in(app, tokens["t1"])
    page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
    assert '<tr id="L1"><th scope="row">1</th>' in page and '<span class="k">def</span>' in page   # highlighted
    assert "Score 20 / 23" in page and "Question 1" in page and 'accesskey="1"' in page
    assert ".code .k {" in staff.get("/code.css").get_data(as_text=True)   # the keywords' colour
    saved = staff.post(f"/staff/submissions/{number}/grade", data=form(page, toggle="docs"))
    assert saved.status_code == 303
    page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
    assert 'name="applied" value="docs"' in page and "Total with the rubric: 22 / 25" in page
    saved = staff.post(f"/staff/submissions/{number}/grade", data=form(
        page, new_line="3", new_end_line="4", new_text="total never changes", save_canned="yes"))
    assert saved.status_code == 303
    page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
    assert "Lines 3–4:</strong> total never changes" in page and "applied docs (+2)" in page
    student = signed_in(app, tokens["s1"])
    assert "Graded by the course staff" not in student.get(f"/submissions/{number}").get_data(as_text=True)
    assert "20 / 23" in student.get("/").get_data(as_text=True)
    grading = staff.get("/staff/assignments/hog/grading").get_data(as_text=True)
    assert staff.post("/staff/assignments/hog/release", data={"csrf_token": csrf(staff, "/staff/")}).status_code == 303
    assert "Released" not in grading
    assert "Released" in staff.get("/staff/assignments/hog/grading").get_data(as_text=True)
    mine = student.get(f"/submissions/{number}").get_data(as_text=True)
    assert "Total: 22 / 25" in mine and "+2 Docstrings" in mine and "total never changes" in mine
    assert '<tr id="L3">' in mine
    assert "22 / 25 with the staff's grading" in student.get("/").get_data(as_text=True)
    asked = student.post(f"/submissions/{number}/regrade-requests", data={
        "csrf_token": csrf(student, f"/submissions/{number}"), "item": "autograder", "message": "question 1 passes"})
    assert asked.status_code == 303
    queue = staff.get("/staff/regrade-requests").get_data(as_text=True)
    assert "question 1 passes" in queue and "the autograder&#39;s part" in queue
    request_id = int(queue.split('id="request-')[1].split('"')[0])
    assert staff.post(f"/staff/regrade-requests/{request_id}/answer", data={
        "csrf_token": csrf(staff, "/staff/"), "message": "it does not: see case 3"}).status_code == 303
    assert "it does not: see case 3" in student.get(f"/submissions/{number}").get_data(as_text=True)


def test_a_saved_comment_is_offered_on_another_submission_and_next_ungraded_goes_there(served):
    app, tokens = served
    first, second = graded(app, "s1", 20.0), graded(app, "s2", 15.0)
    staff = signed_in(app, tokens["t1"])
    assert staff.get("/staff/assignments/hog/next-ungraded").headers["Location"].endswith(f"/submissions/{first}/grade")
    page = staff.get(f"/staff/submissions/{first}/grade").get_data(as_text=True)
    staff.post(f"/staff/submissions/{first}/grade", data=form(page, new_line="1", new_text="name it roll",
                                                               save_canned="yes"))
    assert staff.get("/staff/assignments/hog/next-ungraded").headers["Location"].endswith(
        f"/submissions/{second}/grade")
    other = staff.get(f"/staff/submissions/{second}/grade").get_data(as_text=True)
    assert '<option value="name it roll">' in other
    staff.post(f"/staff/submissions/{second}/grade", data=form(other, new_line="2", canned_text="name it roll"))
    assert "Line 2:</strong> name it roll" in staff.get(f"/staff/submissions/{second}/grade").get_data(as_text=True)
    assert "done=1" in staff.get("/staff/assignments/hog/next-ungraded").headers["Location"]
    listed = staff.get("/staff/assignments/hog/grading").get_data(as_text=True)
    assert "<td>Docstrings</td><td>+2</td><td>0</td>" in listed


def test_a_stale_grading_page_is_refused_with_a_message_and_the_other_grader_s_work_kept(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    staff = signed_in(app, tokens["t1"])
    page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
    assert staff.post(f"/staff/submissions/{number}/grade", data=form(page, toggle="docs")).status_code == 303
    stale = staff.post(f"/staff/submissions/{number}/grade", data=form(page, toggle="names"))
    assert stale.status_code == 409 and "changed since you read it" in stale.get_data(as_text=True)
    assert 'name="applied" value="docs"' in stale.get_data(as_text=True)   # the page shown again is the current one


def test_a_student_reaches_none_of_the_grading_pages(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    student = signed_in(app, tokens["s1"])
    for page in (f"/staff/submissions/{number}/grade", "/staff/assignments/hog/grading", "/staff/regrade-requests",
                 "/staff/assignments/hog/next-ungraded"):
        assert student.get(page).status_code == 403, page
    token = csrf(student)
    for page in (f"/staff/submissions/{number}/grade", "/staff/assignments/hog/release",
                 "/staff/regrade-requests/1/answer", "/staff/assignments/hog/canvas.csv"):
        assert student.post(page, data={"csrf_token": token}).status_code == 403, page
    other = signed_in(app, tokens["s2"])
    assert other.post(f"/submissions/{number}/regrade-requests", data={
        "csrf_token": csrf(other), "item": "docs", "message": "x"}).status_code == 404


def test_the_class_report_says_how_often_each_rubric_item_was_applied(served):
    app, tokens = served
    staff = signed_in(app, tokens["t1"])
    for student in ("s1", "s2"):
        number = graded(app, student, 20.0)
        page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
        assert staff.post(f"/staff/submissions/{number}/grade", data=form(page, toggle="names")).status_code == 303
    report = staff.get("/staff/assignments/hog/report").get_data(as_text=True)
    assert "Of 2 reviewed submissions" in report
    assert '<td>Names say what they hold</td><td class="number">-1</td><td class="number">2</td>' in report
    assert '<td>Docstrings</td><td class="number">+2</td><td class="number">0</td>' in report


EXPORT = ("Student,ID,SIS User ID,SIS Login ID,Section,Hog\n"
          "    Points Possible,,,,,\n"
          "Sam One,101,,s1,A,\n"
          "Sue Two,102,,s2@example.edu,A,\n")


def test_a_canvas_column_of_the_totals_is_made_from_canvas_s_export_once_released(served):
    app, tokens = served
    number = graded(app, "s1", 20.0)
    graded(app, "s2", 15.0)
    staff = signed_in(app, tokens["t1"])
    page = staff.get(f"/staff/submissions/{number}/grade").get_data(as_text=True)
    assert staff.post(f"/staff/submissions/{number}/grade", data=form(page, toggle="docs")).status_code == 303

    def column() -> list[str]:
        answer = staff.post("/staff/assignments/hog/canvas.csv", content_type="multipart/form-data", data={
            "csrf_token": csrf(staff, "/staff/"), "export": (io.BytesIO(EXPORT.encode()), "export.csv")})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        return answer.get_data(as_text=True).splitlines()

    assert column()[1:] == ["Points Possible,,,,,23", "Sam One,101,,s1,A,20", "Sue Two,102,,s2@example.edu,A,15"]
    assert staff.post("/staff/assignments/hog/release", data={"csrf_token": csrf(staff, "/staff/")}).status_code == 303
    assert column()[1:] == ["Points Possible,,,,,25", "Sam One,101,,s1,A,22", "Sue Two,102,,s2@example.edu,A,15"]
    wrong = staff.post("/staff/assignments/hog/canvas.csv", content_type="multipart/form-data", data={
        "csrf_token": csrf(staff, "/staff/"), "export": (io.BytesIO(b"Name,Score\n"), "export.csv")})
    assert wrong.status_code == 400 and "has no Student, ID" in wrong.get_data(as_text=True)
