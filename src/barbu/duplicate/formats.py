"""What a table plays in one round of an event, per format and game: how the formats read the series.

"one-match": one whole match of the preset at every table, on the same deals.  "rounds": each round every
table plays one *series*, a fresh match stopped when its first series is over, then players change tables:

- the Barbu family with the dealer declaring a series in a row (classic, salad, italian, italian-six): one
  declarer's contracts (7; 6 in salad and italian-six; 8 with Ravage City or Chinese poker, 9 with both).  The
  doubling obligation (each player doubles the declarer twice over his series) is whole within the round,
  and italian-six's placement points are added at its end, as in a match.
- quick rotation (french, classic(rotation=quick)): one turn of the table, each player choosing once.  A
  declarer's contracts spread over the whole match, so within a round nobody is yet forced to double.
- the Scottish game: one Player Round (2 to 7 deals: the Caller's seven calls, grouped as he chooses); the
  Silly Round belongs to a whole Set and is played only in "one-match".
- Bésigue: two deals, one dealt by each player.  A whole game runs until a player reaches the target, so
  tables would play different numbers of deals: Bésigue has no "one-match" format.

Every round is dealt from its own key (`round_secret`), the same at every table, so that round 2 does not
repeat round 1's cards; within a round `barbu.core.chance.BoardChance` gives deal k the same cards everywhere.
docs/duplicate.md says the same for players and directors.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from ..besigue.ruleset import is_besigue
from ..classic.match import Match
from ..classic.ruleset import Ruleset
from ..scottish.match import MAX_DEALS_PER_SET, ScottishMatch
from . import errors as E
from .movements import check_format

BESIGUE_ROUND = 2  # deals in a Bésigue round: one dealt by each player
SCOTTISH_ROUND = 7  # the most deals of a Player Round: seven calls, one a deal


def deals_per_round(rules_text: str, fmt: str) -> int:
    """How many deals a table plays in one round: "one-match" a whole match of the preset; "rounds" one series.

    Where the calls decide the length (the Scottish game) this is the most a round can have: `round_over`
    says when a table's round is over.  A bad rules text raises the ruleset's own refusal."""
    check_format(fmt)
    if is_besigue(rules_text):
        if fmt == "one-match":
            raise E.EventError.of(E.VARIABLE_MATCH, game="Bésigue")
        return BESIGUE_ROUND
    rules = Ruleset.parse(rules_text)
    match = Match(rules)
    if isinstance(match, ScottishMatch):
        return rules.sets * MAX_DEALS_PER_SET if fmt == "one-match" else SCOTTISH_ROUND
    if fmt == "one-match":
        return match.total_deals
    return rules.players if rules.rotation == "quick" else len(match.contracts)


def round_over(rules_text: str, fmt: str, game: Any) -> bool:
    """Whether a table's game has played its round (between deals): the match is over, or its first series is."""
    if game.is_over:
        return True
    if fmt == "one-match":
        return False
    if isinstance(game, ScottishMatch):
        state = game.state
        return state.round_no > 0 or state.set_no > 0
    return len(game.results) >= deals_per_round(rules_text, fmt)


def board_id(round_no: int, deal_no: int) -> str:
    """ "r1-d3": the board key used in matchpoints.Entry.board (both counted from 1)."""
    return f"r{round_no}-d{deal_no}"


def parse_board_id(board: str) -> tuple[int, int]:
    """(round, deal) from "r1-d3"; ValueError for anything else."""
    r, _, d = board.partition("-")
    if not (r[:1] == "r" and d[:1] == "d" and r[1:].isdigit() and d[1:].isdigit()):
        raise ValueError(f"not a board id: {board!r}")
    return int(r[1:]), int(d[1:])


def round_secret(secret: bytes, round_no: int) -> bytes:
    """The key that deals round ``round_no`` at every table: HMAC-SHA256 of the event's key, so publishing the
    event's key after the event lets anyone check every round's deals."""
    return hmac.new(bytes(secret), b"barbu-event-round " + str(round_no).encode(), hashlib.sha256).digest()
