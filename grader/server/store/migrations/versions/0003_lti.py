"""LTI 1.3: the platforms and their deployments, people's identities there, OIDC logins begun and nonces
used, the LMS courses launched from (where their members are listed), and each person's launch of an assignment with the passback of its counted score."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("auth_url", sa.Text, nullable=False),
        sa.Column("token_url", sa.Text, nullable=False),
        sa.Column("jwks_url", sa.Text, nullable=False),
        sa.Column("lms_url", sa.String(255), nullable=False),
        sa.UniqueConstraint("issuer", "client_id"))
    op.create_table(
        "lti_deployments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.UniqueConstraint("platform_id", "deployment_id"))
    op.create_table(
        "lti_identities",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.UniqueConstraint("issuer", "subject"))
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
    op.create_table(
        "lti_contexts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("title", sa.String(255), nullable=False),
        sa.Column("memberships_url", sa.Text, nullable=False),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("issuer", "client_id", "context_id"))
    op.create_table(
        "lti_nonces",
        sa.Column("nonce", sa.String(255), primary_key=True),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False, index=True))
    op.create_table(
        "lti_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("assignment", sa.String(64), nullable=False),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_id", sa.String(255), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("resource_link_id", sa.String(255), nullable=True),
        sa.Column("lineitem", sa.Text, nullable=True),
        sa.Column("lineitems", sa.Text, nullable=True),
        sa.Column("launched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wanted_score", sa.Float, nullable=True),
        sa.Column("wanted_maximum", sa.Float, nullable=True),
        sa.Column("wanted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_score", sa.Float, nullable=True),
        sa.Column("sent_maximum", sa.Float, nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("due", sa.Boolean, nullable=False, index=True),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("leased_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("problem", sa.Text, nullable=True),
        sa.UniqueConstraint("person_id", "assignment", "issuer", "client_id"))


def downgrade() -> None:
    for table in ("lti_links", "lti_nonces", "lti_contexts", "lti_states", "lti_identities", "lti_deployments", "lti_platforms"):
        op.drop_table(table)
