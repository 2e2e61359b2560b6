"""What a public server needs: the keyed deal secret, the creator's credential, expiry of open tables.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        # hex of the 256-bit key of the deals; NULL for tables made before it (they keep their seed)
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
        # who may give seats to computer players: "creator" or "seated" (the creator or any seated player)
        batch.add_column(sa.Column("bots_by", sa.String(16), nullable=True))
        # when a seat was last taken (or the table made): open tables nobody joins expire from it
        batch.add_column(sa.Column("touched_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_tables") as batch:
        batch.drop_column("touched_at")
        batch.drop_column("bots_by")
        batch.drop_column("creator_hash")
        batch.drop_column("secret")
