"""Follows, blocks and the presence setting (`barbu.web.social`): who follows whom (no consent, as lichess has
it), who blocked whom (a block removes the follows both ways and keeps the two apart at tables and in chat), and
each account's choice to hide its presence (shown "offline" to everyone else).  Rows go with their accounts.

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


def _pair(name: str, first: str, second: str) -> None:
    op.create_table(
        name,
        sa.Column(first, sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(second, sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(f"ix_{name}_{second}", name, [second])


def upgrade() -> None:
    _pair("barbu_follows", "follower", "followed")
    _pair("barbu_blocks", "blocker", "blocked")
    op.create_table(
        "barbu_presence_settings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("barbu_presence_settings")
    op.drop_index("ix_barbu_blocks_blocked", table_name="barbu_blocks")
    op.drop_table("barbu_blocks")
    op.drop_index("ix_barbu_follows_followed", table_name="barbu_follows")
    op.drop_table("barbu_follows")
