"""A card puzzle: a position from a real deal where one card (or cards equal to it) is best, and what the others cost.

A puzzle is data: the ruleset, the actions that lead a fresh match to the position (chance included), the
seat to play, the solution and the exact cost of every other legal card.  It travels as JSON (`to_dict`,
`Puzzle.from_dict`, which refuses malformed data in plain words), so the library file, the web's tables and
the terminal all read the same thing.  `Puzzle.match` rebuilds the position in the engine, which stays the
authority on the rules.  See docs/puzzles.md.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..classic.match import CHANCE, DOMINO_PLAY, PLAY, Match
from ..core.errors import BarbuError
from ..core.words import N_, message

#: The two kinds: every hand shown, or only the seat's own hand and the cards played.
OPEN, SINGLE = "open", "single"
KINDS = (OPEN, SINGLE)

#: What a solution does, found from the position (docs/puzzles.md defines each).
THEMES = (
    "duck",  # following suit under the trick's winning card when a higher card of the suit would win it
    "unblock",  # following suit with the highest card held in the suit, where a smaller one goes the same way
    "take",  # winning the trick when a card that loses it was there
    "lead-away",  # leading a card that another hand can beat: the lead goes to someone else
    "cash",  # leading the best card left in its suit
    "guard",  # a discard that keeps a small card guarding a high one (the cost is in the suit left bare)
    "shed",  # a discard: which card to be rid of, when void in the suit led
    "ruff",  # trumping in, void in the suit led
    "block",  # Domino: the move that leaves the others without a card to play
    "lay",  # Domino: which of the cards that fit to lay now (no move blocks more of the others)
)

#: The id: 12 lowercase hex characters.
ID_PATTERN = re.compile(r"^[0-9a-f]{12}$")

FIELD_MISSING = message("puzzle-field-missing", N_("a puzzle needs the field {field}"))
FIELD_TYPE = message("puzzle-field-type", N_("a puzzle's {field} is not what it should be: {value}"))
BAD_ID = message("puzzle-bad-id", N_("a puzzle's id is 12 lowercase hex characters, not {value}"))
BAD_KIND = message("puzzle-bad-kind", N_("a puzzle is of the kind open or single, not {value}"))
BAD_THEME = message("puzzle-bad-theme", N_("{value} is not one of the puzzles' themes"))
BAD_COST = message("puzzle-bad-cost", N_("every other card of a puzzle costs more than nothing: {value}"))
BAD_SHARE = message("puzzle-bad-share", N_("a puzzle's share runs from 0 to 1: {value}"))
NOT_AN_OBJECT = message("puzzle-not-an-object", N_("a puzzle is a JSON object, not {value}"))
NO_POSITION = message(
    "puzzle-no-position", N_("the puzzle's actions do not lead to a card for seat {seat} to play: {reason}")
)


class PuzzleError(BarbuError, ValueError):
    """Puzzle data that cannot be read or does not lead to its position; the words say what is wrong."""


@dataclass(frozen=True)
class Step:
    """One more decision of the puzzle's seat in a line: the others' best replies after the previous card
    (``replies``, as the engine writes actions), then the card to find again and what the others cost."""

    replies: tuple[str, ...]
    solution: tuple[str, ...]
    costs: tuple[tuple[str, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"replies": list(self.replies), "solution": list(self.solution), "costs": [list(c) for c in self.costs]}

    @classmethod
    def from_dict(cls, d: object) -> Step:
        if not isinstance(d, Mapping):
            raise PuzzleError.of(NOT_AN_OBJECT, value=_short(d))
        return cls(_strings(d, "replies"), _strings(d, "solution", nonempty=True), _costs(d))


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (docs/puzzles.md): where it is, what is best, what the rest cost, where it came from."""

    id: str
    kind: str
    rules: str
    family: str
    contract: str
    trump: int | None
    actions: tuple[str, ...]
    seat: int
    solution: tuple[str, ...]
    costs: tuple[tuple[str, int], ...]
    value: int
    theme: str
    share: float | None = None
    samples: int = 0
    source: str = ""
    source_deal: int = 1
    replay: str | None = None
    line: tuple[Step, ...] = field(default=())

    def match(self) -> Match:
        """A fresh match brought to the position: the seat's card (or Domino move) to play.  Raises
        `PuzzleError` if the actions do not lead there."""
        try:
            m = Match(self.rules, None)
            for text in self.actions:
                m.apply(m.parse_action(text))
        except (BarbuError, ValueError) as e:
            raise PuzzleError.of(NO_POSITION, seat=self.seat, reason=str(e)) from None
        actor = m.to_act()
        if actor != self.seat or actor == CHANCE or m.phase not in (PLAY, DOMINO_PLAY):
            raise PuzzleError.of(NO_POSITION, seat=self.seat, reason=f"phase {m.phase_name}, to act {actor}")
        return m

    @property
    def best_cost(self) -> int:
        """What the cheapest wrong card costs: the puzzle's margin."""
        return min((c for _, c in self.costs), default=0)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (`from_dict` reads it back)."""
        d: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "rules": self.rules,
            "family": self.family,
            "contract": self.contract,
            "trump": self.trump,
            "actions": list(self.actions),
            "seat": self.seat,
            "solution": list(self.solution),
            "costs": [[a, c] for a, c in self.costs],
            "value": self.value,
            "theme": self.theme,
            "share": self.share,
            "samples": self.samples,
            "source": self.source,
            "source_deal": self.source_deal,
            "replay": self.replay,
        }
        if self.line:
            d["line"] = [s.to_dict() for s in self.line]
        return d

    @classmethod
    def from_dict(cls, d: object) -> Puzzle:
        """The puzzle `to_dict` wrote; anything malformed raises `PuzzleError` saying what."""
        if not isinstance(d, Mapping):
            raise PuzzleError.of(NOT_AN_OBJECT, value=_short(d))
        pid = _get(d, "id", str)
        if not ID_PATTERN.match(pid):
            raise PuzzleError.of(BAD_ID, value=_short(pid))
        kind = _get(d, "kind", str)
        if kind not in KINDS:
            raise PuzzleError.of(BAD_KIND, value=_short(kind))
        theme = _get(d, "theme", str)
        if theme not in THEMES:
            raise PuzzleError.of(BAD_THEME, value=_short(theme))
        trump = d.get("trump")
        if trump is not None and (_not_int(trump) or not 0 <= trump < 4):
            raise PuzzleError.of(FIELD_TYPE, field="trump", value=_short(trump))
        seat = _get(d, "seat", int)
        if not 0 <= seat < 8:
            raise PuzzleError.of(FIELD_TYPE, field="seat", value=_short(seat))
        share = d.get("share")
        if share is not None:
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not math.isfinite(share):
                raise PuzzleError.of(FIELD_TYPE, field="share", value=_short(share))
            if not 0 <= share <= 1:
                raise PuzzleError.of(BAD_SHARE, value=_short(share))
            share = float(share)
        samples = d.get("samples", 0)
        if _not_int(samples) or samples < 0:
            raise PuzzleError.of(FIELD_TYPE, field="samples", value=_short(samples))
        source_deal = d.get("source_deal", 1)
        if _not_int(source_deal) or source_deal < 1:
            raise PuzzleError.of(FIELD_TYPE, field="source_deal", value=_short(source_deal))
        replay = d.get("replay")
        if replay is not None and not isinstance(replay, str):
            raise PuzzleError.of(FIELD_TYPE, field="replay", value=_short(replay))
        source = d.get("source", "")
        if not isinstance(source, str):
            raise PuzzleError.of(FIELD_TYPE, field="source", value=_short(source))
        line = d.get("line", [])
        if not isinstance(line, list):
            raise PuzzleError.of(FIELD_TYPE, field="line", value=_short(line))
        return cls(
            id=pid,
            kind=kind,
            rules=_get(d, "rules", str),
            family=_get(d, "family", str),
            contract=_get(d, "contract", str),
            trump=trump,
            actions=_strings(d, "actions", nonempty=True),
            seat=seat,
            solution=_strings(d, "solution", nonempty=True),
            costs=_costs(d),
            value=_get(d, "value", int),
            theme=theme,
            share=share,
            samples=samples,
            source=source,
            source_deal=source_deal,
            replay=replay,
            line=tuple(Step.from_dict(s) for s in line),
        )


def puzzle_id(rules: str, actions: Sequence[str], seat: int, kind: str) -> str:
    """The puzzle's stable id: the first 12 hex digits of a SHA-256 of what makes the position and its kind."""
    text = "\n".join([rules, *actions, str(seat), kind])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _not_int(x: object) -> bool:
    return isinstance(x, bool) or not isinstance(x, int)


def _short(x: object) -> str:
    """A value as the refusal quotes it: its repr, cut short (a hostile file's field may be long)."""
    r = repr(x)
    return r if len(r) <= 60 else r[:57] + "..."


def _get(d: Mapping[str, Any], name: str, typ: type) -> Any:
    if name not in d:
        raise PuzzleError.of(FIELD_MISSING, field=name)
    v = d[name]
    if (typ is int and _not_int(v)) or not isinstance(v, typ):
        raise PuzzleError.of(FIELD_TYPE, field=name, value=_short(v))
    return v


def _strings(d: Mapping[str, Any], name: str, nonempty: bool = False) -> tuple[str, ...]:
    v = d[name] if name in d else None
    if v is None:
        raise PuzzleError.of(FIELD_MISSING, field=name)
    if not isinstance(v, list) or not all(isinstance(s, str) for s in v) or (nonempty and not v):
        raise PuzzleError.of(FIELD_TYPE, field=name, value=_short(v))
    return tuple(v)


def _costs(d: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    v = d.get("costs")
    if v is None:
        raise PuzzleError.of(FIELD_MISSING, field="costs")
    if not isinstance(v, list):
        raise PuzzleError.of(FIELD_TYPE, field="costs", value=_short(v))
    out: list[tuple[str, int]] = []
    for pair in v:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)) or _not_int(pair[1]):
            raise PuzzleError.of(FIELD_TYPE, field="costs", value=_short(pair))
        if pair[1] <= 0:
            raise PuzzleError.of(BAD_COST, value=_short(pair))
        out.append((pair[0], pair[1]))
    return tuple(out)


__all__ = [
    "KINDS",
    "OPEN",
    "SINGLE",
    "THEMES",
    "Puzzle",
    "PuzzleError",
    "Step",
    "puzzle_id",
]
