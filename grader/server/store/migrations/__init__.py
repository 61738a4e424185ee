"""Alembic's environment and the schema's versions, shipped with the package and applied at start."""
