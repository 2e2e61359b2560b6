"""A public server's second line: private tables, table clocks, computer players' own seeds, per-hour counts.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        # a private table is not listed; its seats are taken only with the invitation's secret (stored hashed)
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
        # the table's clock as text, "per_move+bank" in seconds ("30+120"); NULL: no clock
        batch.add_column(sa.Column("clock", sa.String(32), nullable=True))
        # hex key the computer players' seeds are drawn from, published with the record when the match is over
        batch.add_column(sa.Column("bots_secret", sa.String(64), nullable=True))
    with op.batch_alter_table("barbu_seats") as batch:
        # seconds left in the seat's time bank, and how many times in a row its clock ran out
        batch.add_column(sa.Column("bank", sa.Float(), nullable=True))
        batch.add_column(sa.Column("timeouts", sa.Integer(), nullable=True))
    # what each address made ("table", "kept_game"), so the per-hour limits hold across restarts and processes;
    # the address is stored as HMAC-SHA256 under a key made on the first start and kept in this same table
    # (one row of kind "key" whose address_hash holds the key in hex), never as it is; rows older than an hour
    # are swept, the key's row is kept
    op.create_table(
        "barbu_creations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("address_hash", sa.String(64), nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("barbu_creations")
    with op.batch_alter_table("barbu_seats") as batch:
        batch.drop_column("timeouts")
        batch.drop_column("bank")
    with op.batch_alter_table("barbu_tables") as batch:
        batch.drop_column("bots_secret")
        batch.drop_column("clock")
        batch.drop_column("invite_hash")
