"""Clubs: clubs, their members and roles, their invitation links (hashed) and their seasons.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""
from alembic import op
import sqlalchemy as sa

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_clubs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("slug", sa.String(48), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, unique=True),
        sa.Column("description", sa.Text(), nullable=False, server_default=""),
        sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True,
                  index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("deleted", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "barbu_club_members",
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("barbu_clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "barbu_club_invites",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("barbu_clubs.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("uses", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_table(
        "barbu_club_seasons",
        sa.Column("club_id", sa.Integer(), sa.ForeignKey("barbu_clubs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_barbu_club_seasons_open", "barbu_club_seasons", ["club_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_barbu_club_seasons_open", table_name="barbu_club_seasons")
    for name in ("barbu_club_seasons", "barbu_club_invites", "barbu_club_members", "barbu_clubs"):
        op.drop_table(name)
