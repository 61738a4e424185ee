"""Alembic's environment: the connection is the one ``grader.server.store.db.upgrade`` hands over."""

from alembic import context

from grader.server.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
