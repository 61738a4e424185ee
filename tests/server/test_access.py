"""A student reaches only their own submissions and results; staff routes are the staff's; a page's form
needs its CSRF token; a reissued token signs the old link and sessions out."""

from __future__ import annotations

from tests.server.conftest import bearer, csrf, issue, signed_in, upload

SOURCE = b'"""The Game of Hog (CS 61A Spring 2019 rules)."""\n'


def test_another_students_submission_is_not_found_on_every_route_and_never_listed(app):
    tokens = issue(app, "s1", "s2")
    theirs = upload(app.test_client(), tokens["s2"], SOURCE).get_json()["id"]
    mine = upload(app.test_client(), tokens["s1"], SOURCE).get_json()["id"]
    student = signed_in(app, tokens["s1"])
    assert student.get(f"/submissions/{theirs}").status_code == 404
    assert student.get(f"/api/submissions/{theirs}").status_code == 404
    api = app.test_client()
    assert api.get(f"/api/submissions/{theirs}", headers=bearer(tokens["s1"])).status_code == 404
    assert api.get(f"/api/submissions/{theirs}", headers=bearer(tokens["s1"])).get_json() == {"error": "not found"}
    assert api.get("/api/submissions/999999", headers=bearer(tokens["s1"])).status_code == 404
    assert [s["id"] for s in api.get("/api/submissions", headers=bearer(tokens["s1"])).get_json()] == [mine]
    assert api.get(f"/api/submissions/{mine}", headers=bearer(tokens["s1"])).status_code == 200
    assert student.get(f"/submissions/{mine}").status_code == 200


STAFF_PAGES = ["/staff/", "/staff/assignments/hog", "/staff/assignments/hog/gradebook.csv",
               "/staff/assignments/hog/report", "/staff/assignments/hog/similarity", "/staff/students/s2",
               "/staff/submissions/{theirs}", "/staff/submissions/{mine}"]


def test_every_staff_route_is_forbidden_to_a_student_and_open_to_staff(app):
    tokens = {**issue(app, "s1", "s2"), **issue(app, "t1", role="staff")}
    theirs = upload(app.test_client(), tokens["s2"], SOURCE).get_json()["id"]
    mine = upload(app.test_client(), tokens["s1"], SOURCE).get_json()["id"]
    student, staff = signed_in(app, tokens["s1"]), signed_in(app, tokens["t1"])
    for page in STAFF_PAGES:
        page = page.format(theirs=theirs, mine=mine)
        assert student.get(page).status_code == 403, page
        assert staff.get(page).status_code == 200, page
    token = csrf(student)
    assert student.post("/staff/assignments/hog/regrade", data={"csrf_token": token}).status_code == 403
    assert student.post("/staff/students/s1/extensions",
                        data={"csrf_token": token, "assignment": "hog", "days": "30"}).status_code == 403
    api = app.test_client()
    assert api.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["s1"])).status_code == 403
    csv = api.get("/api/assignments/hog/gradebook.csv", headers=bearer(tokens["t1"]))
    assert csv.status_code == 200 and csv.get_data(as_text=True).startswith("student_id,email,submission,")


def test_without_a_person_every_page_and_the_api_ask_to_sign_in(app):
    client = app.test_client()
    for page in ["/", "/assignments/hog", "/submissions/1", "/staff/", "/api/submissions", "/api/submissions/1"]:
        assert client.get(page).status_code == 401, page
    assert upload(client, "not-a-token", SOURCE).status_code == 401
    assert client.get("/signin/not-a-token").status_code == 404


def test_a_form_without_its_csrf_token_is_refused_and_the_api_never_takes_the_cookie_to_submit(app):
    tokens = issue(app, "s1")
    student = signed_in(app, tokens["s1"])
    sent = student.post("/assignments/hog/submissions", data={}, content_type="multipart/form-data")
    assert sent.status_code == 400 and "CSRF" in sent.get_data(as_text=True)
    assert student.post("/api/assignments/hog/submissions", data={}).status_code == 401


def test_the_session_cookie_is_httponly_and_samesite_and_a_new_link_signs_the_old_one_out(app):
    tokens = issue(app, "s1")
    client = app.test_client()
    cookie = client.get(f"/signin/{tokens['s1']}").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie   # http://hog.test
    assert client.get("/").status_code == 200
    issue(app, "s1")
    assert client.get("/").status_code == 401
    assert upload(app.test_client(), tokens["s1"], SOURCE).status_code == 401
