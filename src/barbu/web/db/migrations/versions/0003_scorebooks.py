"""Games kept at real tables (the scorekeeper): one row per game, its deals as JSON.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""
from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_scorebooks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("view_id", sa.String(32), nullable=False, unique=True),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=True, index=True),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("barbu_scorebooks")
