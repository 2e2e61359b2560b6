"""Notifications, their push subscriptions per device and each kind's switches (`barbu.web.notices`).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
