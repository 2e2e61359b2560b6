"""Duplicate events: what the director changed before the start, and when (``changes``, a JSON list of
``{"at": ISO time, "fields": [...]}``), so that a player registered before a change is told of it on the event's
page.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.add_column(sa.Column("changes", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.drop_column("changes")
