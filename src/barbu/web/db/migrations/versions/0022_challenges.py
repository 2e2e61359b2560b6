"""Challenges from one player to others (`barbu.web.challenges`): who challenges, the game (its rules' text), the
clock, rated or not, whether computer players take the seats left over, when it was made and when it lapses, its
state (open, accepted, declined, expired, cancelled) and the table once made; and each challenged player's answer
(waiting, accepted, declined).

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""

from alembic import op
import sqlalchemy as sa

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "barbu_challenges",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("from_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("rules", sa.String(400), nullable=False),
        sa.Column("clock", sa.String(40), nullable=True),
        sa.Column("turn_based", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("ended_by", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_barbu_challenges_from", "barbu_challenges", ["from_id", "state"])
    op.create_index("ix_barbu_challenges_open", "barbu_challenges", ["state", "expires_at"])
    op.create_table(
        "barbu_challenge_seats",
        sa.Column(
            "challenge_id", sa.Integer(), sa.ForeignKey("barbu_challenges.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("barbu_users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("answer", sa.String(10), nullable=False),
    )
    op.create_index("ix_barbu_challenge_seats_user", "barbu_challenge_seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_barbu_challenge_seats_user", table_name="barbu_challenge_seats")
    op.drop_table("barbu_challenge_seats")
    op.drop_index("ix_barbu_challenges_open", table_name="barbu_challenges")
    op.drop_index("ix_barbu_challenges_from", table_name="barbu_challenges")
    op.drop_table("barbu_challenges")
