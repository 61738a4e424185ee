"""Staff set an assignment's groups: ``hog serve groups NAME GROUPS.csv`` checks every line before it changes
anything and reports what changed; the staff page sets one student's; a member moved keeps seeing what they
submitted, and the group they are in now counts."""

from __future__ import annotations

import io
import json

import pytest

from grader.commands import serve
from grader.errors import UsageError
from tests.server.conftest import bearer, csrf, issue, signed_in, upload
from tests.server.groups_helpers import SOURCE, configured, grade_all


def said(course, text: str) -> str:
    (course / "groups.csv").write_text(text)
    out = io.StringIO()
    assert serve.groups(assignment="hog", groups_csv=str(course / "groups.csv"), database=None, out=out) == 0
    return out.getvalue()


def group_of(app, token: str):
    return app.test_client().get("/api/assignments/hog/group", headers=bearer(token)).get_json()["group"]


def test_the_groups_command_sets_every_group_and_reports_each_student_who_changed(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = issue(app, "s1", "s2", "s3", "s4")
    assert said(course, "student_id,group\ns1,red\ns2,red\ns3,blue\n") == (
        "s1: (no group) -> red\ns2: (no group) -> red\ns3: (no group) -> blue\n3 students of hog changed group\n")
    assert [group_of(app, tokens[s]) for s in ("s1", "s2", "s3", "s4")] == ["red", "red", "blue", None]
    assert said(course, "student_id,group\ns1,red\ns2,red\ns3,blue\n").endswith("nothing changed\n")
    assert said(course, "student_id,group\ns1,red\ns3,blue\ns4,blue\n") == (
        "s2: red -> (no group)\ns4: (no group) -> blue\n2 students of hog changed group\n")


@pytest.mark.parametrize("lines, message", [
    ("student_id,team\ns1,red\n", "groups.csv:1: the header is 'student_id,team'; write student_id,group"),
    ("student_id,group\ns1,red\nnobody,red\n", "groups.csv:3: no student nobody on the server"),
    ("student_id,group\ns1,red\ns1,blue\n", "groups.csv:3: s1 is listed already (line 2)"),
    ("student_id,group\ns1,red\ns2,red\ns3,red\n", "groups.csv:4: group red has 3 students, over hog's group_size of 2"),
    ("student_id,group\nt1,red\n", "groups.csv:2: t1 is course staff"),
])
def test_a_wrong_line_of_the_groups_file_is_named_and_nothing_changes(course, migrated_sqlite, lines, message):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    said(course, "student_id,group\ns1,blue\n")
    with pytest.raises(UsageError, match="nothing was changed") as refused:
        said(course, lines)
    assert message in str(refused.value)
    assert group_of(app, tokens["s1"]) == "blue"


def test_staff_move_a_student_on_their_page_and_the_one_moved_keeps_seeing_what_they_submitted(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    said(course, "student_id,group\ns1,red\ns2,red\n")
    mine = upload(app.test_client(), tokens["s2"], SOURCE).get_json()["id"]
    grade_all(app, 12.0)
    staff = signed_in(app, tokens["t1"])
    page = "/staff/students/s2"
    moved = staff.post(f"{page}/group", data={"csrf_token": csrf(staff, page), "assignment": "hog", "group": "blue"})
    assert moved.status_code == 200 and "Changed: s2: red -&gt; blue" in moved.get_data(as_text=True)
    listed = app.test_client().get("/api/submissions", headers=bearer(tokens["s2"])).get_json()
    assert [s["id"] for s in listed] == [mine]                       # hers still, though red's
    assert [s["id"] for s in app.test_client().get("/api/submissions", headers=bearer(tokens["s1"])).get_json()] \
        == [mine]                                                     # red's: s1 sees it, and it counts for s1
    book = app.test_client().get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"]))
    rows = {line.split(",")[0]: line.split(",") for line in book.get_data(as_text=True).splitlines()[1:]}
    assert rows["s1"][2] == str(mine) and rows["s2"][2] == str(mine)  # blue has none: her own counts for her
    joined = staff.post("/staff/students/s3/group", data={"csrf_token": csrf(staff, page), "assignment": "hog",
                                                          "group": "red"})
    assert joined.status_code == 200 and "Changed: s3: (no group) -&gt; red" in joined.get_data(as_text=True)
    full = staff.post("/staff/students/s1/group", data={"csrf_token": csrf(staff, page), "assignment": "hog",
                                                        "group": "blue"})
    assert full.status_code == 200 and "Changed" in full.get_data(as_text=True)
    three = staff.post("/staff/students/s3/group", data={"csrf_token": csrf(staff, page), "assignment": "hog",
                                                         "group": "blue"})
    assert three.status_code == 400 and "group blue has 3 students" in three.get_data(as_text=True)


def test_the_class_report_counts_a_group_s_submission_once(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    upload(app.test_client(), tokens["s2"], SOURCE)   # alone, before red: it stops counting
    said(course, "student_id,group\ns1,red\ns2,red\n")
    for who in ("s1", "s3"):
        upload(app.test_client(), tokens[who], SOURCE)
    grade_all(app, 12.0)
    assert signed_in(app, tokens["t1"]).get("/staff/assignments/hog/report").status_code == 200
    figures = json.loads((course / "server" / "reports" / "hog" / "class" / "report.json").read_text())
    assert figures["submissions"] == 2   # red's, counted for s1 and s2, and s3's


def test_staff_set_every_group_on_the_gradebook_page_from_the_groups_as_they_are(course, migrated_sqlite):
    app = configured(course, migrated_sqlite)
    tokens = {**issue(app, "s1", "s2", "s3"), **issue(app, "t1", role="staff")}
    said(course, "student_id,group\ns1,red\ns2,red\n")
    staff = signed_in(app, tokens["t1"])
    page = staff.get("/staff/assignments/hog").get_data(as_text=True)
    assert "student_id,group\ns1,red\ns2,red\n</textarea>" in page
    sent = {"csrf_token": csrf(staff, "/staff/assignments/hog"), "groups": "student_id,group\ns1,red\ns3,red\n"}
    done = staff.post("/staff/assignments/hog/groups", data=sent)
    assert done.status_code == 200
    assert "Changed: s2: red -&gt; (no group); s3: (no group) -&gt; red" in done.get_data(as_text=True)
    wrong = staff.post("/staff/assignments/hog/groups", data={**sent, "groups": "student_id,group\ns9,red\n"})
    assert wrong.status_code == 400 and "the groups:2: no student s9 on the server" in wrong.get_data(as_text=True)
    assert [group_of(app, tokens[s]) for s in ("s1", "s2", "s3")] == ["red", None, "red"]
