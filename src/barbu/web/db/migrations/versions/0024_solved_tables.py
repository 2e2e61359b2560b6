"""Double-dummy tables solved in the background (`barbu.web.replay.solved`): one row a deal as dealt (its
`board_key`: the rules, the hands, who is to choose), with where it came from (a daily board, an event's round),
the actions that deal it on a fresh match, the budget of each cell, its state (waiting, solving, done) and who
claimed it when (a claim not renewed is taken over after a restart), and once solved its cells.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_solved_tables",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("source", sa.String(120), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("actions", sa.Text(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("claimed_by", sa.String(40), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("solved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cells", sa.Text(), nullable=True),
        sa.Column("exact_cells", sa.Integer(), nullable=True),
        sa.Column("total_cells", sa.Integer(), nullable=True),
    )
    op.create_index("ix_barbu_solved_tables_state", "barbu_solved_tables", ["state", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_barbu_solved_tables_state", table_name="barbu_solved_tables")
    op.drop_table("barbu_solved_tables")
