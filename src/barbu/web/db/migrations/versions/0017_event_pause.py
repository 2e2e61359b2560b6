"""An event paused by its director: since when, and why if he said (`barbu.web.events.pausing`).

While ``paused_at`` is set no table of the event's round accepts a move and their clocks stand still; a table
rebuilt after a restart, or taken over by another process, reads it here and stays paused.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("pause_reason", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.drop_column("pause_reason")
        batch.drop_column("paused_at")
