"""What one seat may see of a Bésigue game (`barbu.besigue.sampler` deals the unseen cards).

A seat sees its own hand; both players' declared cards on the table (with the
kinds each has served in); the turn-up while it is in the stock; the 7s of
trumps shown; every card played; the tricks won; the scores; and, when it is to
act, its legal actions.  It does not see the opponent's hand (except cards the
opponent revealed: a shown 7, the turn-up taken by the exchange or by the last
draw) nor the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import SUITS, card_text
from .ruleset import BesigueRules


@dataclass(frozen=True)
class BesigueView:
    seat: int
    rules: BesigueRules
    phase: str
    to_act: int | None
    dealer: int
    leader: int
    trump: int
    turn_up: int | None
    stock_size: int
    hand: tuple[int, ...]
    opponent_hand_size: int
    opponent_known: tuple[int, ...]
    table: tuple[tuple[tuple[int, frozenset[str]], ...], tuple[tuple[int, frozenset[str]], ...]]
    melds: tuple[tuple[tuple[str, tuple[int, ...], int], ...], ...]
    trick: tuple[tuple[int, int], ...]
    played: tuple[tuple[int, int], ...]
    won: tuple[tuple[int, ...], tuple[int, ...]]
    shown: tuple[int, ...]
    tricks: int
    last_winner: int
    scores: tuple[int, int]
    totals: tuple[int, int]
    deal_no: int
    legal: tuple[Action, ...]

    def visible_cards(self) -> set[int]:
        """Every card this seat may know the place of (for leak checks: nothing else may reach it)."""
        return set(range(64)) - set(self.unseen)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data for a renderer (terminal, browser): cards as text, actions as text.

        Card numbers stay out: a renderer needs only what the cards are, and the
        two copies of a card are the same to a player.
        """

        def cards(cs: Any) -> list[str]:
            return [card_text(c) for c in cs]

        return {
            "game": "besigue",
            "rules": str(self.rules),
            "seat": self.seat,
            "phase": self.phase,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "leader": self.leader,
            "trump": SUITS[self.trump],
            "turn_up": card_text(self.turn_up) if self.turn_up is not None else None,
            "stock": self.stock_size,
            "hand": cards(self.hand),
            "opponent_hand": self.opponent_hand_size,
            "opponent_known": cards(self.opponent_known),
            "table": [[{"card": card_text(c), "served": sorted(m)} for c, m in side] for side in self.table],
            "melds": [[{"kind": k, "cards": cards(cs), "points": v} for k, cs, v in side] for side in self.melds],
            "trick": [{"seat": s, "card": card_text(c)} for s, c in self.trick],
            "tricks": self.tricks,
            "won": [len(w) // 2 for w in self.won],
            "shown": cards(self.shown),
            "scores": list(self.scores),
            "totals": list(self.totals),
            "deal": self.deal_no,
            "legal": [str(a) for a in self.legal],
        }

    @property
    def unseen(self) -> list[int]:
        """Cards this seat cannot place: the opponent's unknown hand cards and the stock below the turn-up."""
        seen = set(self.hand) | set(self.opponent_known) | {c for _, c in self.played}
        for side in self.table:
            seen.update(c for c, _ in side)
        if self.turn_up is not None:
            seen.add(self.turn_up)
        return [c for c in range(64) if c not in seen]


def make_view(game: Any, seat: int) -> BesigueView:
    opp = 1 - seat
    stock_visible = game.phase not in ("first-dealer", "shuffle")
    return BesigueView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        to_act=game.to_act(),
        dealer=game.dealer,
        leader=game.leader,
        trump=game.trump,
        turn_up=game.turn_up if game.stock and stock_visible else None,
        stock_size=len(game.stock),
        hand=tuple(sorted(game.hands[seat])),
        opponent_hand_size=len(game.hands[opp]),
        opponent_known=tuple(sorted(game.revealed[opp] & game.hands[opp])),
        table=tuple(tuple(sorted(game.table[s].items())) for s in (0, 1)),  # type: ignore[arg-type]
        melds=tuple(tuple(m) for m in game.melds),
        trick=tuple(game.trick),
        played=tuple(game.played),
        won=(tuple(game.won[0]), tuple(game.won[1])),
        shown=tuple(sorted(game.shown)),
        tricks=game.tricks,
        last_winner=game.last_winner,
        scores=tuple(game.scores),
        totals=tuple(game.totals),
        deal_no=game.deal_no,
        legal=tuple(game.legal_actions()) if game.to_act() == seat else (),
    )
