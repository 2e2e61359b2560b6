"""What following, blocking and presence refuse."""

from ...core.words import N_
from ..common.errors import CONFLICT, FORBIDDEN, MISSING, refusal

NO_SUCH_PLAYER = refusal("social-no-such-player", N_("no player is named {name}"), MISSING)
NAME_NEEDED = refusal("social-name-needed", N_("write the name of a player"))
FOLLOW_SELF = refusal("social-follow-self", N_("you cannot follow yourself"))
BLOCK_SELF = refusal("social-block-self", N_("you cannot block yourself"))
FOLLOW_BLOCKED = refusal(
    "social-follow-blocked", N_("you cannot follow {name}: a block keeps the two of you apart"), FORBIDDEN
)
#: A seat refused at a table where someone blocked by (or blocking) the player sits.
BLOCKED_AT_TABLE = refusal(
    "blocked-at-table",
    N_("you cannot sit at this table: a player seated here and you are kept apart by a block"),
    CONFLICT,
)
PRESENCE_FLAG = refusal("presence-flag", N_('"hidden" is true or false'))
