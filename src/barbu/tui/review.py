"""The review of a deal just played: what each of your decisions cost (``barbu analyze`` at the table).

It weighs only your seat's decisions.  From your view (the expert player's
sampled deals) always; with every hand shown only where every card of the deal
was played, so the review never tells you a card nobody saw.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual import work
from textual.widgets import Static

from ..analysis import review_match
from ..analysis.report import decision_table, legend, points
from ..analysis.review import DEFAULT_EXACT_CARDS
from ..classic.match import Match
from ..i18n import _, ngettext, number
from ..play.labels import seat_name
from .dialogs import InfoDialog

#: A lighter search than `barbu analyze`'s, so a deal is weighed while the player waits.
SAMPLES = 30
SECONDS = 0.6
EXACT_SECONDS = 0.25  # the solver's budget for a decision's exact values before the last tricks


def every_card_seen(match: Match, deal: int) -> bool:
    """Whether every card dealt in ``deal`` (1-based) was played face up."""
    r = match.results[deal - 1]
    dealt = 0
    for h in r.hands:
        dealt |= h
    played = 0
    for _leader, cards in r.tricks:
        for c in cards:
            played |= 1 << c
    return bool(r.tricks) and played == dealt


class ReviewDialog(InfoDialog):
    """Weighs the seat's decisions of one finished deal in a worker, then shows them."""

    def __init__(self, match: Match, seat: int, deal: int, names: dict[str, str]) -> None:
        super().__init__(
            _("Your play in deal {deal}").format(deal=number(deal)),
            _(
                "Weighing your decisions: the strongest computer player replays each one "
                "from your seat (a few seconds to a minute)…"
            ),
        )
        self.rules, self.seed = str(match.rules), match.seed
        self.actions = [str(a) for a in match.history]
        self.seat, self.deal, self.names = seat, deal, names
        self.players = [seat_name(s, seat, match.n) for s in range(match.n)]  # doubles by place: "double West"
        self.exact_cards = DEFAULT_EXACT_CARDS if every_card_seen(match, deal) else 0

    def on_mount(self) -> None:
        self.weigh()

    @work(thread=True, exclusive=True)
    def weigh(self) -> None:
        review = review_match(
            self.rules,
            self.seed,
            self.actions,
            deals={self.deal},
            seats={self.seat},
            samples=SAMPLES,
            seconds=SECONDS,
            exact_cards=self.exact_cards,
            exact_seconds=EXACT_SECONDS,
        )
        self.app.call_from_thread(self.show, self.body_of(review))

    def body_of(self, review: Any) -> Any:
        if not review.decisions:
            return _("You had no choice to make in this deal.")
        costly = [d for d in review.decisions if d.cost or d.exact_cost]
        parts: list[Any] = []
        total = review.total_cost(self.seat)
        n = len(review.decisions)
        parts.append(
            Text(
                ngettext(
                    "{n} decision weighed; it cost you {points} points against the strongest computer player's choice.",
                    "{n} decisions weighed; together they cost you {points} points against the "
                    "strongest computer player's choices.",
                    n,
                ).format(n=number(n), points=points(total))
            )
        )
        if costly:
            parts.append(
                decision_table(review, costly, self.names, "", with_seat=False, with_deal=False, players=self.players)
            )
        else:
            parts.append(Text(_("Every decision was as good as the strongest computer player's.")))
        parts.append(Text(legend(), style="dim"))
        if not self.exact_cards:
            parts.append(
                Text(
                    _("Not every card of this deal was played, so nothing is judged with the hands shown."), style="dim"
                )
            )
        return Group(*parts)

    def show(self, body: Any) -> None:
        self.body = body
        self.query_one("#dialog-text", Static).update(body)
