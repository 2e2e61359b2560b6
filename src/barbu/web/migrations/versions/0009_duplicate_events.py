"""Duplicate events: events, their players, rounds and tables.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
