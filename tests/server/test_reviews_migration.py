"""The migration that adds grading by hand, from a database of the schema before it (SQLite and PostgreSQL):
every submission and score is kept as it was, and the new tables are there and empty."""

from __future__ import annotations

from sqlalchemy import text

from grader.server.store import db


def test_a_database_of_the_earlier_schema_keeps_every_submission_and_score_through_the_migration(any_database):
    engine = db.connect(any_database)
    db.upgrade(engine, "0003")   # the schema before grading by hand
    rows = [(1, "hog", "graded", 20.0, 23.0), (2, "hog", "graded", 11.5, 23.0), (3, "past", "queued", None, None)]
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO people (id, student_id, email, role) VALUES (1, 's1', 's1@x', 'student')"))
        for number, assignment, status, score, maximum in rows:
            connection.execute(text(
                "INSERT INTO submissions (id, person_id, assignment, variant, filename, sha256, seed, submitted_at, "
                "late_days, status, attempt, retries, score, max_score) VALUES (:id, 1, :a, 'sp19', 'hog.py', :sha, 7, "
                "'2026-09-01 10:00:00', 0, :status, 1, 0, :score, :max)"),
                dict(id=number, a=assignment, sha="0" * 64, status=status, score=score, max=maximum))
    db.upgrade(engine)
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT id, assignment, status, score, max_score FROM submissions "
                                       "ORDER BY id")).all()
        assert [tuple(row) for row in kept] == rows
        for table in ("reviews", "releases", "canned_comments", "regrade_requests", "grade_changes"):
            assert connection.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0
    engine.dispose()
