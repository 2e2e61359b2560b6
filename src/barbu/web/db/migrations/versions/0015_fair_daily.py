"""Daily deals fair to the accounts' ranking: each attempt keeps the HMAC of the address that played it (never
the address), so that several finishers from one address are marked to the operator; the pool "new" (new
accounts) needs no change of the column.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_daily_attempts") as batch:
        batch.add_column(sa.Column("address_hash", sa.String(64), nullable=True))
        batch.create_index("ix_barbu_daily_attempts_address", ["day", "address_hash"])


def downgrade() -> None:
    with op.batch_alter_table("barbu_daily_attempts") as batch:
        batch.drop_index("ix_barbu_daily_attempts_address")
        batch.drop_column("address_hash")
