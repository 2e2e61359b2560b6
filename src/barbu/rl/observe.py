"""Observation arrays built from one seat's view only (never from the game itself).

Seats are relative: row 0 is the observing seat, row 1 the seat on its left,
and so on; rows beyond the table's size stay zero.  Every field is listed,
with its size, in `barbu_fields` and `besigue_fields` (docs/rl.md prints the
same tables); `describe(kind)` names the slice of each field.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..classic.state import PHASE_NAMES
from ..core.cards import cards_of
from .codec import BARBU_ACTIONS, BESIGUE_ACTIONS, CALLS, CONTRACTS, MAX_SEATS, MELDS

S = MAX_SEATS
CONTRACT_SLOTS = CONTRACTS + CALLS + ("patience", "double-patience")
CALL_SLOTS = {
    **{c: i for i, c in enumerate(CONTRACT_SLOTS)},
    "patience-1": len(CONTRACTS) + 5,
    "patience-2": len(CONTRACTS) + 6,
}
NC = len(CONTRACT_SLOTS)

BARBU_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hand", 52, "my cards"),
    ("played_by", S * 52, "cards each seat has played this deal (tricks, Domino and Patience plays)"),
    ("trick", S * 52, "the current trick: the card each seat put on it"),
    ("won", S * 52, "cards in the tricks each seat has won this deal"),
    ("known", S * 52, "cards known to be in each seat's hand (my hand; cards I passed on in the Silly Round)"),
    ("cant_hold", S * 52, "cards each seat is known not to hold (voids shown by the play, pass-on inferences)"),
    ("set_aside", 52, "cards dealt to nobody, face up"),
    ("deck", 52, "the cards of this game's deck"),
    ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
    ("contract", NC, "the contract (a Scottish group: each of its calls): " + ", ".join(CONTRACT_SLOTS)),
    ("trump", 5, "one-hot trump suit S H D C, or no-trump"),
    ("rank", 13, "one-hot starting rank of Domino, 2 .. A"),
    ("to_act", S, "one-hot: whose turn it is"),
    ("dealer", S, "one-hot: the dealer"),
    ("declarer", S, "one-hot: the declarer (the Scottish Caller)"),
    ("leader", S, "one-hot: who led the current trick"),
    ("seats", S, "1 for each seat at the table"),
    ("doubled", S * S, "[a][b] = 1 when a doubled b this deal"),
    ("redoubled", S * S, "[a][b] = 1 when that double was redoubled"),
    ("doubles_made", S, "doubles each seat has made on the declarer in his series, / 7"),
    ("contracts_left", S * NC, "contracts (Scottish: calls) each seat has still to declare"),
    ("tricks_won", S, "tricks won this deal, / 13"),
    ("hand_sizes", S, "cards in each hand, / 13"),
    ("totals", S, "running totals, / 100"),
    ("deal", 1, "deals finished, / 100"),
    ("scottish_round", 5, "one-hot: Player Round 1-4, Silly Round"),
    ("pass_count", 1, "Silly Round pass-ons finished this deal, / 3"),
    ("cutter", S, "one-hot: the Silly Round's Cutter"),
    ("chosen", BARBU_ACTIONS, "tokens chosen so far in the decision being spelled out"),
    ("chosen_back", 52, "Chinese poker: the back-row cards chosen so far"),
    ("chosen_count", 1, "tokens chosen so far, / 10"),
)

BESIGUE_PHASES = ("first-dealer", "shuffle", "play", "declare", "last-declaration", "over")
BESIGUE_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hand", 32, "copies of each card type in my hand, / 2"),
    ("my_table", 32, "copies of each type among my declared cards on the table, / 2"),
    ("opp_table", 32, "the same for the opponent"),
    ("opp_known", 32, "copies the opponent is known to hold in hand (a shown 7, the turn-up taken), / 2"),
    ("played", 32, "copies played so far this deal, / 2"),
    ("my_won", 32, "copies in the tricks I have won, / 2"),
    ("opp_won", 32, "copies in the tricks the opponent has won, / 2"),
    ("trick", 32, "the card led to the current trick"),
    ("turn_up", 32, "the turn-up card while it is in the stock"),
    ("trump", 4, "one-hot trump suit S H D C"),
    ("phase", len(BESIGUE_PHASES), "one-hot: " + ", ".join(BESIGUE_PHASES)),
    ("to_act", 2, "one-hot: me, the opponent"),
    ("dealer", 2, "one-hot: me, the opponent"),
    ("leader", 2, "one-hot: me, the opponent"),
    ("melds", 2 * len(MELDS), "combinations each player has declared this deal, by kind: " + ", ".join(MELDS)),
    ("stock", 1, "cards left in the stock, / 64"),
    ("opp_hand", 1, "cards in the opponent's hand, / 9"),
    ("tricks", 1, "tricks played, / 32"),
    ("scores", 2, "this deal's scores (me, opponent), / 1000"),
    ("totals", 2, "running totals (me, opponent), / 1000"),
    ("chosen", BESIGUE_ACTIONS, "tokens chosen so far in the decision being spelled out"),
    ("chosen_count", 1, "tokens chosen so far, / 5"),
)


def _offsets(fields: Sequence[tuple[str, int, str]]) -> dict[str, slice]:
    out, at = {}, 0
    for name, size, _ in fields:
        out[name] = slice(at, at + size)
        at += size
    return out


BARBU_SLICES = _offsets(BARBU_FIELDS)
BESIGUE_SLICES = _offsets(BESIGUE_FIELDS)
BARBU_SIZE = sum(f[1] for f in BARBU_FIELDS)
BESIGUE_SIZE = sum(f[1] for f in BESIGUE_FIELDS)


def describe(kind: str) -> list[tuple[str, int, int, str]]:
    """(name, start, stop, meaning) of every field of the ``barbu`` or ``besigue`` observation."""
    fields, slices = (BARBU_FIELDS, BARBU_SLICES) if kind == "barbu" else (BESIGUE_FIELDS, BESIGUE_SLICES)
    return [(name, slices[name].start, slices[name].stop, text) for name, _, text in fields]


def _bits(out: np.ndarray, start: int, mask: int) -> None:
    for c in cards_of(mask):
        out[start + c] = 1.0


def observe_barbu(v: Any, prefix: Sequence[int] = (), out: np.ndarray | None = None) -> np.ndarray:
    """The observation of a Barbu-family view (`barbu.classic.view.View`), with the decision's tokens so far."""
    o = np.zeros(BARBU_SIZE, np.float32) if out is None else out
    if out is not None:
        o.fill(0.0)
    n, me = v.players, v.seat
    f = BARBU_SLICES

    def rel(seat: int) -> int:
        return (seat - me) % n

    _bits(o, f["hand"].start, v.hand)
    played = f["played_by"].start
    if v.phase == "domino":
        for seat, cards in v.tricks:
            for c in cards:
                o[played + rel(seat) * 52 + c] = 1.0
    else:
        for leader, cards in v.tricks:
            for i, c in enumerate(cards):
                o[played + rel(leader + i) * 52 + c] = 1.0
    trick = f["trick"].start
    for i, c in enumerate(v.trick):
        r = rel(v.leader + i)
        o[trick + r * 52 + c] = 1.0
        o[played + r * 52 + c] = 1.0
    for s in range(n):
        r = rel(s)
        _bits(o, f["won"].start + r * 52, v.won[s])
        _bits(o, f["known"].start + r * 52, v.known[s])
        cant = v.cant_hold[s] | (v.private_cant_hold[s] if v.private_cant_hold else 0)
        _bits(o, f["cant_hold"].start + r * 52, cant & v.deck)
        o[f["seats"].start + r] = 1.0
        o[f["tricks_won"].start + r] = v.tricks_won[s] / 13.0
        o[f["hand_sizes"].start + r] = v.hand_sizes[s] / 13.0
        o[f["totals"].start + r] = v.totals[s] / 100.0
        for key in v.contracts_left[s]:
            if key in CALL_SLOTS:
                o[f["contracts_left"].start + r * NC + CALL_SLOTS[key]] = 1.0
    _bits(o, f["set_aside"].start, v.set_aside)
    _bits(o, f["deck"].start, v.deck)
    o[f["phase"].start + PHASE_NAMES.index(v.phase)] = 1.0
    if v.contract:
        for part in ("patience",) if v.contract == "patience" else v.contract.split("+"):
            if part in CALL_SLOTS:
                o[f["contract"].start + CALL_SLOTS[part]] = 1.0
    if v.trump is not None:
        o[f["trump"].start + v.trump] = 1.0
    elif v.contract == "trumps":
        o[f["trump"].start + 4] = 1.0
    if v.rank is not None:
        o[f["rank"].start + v.rank] = 1.0
    for name, seat in (("to_act", v.to_act), ("dealer", v.dealer), ("declarer", v.declarer), ("leader", v.leader)):
        if seat is not None and seat >= 0:
            o[f[name].start + rel(seat)] = 1.0
    for b in v.doubles:
        o[f["doubled"].start + rel(b.doubler) * S + rel(b.doubled)] = 1.0
        if b.redoubled:
            o[f["redoubled"].start + rel(b.doubler) * S + rel(b.doubled)] = 1.0
    if v.declarer >= 0:
        for s, k in enumerate(v.doubles_made):
            o[f["doubles_made"].start + rel(s)] = k / 7.0
    o[f["deal"].start] = len(v.results) / 100.0
    sv = v.scottish
    if sv is not None:
        o[f["scottish_round"].start + min(sv.state.round_no, 4)] = 1.0
        o[f["pass_count"].start] = sv.pass_count / 3.0
        if sv.cutter is not None:
            o[f["cutter"].start + rel(sv.cutter)] = 1.0
    _prefix(o, f["chosen"].start, prefix)
    for t in prefix[:5]:
        if t < 52:
            o[f["chosen_back"].start + t] = 1.0
    o[f["chosen_count"].start] = len(prefix) / 10.0
    return o


def _prefix(o: np.ndarray, start: int, prefix: Sequence[int]) -> None:
    for t in prefix:
        o[start + t] = 1.0


def observe_besigue(v: Any, prefix: Sequence[int] = (), out: np.ndarray | None = None) -> np.ndarray:
    """The observation of a Bésigue view (`barbu.besigue.view.BesigueView`)."""
    o = np.zeros(BESIGUE_SIZE, np.float32) if out is None else out
    if out is not None:
        o.fill(0.0)
    f = BESIGUE_SLICES
    me = v.seat

    def add(name: str, cards: Any, weight: float = 0.5) -> None:
        for c in cards:
            o[f[name].start + c % 32] += weight

    add("hand", v.hand)
    add("my_table", [c for c, _ in v.table[me]])
    add("opp_table", [c for c, _ in v.table[1 - me]])
    add("opp_known", v.opponent_known)
    add("played", [c for _, c in v.played])
    add("my_won", v.won[me])
    add("opp_won", v.won[1 - me])
    if v.trick:
        o[f["trick"].start + v.trick[0][1] % 32] = 1.0
    if v.turn_up is not None:
        o[f["turn_up"].start + v.turn_up % 32] = 1.0
    o[f["trump"].start + v.trump] = 1.0
    o[f["phase"].start + BESIGUE_PHASES.index(v.phase)] = 1.0
    for name, seat in (("to_act", v.to_act), ("dealer", v.dealer), ("leader", v.leader)):
        if seat is not None and seat >= 0:
            o[f[name].start + (seat != me)] = 1.0
    for side in (0, 1):
        for kind, _, _ in v.melds[side]:
            o[f["melds"].start + (side != me) * len(MELDS) + MELDS.index(kind)] += 1.0
    o[f["stock"].start] = v.stock_size / 64.0
    o[f["opp_hand"].start] = v.opponent_hand_size / 9.0
    o[f["tricks"].start] = v.tricks / 32.0
    o[f["scores"].start : f["scores"].stop] = (v.scores[me] / 1000.0, v.scores[1 - me] / 1000.0)
    o[f["totals"].start : f["totals"].stop] = (v.totals[me] / 1000.0, v.totals[1 - me] / 1000.0)
    _prefix(o, f["chosen"].start, prefix)
    o[f["chosen_count"].start] = len(prefix) / 5.0
    return o
