"""Many server processes on one database: a lease per unfinished table, with its fencing epoch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # the process that owns a table, the epoch every journal write of the table must carry (one more at each
    # change of owner), and when the lease ends unless renewed (seconds since 1970, the database's clock)
    op.create_table(
        "barbu_leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False, index=True),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("barbu_leases")
