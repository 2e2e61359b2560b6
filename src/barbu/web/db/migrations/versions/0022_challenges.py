"""Challenges from one player to others (`barbu.web.challenges`).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
