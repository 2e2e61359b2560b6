"""Notifications (`barbu.web.notices`): each notice an account is given (its kind, its params as JSON, never
prose: each reader's page words them in his language; its link; when read), the browsers' Web Push
subscriptions per device, each account's switches per kind (push, e-mail), and the server's VAPID key pair
(made once, shared by every process that shares the database, unless ``barbu serve --vapid-key FILE``).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

from alembic import op
import sqlalchemy as sa

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("params", sa.Text(), nullable=False),
        sa.Column("link", sa.String(300), nullable=False),
        sa.Column("key", sa.String(96), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("user_id", "key", name="uq_barbu_notifications_key"),
    )
    op.create_index("ix_barbu_notifications_user", "barbu_notifications", ["user_id", "id"])
    op.create_index("ix_barbu_notifications_created", "barbu_notifications", ["created_at"])
    op.create_table(
        "barbu_push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("device", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_success", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_barbu_push_subscriptions_user", "barbu_push_subscriptions", ["user_id"])
    op.create_table(
        "barbu_notice_switches",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("push", sa.Boolean(), nullable=False),
        sa.Column("mail", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "barbu_vapid_keys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("barbu_vapid_keys")
    op.drop_table("barbu_notice_switches")
    op.drop_index("ix_barbu_push_subscriptions_user", table_name="barbu_push_subscriptions")
    op.drop_table("barbu_push_subscriptions")
    op.drop_index("ix_barbu_notifications_created", table_name="barbu_notifications")
    op.drop_index("ix_barbu_notifications_user", table_name="barbu_notifications")
    op.drop_table("barbu_notifications")
