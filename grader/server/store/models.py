"""The server's tables (SQLAlchemy 2 ORM). Their schema changes only through a migration (``migrations/``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint, false
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
    role_by_staff: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())   # a launch keeps it


class Submission(Base):
    """One accepted upload, and its job: ``status`` says where grading is; ``attempt`` counts claims."""
    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)   # who uploaded it
    assignment: Mapped[str] = mapped_column(String(64), index=True)
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id"), nullable=True, index=True)   # theirs then
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


class Group(Base):
    """Students who submit to an assignment as one: ``name`` is the one staff gave, or one the kit made."""
    __tablename__ = "groups"
    __table_args__ = (UniqueConstraint("assignment", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))


class Membership(Base):
    """A student in a group: one group per student and assignment."""
    __tablename__ = "group_members"
    __table_args__ = (UniqueConstraint("person_id", "assignment"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    assignment: Mapped[str] = mapped_column(String(64))


class Invitation(Base):
    """A student's invitation of another to work on an assignment with them, until accepted, declined or
    withdrawn."""
    __tablename__ = "group_invitations"
    __table_args__ = (UniqueConstraint("assignment", "inviter_id", "invitee_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment: Mapped[str] = mapped_column(String(64))
    inviter_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    invitee_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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


class Platform(Base):
    """An LMS registered as an LTI 1.3 platform (``hog serve lti add-platform``): its issuer and the client id
    it gave the tool, the addresses of its OIDC authorization, OAuth 2 token and key set, and the origin its
    pages show the tool from (framing it)."""
    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    auth_url: Mapped[str] = mapped_column(Text)
    token_url: Mapped[str] = mapped_column(Text)
    jwks_url: Mapped[str] = mapped_column(Text)
    lms_url: Mapped[str] = mapped_column(String(255))
    trust_email: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())   # its emails verified
    service_origins: Mapped[str] = mapped_column(Text, default="", server_default="")   # besides its URLs', spaced
    deployments: Mapped[list["Deployment"]] = relationship(cascade="all, delete-orphan", back_populates="platform")


class Deployment(Base):
    """A deployment of the tool on a platform (a course or a whole site): a launch names one of these."""
    __tablename__ = "lti_deployments"
    __table_args__ = (UniqueConstraint("platform_id", "deployment_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    deployment_id: Mapped[str] = mapped_column(String(255))
    platform: Mapped[Platform] = relationship(back_populates="deployments")


class Identity(Base):
    """Who a person is on a platform: its issuer and their ``sub`` there."""
    __tablename__ = "lti_identities"
    __table_args__ = (UniqueConstraint("issuer", "subject"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    issuer: Mapped[str] = mapped_column(String(255))
    subject: Mapped[str] = mapped_column(String(255))


class _LmsCourse:
    """An LMS course (context) of a deployment of a platform: context ids are unique only within a deployment."""
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    deployment_id: Mapped[str] = mapped_column(String(255))
    context_id: Mapped[str] = mapped_column(String(255))


class Binding(_LmsCourse, Base):
    """An LMS course bound to this course server: its staff are staff here, its learners students
    (``hog serve lti link``)."""
    __tablename__ = "lti_bindings"
    __table_args__ = (UniqueConstraint("issuer", "deployment_id", "context_id"),)


class Unbound(_LmsCourse, Base):
    """An LMS course launched from that is not bound (each launch refused): when last and how often, for
    ``hog serve lti list`` to show staff what to bind. At most ``bindings.UNBOUND_KEPT`` per platform."""
    __tablename__ = "lti_unbound"
    __table_args__ = (UniqueConstraint("issuer", "deployment_id", "context_id"),)
    title: Mapped[str] = mapped_column(String(255), default="")
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Context(Base):
    """A course of an LMS the tool was launched from, and where its members are listed (Names and Role
    Provisioning): ``hog serve lti roster`` reads them."""
    __tablename__ = "lti_contexts"
    __table_args__ = (UniqueConstraint("issuer", "client_id", "context_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    context_id: Mapped[str] = mapped_column(String(255))
    deployment_id: Mapped[str | None] = mapped_column(String(255), nullable=True)   # None: launched before 0004
    title: Mapped[str] = mapped_column(String(255), default="")
    memberships_url: Mapped[str] = mapped_column(Text)
    synced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Nonce(Base):
    """A launch's nonce, once used: a token sent again is refused."""
    __tablename__ = "lti_nonces"
    nonce: Mapped[str] = mapped_column(String(255), primary_key=True)
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class Link(Base):
    """A person's launch of an assignment from a platform (where the assignment's line item is), and the
    passback of its counted score there: the score wanted (set whenever the counted score is set or changes)
    and the score last sent; a link whose wanted score differs from the sent one is due, tried again later
    after each failure (``next_try_at``, ``tries``, ``problem``), by one sender at a time (``leased_until``)."""
    __tablename__ = "lti_links"
    __table_args__ = (UniqueConstraint("person_id", "assignment", "issuer", "client_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    assignment: Mapped[str] = mapped_column(String(64))
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    deployment_id: Mapped[str] = mapped_column(String(255))
    subject: Mapped[str] = mapped_column(String(255))
    resource_link_id: Mapped[str | None] = mapped_column(String(255), nullable=True)
    lineitem: Mapped[str | None] = mapped_column(Text, nullable=True)     # the AGS line item's URL
    lineitems: Mapped[str | None] = mapped_column(Text, nullable=True)    # the context's line items, where no lineitem
    launched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    wanted_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    wanted_maximum: Mapped[float | None] = mapped_column(Float, nullable=True)
    wanted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    sent_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    sent_maximum: Mapped[float | None] = mapped_column(Float, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    due: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    leased_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    problem: Mapped[str | None] = mapped_column(Text, nullable=True)     # why the last try failed; None: it did not
    person: Mapped[Person] = relationship()


class Review(Base):
    """Staff's grading by hand of a person's counted submission to an assignment: the rubric items applied
    (their ids: their points are the config's, read when counted), a free adjustment and its reason, comments
    on lines of the code. ``submission_id`` is the submission it was made of: a later counted one makes it
    'of an earlier submission' until staff carry it over. ``version`` grows with each change: a save that
    read an older one is refused (two graders never overwrite each other)."""
    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("person_id", "assignment"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    assignment: Mapped[str] = mapped_column(String(64), index=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    applied: Mapped[str] = mapped_column(Text, default="[]")          # JSON: the rubric items' ids
    adjustment: Mapped[float] = mapped_column(Float, default=0.0)
    adjustment_reason: Mapped[str] = mapped_column(Text, default="")
    comments: Mapped[str] = mapped_column(Text, default="[]")         # JSON: [{"line", "end_line", "text"}]
    version: Mapped[int] = mapped_column(Integer, default=1)
    graded_by: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Release(Base):
    """An assignment whose manual grades staff released: students see them, and the totals count them."""
    __tablename__ = "releases"
    assignment: Mapped[str] = mapped_column(String(64), primary_key=True)
    released_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    released_by: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)


class CannedComment(Base):
    """A comment staff saved to use again on other submissions of an assignment."""
    __tablename__ = "canned_comments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    assignment: Mapped[str] = mapped_column(String(64), index=True)
    text: Mapped[str] = mapped_column(Text)


class RegradeRequest(Base):
    """A student's request that one rubric item (its id) or the autograder's part be looked at again, and
    staff's answer (``changed``: whether they changed the grade)."""
    __tablename__ = "regrade_requests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    assignment: Mapped[str] = mapped_column(String(64), index=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"))
    item: Mapped[str] = mapped_column(String(64))
    message: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)       # None: open
    changed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    answered_by: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    person: Mapped[Person] = relationship(foreign_keys=[person_id])


class GradeChange(Base):
    """One change to a person's grade of an assignment, kept for staff: who, when, what, why."""
    __tablename__ = "grade_changes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    assignment: Mapped[str] = mapped_column(String(64))
    submission_id: Mapped[int | None] = mapped_column(ForeignKey("submissions.id"), nullable=True)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    what: Mapped[str] = mapped_column(Text)
    why: Mapped[str] = mapped_column(Text, default="")
    by: Mapped[Person | None] = relationship(foreign_keys=[by_id])
