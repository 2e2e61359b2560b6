"""E-mail only to addresses that asked for it: confirmation, budgets, batched reminders, resets by mail.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
