"""The weighed decisions as tables a player reads (the terminal's review after a deal, ``barbu analyze``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table

from ..core.actions import Declare, Double, NameTrump
from ..core.cards import Card
from ..core.words import N_
from ..i18n import _, current, number, words
from ..i18n.formats import format_number
from .review import Decision, Review


def action_text(action: Any, names: dict[str, str], players: Sequence[str] = ()) -> str:
    """An action as the player reads it: a card's face, a contract's name, a double's players by
    ``players`` (each seat's name or place: "double West North"), else its notation."""
    if action is None:
        return "·"
    if isinstance(action, Card):
        return words().card(int(action))
    if isinstance(action, Declare):
        return words().contract(names.get(action.contract, action.contract))
    if isinstance(action, Double):
        w = words()
        if not action.targets:
            return w.pgettext("doubling", "pass")
        # a computer player by its place alone ("West" of "West, good player"): the list stays readable
        targets = [players[s].split(", ")[0] if s < len(players) else number(s) for s in sorted(action.targets)]
        return w.pgettext("doubling", "double") + " " + ", ".join(targets)
    if isinstance(action, NameTrump) and action.suit is not None:
        return words().suit(action.suit)
    return str(action)


#: A decision outside trick play, by its phase: where in the deal it was taken.
MOMENTS = {
    "declare": N_("the contract"),
    "trump": N_("the trumps"),
    "rank": N_("the starting rank"),
    "doubling": N_("the doubles"),
    "domino": N_("the layout"),
    "pass-on": N_("the cards passed on"),
    "arrange": N_("the rows"),
}


def moment(d: Decision) -> str:
    """When a decision was taken, as a player remembers it: "trick 3", "the layout, turn 2", "the doubles"
    (else its number among the deal's choices)."""
    if d.trick is not None:
        return _("trick {n}").format(n=number(d.trick))
    if d.turn is not None:
        # TRANSLATORS: a decision at the Domino (or Success, Patience) rows: the player's n-th turn there.
        return _("the layout, turn {n}").format(n=number(d.turn))
    if d.phase in MOMENTS:
        return _(MOMENTS[d.phase])
    return _("decision {n}").format(n=number(d.step))


def legend() -> str:
    """What the two costs mean, and why they may differ: said under every table of costs."""
    return _(
        "cost: the points your choice lost on average against the strongest computer player's choice, judged "
        "from what you could see (the hidden cards guessed many times); exact cost: what it lost with the cards "
        "as they really lay, once the hands were small. They differ when the cards lay otherwise than most "
        "guesses: a risk can cost on average and nothing this time (exact cost 0), or the other way round."
    )


def points(x: float | None) -> str:
    """Points lost, to one decimal as the player's language writes it ("·": not judged)."""
    if x is None:
        return "·"
    return format_number(round(x, 1), current(), 1) if x else "0"


def decision_table(
    review: Review,
    decisions: list[Decision],
    names: dict[str, str],
    title: str,
    with_seat: bool = True,
    with_deal: bool = True,
    players: Sequence[str] = (),
) -> Table:
    """One row per decision: what was played, what was better from the seat's view and with all hands shown.

    ``players``: each seat as people read it ("Alice", "West, good player"), for the player column and doubles."""
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    if with_deal:
        t.add_column(_("deal"), justify="right")
    t.add_column(_("when"))
    if with_seat:
        t.add_column(_("player"))
    t.add_column(_("played"))
    t.add_column(_("better"))
    t.add_column(_("cost"), justify="right")
    t.add_column(_("best, all hands shown"))
    t.add_column(_("exact cost"), justify="right")
    for d in decisions:
        better = action_text(d.best, names, players) if d.cost else ""
        exact = action_text(d.exact_best, names, players) if d.exact_cost else ""
        seat = [players[d.seat] if d.seat < len(players) else number(d.seat)] if with_seat else []
        deal = [number(d.deal)] if with_deal else []
        t.add_row(
            *deal,
            moment(d),
            *seat,
            action_text(d.chosen, names, players),
            better,
            points(d.cost),
            exact,
            points(d.exact_cost),
        )
    return t
