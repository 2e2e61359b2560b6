"""The core's duplicate formats as the events use them: schedules, deals a round, boards and their keys.

`barbu.duplicate.movements` places the players round by round and `barbu.duplicate.formats` says how many deals
a round plays and how a board is named; their refusals become the web's.  A round's deals are keyed by
HMAC(the event's key, round), the same for every table of the round.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Callable

from ...core.errors import BarbuError
from ...games import open_game
from ..common.errors import WebError
from . import refusals as no
from . import store as db


def formats() -> tuple[str, ...]:
    """The formats an event may be played in (`duplicate.movements.FORMATS`)."""
    try:
        from ...duplicate.movements import FORMATS

        return tuple(FORMATS)
    except ImportError:  # the movements module not there yet: one match only
        return ("one-match",)


def plan_for(players: int, seats: int, fmt: str, rounds: int) -> list[list[list[int | None]]]:
    """Round → table → seat → player index (None: a computer player), by `duplicate.movements.schedule`."""
    made: Callable[[int, int, str, int], list[list[list[int | None]]]] | None
    try:
        from ...duplicate.movements import schedule

        made = schedule
    except ImportError:
        made = None
    if made is not None:
        try:
            return made(players, seats, fmt, rounds)
        except BarbuError as e:
            raise WebError.wrap(e) from None
    if players < 1:
        raise WebError(no.NOBODY_REGISTERED)
    tables = -(-players // seats)
    return [[[t * seats + s if t * seats + s < players else None for s in range(seats)] for t in range(tables)]]


def deals_in_round(rules: str, fmt: str) -> int | None:
    """Deals a table plays per round (`duplicate.formats.deals_per_round`); None: the whole match."""
    try:
        from ...duplicate.formats import deals_per_round
    except ImportError:
        return None
    try:
        return int(deals_per_round(rules, fmt))
    except BarbuError as e:
        raise WebError.wrap(e) from None


def default_deals(ev: db.Event) -> int | None:
    """The deals a table plays per round when the director chose none (what the event's format plays)."""
    try:
        return deals_in_round(ev.rules, ev.format)
    except WebError:
        return None


def board_key(round_no: int, deal_no: int) -> str:
    try:
        from ...duplicate.formats import board_id

        return str(board_id(round_no, deal_no))
    except ImportError:
        return f"r{round_no}-d{deal_no}"


def round_secret(event_secret: str, round_no: int) -> str:
    """The key of a round's deals: HMAC-SHA256(the event's key, round), the same for every table of the round."""
    return hmac.new(bytes.fromhex(event_secret), b"round:%d" % round_no, hashlib.sha256).hexdigest()


def players_at(rules: str) -> int:
    """The players a table of the game ``rules`` seats."""
    return int(open_game(rules, 1).n)


def capacity(ev: db.Event) -> int | None:
    """The players the event has room for (None: an open registration)."""
    return None if ev.tables is None else ev.tables * players_at(ev.rules)
