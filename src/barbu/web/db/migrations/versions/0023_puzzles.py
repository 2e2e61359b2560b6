"""Puzzles (`barbu.web.puzzles`): the puzzles played in the browser, each with its own rating (the library's,
loaded from `barbu.puzzles.library`, and each account's own, found in his finished matches); every solver's
puzzle rating (an account's or a guest browser's) with his streaks; and each attempt, one a player a puzzle
(the unique pair settles a replayed or raced answer), offered first, then answered once.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_puzzles",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("contract", sa.String(64), nullable=False),
        sa.Column("theme", sa.String(24), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_barbu_puzzles_owner", "barbu_puzzles", ["owner_id", "added_at"])
    op.create_index("ix_barbu_puzzles_choice", "barbu_puzzles", ["owner_id", "family", "contract", "theme", "kind"])
    op.create_table(
        "barbu_puzzle_players",
        sa.Column("who", sa.String(80), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("streak_level", sa.Float(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_barbu_puzzle_players_user", "barbu_puzzle_players", ["user_id"], unique=True)
    op.create_table(
        "barbu_puzzle_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("who", sa.String(80), nullable=False),
        sa.Column("puzzle_id", sa.String(12), sa.ForeignKey("barbu_puzzles.id", ondelete="CASCADE"), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("answer", sa.String(8), nullable=True),
        sa.Column("solved", sa.Boolean(), nullable=True),
        sa.Column("before", sa.Integer(), nullable=True),
        sa.Column("after", sa.Integer(), nullable=True),
        sa.UniqueConstraint("who", "puzzle_id", name="uq_barbu_puzzle_attempt"),
    )
    op.create_index("ix_barbu_puzzle_attempts_who", "barbu_puzzle_attempts", ["who", "answered_at"])
    op.create_table(  # the server's own puzzles: each finished day's set or event round looked at once
        "barbu_puzzle_harvests",
        sa.Column("source", sa.String(80), primary_key=True),
        sa.Column("claimer", sa.String(16), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("found", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("barbu_puzzle_harvests")
    op.drop_index("ix_barbu_puzzle_attempts_who", table_name="barbu_puzzle_attempts")
    op.drop_table("barbu_puzzle_attempts")
    op.drop_index("ix_barbu_puzzle_players_user", table_name="barbu_puzzle_players")
    op.drop_table("barbu_puzzle_players")
    op.drop_index("ix_barbu_puzzles_choice", table_name="barbu_puzzles")
    op.drop_index("ix_barbu_puzzles_owner", table_name="barbu_puzzles")
    op.drop_table("barbu_puzzles")
