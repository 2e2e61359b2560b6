"""Log-in protection: failed log-ins are no longer rows of the database.

Each attempt is now reserved before its password is weighed, in one step over several counts (per name and
address, per address, per name, per known browser: `barbu.web.accounts.throttle`), kept in the process's
memory or, with many processes, in their broker.  The old table, read before and written after each check,
goes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""
from alembic import op
import sqlalchemy as sa

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("barbu_login_failures")


def downgrade() -> None:
    op.create_table(
        "barbu_login_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(80), nullable=False, index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
