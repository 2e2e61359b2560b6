"""The daily deals: each day's sets, the attempts at them and their results.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
