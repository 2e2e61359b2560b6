"""The daily deals: the installation's daily secret, the attempts at each day's sets and their boards.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_daily_secret",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_daily_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("who", sa.String(80), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("day", "game", "who", name="uq_barbu_daily_attempt"),
    )
    op.create_index("ix_barbu_daily_attempts_set", "barbu_daily_attempts", ["day", "game", "finished_at"])
    op.create_table(
        "barbu_daily_boards",
        sa.Column("attempt_id", sa.Integer(), sa.ForeignKey("barbu_daily_attempts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("moves", sa.Text(), nullable=False, server_default=""),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("doubles", sa.String(200), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("barbu_daily_boards")
    op.drop_index("ix_barbu_daily_attempts_set", table_name="barbu_daily_attempts")
    op.drop_table("barbu_daily_attempts")
    op.drop_table("barbu_daily_secret")
