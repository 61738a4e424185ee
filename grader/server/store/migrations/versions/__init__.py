"""One file per schema change, oldest first (``alembic revision`` in a checkout writes a new one)."""
