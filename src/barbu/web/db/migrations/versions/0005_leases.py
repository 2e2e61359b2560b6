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
    # the lease epoch each action was written under (NULL: one process alone): along a table's log it never
    # goes down, which is how a test or an operator sees that no two processes ever advanced one table
    with op.batch_alter_table("barbu_events") as batch:
        batch.add_column(sa.Column("epoch", sa.BigInteger(), nullable=True))
    # who made the table and who gave its seats to computer players, as HMAC-SHA256 of their addresses (the key
    # of barbu_creations): the per-address limits count a table wherever it is played, after a takeover too
    with op.batch_alter_table("barbu_tables") as batch:
        batch.add_column(sa.Column("creator_addr", sa.String(64), nullable=True))
        batch.add_column(sa.Column("bots_addr", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        batch.drop_column("bots_addr")
        batch.drop_column("creator_addr")
    with op.batch_alter_table("barbu_events") as batch:
        batch.drop_column("epoch")
    op.drop_table("barbu_leases")
