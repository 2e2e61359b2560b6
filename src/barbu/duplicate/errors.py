"""What setting up a duplicate event can refuse: `EventError`, its codes and English templates (the msgids).

`EventError.of(MSG, **params)` carries the code and raw parameters, so the web pages and the command line
word a director's mistake in his language (`barbu.i18n.word_error`); ``str(e)`` stays English.
"""

from __future__ import annotations

from ..core.errors import BarbuError
from ..core.words import N_, NN_, message


class EventError(BarbuError, ValueError):
    """An event that cannot be set up as asked (no players, a format that does not fit the numbers)."""


#: What is not a whole number, by the number it should be (a form's text, a float, nothing).
NOT_A_NUMBER = {
    "players": message("event-players-not-a-number", N_("the number of players must be a whole number, not {value!r}")),
    "seats": message("event-seats-not-a-number", N_("the number of seats must be a whole number, not {value!r}")),
    "rounds": message("event-rounds-not-a-number", N_("the number of rounds must be a whole number, not {value!r}")),
    "tables": message("event-tables-not-a-number", N_("the number of tables must be a whole number, not {value!r}")),
}
NO_PLAYERS = message("event-no-players", N_("an event needs at least one player"))
NO_SEATS = message("event-no-seats", N_("a table needs at least two seats, not {seats}"))
UNKNOWN_FORMAT = message("event-unknown-format", N_("unknown event format {fmt!r}; choose from: {formats}"))
ROUNDS_AT_LEAST_ONE = message("event-rounds-at-least-one", N_("an event plays at least one round, not {rounds}"))
TOO_MANY_ROUNDS = message("event-too-many-rounds", N_("an event plays at most {most} rounds, not {rounds}"))
ONE_MATCH_ONE_ROUND = message(
    "event-one-match-one-round",
    N_(
        "the one-match format plays a single round: every table plays one match on the "
        "same deals (asked for {rounds} rounds)"
    ),
)
ROUNDS_NEED_TWO_TABLES = message(
    "event-rounds-need-two-tables",
    NN_(
        "the rounds format moves players between tables, but {n:count} player fits at one table of {seats}: "
        "choose one match, or two tables or more",
        "the rounds format moves players between tables, but {n:count} players fit at one table of {seats}: "
        "choose one match, or two tables or more",
    ),
)
TOO_FEW_TABLES = message(
    "event-too-few-tables",
    NN_(
        "{players} players need at least {need} tables of {seats}, not {n:count} table",
        "{players} players need at least {need} tables of {seats}, not {n:count} tables",
    ),
)
TOO_MANY_TABLES = message("event-too-many-tables", N_("an event has at most {most} tables, not {tables}"))
VARIABLE_MATCH = message(
    "event-variable-match",
    N_(
        "a {game} game lasts until a player reaches the target, so tables would play "
        "different deals: choose the rounds format (each round, one deal dealt by each "
        "player)"
    ),
)
