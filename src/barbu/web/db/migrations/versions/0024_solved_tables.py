"""Double-dummy tables solved in the background: laid out for the slice that fills it.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29
"""

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
