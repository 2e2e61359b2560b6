"""Duplicate events: events, their players, rounds and tables; a table dealt by boards.

An event's tables are ordinary tables (barbu_tables) with two more facts: ``boards`` (their deals come from
`barbu.core.chance.BoardChance`, so deal k gives the same cards at every table of a round) and
``deal_limit`` (the round ends after so many deals, fewer than a whole match).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_duplicate_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("director_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("barbu_clubs.id", ondelete="CASCADE"), nullable=True,
                  index=True),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=True),  # None: open registration
        sa.Column("deals", sa.Integer(), nullable=True),  # deals a table plays per round; None: the format's
        sa.Column("strength", sa.String(32), nullable=False),
        sa.Column("clock", sa.String(32), nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=True),  # None: when the director says
        sa.Column("status", sa.String(16), nullable=False, index=True),  # registering, running, over
        sa.Column("round", sa.Integer(), nullable=False, server_default="0"),  # the round being played
        sa.Column("secret", sa.String(64), nullable=False),  # hex key of the deals, published at the end
        sa.Column("plan", sa.Text(), nullable=True),  # the seating (JSON), fixed when the event starts
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "barbu_event_players",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("barbu_duplicate_events.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("position", sa.Integer(), nullable=True),  # his index in the seating plan
        sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_event_tables",
        sa.Column("event_id", sa.Integer(), sa.ForeignKey("barbu_duplicate_events.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
    )
    with op.batch_alter_table("barbu_tables") as batch:
        batch.add_column(sa.Column("boards", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("deal_limit", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        batch.drop_column("deal_limit")
        batch.drop_column("boards")
    for name in ("barbu_event_tables", "barbu_event_players", "barbu_duplicate_events"):
        op.drop_table(name)
