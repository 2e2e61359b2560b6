"""The one small protocol every game satisfies, and a registry that opens a game from a rules text.

Front ends (CLI, terminal, browser) reach any game through `Game` and
`open_game` instead of branching on one game's details: the Barbu family
(`barbu.match.Match`, Scottish included) and Bésigue (`barbu.besigue`) both
fit.  A renderer for a new game reads its ``view(seat)``; everything else —
whose turn, what is legal, applying text actions, undo, records — goes
through this protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, runtime_checkable

CHANCE = -1


@runtime_checkable
class Game(Protocol):
    """What a front end, an arena or a record may rely on for any game."""

    n: int          # seats
    rules: Any      # a ruleset whose ``str`` is its one-line form
    totals: Any     # running totals by seat

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> int | None:
        """A seat, CHANCE (-1) for a random event, or None when the game is over."""
        ...

    def legal_actions(self) -> Any: ...

    def apply(self, action: Any) -> None:
        """Play an action; IllegalAction (reason in plain words) leaves the game unchanged."""
        ...

    def undo(self) -> Any: ...

    def clone(self) -> Any: ...

    def view(self, seat: int) -> Any:
        """Only what ``seat`` may see, with its legal actions when it is to act."""
        ...

    def parse_action(self, text: str) -> Any:
        """ParseError for a malformed text."""
        ...

    def play_chance(self) -> Any: ...

    def standings(self) -> list[tuple[int, int]]: ...

    def seat_name(self, seat: int) -> str: ...


@runtime_checkable
class RenderableView(Protocol):
    """What a front end needs from a seat's view of a game that has a renderer of its own.

    ``to_dict()`` is plain JSON-ready data (cards and actions as text) holding only
    what the seat may see; ``legal`` are the actions the seat may take now, whose
    ``str`` is the text the game's ``parse_action`` reads back.  Bésigue's view
    satisfies it; a Bésigue table in the terminal or the browser is a renderer of
    ``to_dict()`` that sends back one of the ``legal`` texts.
    """

    seat: int
    legal: Any

    def to_dict(self) -> dict[str, Any]: ...

    def visible_cards(self) -> set[int]: ...


@dataclass(frozen=True)
class GameKind:
    """One game of the house: how to recognise its rules text, open it, and write/replay its records."""

    name: str
    accepts: Callable[[str], bool]
    open: Callable[[str, "int | None"], Game]
    write_record: Callable[[Any, "str | Path", "dict[str, Any] | None"], None]
    is_record: Callable[["str | Path"], bool]
    record_lines: Callable[[Any, "dict[str, Any] | None"], list] = lambda game, header: []
    """The record as JSON-ready lines (what `write_record` writes), for a server to publish."""


def _besigue_kind() -> GameKind:
    from .besigue import BesigueGame, is_besigue
    from .besigue.record import is_besigue_record, record_lines, write_record
    return GameKind("besigue", is_besigue, lambda text, seed: BesigueGame(text, seed), write_record,
                    is_besigue_record, record_lines)


def _barbu_kind() -> GameKind:
    from .match import Match
    from .record import record_lines, write_record

    def is_barbu_record(path: "str | Path") -> bool:
        return True

    return GameKind("barbu", lambda text: True, lambda text, seed: Match(text, seed),
                    lambda m, path, header: write_record(m, path, header), is_barbu_record,
                    lambda m, header: record_lines(m, header))


def game_kinds() -> list[GameKind]:
    """Every game, the catch-all Barbu family last."""
    return [_besigue_kind(), _barbu_kind()]


def game_kind(rules_text: str) -> GameKind:
    """The game a rules text names (unknown presets fall to the Barbu family, which says so)."""
    return next(k for k in game_kinds() if k.accepts(rules_text))


def record_kind(path: "str | Path") -> GameKind:
    """The game a record file holds, from its header."""
    return next(k for k in game_kinds() if k.is_record(path))


def open_game(rules_text: str, seed: int | None = None) -> Game:
    """``open_game("besigue")``, ``open_game("classic(rotation=quick)")``: a new game at its start."""
    return game_kind(rules_text).open(rules_text, seed)
