"""Helpers to put a Scottish match at a hand-built deal (seed 004).

Hands are in `CardSet.parse` suit form (spades.hearts.diamonds.clubs), 8 cards
of 7..A each, seat 0 first.  Expected numbers in the tests are worked out by
hand from RULES.md §5, never read back from the engine.
"""

from __future__ import annotations

import random
from typing import Sequence

from barbu import CHANCE, CardSet, Deal, Match
from barbu.core.cards import PIQUET_DECK
from barbu.scottish.pack import BRIDGE, JOKER, Cut, PackDraw, pack_card


# The caller's side of the table holds the top of every suit: whoever holds "AK.AK.AK.AK" wins every
# trick whatever is played (he can always follow with a higher card, or leads the top).
def top_deal(winner: int) -> list[str]:
    """Seat ``winner`` holds A K of each suit, the next seat Q J, then 10 9, then 8 7."""
    layers = ["AK.AK.AK.AK", "QJ.QJ.QJ.QJ", "T9.T9.T9.T9", "87.87.87.87"]
    return [layers[(s - winner) % 4] for s in range(4)]


SUITS_DEAL = ["AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987"]


def hands_of(hands: Sequence[str]) -> tuple[int, ...]:
    """Parse and check a Scottish deal: four hands of 8 that make up the 32-card deck."""
    masks = tuple(CardSet.parse(h).mask for h in hands)
    union = 0
    for h, m in zip(hands, masks):
        assert m.bit_count() == 8, f"{h!r} has {m.bit_count()} cards"
        assert not union & m, f"{h!r} repeats a card"
        union |= m
    assert union == PIQUET_DECK, "the hands do not make up the 32 cards"
    return masks


def draw_for(seat: int) -> PackDraw:
    """A draw from the Unused Pack that ``seat`` wins with the Bridge card."""
    low = iter([pack_card(2, 0), pack_card(3, 1), pack_card(4, 2), pack_card(5, 3)])
    return PackDraw(tuple(BRIDGE if s == seat else next(low) for s in range(4)))


def new_match(caller: int = 0, rules: str = "scottish") -> Match:
    """A Scottish match whose first Caller is ``caller``, waiting for the first deal."""
    m = Match(rules, seed=1)
    m.apply(draw_for(caller))
    assert m.to_act() == CHANCE and m.phase_name == "deal" and m.declarer == caller
    return m


def deal(m: Match, hands: Sequence[str]) -> None:
    m.apply(Deal(hands_of(hands)))


def finish_deal(m: Match) -> None:
    """Play the current deal out with the first legal action at every turn (chance from the match);
    nothing if no deal is in progress."""
    if m.phase_name in ("deal", "draw", "over"):
        return
    start = len(m.results)
    while len(m.results) == start and not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(m.legal_actions()[0])


def play(m: Match, text: str) -> None:
    """Apply text actions separated by ``;`` (a chunk of plain cards is split into single cards)."""
    for chunk in text.split(";"):
        words = chunk.split()
        if not words:
            continue
        if (
            all(len(w) in (2, 3) and w.lower() not in ("lay", "pass") for w in words)
            and len(words) > 1
            and m.phase_name == "play"
        ):
            for w in words:
                m.apply(w)
        else:
            m.apply(" ".join(words))


def to_silly_round(seed: int = 5, caller: int = 0) -> Match:
    """A match played (first legal actions, seeded chance) up to the Silly Round's dealer draw."""
    m = new_match(caller)
    rng = random.Random(seed)
    while not (m.phase_name == "draw" and m.view(0).scottish.state.silly):
        if m.to_act() == CHANCE:
            m.apply(m.sample_chance(rng))
        else:
            m.apply(m.legal_actions()[0])
    return m


def cut(number: int | str, suit: int = 0) -> Cut:
    """A cut: a number 2..6 (of spades unless said), or "joker" / "bridge"."""
    if number == "joker":
        return Cut(JOKER)
    if number == "bridge":
        return Cut(BRIDGE)
    return Cut(pack_card(int(number), suit))


BLACK = Cut(pack_card(2, 0))  # 2 of spades: a pass-on
RED = Cut(pack_card(2, 1))  # 2 of hearts: no (more) pass-ons
