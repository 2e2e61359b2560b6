"""A played match written as a keeper's entries: what its players would have counted after each deal.

It lets a played record be kept on, corrected or printed as a kept game, and it
checks the keeper: a match entered this way must score exactly as it played.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..classic.chinese import Arrange
from ..classic.contracts import KING_OF_HEARTS
from ..classic.match import Match
from ..classic.ruleset import Ruleset
from ..classic.state import DealResult
from ..core.cards import EIGHT, HEARTS, SUIT_MASK, cards_of, format_cards
from ..scottish.match import ScottishMatch
from ..scottish.pack import format_pack
from ..scottish.scoresheet import trick_winner
from .questions import COUNTS, ORDER, ROWS, SEAT, SEATS, YESNO, questions


def _rows_text(a: Arrange) -> str:
    return " / ".join(" ".join(str(c) for c in cards_of(m)) for m in a.rows)


def _answers(m: Match, r: DealResult) -> dict[str, Any]:
    """The outcome answers of the deal just finished (the match still holds its counts)."""
    c = m.contract_by_key[r.contract]
    n = m.n
    in_play = m.deck & ~r.set_aside
    out: dict[str, Any] = {}
    for q in questions(c, n, in_play, m.hand_size, isinstance(m, ScottishMatch)):
        if q.kind == ORDER:
            out[q.key] = list(m.finished[: q.size])
        elif q.kind == ROWS:
            out[q.key] = [_rows_text(a) for a in r.arrangements]
        elif q.key == "tricks":
            out[q.key] = list(m.tricks_won)
        elif q.key == "hearts":
            pointed = sum(1 << x for x, v in c.card_points if v and x // 13 == HEARTS)
            out[q.key] = [(m.won[s] & pointed).bit_count() for s in range(n)]
        elif q.key == "longest":
            out[q.key] = [max((m.won[s] & SUIT_MASK[x]).bit_count() for x in range(4)) for s in range(n)]
        elif q.kind == SEAT:
            out[q.key] = next(s for s in range(n) if m.won[s] >> q.card & 1)  # type: ignore[operator]
        elif q.kind == SEATS:
            out[q.key] = list(m.winners[-q.size :])  # type: ignore[operator]
        elif q.kind == YESNO:
            out[q.key] = any(
                KING_OF_HEARTS in cards and cards[(trick_winner(lead, cards, n) - lead) % n] % 13 == EIGHT
                for lead, cards in m.trick_log
            )
        elif q.kind == COUNTS:  # pragma: no cover - every counts question is named above
            raise AssertionError(q.key)
    return out


def entry_of(m: Match, r: DealResult) -> dict[str, Any]:
    """The keeper's entry for deal ``r``, which ``m`` has just finished."""
    e: dict[str, Any] = {"dealer": r.dealer}
    if isinstance(m, ScottishMatch):
        info = r.scottish
        if info.silly:
            e["cuts"] = [format_pack(card) for _, card in info.cuts]
        else:
            e["contract"] = r.contract
    else:
        e["contract"] = r.contract
    if r.trump is not None or m.contract_by_key[r.contract].trump:
        e["trump"] = "none" if r.trump is None else "SHDC"[r.trump]
    c = m.contract_by_key[r.contract]
    if r.rank is not None and not c.open_any and c.fixed_rank is None:  # Success's rank is its first card
        e["rank"] = "23456789TJQKA"[r.rank]
    if r.set_aside:
        e["set_aside"] = format_cards(r.set_aside)
    if m.rules.doubling != "none" and not isinstance(m, ScottishMatch):
        e["doubles"] = [[b.doubler, b.doubled, b.redoubled] for b in r.doubles]
    if r.played:
        e["outcome"] = _answers(m, r)
    return e


def entries_from_actions(rules: Ruleset | str, actions: Iterable[Any]) -> tuple[int, list[dict[str, Any]]]:
    """(first dealer, entries) of a match played with ``actions`` (chance included), one entry per deal."""
    m = Match(rules)
    first: int | None = None
    entries = []
    for a in actions:
        before = len(m.results)
        m.apply(a)
        if first is None and m.dealer >= 0:
            first = m.dealer
        if len(m.results) > before:
            entries.append(entry_of(m, m.results[-1]))
    return (first or 0), entries
