"""The revisions, one module each (named by Alembic, loaded by it, never imported by sushigo)."""
