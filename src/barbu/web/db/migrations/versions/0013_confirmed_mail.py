"""E-mail only to addresses that asked for it: confirmation, budgets, batched reminders, resets by mail.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_users") as batch:
        batch.add_column(sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "barbu_mail_confirmations",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_barbu_mail_confirmations_user_id", "barbu_mail_confirmations", ["user_id"])
    op.create_table(
        "barbu_mail_counts",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
    )
    op.create_table(
        "barbu_turn_reminders",
        sa.Column("user_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("due_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("barbu_turn_reminders")
    op.drop_table("barbu_mail_counts")
    op.drop_index("ix_barbu_mail_confirmations_user_id", "barbu_mail_confirmations")
    op.drop_table("barbu_mail_confirmations")
    with op.batch_alter_table("barbu_users") as batch:
        batch.drop_column("email_confirmed_at")
