"""Trust: the LMS courses (contexts) bound to this course server, and those launched from without a binding
(a bounded table for staff to bind them from); whether a platform's emails are verified and where its
services may be; whether a person's role was set by staff (a launch then leaves it alone); the deployment an
LMS course was launched from. The logins begun are kept in the browser now: their table goes. Every row of
every other table is kept."""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lti_bindings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.UniqueConstraint("issuer", "deployment_id", "context_id"))
    op.create_table(
        "lti_unbound",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("title", sa.String(255), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.UniqueConstraint("issuer", "deployment_id", "context_id"))
    # Columns added in place (ALTER TABLE ADD COLUMN, SQLite's too): a table other tables refer to (people) is
    # never copied and dropped, which SQLite's foreign keys refuse.
    op.add_column("lti_platforms", sa.Column("trust_email", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("lti_platforms", sa.Column("service_origins", sa.Text, nullable=False, server_default=""))
    op.add_column("people", sa.Column("role_by_staff", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("lti_contexts", sa.Column("deployment_id", sa.String(255), nullable=True))
    # Who hog serve people made (no identity on any platform) had their role set by staff.
    op.execute("UPDATE people SET role_by_staff = "
               f"{'1' if op.get_bind().dialect.name == 'sqlite' else 'true'} "
               "WHERE id NOT IN (SELECT person_id FROM lti_identities)")
    op.drop_table("lti_states")


def downgrade() -> None:
    op.create_table(
        "lti_states",
        sa.Column("state", sa.String(64), primary_key=True),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("login_hint", sa.Text, nullable=False),
        sa.Column("message_hint", sa.Text, nullable=True),
        sa.Column("target_link_uri", sa.Text, nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False, index=True))
    with op.batch_alter_table("lti_contexts") as table:
        table.drop_column("deployment_id")
    with op.batch_alter_table("people") as table:
        table.drop_column("role_by_staff")
    with op.batch_alter_table("lti_platforms") as table:
        table.drop_column("service_origins")
        table.drop_column("trust_email")
    op.drop_table("lti_unbound")
    op.drop_table("lti_bindings")
