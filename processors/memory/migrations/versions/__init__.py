"""Alembic revision files (loaded by path, in ``down_revision`` order; this file is skipped by Alembic)."""
