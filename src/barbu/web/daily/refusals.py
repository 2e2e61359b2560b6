"""What the daily deals refuse: an unknown game or day, a set played twice, a move out of turn, early results and
replays."""

from ...core.words import N_
from ..common.errors import CONFLICT, FAILED, FORBIDDEN, MISSING, refusal

NO_DAILY_GAME = refusal("daily-no-such-game", N_("there are no daily deals for this game"), MISSING)
DAY_FORMAT = refusal("daily-day-format", N_("a day is written YYYY-MM-DD"))
DAY_TO_COME = refusal("daily-day-to-come", N_("that day has not come yet"), MISSING)
PLAYED_AS_GUEST = refusal(
    "daily-played-as-guest",
    N_("this browser has played today's deals of this game as a guest: they are played once"),
    CONFLICT,
)
PLAYED_ALREADY = refusal(
    "daily-played-already", N_("you have played today's deals of this game already: see your results"), CONFLICT
)
START_FIRST = refusal("daily-start-first", N_("start the daily deals of this game first"), MISSING)
MOVES_BROKEN = refusal(
    "daily-moves-broken", N_("this board's stored moves no longer replay; please tell the server's operator"), FAILED
)
MOVE_AS_TEXT = refusal("daily-move-as-text", N_("send your move as a short text, e.g. {example}"))
NOT_THIS_BOARD = refusal(
    "daily-not-this-board", N_("that board is not the one you are playing: reload the page"), CONFLICT
)
NOT_YOUR_TURN = refusal("daily-not-your-turn", N_("it is not your turn: reload the page"), CONFLICT)
RESULTS_HIDDEN = refusal(
    "daily-results-hidden",
    N_(
        "finish today's deals of this game first: their results stay hidden until then, "
        "or until the day is over (midnight UTC)"
    ),
    FORBIDDEN,
)
NO_BOARD = refusal("no-board", N_("there is no such board"), MISSING)
REPLAY_HIDDEN = refusal(
    "daily-replay-hidden",
    N_(
        "the daily deals of {day} stay hidden until that day is over (midnight UTC): "
        "before then only the player who finished them may replay them"
    ),
    FORBIDDEN,
)
NO_REPLAY = refusal("daily-no-such-replay", N_("there is no such replay of the daily deals"), MISSING)
