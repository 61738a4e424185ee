"""The server's tables (SQLAlchemy 2 ORM). Their schema changes only through a migration (``migrations/``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

QUEUED, GRADING, GRADED, FAILED = "queued", "grading", "graded", "grader failed"
STATUSES = (QUEUED, GRADING, GRADED, FAILED)
STUDENT, STAFF = "student", "staff"


class Base(DeclarativeBase):
    pass


class Person(Base):
    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    student_id: Mapped[str] = mapped_column(String(200), unique=True)
    email: Mapped[str] = mapped_column(String(320), default="")
    role: Mapped[str] = mapped_column(String(16), default=STUDENT)
    token_sha256: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    alias: Mapped[str | None] = mapped_column(String(40), nullable=True)   # on the leaderboard; None: hidden


class Submission(Base):
    """One accepted upload, and its job: ``status`` says where grading is; ``attempt`` counts claims."""
    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    assignment: Mapped[str] = mapped_column(String(64), index=True)
    variant: Mapped[str] = mapped_column(String(64))
    filename: Mapped[str] = mapped_column(String(16))          # hog.py or submission.zip: what it is kept as
    sent_as: Mapped[str | None] = mapped_column(String(255), nullable=True)   # the name it was uploaded as
    sha256: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(Integer)
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    late_days: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default=QUEUED, index=True)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    retries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")   # for faults of the machine
    grader: Mapped[str | None] = mapped_column(String(200), nullable=True)    # the claimant (Grader.id)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    graded_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)        # hog grade --format json
    instructor: Mapped[str | None] = mapped_column(Text, nullable=True)    # the instructor-only record
    person: Mapped[Person] = relationship()


class Extension(Base):
    """Extra days a student is given past an assignment's due date."""
    __tablename__ = "extensions"
    __table_args__ = (UniqueConstraint("person_id", "assignment"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    assignment: Mapped[str] = mapped_column(String(64))
    days: Mapped[int] = mapped_column(Integer, default=0)


class Grader(Base):
    """A grader process: where it runs and when it last said it was alive."""
    __tablename__ = "graders"
    id: Mapped[str] = mapped_column(String(200), primary_key=True)   # host:pid:PID namespace (queue.grader_name)
    heartbeat: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)   # what is wrong with its machine; None: well


class Seed(Base):
    """What an assignment's hidden cases are drawn from: one seed each, drawn at its first submission, so
    graders compute the cases once and a regrade draws the same ones."""
    __tablename__ = "seeds"
    assignment: Mapped[str] = mapped_column(String(64), primary_key=True)
    seed: Mapped[int] = mapped_column(Integer)
