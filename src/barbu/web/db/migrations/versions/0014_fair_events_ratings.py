"""Events and clubs under the tables' caps, and ratings no puppet can feed.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""
from alembic import op  # noqa: F401
import sqlalchemy as sa  # noqa: F401

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
