"""The migration to 0004 (trust) from a server of today's schema keeps every person, identity, submission,
launch and LMS course; people a roster made keep the role staff gave them; the logins' table goes."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from grader.server.store import db


def _at(engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(db.MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def test_a_database_of_schema_0003_upgraded_keeps_every_row(any_database):
    engine = db.connect(any_database)
    _at(engine, "0003")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO people (id, student_id, email, role) VALUES "
                                "(1, 's1', 's1@example.edu', 'student'), (2, 'lms@x', 'lms@x', 'staff')"))
        connection.execute(text("INSERT INTO lti_identities (person_id, issuer, subject) VALUES (2, 'https://lms', 'u2')"))
        connection.execute(text("INSERT INTO submissions (person_id, assignment, variant, filename, sha256, seed, "
                                "submitted_at, late_days, status, attempt, retries) VALUES (1, 'hog', 'sp19', 'hog.py', "
                                "'0', 1, '2026-01-01 00:00:00+00:00', 0, 'graded', 1, 0)"))
        connection.execute(text("INSERT INTO lti_contexts (issuer, client_id, context_id, title, memberships_url) "
                                "VALUES ('https://lms', 'c', 'course-7', 'CS 88', 'https://lms/m')"))
        connection.execute(text("INSERT INTO lti_states (state, nonce, issuer, client_id, login_hint, target_link_uri, "
                                "made_at) VALUES ('s', 'n', 'https://lms', 'c', 'h', 't', '2026-01-01 00:00:00+00:00')"))
    db.upgrade(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT student_id, role, role_by_staff FROM people ORDER BY id")).all() == [
            ("s1", "student", True), ("lms@x", "staff", False)]
        assert connection.execute(text("SELECT person_id, subject FROM lti_identities")).all() == [(2, "u2")]
        assert connection.execute(text("SELECT person_id, status FROM submissions")).all() == [(1, "graded")]
        assert connection.execute(text("SELECT context_id, deployment_id FROM lti_contexts")).all() == [
            ("course-7", None)]
        assert connection.execute(text("SELECT trust_email FROM lti_platforms")).all() == []
        tables = set(inspect(connection).get_table_names())
    assert {"lti_bindings", "lti_unbound"} <= tables and "lti_states" not in tables
    engine.dispose()
