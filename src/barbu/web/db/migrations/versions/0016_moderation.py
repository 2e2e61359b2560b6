"""The moderator's desk: roles, reports, actions and their log.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
