"""Duplicate events: where a player left (the round, and the deals his table had finished then), so that only
the deals played after he left are marked "by the stand-in".  An event's status may now also be "cancelled"
(a plain string: no schema change).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_event_players") as batch:
        batch.add_column(sa.Column("left_round", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("left_deal", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_event_players") as batch:
        batch.drop_column("left_deal")
        batch.drop_column("left_round")
