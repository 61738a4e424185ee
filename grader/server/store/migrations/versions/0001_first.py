"""The first schema: people, submissions (the job table), extensions, graders, seeds."""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("student_id", sa.String(200), nullable=False, unique=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=True, unique=True),
        sa.Column("alias", sa.String(40), nullable=True))
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("assignment", sa.String(64), nullable=False, index=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("filename", sa.String(16), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("late_days", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("grader", sa.String(200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("graded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("max_score", sa.Float, nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("instructor", sa.Text, nullable=True))
    op.create_table(
        "extensions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.Column("days", sa.Integer, nullable=False),
        sa.UniqueConstraint("person_id", "assignment"))
    op.create_table(
        "graders",
        sa.Column("id", sa.String(200), primary_key=True),
        sa.Column("heartbeat", sa.DateTime(timezone=True), nullable=False))
    op.create_table(
        "seeds",
        sa.Column("assignment", sa.String(64), primary_key=True),
        sa.Column("seed", sa.Integer, nullable=False))


def downgrade() -> None:
    for table in ("seeds", "graders", "extensions", "submissions", "people"):
        op.drop_table(table)
