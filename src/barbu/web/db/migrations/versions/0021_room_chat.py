"""Chat rooms beyond the table: a club's and an event's, with the director's notices.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
