"""What a challenge refuses."""

from ...core.words import N_
from ..common.errors import CONFLICT, FORBIDDEN, LIMITED, MISSING, UNAUTHORIZED, refusal
from ..social.refusals import NO_SUCH_PLAYER  # the same words as a follow's

__all__ = ["NO_SUCH_PLAYER"]

LOG_IN = refusal("challenge-log-in", N_("log in to challenge a player"), UNAUTHORIZED)
PLAYERS_NEEDED = refusal("challenge-players-needed", N_("name one, two or three players to challenge"))
PLAYERS_DISTINCT = refusal("challenge-players-distinct", N_("name each player once"))
CHALLENGE_SELF = refusal("challenge-self", N_("you cannot challenge yourself"))
#: Nothing more revealing: who blocked whom is nobody else's business.
CANNOT_CHALLENGE = refusal("challenge-cannot", N_("you cannot challenge {name}"), FORBIDDEN)
TOO_MANY_PLAYERS = refusal(
    "challenge-too-many-players", N_("this game seats {seats} players: challenge at most {most}")
)
SEATS_LEFT = refusal(
    "challenge-seats-left",
    N_("this game seats {seats} players: challenge {missing} more, or let computer players take the seats left"),
)
BOTS_FLAG = refusal("challenge-bots-flag", N_('"bots" is true or false'))
TOO_MANY_OPEN = refusal(
    "challenge-too-many-open", N_("you have {n} challenges waiting for an answer: wait for one to end"), LIMITED
)
TOO_MANY_HOUR = refusal("challenge-too-many-hour", N_("you sent {n} challenges this hour: try again later"), LIMITED)
NO_CHALLENGE = refusal("challenge-missing", N_("there is no such challenge"), MISSING)
NOT_YOURS = refusal("challenge-not-yours", N_("only the player who sent the challenge can cancel it"), FORBIDDEN)
NOT_OPEN = refusal("challenge-not-open", N_("this challenge is over: nothing more can be answered"), CONFLICT)
NOT_ASKED = refusal("challenge-not-asked", N_("this challenge is not for you to answer"), FORBIDDEN)
