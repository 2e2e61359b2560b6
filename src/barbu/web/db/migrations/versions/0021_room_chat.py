"""Chat rooms beyond the table: a club's and an event's (`barbu.web.clubs.chat`), with the director's notices.

Their messages are rows of the table chat's ``barbu_chat`` (migration 0018), in the rooms "club" and "event",
keyed by the club's or event's number where a table's are keyed by its id: one store, one moderation (the kind
"message"), one retention (``barbu serve --chat-days``).  Two flags are added to every message: ``notice`` (an
event director's notice, pinned on the event's page) and ``links`` (its author had the history that makes a link
in his words clickable when he wrote it, `barbu.web.moderation.service.has_history`).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""
from alembic import op
import sqlalchemy as sa

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_chat") as batch:
        batch.add_column(sa.Column("notice", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("links", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_index("ix_barbu_chat_user", "barbu_chat", ["user_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_barbu_chat_user", table_name="barbu_chat")
    with op.batch_alter_table("barbu_chat") as batch:
        batch.drop_column("links")
        batch.drop_column("notice")
