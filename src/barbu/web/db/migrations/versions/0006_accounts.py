"""Accounts: players, sessions, one-time password links, failed log-ins, results and ratings; a seat's account.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("skeleton", sa.String(64), nullable=False, index=True),
        sa.Column("password_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("banned", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("notify_turns", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("lang", sa.String(8), nullable=True),
    )
    op.create_table(
        "barbu_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_resets",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_login_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False, index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "barbu_results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("strength", sa.String(32), nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
    )
    op.create_index("ix_barbu_results_user", "barbu_results", ["user_id", "finished_at"])
    op.create_table(
        "barbu_ratings",
        sa.Column("subject", sa.String(48), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("shown", sa.Integer(), nullable=False, index=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_rating_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("subject", sa.String(48), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("shown", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_decision_costs",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("costly", sa.Integer(), nullable=False),
        sa.Column("cost", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_barbu_rating_history_subject", "barbu_rating_history", ["subject", "game", "at"])
    # the account seated (NULL: a guest or a computer player) and whether he gave the seat up mid-match
    with op.batch_alter_table("barbu_seats") as batch:
        batch.add_column(sa.Column("user_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("left", sa.Boolean(), nullable=True))
        batch.create_index("ix_barbu_seats_user_id", ["user_id"])
    with op.batch_alter_table("barbu_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_based", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("waiting_for", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("turn_since", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_barbu_tables_club_id", ["club_id"])
        batch.create_index("ix_barbu_tables_waiting_for", ["waiting_for"])


def downgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        batch.drop_index("ix_barbu_tables_waiting_for")
        batch.drop_index("ix_barbu_tables_club_id")
        batch.drop_column("turn_since")
        batch.drop_column("waiting_for")
        batch.drop_column("turn_based")
        batch.drop_column("club_id")
        batch.drop_column("rated")
    with op.batch_alter_table("barbu_seats") as batch:
        batch.drop_index("ix_barbu_seats_user_id")
        batch.drop_column("left")
        batch.drop_column("user_id")
    for name in ("barbu_decision_costs", "barbu_rating_history", "barbu_ratings", "barbu_results", "barbu_login_failures", "barbu_resets",
                 "barbu_sessions", "barbu_users"):
        op.drop_table(name)
