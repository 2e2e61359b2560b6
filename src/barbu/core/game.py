"""The one small protocol every game satisfies.

Front ends (CLI, terminal, browser) reach any game through `Game` and
`open_game` instead of branching on one game's details: the Barbu family
(`barbu.classic.match.Match`, Scottish included) and Bésigue (`barbu.besigue`)
both fit; `barbu.games` opens any of them from a rules text.  A renderer for a new game reads its ``view(seat)``; everything else —
whose turn, what is legal, applying text actions, undo, records — goes
through this protocol.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

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
