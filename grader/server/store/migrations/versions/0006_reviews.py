"""Grading by hand: reviews of submissions on the assignment's rubric, releases of an assignment's manual grades,
canned comments, regrade requests and the history of every change to a grade. New tables only: every submission
and score is kept as it was."""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("assignment", sa.String(64), nullable=False, index=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"), nullable=False, index=True),
        sa.Column("applied", sa.Text, nullable=False),
        sa.Column("adjustment", sa.Float, nullable=False),
        sa.Column("adjustment_reason", sa.Text, nullable=False),
        sa.Column("comments", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("graded_by", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("person_id", "assignment"))
    op.create_table(
        "releases",
        sa.Column("assignment", sa.String(64), primary_key=True),
        sa.Column("released_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("released_by", sa.Integer, sa.ForeignKey("people.id"), nullable=True))
    op.create_table(
        "canned_comments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment", sa.String(64), nullable=False, index=True),
        sa.Column("text", sa.Text, nullable=False))
    op.create_table(
        "regrade_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("assignment", sa.String(64), nullable=False, index=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"), nullable=False),
        sa.Column("item", sa.String(64), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answer", sa.Text, nullable=True),
        sa.Column("changed", sa.Boolean, nullable=True),
        sa.Column("answered_by", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "grade_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"), nullable=True),
        sa.Column("by_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("why", sa.Text, nullable=False))


def downgrade() -> None:
    for table in ("grade_changes", "regrade_requests", "canned_comments", "releases", "reviews"):
        op.drop_table(table)
