"""Puzzles (barbu.web.puzzles): laid out for the slice that fills it.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29
"""

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
