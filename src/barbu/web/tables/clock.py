"""A table's clock: a time limit per decision with a time bank, as Board Game Arena's real-time tables have.

Each decision of a person gets ``per_move`` seconds; when they are spent, the seat's
bank runs; when the bank is empty too, the seat's time has run out and the stand-in
plays that one decision.  A seat that runs out `AWAY_AFTER` times in a row is treated
as away: the stand-in plays for it at once until the player acts again (or says he is
back).  The bank is not refilled during a match: the per-move allowance is the budget,
the bank is for the few hard decisions.

This module holds the rules only (named choices, the stored text, the running turn),
with the moment ``now`` always passed in, so that it is easy to test and reused by the
table (`barbu.web.tables.actor`) and, later, by turn-based tables and duplicate events.
Only a person's decision is timed: the table starts a `Turn` when it waits for a
connected person and pauses it whenever it waits for something else (a disconnected
player's grace period); the pause between deals and the computers' turns never start one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ..common.errors import WebError
from .refusals import CLOCK_BANK, CLOCK_HELP, CLOCK_PER_MOVE, TURN_CLOCK_BANK, TURN_CLOCK_HELP, TURN_CLOCK_PER_MOVE

#: Times in a row a seat's clock may run out before the seat is treated as away.
AWAY_AFTER = 2
PER_MOVE_MIN, PER_MOVE_MAX = 0.1, 600.0  # seconds a decision may be given
BANK_MAX = 3600.0  # seconds a bank may hold
HOUR, DAY = 3600.0, 86400.0
LONG_PER_MOVE_MAX = 14 * DAY  # a turn-based table's decision: at most two weeks
LONG_BANK_MAX = 30 * DAY


@dataclass(frozen=True)
class Clock:
    """A table's clock: seconds per decision, and the seconds of each seat's bank at the start."""

    per_move: float
    bank: float

    def __str__(self) -> str:
        """The stored form, "per_move+bank" in seconds: ``20+120``, ``0.2+0.3``."""
        return f"{self.per_move:g}+{self.bank:g}"

    @classmethod
    def stored(cls, text: str | None) -> "Clock | None":
        """The clock a table's record holds (None: no clock); a text that no longer reads is no clock."""
        if not text:
            return None
        try:
            return parse(text, long=True)  # checked when the table was made; a turn-based table's is long
        except WebError:
            return None


#: The named choices a person picks from, slowest first: (per move, bank) seconds.
CHOICES: dict[str, Clock] = {
    "relaxed": Clock(60, 600),
    "normal": Clock(25, 180),
    "quick": Clock(10, 60),
}
#: A table with people gets this clock unless its creator chooses another (or none).
DEFAULT = "normal"
#: The words that ask for no clock.
NONE_WORDS = ("none", "off", "no")

#: Turn-based tables, played over days (as on Board Game Arena): the named choices, shortest first.
TURN_CHOICES: dict[str, Clock] = {
    "hours": Clock(8 * HOUR, DAY),
    "day": Clock(DAY, 3 * DAY),
    "days": Clock(3 * DAY, 7 * DAY),
}
TURN_DEFAULT = "day"

_FORM = re.compile(r"^(\d{1,7}(?:\.\d{1,3})?)\+(\d{1,7}(?:\.\d{1,3})?)$")
_LONG_FORM = re.compile(r"^(\d{1,3})([hd])\+(\d{1,3})([hd])$")


def parse_turn_based(value: Any) -> Clock:
    """A turn-based table's clock: a named choice, or "per_move+bank" in hours or days ("1d+3d", "12h+2d")."""
    if value is None:
        return TURN_CHOICES[TURN_DEFAULT]
    if not isinstance(value, str) or len(value) > 32:
        raise WebError(TURN_CLOCK_HELP)
    text = value.strip().casefold().replace(" ", "")
    if text in TURN_CHOICES:
        return TURN_CHOICES[text]
    m = _LONG_FORM.match(text)
    if m is None:
        raise WebError(TURN_CLOCK_HELP)
    per_move = int(m.group(1)) * (DAY if m.group(2) == "d" else HOUR)
    bank = int(m.group(3)) * (DAY if m.group(4) == "d" else HOUR)
    if not HOUR <= per_move <= LONG_PER_MOVE_MAX:
        raise WebError(TURN_CLOCK_PER_MOVE)
    if bank > LONG_BANK_MAX:
        raise WebError(TURN_CLOCK_BANK)
    return Clock(per_move, bank)


def parse(value: Any, long: bool = False) -> Clock | None:
    """A clock from a request: a named choice, "none", or "per_move+bank" seconds; refused in words.

    ``long``: a stored clock, which may be a turn-based table's (days rather than seconds)."""
    if value is None or value is False:
        return None
    if not isinstance(value, str) or len(value) > 32:
        raise WebError(CLOCK_HELP)
    text = value.strip().casefold()
    if text in NONE_WORDS:
        return None
    if text in CHOICES:
        return CHOICES[text]
    m = _FORM.match(text.replace(" ", ""))
    if m is None:
        raise WebError(CLOCK_HELP)
    per_move, bank = float(m.group(1)), float(m.group(2))
    if long:
        if not PER_MOVE_MIN <= per_move <= LONG_PER_MOVE_MAX or not 0 <= bank <= LONG_BANK_MAX:
            raise WebError(CLOCK_HELP)
        return Clock(per_move, bank)
    if not PER_MOVE_MIN <= per_move <= PER_MOVE_MAX:
        raise WebError(CLOCK_PER_MOVE, low=f"{PER_MOVE_MIN:g}", high=f"{PER_MOVE_MAX:g}")
    if not 0 <= bank <= BANK_MAX:
        raise WebError(CLOCK_BANK, high=f"{BANK_MAX:g}")
    return Clock(per_move, bank)


def is_away(timeouts: int) -> bool:
    """Whether a seat whose clock ran out ``timeouts`` times in a row is treated as away."""
    return timeouts >= AWAY_AFTER


@dataclass
class Turn:
    """One person's decision being timed: ``spent`` seconds so far, running since ``since`` (None: paused)."""

    seat: int
    version: int  # the table's version the decision is for: a turn of another version is over
    per_move: float
    bank: float  # the seat's bank when the decision came
    spent: float = 0.0
    since: float | None = None

    def running(self) -> bool:
        return self.since is not None

    def resume(self, now: float) -> None:
        if self.since is None:
            self.since = now

    def pause(self, now: float) -> None:
        if self.since is not None:
            self.spent += max(0.0, now - self.since)
            self.since = None

    def elapsed(self, now: float) -> float:
        return self.spent + (max(0.0, now - self.since) if self.since is not None else 0.0)

    def move_left(self, now: float) -> float:
        """Seconds left of the per-move allowance."""
        return max(0.0, self.per_move - self.elapsed(now))

    def bank_left(self, now: float) -> float:
        """Seconds left in the bank: it runs once the per-move allowance is spent."""
        return max(0.0, self.bank - max(0.0, self.elapsed(now) - self.per_move))

    def left(self, now: float) -> float:
        """Seconds before the time runs out and the stand-in plays."""
        return max(0.0, self.per_move + self.bank - self.elapsed(now))

    def expired(self, now: float) -> bool:
        return self.left(now) <= 0

    def public(self, now: float) -> dict[str, Any]:
        """What everyone at the table may know of it: whose clock, for which version, how long is left."""
        return {
            "seat": self.seat,
            "version": self.version,
            "running": self.running(),
            "move_left": _round(self.move_left(now)),
            "bank_left": _round(self.bank_left(now)),
        }


def _round(x: float) -> float:
    """Tenths of a second are enough on a screen, and keep messages short."""
    return math.floor(x * 10 + 1e-9) / 10
