"""The one small protocol every game satisfies.

Front ends (CLI, terminal, browser) reach any game through `Game` and
`open_game` instead of branching on one game's details: the Barbu family
(`barbu.classic.match.Match`, Scottish included) and Bésigue (`barbu.besigue`)
both fit; `barbu.games` opens any of them from a rules text.  A renderer for a new game reads its ``view(seat)``; everything else —
whose turn, what is legal, applying text actions, undo, records — goes
through this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

CHANCE = -1


class GameRules(Protocol):
    """A game's ruleset as any front end may read it; its ``str`` is its one-line form, which opens the
    same game again."""

    @property
    def family(self) -> str:
        """The family of rules (``classic``, ``italian``, ``scottish``, ``besigue`` …)."""
        ...

    @property
    def preset(self) -> str:
        """The named preset it starts from."""
        ...


ActionT = TypeVar("ActionT")
ViewT_co = TypeVar("ViewT_co", covariant=True)


@runtime_checkable
class Game(Protocol[ActionT, ViewT_co]):
    """What a front end, an arena or a record may rely on for any game.

    Generic in the game's actions and in what a seat's view is: Bésigue is a
    ``Game[barbu.besigue.actions.Action, BesigueView]``; the Barbu family's `Match`
    is a ``Game[Any, View]``, its actions being a card (an int) or a phase's own
    value, which its families extend (the Scottish cuts and pass-ons).
    """

    @property
    def n(self) -> int:
        """The number of seats."""
        ...

    @property
    def rules(self) -> GameRules: ...

    @property
    def totals(self) -> Sequence[int | Fraction]:
        """Running totals by seat (exact shares where a family splits a place, as Barbù a sei colpi does)."""
        ...

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> int | None:
        """A seat, CHANCE (-1) for a random event, or None when the game is over."""
        ...

    def legal_actions(self) -> Sequence[ActionT]: ...

    def apply(self, action: ActionT | str) -> None:
        """Play an action (or its text); IllegalAction (reason in plain words) leaves the game unchanged."""
        ...

    def undo(self) -> object:
        """Take back the last action."""
        ...

    def clone(self) -> Self: ...

    def view(self, seat: int) -> ViewT_co:
        """Only what ``seat`` may see, with its legal actions when it is to act."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """ParseError for a malformed text."""
        ...

    def play_chance(self) -> object: ...

    def standings(self) -> Sequence[tuple[int, int | Fraction]]: ...

    def seat_name(self, seat: int) -> str: ...


#: A game whose kind the caller does not know (what `barbu.games.open_game` returns).
AnyGame = Game[Any, Any]


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

    @property
    def legal(self) -> Sequence[object]: ...

    def to_dict(self) -> dict[str, Any]: ...

    def visible_cards(self) -> set[int]: ...
