"""The moderator's desk: roles, reports, actions and their log.

An account's role ("player" or "moderator") and how long it is muted; a club's or an event's ``removed`` flag (a
moderator's removal, reversible); the players' reports (`barbu.web.moderation.store.ReportRow`), the moderators'
log of actions (``LogRow``) and the warnings a player has still to read (``WarningRow``).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""
from alembic import op
import sqlalchemy as sa

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_users") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=False, server_default="player"))
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("barbu_clubs") as batch:
        batch.add_column(sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.add_column(sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "barbu_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("reporter_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("closed_by_log", sa.Integer(), nullable=True),
    )
    op.create_index("ix_barbu_reports_target", "barbu_reports", ["kind", "target", "status"])
    op.create_index("ix_barbu_reports_reporter", "barbu_reports", ["reporter_id", "created_at"])
    op.create_table(
        "barbu_moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("moderator_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("moderator", sa.String(64), nullable=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("undone_by", sa.Integer(), nullable=True),
    )
    op.create_table(
        "barbu_warnings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("log_id", sa.Integer(), nullable=False, unique=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("barbu_warnings")
    op.drop_table("barbu_moderation_log")
    op.drop_index("ix_barbu_reports_reporter", table_name="barbu_reports")
    op.drop_index("ix_barbu_reports_target", table_name="barbu_reports")
    op.drop_table("barbu_reports")
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.drop_column("removed")
    with op.batch_alter_table("barbu_clubs") as batch:
        batch.drop_column("removed")
    with op.batch_alter_table("barbu_users") as batch:
        batch.drop_column("muted_until")
        batch.drop_column("role")
