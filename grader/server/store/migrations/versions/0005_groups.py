"""Groups: students who submit to an assignment as one (``group_size``), their invitations, and the group
each submission was made for. Every submission and score is kept; those made before have no group."""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.UniqueConstraint("assignment", "name"))
    op.create_table(
        "group_members",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("group_id", sa.Integer, sa.ForeignKey("groups.id"), nullable=False, index=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.UniqueConstraint("person_id", "assignment"))
    op.create_table(
        "group_invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.Column("inviter_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("invitee_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("assignment", "inviter_id", "invitee_id"))
    with op.batch_alter_table("submissions") as table:   # SQLite alters a table by copying it: every row kept
        table.add_column(sa.Column("group_id", sa.Integer, nullable=True))
        table.create_index("ix_submissions_group_id", ["group_id"])
        table.create_foreign_key("fk_submissions_group_id", "groups", ["group_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("submissions") as table:
        table.drop_constraint("fk_submissions_group_id", type_="foreignkey")
        table.drop_index("ix_submissions_group_id")
        table.drop_column("group_id")
    for name in ("group_invitations", "group_members", "groups"):
        op.drop_table(name)
