"""An event's settings: what its director chooses, checked in one place.

`event_settings` builds an `EventSettings` from a director's form as the routes decode it (`EventForm`'s fields
that were sent): the game (its preset, its players a table and its options, parsed by the lobby's
`parse_rules`), the format and rounds, the tables or an open registration, the deals a round, the computer
players' strength, the pace (the table clock's own parser, `requested_clock`) and the start; then the numbers
are checked to fit together (the schedule's own refusal).  Creating an event and a director's change both go
through it, so a setting is refused for the same reason in the same words either way.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, overload

from ..common.errors import WebError
from ..common.refusals import UNKNOWN_STRENGTH
from ..common.settings import Settings
from ..db.storage import _aware, now
from ..tables.actor import requested_clock
from ..tables.lobby import parse_rules
from . import refusals as no
from . import store as db
from .formats import deals_in_round, default_deals, formats, plan_for, players_at

NAME_MIN, NAME_MAX = 2, 60
TABLES_MAX = 50
ROUNDS_MAX = 8
DEALS_MAX = 60
START_DAYS_MAX = 60  # how far ahead an event may be set
DEFAULT_PACE = "normal"

#: What a director may change before the start: the request's field → the setting (the event's column).  The
#: field's name is also what a change is recorded as (`store.Change`), for the page to tell the registered players.
FIELDS = {
    "name": "name",
    "rules": "rules",
    "format": "format",
    "rounds": "rounds",
    "tables": "tables",
    "deals": "deals",
    "strength": "strength",
    "clock": "clock",
    "start": "start_at",
}


@dataclass(frozen=True)
class EventSettings:
    """An event's settings, each checked and all fitting together; its fields are the event's columns."""

    name: str
    rules: str  # the game: its preset, its players a table and its options, as the ruleset's text
    format: str  # one of `formats.formats()`
    rounds: int
    tables: int | None  # None: an open registration, as many tables as the players need
    deals: int | None  # a table's deals a round; None: the whole match
    strength: str  # the computer players of the empty seats and the stand-in
    clock: str  # the tables' clock, as stored ("per_move+bank" seconds)
    start_at: datetime | None  # None: when the director says

    def columns(self) -> dict[str, Any]:
        """The settings as the store writes them."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def starting(self, at: datetime | None) -> EventSettings:
        """The same settings with another start (a change that leaves the start as it is, even if passed)."""
        return dataclasses.replace(self, start_at=at)


def event_settings(data: Mapping[str, Any], server: Settings) -> EventSettings:
    """An event's settings from a director's form, each field checked, then the numbers checked to fit together
    (the schedule's own refusal for a full event): the one check of creating an event and of changing it.
    A field not given is what a new event has (a change fills them in from the event, `form_of`)."""
    name = event_name(data.get("name"))
    rules = str(parse_rules(data.get("rules"), data.get("players")))
    fmt = data.get("format", "one-match")
    known = formats()
    if fmt not in known:
        raise WebError(no.UNKNOWN_FORMAT, fmt=str(fmt)[:30], formats=", ".join(known))
    rounds = whole(data.get("rounds", 1), "rounds", 1, ROUNDS_MAX)
    if fmt == "one-match" and rounds != 1:
        raise WebError(no.ONE_MATCH_ONE_ROUND, rounds=rounds)
    tables = whole(data.get("tables"), "tables", 1, TABLES_MAX, allow_none=True)
    deals = whole(data.get("deals"), "deals", 1, DEALS_MAX, allow_none=True)
    strength = data.get("strength", server.stand_in)
    if strength not in server.strengths():
        raise WebError(UNKNOWN_STRENGTH, strength=str(strength)[:40], strengths=", ".join(server.strengths()))
    clock = requested_clock(data.get("clock", DEFAULT_PACE))
    if clock is None:
        raise WebError(no.CLOCK_NEEDED)
    start_at = start_time(data.get("start"))
    if tables is not None:  # the numbers must fit before anyone registers
        plan_for(tables * players_at(rules), players_at(rules), fmt, rounds)
    per_round = deals_in_round(rules, fmt)
    if deals is not None and per_round is not None:
        deals = min(deals, per_round)
    return EventSettings(
        name=name,
        rules=rules,
        format=fmt,
        rounds=rounds,
        tables=tables,
        deals=deals if deals is not None else per_round,
        strength=strength,
        clock=clock,
        start_at=start_at,
    )


def form_of(ev: db.Event) -> dict[str, Any]:
    """An event's settings as its director's form gives them (`event_settings` reads them back), but the start;
    the deals empty when they are what the format plays, so that a change of format plays its own."""
    return {
        "name": ev.name,
        "rules": ev.rules,
        "format": ev.format,
        "rounds": ev.rounds,
        "tables": ev.tables,
        "deals": None if ev.deals == default_deals(ev) else ev.deals,
        "strength": ev.strength,
        "clock": ev.clock,
    }


# ------------------------------------------------------------------ one field each
def event_name(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(no.NAME_NEEDED)
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise WebError(no.NAME_LENGTH, lo=NAME_MIN, hi=NAME_MAX)
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise WebError(no.NAME_CHARACTERS)
    return name


#: What each whole-number field of the form must be, worded whole so that every language can say it.
WHOLE_NUMBERS = {"rounds": no.ROUNDS_RANGE, "tables": no.TABLES_RANGE, "deals": no.DEALS_RANGE}


@overload
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: Literal[False] = False) -> int: ...
@overload
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: bool) -> int | None: ...
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: bool = False) -> int | None:
    if raw is None and allow_none:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise WebError(WHOLE_NUMBERS[field], lo=lo, hi=hi)
    return raw


def start_time(raw: Any) -> datetime | None:
    """The start from a request: an ISO moment within `START_DAYS_MAX` days, or None for "when I say"."""
    if raw is None or raw == "":
        return None
    try:
        if not isinstance(raw, str) or len(raw) > 40:
            raise ValueError
        at = _aware(datetime.fromisoformat(raw))
    except ValueError:
        raise WebError(no.START_FORMAT) from None
    if at < now() - timedelta(minutes=1):
        raise WebError(no.START_PASSED)
    if at > now() + timedelta(days=START_DAYS_MAX):
        raise WebError(no.START_TOO_FAR, n=START_DAYS_MAX)
    return at
