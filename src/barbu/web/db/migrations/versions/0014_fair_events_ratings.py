"""Events and clubs under the tables' caps, and ratings no puppet can feed.

An event keeps the HMAC of the address it was created from (``director_addr``): its tables' computer players
count against that address, as a table's do against its creator's, even when the watcher starts it at its time.
A result keeps the HMAC of the address its seat was taken from (``household``): players who sat from one
address are not rated against each other (docs/ratings.md), in the server's ratings and in a club's season.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""
from alembic import op
import sqlalchemy as sa

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.add_column(sa.Column("director_addr", sa.String(64), nullable=True))
    with op.batch_alter_table("barbu_results") as batch:
        batch.add_column(sa.Column("household", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("barbu_results") as batch:
        batch.drop_column("household")
    with op.batch_alter_table("barbu_duplicate_events") as batch:
        batch.drop_column("director_addr")
