"""Helpers to put a `Match` at a hand-built deal and drive it with text actions.

Hands are written in `CardSet.parse` suit form, spades.hearts.diamonds.clubs,
seat 0 first.  Every expected number in the tests that use these helpers is
worked out by hand from RULES.md, never read back from the engine.
"""

from __future__ import annotations

import pathlib
from typing import Any, Sequence

from barbu import CHANCE, Card, CardSet, Deal, Double, Draw, Match, Pass
from barbu.core.cards import FULL_DECK, RANKS

# The hand-built deals the tests share, each with the play the tests use and,
# in comments, who wins what.  Expected scores are derived in the test modules.

# D0: every suit is held A K Q by one seat, the next three ranks by the next
# seat and so on, so whoever holds the top of the suit led wins the trick.
D0 = ["5432.876.JT9.AKQ", "AKQ.5432.876.JT9", "JT9.AKQ.5432.876", "876.JT9.AKQ.5432"]

# D0 played with each seat leading his own four-card suit, rank by rank, top cards first.
D0_PLAY = """
    5S AS JS 8S   5H AH JH 8H   5D AD JD 8D   5C AC JC 8C
    4S KS TS 7S   4H KH TH 7H   4D KD TD 7D   4C KC TC 7C
    3S QS 9S 6S   3H QH 9H 6H   3D QD 9D 6D   3C QC 9C 6C
    2S 2H 2D 2C
"""

# D0Q: like D0 but the hearts are A K J / T 9 8 / 7 6 5 / Q 4 3 2, so the Q♥ is discarded
# by seat 1 in the last trick.
D0Q = ["5432.765.JT9.AKQ", "AKQ.Q432.876.JT9", "JT9.AKJ.5432.876", "876.T98.AKQ.5432"]
D0Q_PLAY = """
    5S AS JS 8S   4H AH TH 7H   5D AD JD 8D   5C AC JC 8C     # won by 1 2 3 0
    4S KS TS 7S   3H KH 9H 6H   4D KD TD 7D   4C KC TC 7C     # 1 2 3 0
    3S QS 9S 6S   2H JH 8H 5H   3D QD 9D 6D   3C QC 9C 6C     # 1 2 3 0 (Q♠ 1, Q♦ 3, Q♣ 0)
    2S QH 2D 2C                                               # seat 0 leads, wins the Q♥
"""

# D1: seat 0 holds eleven top spades and leads them; seats 1 and 2 drop their one spade
# on trick 1, everybody else discards.  The last two tricks are hearts.
D1 = ["AKQJT987654.32.-.-", "3.K4.AKQJT98765.-", "2.A5.432.AKQJT98", "-.QJT9876.-.765432"]
D1_PLAY = """
    AS 3S 2S QH   KS AD 4D JH   QS KD 3D TH   JS QD 2D 9H     # tricks 1-4: seat 0
    TS JD AC 8H   9S TD KC 7C   8S 9D QC 6C   7S 8D JC 5C     # 5-8: seat 0
    6S 7D TC 4C   5S 6D 9C 3C   4S 5D 8C 2C                   # 9-11: seat 0
    2H KH 5H 6H                                               # 12: seat 0 leads, K♥ wins: seat 1
    4H AH 7H 3H                                               # 13: seat 1 leads, A♥ wins: seat 2
"""

# H1: seat 3 holds all the hearts and discards one on every trick; seats 0-2 share the
# rest so that spades go to 1, diamonds to 2, clubs to 0 and the last trick to seat 0.
H1 = ["T9876.-.5432.AKQJ", "AKQJ.-.T9876.5432", "5432.-.AKQJ.T9876", "-.AKQJT98765432.-.-"]
H1_PLAY = """
    TS AS 5S AH   TD AD KH 5D   TC QH AC 5C      # winners 1 2 0
    9S KS 4S JH   9D KD TH 4D   9C 9H KC 4C      # 1 2 0
    8S QS 3S 8H   8D QD 7H 3D   8C 6H QC 3C      # 1 2 0
    7S JS 2S 5H   7D JD 4H 2D   7C 3H JC 2C      # 1 2 0
    6S 6D 6C 2H                                  # seat 0 leads the only spade left: seat 0
"""
# The same deal for No King: the K♥ is thrown on trick 5, won by seat 2 (K♦).
H1_KING_PLAY = """
    TS AS 5S AH   TD AD QH 5D   TC JH AC 5C   9S KS 4S TH   9D KD KH 4D
"""
H1_KING_REST = """
    9C 9H KC 4C   8S QS 3S 8H   8D QD 7H 3D   8C 6H QC 3C
    7S JS 2S 5H   7D JD 4H 2D   7C 3H JC 2C   6S 6D 6C 2H
"""

# H2: seat 0 holds all the spades and leads them top down; the others throw hearts first.
H2 = ["AKQJT98765432.-.-.-", "-.AKQJT.AKQJT987.-", "-.9876.65432.AKQJ", "-.5432.-.T98765432"]
H2_PLAY = "AS AH 9H 5H  KS KH 8H 4H  QS QH 7H 3H  JS JH 6H 2H  TS TH 6D 2C"
H2_REST = """
    9S AD 5D TC  8S KD 4D 9C  7S QD 3D 8C  6S JD 2D 7C
    5S TD AC 6C  4S 9D KC 5C  3S 8D QC 4C  2S 7D JC 3C
"""

# TR: trumps are hearts, declarer 0.  Built so the first four tricks show every trump rule.
TR = ["432.A854.765432.-", "-.KQJT93.-.AKQJT93", "AKQJT98765.762.-.-", "-.-.AKQJT98.876542"]

FULL_SUITS = ["AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-", "-.-.-.AKQJT98765432"]


def domino_rounds(dealer: int, order: str, suits: str = "SHDC") -> list[str]:
    """Each seat holding one whole suit plays it in the given rank order, one card a turn."""
    return [r + suits[(dealer + i) % 4] for r in order for i in range(4)]


def words(text: str) -> list[str]:
    """The actions of a play text, comments dropped."""
    return [w for line in text.splitlines() for w in line.split("#")[0].split()]


def draw_for(dealer: int, n: int = 4) -> Draw:
    """A draw for the first deal that the given seat wins (he draws the only ace)."""
    cards = []
    low = iter(range(13, 13 + n))  # 2H, 3H, 4H, ...: all lower than an ace
    for s in range(n):
        cards.append(12 if s == dealer else next(low))  # 12 is the ace of spades
    return Draw(tuple(cards))


def hands_of(hands: Sequence[str]) -> tuple[int, ...]:
    """Parse hands and check they are a partition of the deck, 13 cards each."""
    masks = tuple(CardSet.parse(h).mask for h in hands)
    union = 0
    for h, m in zip(hands, masks):
        assert m.bit_count() == 13, f"{h!r} has {m.bit_count()} cards"
        assert not union & m, f"{h!r} repeats a card"
        union |= m
    assert union == FULL_DECK, "the hands do not cover the deck"
    return masks


def new_match(rules: str = "classic", dealer: int = 0) -> Match:
    """A match whose first-dealer draw has been made, waiting for the deal."""
    m = Match(rules, seed=1)
    m.apply(draw_for(dealer))
    assert m.dealer == dealer and m.to_act() == CHANCE
    return m


def deal(m: Match, hands: Sequence[str]) -> None:
    m.apply(Deal(hands_of(hands)))


def start_deal(
    rules: str = "classic",
    dealer: int = 0,
    hands: Sequence[str] = D0,
    *,
    contract: str | None = None,
    trump: str | None = None,
    rank: str | None = None,
    doubles: str | None = None,
) -> Match:
    """A new match at its first deal: `dealer` deals `hands`; optionally the contract,
    trump suit, starting rank and the doubling turns (``;``-separated) are applied too."""
    m = new_match(rules, dealer)
    deal(m, hands)
    if contract is not None:
        m.apply(contract)
    if trump is not None:
        m.apply(f"trump {trump}")
    if rank is not None:
        m.apply(f"rank {rank}")
    if doubles is not None:
        play(m, doubles)
    return m


def _is_token(word: str) -> bool:
    if word.lower() in ("pass", "p"):
        return True
    try:
        Card.parse(word)
    except ValueError:
        return False
    return True


def play(m: Match, text: str) -> None:
    """Apply text actions.  Chunks are separated by ``;``; a chunk made only of cards
    (and Domino ``pass``) is applied word by word, any other chunk as one action
    (``double 0 2``, ``no-queens``, ``trump H``).  ``#`` starts a comment."""
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    for chunk in " ".join(lines).split(";"):
        words = chunk.replace("/", " ").replace("|", " ").split()
        if not words:
            continue
        if all(_is_token(w) for w in words):
            for w in words:
                m.apply(w)
        else:
            m.apply(" ".join(words))


def finish_deal(m: Match) -> None:
    """Play the current deal to its end with the first legal action at every turn."""
    start = m.deal_no
    while m.deal_no == start and not m.is_over:
        acts = m.legal_actions()
        assert acts, f"no legal action in phase {m.phase_name}"
        m.apply(acts[0])


def cards(text: str) -> tuple[Card, ...]:
    """``"QH 2S"`` → the cards, in index order (the order of `legal_actions`)."""
    return tuple(sorted(Card.parse(w) for w in text.split()))


def legal_cards(m: Match) -> set[str]:
    return {str(a) for a in m.legal_actions()}


def dbl(*seats: int) -> Double:
    return Double(frozenset(seats))


def snapshot(m: Match) -> dict[str, Any]:
    """Everything observable about a match, to check an action left it unchanged."""
    return {
        "phase": m.phase_name,
        "to_act": m.to_act(),
        "legal": m.legal_actions(),
        "history": list(m.history),
        "hands": list(m.hands),
        "totals": list(m.totals),
        "results": list(m.results),
        "dealer": m.dealer,
        "declarer": m.declarer,
        "deal_no": m.deal_no,
        "contract": m.contract.key if m.contract else None,
        "trump": m.trump,
        "rank": m.rank,
        "contracts_left": [sorted(s) for s in m.contracts_left],
        "dbl_count": [list(r) for r in m.dbl_count],
        "business": dict(m.business),
        "dbl_queue": list(m.dbl_queue),
        "trick": list(m.trick),
        "leader": m.leader,
        "won": list(m.won),
        "tricks_won": list(m.tricks_won),
        "winners": list(m.winners),
        "layout": list(m.layout),
        "finished": list(m.finished),
        "playable": m.playable,
    }


def rank_index(r: str) -> int:
    return RANKS.index(r)


__all__ = [
    "D0",
    "D0_PLAY",
    "D0Q",
    "D0Q_PLAY",
    "D1",
    "D1_PLAY",
    "H1",
    "H1_PLAY",
    "H1_KING_PLAY",
    "H1_KING_REST",
    "H2",
    "H2_PLAY",
    "H2_REST",
    "TR",
    "FULL_SUITS",
    "domino_rounds",
    "words",
    "draw_for",
    "hands_of",
    "new_match",
    "deal",
    "start_deal",
    "play",
    "finish_deal",
    "cards",
    "legal_cards",
    "dbl",
    "snapshot",
    "Pass",
    "rank_index",
]


def play_out(rules: str, seed: int) -> Match:
    """A whole match of random legal play, seeded for choices and chance alike."""
    import random

    m = Match(rules, seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
    return m


def played_this_deal(m: Match) -> int:
    """Every card played this deal (finished tricks or plays, and the current trick), as a mask."""
    out = 0
    for _, t in m.trick_log:
        for c in t:
            out |= 1 << c
    for c in m.trick:
        out |= 1 << c
    return out


def shots_on() -> bool:
    """Whether BARBU_SHOTS asks for screenshots for people (see shot_path)."""
    import os

    return bool(os.environ.get("BARBU_SHOTS"))


def shot_path(name: str) -> "pathlib.Path | None":
    """Where a screenshot for people goes: ``$BARBU_SHOTS/name`` when BARBU_SHOTS names a folder (made if
    missing), else None and no screenshot is taken; a test never writes one anywhere else."""
    import os
    from pathlib import Path

    folder = os.environ.get("BARBU_SHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder) / name
