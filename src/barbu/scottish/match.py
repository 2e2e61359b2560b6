"""The Scottish 32-card game (seed 004) as a `Match` of the same engine.

A match is a number of Sets; a Set is four Player Rounds and a Silly Round;
a Round plays all seven calls (Aces, King of hearts, Queens, Hearts, Tricks
and two Patiences), alone or in combinations.

* **Player Rounds**: the Caller deals every deal of his round and names one
  call or one group of calls per deal (`Declare` with a group key such as
  ``king+queens``, ``patience``, ``double-patience``).  His seven calls must
  end up partitioned with at least two groups of 2+ or one group of 3+: the
  legal actions only offer groups after which that can still be done.
* **Silly Round**: the dealer is drawn from the Unused Pack and the deal
  passes left; the Cutter (the dealer's right) cuts for the calls and for up
  to three pass-ons, every cut a chance event (`Cut`).  Every player chooses
  the three cards he passes (`PassOn`, one of the 56 ways).
* **Patience** is played in the Domino phase with rows from the Jacks; runs
  and sets are laid with `Lay`.

The phases: draw (the first Caller; the Silly Round's dealer) → deal →
declare (Player Rounds) or cuts and pass-ons (Silly Round) → play → score.
The hot path (trick play) is the common engine's.  Scores are the booklet's
(plus is good, highest total wins); each deal's result carries a
`ScottishDeal` with the points per call and the glyphs.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, Iterator, overload

from ..classic.contracts import (
    DOMINO,
    PATIENCE_PLACES,
    SCOTTISH_CALLS,
    SCOTTISH_NEGATIVES,
    Contract,
    score_finishing,
    score_tricks,
    scottish_call_points,
    scottish_group_key,
)
from ..classic.match import CHANCE, Match
from ..classic.ruleset import Ruleset
from ..classic.state import CUT, DEAL, DECLARE, DOMINO_PLAY, DRAW, OVER, PASS_ON, PLAY, DealResult
from ..classic.view import HIDDEN, NoConsistentDeal, View
from ..core import refusals as C
from ..core.actions import PASS, Deal, Declare, Lay, Pass, PassOn
from ..core.cards import CARDS, JACK, Card, cards_of, parse_card, rank_mask
from ..core.errors import IllegalAction, ParseError
from . import refusals as R
from .pack import BRIDGE, PACK, Cut, PackDraw, draw_winner, parse_pack, valid_draw
from .passons import PassSeen, knowledge, reconstruct, seen_passes
from .patience import lay_options, laying_order
from .scoresheet import ScottishDeal, deal_glyphs
from .silly import MAX_PASSES, PATIENCES, calls_first, cut_step, pass_cut, pass_direction

PLAYER_ROUNDS = 4
SILLY = PLAYER_ROUNDS  # round_no of the Silly Round (0-based)
MAX_DEALS_PER_SET = PLAYER_ROUNDS * 7 + 7


@dataclass(frozen=True)
class RoundState:
    """Where the match stands between deals; public, and all a new deal needs to know."""

    set_no: int = 0  # Sets finished
    round_no: int = 0  # 0..3 Player Rounds, 4 the Silly Round
    first_caller: int = -1
    dealer: int = -1
    calls_left: frozenset[str] = frozenset(SCOTTISH_CALLS)
    big: int = 0  # groups of 2+ calls made this round (Player Rounds)
    treble: bool = False  # a group of 3+ calls made this round
    deals: int = 0  # deals finished in this round

    @property
    def silly(self) -> bool:
        return self.round_no == SILLY

    @property
    def caller(self) -> int | None:
        return None if self.silly or self.first_caller < 0 else (self.first_caller + self.round_no) % 4


@dataclass(frozen=True)
class ScottishView:
    """The public side of a Scottish position, for every seat alike."""

    state: RoundState  # now
    start: RoundState | None  # when the current deal was dealt (None between deals)
    sets: int
    cutter: int | None  # the Silly Round's Cutter (the dealer's right)
    calls: tuple[str, ...]  # the calls of this deal, once known
    cuts: tuple[tuple[str, int], ...]  # this deal's cuts: ("calls" or "passes", pack card)
    cut_group: tuple[int, ...]  # numbers cut so far for a call still being cut
    pass_count: int  # pass-ons finished this deal
    pass_offset: int  # seat offset of the pass-on being chosen (0 when none)
    chosen: tuple[int, ...]  # seats that have chosen their three cards for it

    @property
    def silly(self) -> bool:
        return self.state.silly if self.start is None else self.start.silly


def can_complete(negatives: int, patiences: int, big: int, treble: bool) -> bool:
    """Can the calls left still be grouped so that the round has two groups of 2+ or one of 3+?"""
    if treble or big >= 2 or negatives >= 3:
        return True
    return big + (negatives >= 2) + (patiences == 2) >= 2


def call_choices(state: RoundState) -> tuple[str, ...]:
    """The group keys a Caller may name now (RULES.md §5: only groups that keep a legal partition)."""
    negs = [c for c in SCOTTISH_NEGATIVES if c in state.calls_left]
    pats = sum(1 for p in PATIENCES if p in state.calls_left)
    out: list[str] = []
    for k in range(1, len(negs) + 1):
        ok = can_complete(len(negs) - k, pats, state.big + (k >= 2), state.treble or k >= 3)
        if ok:
            out.extend(scottish_group_key(g) for g in combinations(negs, k))
    if pats >= 1 and can_complete(len(negs), pats - 1, state.big, state.treble):
        out.append("patience")
    if pats == 2 and can_complete(len(negs), 0, state.big + 1, state.treble):
        out.append("double-patience")
    return tuple(out)


_CALL_WORDS = {
    "aces": "aces",
    "ace": "aces",
    "a": "aces",
    "2": "aces",
    "king": "king",
    "kh": "king",
    "king-of-hearts": "king",
    "barbu": "king",
    "el-kingko": "king",
    "no-king": "king",
    "k": "king",
    "3": "king",
    "queens": "queens",
    "queen": "queens",
    "q": "queens",
    "no-queens": "queens",
    "4": "queens",
    "hearts": "hearts",
    "heart": "hearts",
    "h": "hearts",
    "no-hearts": "hearts",
    "5": "hearts",
    "tricks": "tricks",
    "trick": "tricks",
    "t": "tricks",
    "no-tricks": "tricks",
    "6": "tricks",
}
_WHOLE = {
    "patience": "patience",
    "single": "patience",
    "single-patience": "patience",
    "pat": "patience",
    "p": "patience",
    "double-patience": "double-patience",
    "double": "double-patience",
    "dp": "double-patience",
    "bridge": "double-patience",
    "the-lot": "aces+king+queens+hearts+tricks",
    "lot": "aces+king+queens+hearts+tricks",
    "all": "aces+king+queens+hearts+tricks",
    "joker": "aces+king+queens+hearts+tricks",
}


def parse_call(text: str) -> Declare:
    """``king+queens``, ``king queens``, ``aces, hearts``, ``patience``, ``double``, ``the lot``…"""
    t = " ".join(text.strip().lower().split())
    for prefix in ("contract ", "call "):
        t = t.removeprefix(prefix)
    whole = t.replace(" ", "-")
    if whole in _WHOLE:
        return Declare(_WHOLE[whole])
    words = [w for w in t.replace("+", " ").replace(",", " ").replace("&", " ").split() if w != "and"]
    keys = set()
    for w in words:
        k = _CALL_WORDS.get(w)
        if k is None:
            raise ParseError.of(R.NOT_A_CALL_WORD, text=w)
        keys.add(k)
    if not keys:
        raise ParseError.of(R.NAME_A_CALL_TEXT)
    return Declare(scottish_group_key(tuple(keys)))


def _parse_cards(words: list[str]) -> int:
    mask = 0
    for w in words:
        bit = 1 << parse_card(w)
        if mask & bit:
            raise ParseError.of(R.NAMED_TWICE, text=w)
        mask |= bit
    return mask


class PassOnChoices(Sequence[PassOn]):
    """The 56 ways to pass on 3 of 8 cards, made one at a time when asked for (a legal-action sequence)."""

    __slots__ = ("hand", "_bits")

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self._bits = [1 << c for c in cards_of(hand)]

    def __len__(self) -> int:
        k = len(self._bits)
        return k * (k - 1) * (k - 2) // 6

    @overload
    def __getitem__(self, i: int) -> PassOn: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[PassOn, ...]: ...

    def __getitem__(self, i: int | slice) -> PassOn | tuple[PassOn, ...]:
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("pass-on choice out of range")
        trio = _TRIOS.get(len(self._bits))
        if trio is None:
            trio = _TRIOS[len(self._bits)] = tuple(combinations(range(len(self._bits)), 3))
        a, b, c = trio[i]
        return PassOn(self._bits[a] | self._bits[b] | self._bits[c])

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, PassOn)
            and isinstance(action.cards, int)
            and action.cards.bit_count() == 3
            and not action.cards & ~self.hand
            and action.cards > 0
        )

    def __iter__(self) -> Iterator[PassOn]:
        for a, b, c in combinations(self._bits, 3):
            yield PassOn(a | b | c)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PassOnChoices):
            return other.hand == self.hand
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("PassOnChoices", self.hand))

    def __repr__(self) -> str:
        return f"PassOnChoices({self.hand:#x})"


_TRIOS: dict[int, tuple[tuple[int, int, int], ...]] = {}
_CALL_ACTIONS: dict[tuple[frozenset[str], int, bool], tuple[Declare, ...]] = {}  # a Caller's choices by round state


class ScottishMatch(Match):
    """A Scottish match: `Match` with Sets, Rounds, cut calls, pass-ons and Patience."""

    __slots__ = (
        "sets",
        "state",
        "start_state",
        "stages",
        "cut_for",
        "cut_group",
        "calls",
        "cuts",
        "pass_count",
        "pass_offset",
        "pass_queue",
        "pending",
        "pass_log",
        "double_offered",
        "forced",
        "_call_parts",
    )

    def __init__(self, rules: Ruleset | str = "scottish", seed: int | None = None) -> None:
        super().__init__(rules, seed)
        self.sets = self.rules.sets
        self.total_deals = self.sets * MAX_DEALS_PER_SET  # an upper bound: the number of deals varies
        self.state = RoundState()
        self.start_state: RoundState | None = None
        self.contracts_left = [set() for _ in range(self.n)]
        table = scottish_call_points()
        self._call_parts = {k: Contract(k, k, **table[k]) for k in SCOTTISH_NEGATIVES}
        self._call_parts["patience"] = Contract("patience", "Patience", kind=DOMINO, finishing=PATIENCE_PLACES)

    def _reset_deal(self) -> None:
        super()._reset_deal()
        self.stages: list[str] = []
        self.cut_for = ""
        self.cut_group: tuple[int, ...] = ()
        self.calls: tuple[str, ...] = ()
        self.cuts: list[tuple[str, int]] = []
        self.pass_count = 0
        self.pass_offset = 0
        self.pass_queue: list[int] = []
        self.pending: list[int] = [0] * self.n
        self.pass_log: list[tuple[int, tuple[int, ...]]] = []
        self.double_offered = False
        self.forced = False

    def clone(self) -> "ScottishMatch":
        m = super().clone()
        assert isinstance(m, ScottishMatch)
        m.stages = list(self.stages)
        m.cuts = list(self.cuts)
        m.pass_queue = list(self.pass_queue)
        m.pending = list(self.pending)
        m.pass_log = list(self.pass_log)
        return m

    # ------------------------------------------------------------------ whose turn, what is legal
    def to_act(self) -> int | None:
        ph = self.phase
        if ph == PLAY or ph == DOMINO_PLAY:
            return self.turn
        if ph == DRAW or ph == DEAL or ph == CUT:
            return CHANCE
        if ph == PASS_ON:
            return self.pass_queue[0]
        if ph == DECLARE:
            return self.declarer
        return None

    def legal_actions(self) -> Sequence[Any]:
        ph = self.phase
        if ph == PLAY:
            return cards_of(self._play_mask())
        if ph == DOMINO_PLAY:
            return self._patience_actions()
        if ph == DECLARE:
            st = self.state
            key = (st.calls_left, st.big, st.treble)
            acts = _CALL_ACTIONS.get(key)
            if acts is None:
                acts = _CALL_ACTIONS[key] = tuple(Declare(k) for k in call_choices(st))
            return acts
        if ph == PASS_ON:
            return PassOnChoices(self.hands[self.pass_queue[0]])
        return ()

    def _patience_actions(self) -> tuple[Card | Pass | Lay, ...]:
        hand = self.hands[self.turn]
        singles = cards_of(hand & self.playable)
        if not singles:
            return (PASS,)
        lays = lay_options(hand, self.layout, self.state.silly, self.playable)
        return singles + tuple(Lay(g) for g in lays) if lays else singles

    # ------------------------------------------------------------------ applying
    def _apply_phase(self, ph: int, action: Any) -> None:
        if ph == PLAY:
            super()._apply_phase(ph, action)
        elif ph == DOMINO_PLAY:
            self._apply_patience(action)
        elif ph == CUT:
            self._apply_cut(action)
        elif ph == PASS_ON:
            self._apply_pass_on(action)
        elif ph == DECLARE:
            self._apply_call(action)
        elif ph == DEAL:
            self._apply_deal(action)
        elif ph == DRAW:
            self._apply_pack_draw(action)
        else:
            raise IllegalAction.of(C.MATCH_OVER)

    def _set_dealer(self, state: RoundState) -> None:
        self.state = state
        self.dealer = state.dealer
        self.declarer = state.caller if state.caller is not None else state.dealer

    def _apply_pack_draw(self, action: Any) -> None:
        if not isinstance(action, PackDraw):
            raise IllegalAction.of(R.NOT_A_PACK_DRAW, action=str(action))
        if not valid_draw(action.cards, self.n):
            raise IllegalAction.of(R.PACK_DRAW_SHAPE, n=self.n)
        winner = draw_winner(action.cards)
        if winner is None:  # the highest card is shared: everybody draws again
            return
        if self.state.silly:
            self._set_dealer(dataclasses.replace(self.state, dealer=winner))
        else:
            self._set_dealer(RoundState(first_caller=winner, dealer=winner))
        self.phase = DEAL

    def _after_deal(self) -> None:
        self.start_state = self.state
        if not self.state.silly:
            self.phase = DECLARE
            return
        self.stages = ["calls", "passes"] if calls_first(self.state.deals + 1) else ["passes", "calls"]
        self._next_stage()

    def _next_stage(self) -> None:
        """The Silly Round, after the deal: cut the calls and the pass-ons in the deal's order, then play."""
        while self.stages:
            stage = self.stages.pop(0)
            left = self.state.calls_left
            if stage == "calls":
                if len(left) == 1:  # the last call of the round needs no cut
                    self._settle(tuple(left))
                    continue
                self.cut_for, self.cut_group = "calls", ()
                self.phase = CUT
                return
            if self._known_last():
                continue
            self.cut_for = "passes"
            self.phase = CUT
            return
        self._start_play()

    def _known_last(self) -> bool:
        """No pass-ons on a deal known to be the round's last."""
        if self.calls:
            return not self.state.calls_left
        return len(self.state.calls_left) == 1

    def _apply_cut(self, action: Any) -> None:
        if not isinstance(action, Cut) or not 0 <= action.card <= BRIDGE:
            raise IllegalAction.of(R.NOT_A_CUT, action=str(action))
        card = action.card
        self.cuts.append((self.cut_for, card))
        if self.cut_for == "calls":
            out = cut_step(card, self.cut_group, self.state.calls_left, first_deal=self.state.deals == 0)
            if out.kind == "more":
                self.cut_group = out.group
            elif out.kind == "call":
                self.cut_group = ()
                self._settle(out.calls)
                self._next_stage()
            return
        decision = pass_cut(card)
        if decision == "pass":
            self.pass_offset = pass_direction(self.state.deals + 1, self.pass_count + 1)
            self.pass_queue = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            self.pending = [0] * self.n
            self.phase = PASS_ON
        elif decision == "stop":
            self._next_stage()

    def _apply_pass_on(self, action: Any) -> None:
        seat = self.pass_queue[0]
        if not isinstance(action, PassOn):
            raise IllegalAction.of(R.NOT_A_PASS_ON, action=str(action))
        mask = action.cards
        if not isinstance(mask, int) or mask < 0 or mask.bit_count() != 3:
            raise IllegalAction.of(R.PASS_ON_THREE)
        if mask & ~self.hands[seat]:
            missing = [int(x) for x in cards_of(mask & ~self.hands[seat] & self.deck)]
            if not missing:
                raise IllegalAction.of(R.PASS_ON_NOT_IN_DECK)
            raise IllegalAction.of(C.YOU_DO_NOT_HOLD_CARDS, cards=missing)
        self.pending[seat] = mask
        self.pass_queue.pop(0)
        if self.pass_queue:
            return
        d = self.pass_offset
        n = self.n
        gives = tuple(self.pending)
        self.hands = [(self.hands[x] & ~gives[x]) | gives[(x - d) % n] for x in range(n)]
        self.pass_log.append((d, gives))
        self.pass_count += 1
        self.pending = [0] * n
        self.pass_offset = 0
        if self.pass_count >= MAX_PASSES:
            self._next_stage()
        else:
            self.cut_for = "passes"
            self.phase = CUT

    def _apply_call(self, action: Any) -> None:
        if not isinstance(action, Declare):
            raise IllegalAction.of(R.NAME_A_CALL, action=str(action))
        key = action.contract
        c = self.contract_by_key.get(key)
        if c is None:
            raise IllegalAction.of(R.UNKNOWN_CALL, call=key)
        legal = [a.contract for a in self.legal_actions()]
        if key not in legal:
            raise self._explain_call(key)
        left = self.state.calls_left
        if key == "patience":
            calls: tuple[str, ...] = (next(p for p in PATIENCES if p in left),)
        elif key == "double-patience":
            calls = PATIENCES
        else:
            calls = c.parts
        self.double_offered = key == "patience" and "double-patience" in legal
        self.forced = not any(k in left for k in SCOTTISH_NEGATIVES)
        self._settle(calls)
        self._start_play()

    def _explain_call(self, key: str) -> IllegalAction:
        left = self.state.calls_left
        c = self.contract_by_key[key]
        needed: tuple[str, ...]
        if key == "patience":
            needed = PATIENCES[:1]
        elif key == "double-patience":
            needed = PATIENCES
        else:
            needed = c.parts
        if (
            key == "patience"
            and not any(p in left for p in PATIENCES)
            or any(k not in left for k in needed if k not in PATIENCES)
            or (key == "double-patience" and not all(p in left for p in PATIENCES))
        ):
            return IllegalAction.of(R.CALL_PART_PLAYED, contract=key, name=c.name)
        return IllegalAction.of(R.CALL_BREAKS_GROUPS, contract=key, name=c.name)

    def _settle(self, calls: tuple[str, ...]) -> None:
        """The deal's calls are known: take them off the round and find the contract."""
        self.calls = calls
        pats = [c for c in calls if c in PATIENCES]
        if pats:
            key = "double-patience" if len(pats) == 2 else "patience"
        else:
            key = scottish_group_key(calls)
        self.contract = self.contract_by_key[key]
        st = self.state
        self.state = dataclasses.replace(
            st,
            calls_left=st.calls_left - set(calls),
            big=st.big + (len(calls) >= 2),
            treble=st.treble or len(calls) >= 3,
        )

    def _start_play(self) -> None:
        contract = self.contract
        assert contract is not None
        n = self.n
        self.leader = self.turn = (self.dealer + 1) % n
        self.in_hands = 0
        for h in self.hands:
            self.in_hands |= h
        if contract.kind == DOMINO:
            self.phase = DOMINO_PLAY
            self.rank = JACK
            self.playable = rank_mask(JACK) & self.deck
            return
        self.phase = PLAY
        self.heart_mode = 0
        self.trump_mask = self.head_mask = 0
        self.stop_mask = contract.penalty_mask if self.rules.stop_when_decided and contract.decided_by_cards else 0

    # ------------------------------------------------------------------ Patience
    def _apply_patience(self, action: Any) -> None:
        turn = self.turn
        hand = self.hands[turn]
        if isinstance(action, Pass):
            if hand & self.playable:
                raise IllegalAction.of(R.CHAP_WITH_CARD)
            self.domino_passes.append((turn, self.playable))
            self._next_patience_turn()
            return
        if isinstance(action, Lay):
            group = action.cards
            if not isinstance(group, int) or group <= 0 or group & ~self.deck:
                raise IllegalAction.of(R.LAY_OUTSIDE_DECK)
            if group & ~hand:
                raise IllegalAction.of(C.YOU_DO_NOT_HOLD_CARDS, cards=[int(x) for x in cards_of(group & ~hand)])
            if group not in lay_options(hand, self.layout, self.state.silly, self.playable):
                raise self._explain_lay(group, hand)
            order = laying_order(group, self.layout)
        elif isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < 52:
                raise IllegalAction.of(C.NOT_A_CARD_NUMBER, action=str(action))
            bit = 1 << action
            if not hand & bit:
                raise IllegalAction.of(C.YOU_DO_NOT_HOLD, card=action)
            if not self.playable & bit:
                raise self._explain_patience_card(action)
            order = [int(action)]
        else:
            raise IllegalAction.of(R.TIME_TO_LAY, action=str(action))
        for c in order:
            self._place(c)
        self.trick_log.append((turn, tuple(order)))
        if not self.hands[turn]:
            self.finished.append(turn)
            left = [p for p in range(self.n) if self.hands[p]]
            if len(left) <= 1:  # play goes on until three are out
                self.finished.extend(left)
                self._finish_deal(played=True)
                return
        self._next_patience_turn()

    def _place(self, card: int) -> None:
        turn = self.turn
        bit = 1 << card
        self.hands[turn] ^= bit
        self.in_hands ^= bit
        self.playable &= ~bit
        s, r = divmod(card, 13)
        span = self.layout[s]
        if span is None:
            self.layout[s] = (r, r)
            self._add_playable(s, r - 1, True)
            self._add_playable(s, r + 1, True)
        elif r < span[0]:
            self.layout[s] = (r, span[1])
            self._add_playable(s, r - 1, True)
        else:
            self.layout[s] = (span[0], r)
            self._add_playable(s, r + 1, True)

    def _next_patience_turn(self) -> None:
        nxt = (self.turn + 1) % self.n
        while not self.hands[nxt]:
            nxt = (nxt + 1) % self.n
        self.turn = nxt

    def _explain_patience_card(self, card: int) -> IllegalAction:
        s = card // 13
        if self.layout[s] is None:
            return IllegalAction.of(R.PATIENCE_ROW_NOT_OPENED, card=card, suit=s)
        return IllegalAction.of(R.PATIENCE_NOT_NEXT, card=card)

    def _explain_lay(self, group: int, hand: int) -> IllegalAction:
        if group.bit_count() < 2:
            return IllegalAction.of(R.LAY_ONE)
        if not self.state.silly and group != hand:
            return IllegalAction.of(R.LAY_TO_GO_OUT)
        return IllegalAction.of(R.LAY_SHAPE)

    # ------------------------------------------------------------------ scoring and the next deal
    def _finish_deal(self, played: bool) -> None:
        contract = self.contract
        assert contract is not None
        n = self.n
        st = self.state
        start = self.start_state or st
        if contract.kind == DOMINO:
            single = tuple(score_finishing(self._call_parts["patience"], self.finished, n))
            parts = tuple(single for _ in self.calls)
        else:
            parts = tuple(
                tuple(score_tricks(self._call_parts[c], n, self.won, self.tricks_won, self.winners)) for c in self.calls
            )
        base = tuple(sum(p[s] for p in parts) for s in range(n))
        for s in range(n):
            self.totals[s] += base[s]
        caller = start.caller
        glyphs = deal_glyphs(
            self.calls,
            parts,
            caller,
            st.deals + 1,
            self.won,
            self.trick_log,
            self.finished,
            self.double_offered,
            self.forced,
        )
        info = ScottishDeal(
            set_no=st.set_no + 1,
            round_no=st.round_no + 1,
            caller=caller,
            deal_in_round=st.deals + 1,
            calls=self.calls,
            parts=parts,
            cuts=tuple(self.cuts),
            pass_count=self.pass_count,
            passes=tuple(self.pass_log),
            double_offered=self.double_offered,
            forced=self.forced,
            glyphs=glyphs,
        )
        self.results.append(
            DealResult(
                number=self.deal_no + 1,
                dealer=self.dealer,
                declarer=self.declarer,
                contract=contract.key,
                trump=None,
                rank=None,
                doubles=(),
                played=played,
                base=base,
                scores=base,
                hands=self.dealt,
                tricks=tuple(self.trick_log),
                finishing=tuple(self.finished),
                scottish=info,
            )
        )
        self.deal_no += 1
        st = dataclasses.replace(st, deals=st.deals + 1)
        if st.calls_left:
            if st.silly:
                st = dataclasses.replace(st, dealer=(st.dealer + 1) % n)
            self._set_dealer(st)
            self.phase = DEAL
            return
        # the round is over
        if not st.silly:
            nxt = dataclasses.replace(
                st, round_no=st.round_no + 1, calls_left=frozenset(SCOTTISH_CALLS), big=0, treble=False, deals=0
            )
            if nxt.silly:
                self._set_dealer(dataclasses.replace(nxt, dealer=-1))
                self.phase = DRAW
            else:
                caller = nxt.caller
                assert caller is not None  # a Player Round has a Caller
                self._set_dealer(dataclasses.replace(nxt, dealer=caller))
                self.phase = DEAL
            return
        nxt = RoundState(set_no=st.set_no + 1, first_caller=st.first_caller, dealer=st.first_caller)
        self._set_dealer(nxt)
        if nxt.set_no >= self.sets:
            self.phase = OVER
            self.total_deals = self.deal_no
        else:
            self.phase = DEAL

    # ------------------------------------------------------------------ chance
    def sample_chance(self, rng: random.Random | None = None) -> Any:
        if rng is None:
            rng = self.rng if self.seed is None else random.Random(self.seed * 1_000_003 + len(self.history))
        if self.phase == DRAW:
            return PackDraw(tuple(rng.sample(PACK, self.n)))
        if self.phase == CUT:
            return Cut(PACK[int(rng.random() * len(PACK))])
        return super().sample_chance(rng)

    # ------------------------------------------------------------------ parsing
    def parse_action(self, text: str) -> Any:
        t = " ".join(text.strip().lower().split())
        ph = self.phase
        if ph == DRAW:
            words = t.split()
            if words and words[0] == "draw":
                words = words[1:]
            if not words:
                raise ParseError.of(R.DRAW_TEXT)
            return PackDraw(tuple(parse_pack(w) for w in words))
        if ph == CUT:
            return Cut(parse_pack(t.removeprefix("cut ")))
        if ph == PASS_ON:
            words = t.replace(",", " ").split()
            while words and words[0] in ("pass-on", "pass", "on", "give", "passon"):
                words = words[1:]
            if len(words) != 3:
                raise ParseError.of(R.PASS_ON_TEXT)
            return PassOn(_parse_cards(words))
        if ph == DECLARE:
            return parse_call(t)
        if ph == DOMINO_PLAY:
            if t in ("pass", "p", "-", "chap"):
                return PASS
            words = t.replace(",", " ").split()
            if words and words[0] in ("lay", "play"):
                words = words[1:]
                if not words:
                    raise ParseError.of(R.LAY_TEXT)
            if len(words) == 1:
                return CARDS[parse_card(words[0])]
            return Lay(_parse_cards(words))
        return super().parse_action(text)

    # ------------------------------------------------------------------ views
    @staticmethod
    def explains(v: View, hands: list[int]) -> bool:
        """The sampler's hook: whether some pass-on history leads to ``hands``."""
        return explains(v, hands)

    @staticmethod
    def determinize(v: View, hands: list[int]) -> "ScottishMatch":
        """The sampler's hook: a full match at the view's position (`determinize_scottish`)."""
        return determinize_scottish(v, hands)

    def seen_by(self, seat: int) -> tuple[PassSeen, ...]:
        """The pass-ons of this deal as ``seat`` saw them."""
        return seen_passes(seat, self.n, self.pass_log)

    def _view_extras(self, seat: int, in_deal: bool) -> dict[str, Any]:
        n = self.n
        st = self.state
        caller = st.caller
        left = [
            frozenset(st.calls_left) if s == (caller if caller is not None else -1) else frozenset() for s in range(n)
        ]
        sv = ScottishView(
            state=st,
            start=self.start_state if in_deal else None,
            sets=self.sets,
            cutter=(self.dealer - 1) % n if st.silly and self.dealer >= 0 and in_deal else None,
            calls=self.calls if in_deal else (),
            cuts=tuple(self.cuts) if in_deal else (),
            cut_group=self.cut_group if in_deal else (),
            pass_count=self.pass_count if in_deal else 0,
            pass_offset=self.pass_offset if in_deal else 0,
            chosen=tuple(s for s in range(n) if self.phase == PASS_ON and s not in self.pass_queue),
        )
        out: dict[str, Any] = {"scottish": sv, "contracts_left": tuple(left)}
        if not in_deal:
            return out
        actions = self.history[self.deal_start + 1 :]
        # other seats' pass-on choices stay face down: replace them in the order they were made
        k = 0
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        hidden = []
        for a in actions:
            if isinstance(a, PassOn):
                if order[k % n] != seat:
                    a = HIDDEN
                k += 1
            hidden.append(a)
        seen = self.seen_by(seat)
        in_hands = 0
        for h in self.hands:
            in_hands |= h
        known, cant = knowledge(seat, n, seen, in_hands)
        known[seat] = self.hands[seat]
        out.update(deal_actions=tuple(hidden), known=tuple(known), passes=seen, private_cant_hold=tuple(cant))
        return out


def _rebuild(
    v: View, hands: list[int], rng: random.Random | None = None, prefer: Callable[[list[int]], list[int]] | None = None
) -> tuple[list[int], list[tuple[int, ...]], random.Random] | None:
    """The hands as dealt and every pass-on, explaining current ``hands`` the way ``v``'s seat saw the deal
    (the same rebuild every time for the same sample, unless another ``rng`` draws another one)."""
    n = v.players
    after = list(hands)
    for leader, cards in v.tricks:
        if v.phase == "domino":
            after[leader] |= sum(1 << c for c in cards)
        else:
            for i, c in enumerate(cards):
                after[(leader + i) % n] |= 1 << c
    for i, c in enumerate(v.trick):
        after[(v.leader + i) % n] |= 1 << c
    if rng is None:
        rng = random.Random(repr((v.seat, tuple(hands))))
    rebuilt = reconstruct(v.seat, n, v.passes, after, rng, prefer=prefer)
    if rebuilt is None:
        return None
    return rebuilt[0], rebuilt[1], rng


def rebuild_passes(
    v: View, hands: list[int], rng: random.Random | None = None, prefer: Callable[[list[int]], list[int]] | None = None
) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """One history explaining ``hands`` as ``v``'s seat saw the deal: the hands as dealt and each pass-on's
    cards by seat (None if no attempt fits); ``rng`` draws among the histories (the sampler's by default),
    ``prefer`` orders the cards a pass may have held, likeliest first (see `reconstruct`)."""
    rebuilt = _rebuild(v, hands, rng, prefer)
    return None if rebuilt is None else (rebuilt[0], rebuilt[1])


def explains(v: View, hands: list[int]) -> bool:
    """Whether some pass-on history leads to ``hands`` (the sampler keeps only such samples)."""
    return _rebuild(v, hands) is not None


def determinize_scottish(v: View, hands: list[int]) -> ScottishMatch:
    """A full Scottish match at the view's position where the current hands are ``hands``: the hands as
    dealt and the other seats' pass-ons are rebuilt (`barbu.passons.reconstruct`), then the deal's public
    actions are replayed."""
    m = Match(v.rules)
    assert isinstance(m, ScottishMatch)
    sv = v.scottish
    m.deal_no = v.deal_number - 1
    m.totals = list(v.totals)
    m.results = list(v.results)
    if v.phase in ("draw", "deal", "over"):
        m._set_dealer(sv.state)
        m.phase = {"draw": DRAW, "deal": DEAL, "over": OVER}[v.phase]
        if m.phase == OVER:
            m.total_deals = m.deal_no
        return m
    m._set_dealer(sv.start)
    m.phase = DEAL
    rebuilt = _rebuild(v, hands)
    if rebuilt is None:
        raise NoConsistentDeal("no pass-on history explains these hands")
    dealt, gives, rng = rebuilt
    m.apply(Deal(tuple(dealt)))
    for a in v.deal_actions:
        if a is HIDDEN:
            seat = m.to_act()
            assert seat is not None and seat >= 0
            if m.pass_count < len(gives):
                a = PassOn(gives[m.pass_count][seat])
            else:  # a choice made in the pass-on still being chosen: any three of that hand will do
                a = PassOn(sum(1 << c for c in rng.sample(cards_of(m.hands[seat]), 3)))
        m.apply(a)
    return m


__all__ = [
    "ScottishMatch",
    "RoundState",
    "ScottishView",
    "call_choices",
    "can_complete",
    "parse_call",
    "determinize_scottish",
    "explains",
    "rebuild_passes",
    "PLAYER_ROUNDS",
    "MAX_DEALS_PER_SET",
]
