"""Full Bésigue games consistent with a seat's view: what the search player imagines and plays out."""

from __future__ import annotations

import random

from .game import BesigueGame
from .view import BesigueView


def sample_game(view: BesigueView, rng: random.Random) -> BesigueGame:
    """A full game state that agrees with everything ``view`` shows, the hidden cards dealt at random.

    The opponent keeps the cards it revealed; the turn-up stays at the bottom of
    the stock; once the stock is empty every card is known and the sample is exact.
    """
    g = BesigueGame(view.rules)
    g.keep_undo = False
    unseen = view.unseen
    rng.shuffle(unseen)
    need = view.opponent_hand_size - len(view.opponent_known)
    opp_hand = set(view.opponent_known) | set(unseen[:need])
    rest = unseen[need:]
    stock = rest + ([view.turn_up] if view.turn_up is not None else [])
    assert len(stock) == view.stock_size, "the view's counts do not add up"
    g.phase, g.dealer, g.leader, g.trump = view.phase, view.dealer, view.leader, view.trump
    g.actor = view.to_act
    g.turn_up = view.turn_up
    g.last_winner = view.last_winner
    g.hands = [set(), set()]
    g.hands[view.seat] = set(view.hand)
    g.hands[1 - view.seat] = opp_hand
    g.table = [dict(view.table[0]), dict(view.table[1])]
    g.melds = [list(m) for m in view.melds]
    g.stock = stock
    g.trick = list(view.trick)
    g.played = list(view.played)
    g.won = [list(view.won[0]), list(view.won[1])]
    g.tricks = view.tricks
    g.scores = list(view.scores)
    g.totals = list(view.totals)
    g.deal_no = view.deal_no
    g.shown = set(view.shown)
    g.revealed = [set(), set()]
    g.revealed[1 - view.seat] = set(view.opponent_known)
    return g
