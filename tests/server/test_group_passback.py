"""A group's submission is each member's: its score is posted to each member's own identity on the LMS they
launched from, on SQLite and on PostgreSQL."""

from __future__ import annotations

from sqlalchemy import select

from grader import project
from grader.classroom.roster import Student
from grader.server.course import group_lists, people
from grader.server.lti import ags, keys, passback
from grader.server.store.models import Person
from tests.server.conftest import make_app, upload
from tests.server.groups_helpers import SOURCE, grade_all
from tests.server.lti_platform import LEARNER, Platform
from tests.server.test_lti import LAUNCH, launched, register


def test_the_group_s_score_goes_to_each_member_s_own_identity_on_the_lms(course, any_database):
    config = course / project.CONFIG_NAME
    config.write_text(config.read_text().replace("[assignments.hog]\n", "[assignments.hog]\ngroup_size = 2\n"))
    app = make_app(course, any_database)
    platform = Platform(lambda: keys.tool_jwks(course / "server"))
    platform.redirect_uri = LAUNCH
    try:
        register(app, platform)
        assert launched(app.test_client(), platform).status_code == 303
        platform.user = {"sub": "canvas-user-2", "email": "s2@example.edu", "name": "Sue Two", "roles": [LEARNER]}
        assert launched(app.test_client(), platform).status_code == 303
        settings = app.config["hog.settings"]
        with settings.sessions() as session, session.begin():
            found = list(session.scalars(select(Person).order_by(Person.email)))
            assert [p.email for p in found] == ["s1@example.edu", "s2@example.edu"]
            group_lists.set_groups(session, settings.server.assignment("hog"),
                                   [group_lists.Row(1, p.student_id, "pair") for p in found], lambda _: "sp19")
            token = people.issue(session, (Student(found[1].student_id, "s2@example.edu", "", ""),), "student")
        assert upload(app.test_client(), token[found[1].student_id], SOURCE).status_code == 202
        grade_all(app, 20.0)
        assert passback.send_due(settings.engine, ags.Client(course / "server")) == (2, 0)
        assert sorted((sent["userId"], sent["scoreGiven"], sent["scoreMaximum"]) for _, sent in platform.scores) == [
            ("canvas-user-1", 20.0, 23.0), ("canvas-user-2", 20.0, 23.0)]
    finally:
        platform.stop()
