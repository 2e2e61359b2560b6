"""Chat at the table (`barbu.web.db.chat`): the messages said in a table's two rooms ("players" and "spectators"),
each a quick phrase's key or free text, with a moderator's ``removed`` flag; and the logged-in spectators who
watched a table, who read its chat in the replay as its players do.  Messages older than ``barbu serve
--chat-days`` are deleted by the lobby's sweeper.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_barbu_chat_table", "barbu_chat", ["table_id", "id"])
    op.create_index("ix_barbu_chat_at", "barbu_chat", ["at"])
    op.create_table(
        "barbu_chat_watchers",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("barbu_chat_watchers")
    op.drop_index("ix_barbu_chat_at", table_name="barbu_chat")
    op.drop_index("ix_barbu_chat_table", table_name="barbu_chat")
    op.drop_table("barbu_chat")
