"""What a term-long server keeps besides: the name an upload was sent as, how often a job was retried for a
fault of the machine, and what a grader last found wrong with its machine (None: nothing)."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as table:
        table.add_column(sa.Column("sent_as", sa.String(255), nullable=True))
        table.add_column(sa.Column("retries", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("graders") as table:
        table.add_column(sa.Column("problem", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("graders") as table:
        table.drop_column("problem")
    with op.batch_alter_table("submissions") as table:
        table.drop_column("retries")
        table.drop_column("sent_as")
