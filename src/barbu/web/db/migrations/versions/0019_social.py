"""Follows, blocks and the presence setting (`barbu.web.social`).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
