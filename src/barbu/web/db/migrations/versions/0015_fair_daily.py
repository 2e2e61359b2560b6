"""Daily deals fair to the accounts' ranking.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
