"""The match state machine: one loop of phases drives a whole match, every family alike.

draw for the first dealer → deal → declare a contract → name trump or
starting rank → doubling → play (tricks, Domino/Success rows, or Chinese
poker arrangements) → score (and series points where the family has them)
→ next deal.  At every point `to_act()` says who acts (a seat, `CHANCE`, or
None when the match is over), `legal_actions()` lists exactly what may be
done, and `apply()` advances.  An illegal action raises `IllegalAction` with
the reason and leaves the state as it was.  What differs between families is
data: the contract table, the deck, the options and a series-end hook, all
from `barbu.classic.presets`.  The card-play phase is the hot path: it works on raw
int bitmasks and keeps its bookkeeping small.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Iterable

from ..core.actions import (NO_DOUBLE, PASS, Deal, Declare, Double, Draw, NameRank, NameTrump, Pass, parse_chance,
                            parse_rank, parse_suit)
from ..core.cards import ACE, CARDS, HEARTS, SUIT_MASK, Card, cards_of, parse_card
from .chinese import Arrange, Arrangements, parse_arrange, score_arrangements
from .contracts import CHINESE, CONTRACT_ALIASES, DOMINO, Contract, score_finishing, score_tricks
from ..core import refusals as C
from ..core.errors import IllegalAction, ParseError
from . import refusals as R
from .ruleset import Ruleset
from .state import (ARRANGE, DEAL, DECLARE, DOMINO_PLAY, DOUBLING, DRAW, OVER, PHASE_NAMES, PLAY,
                    RANK, TRUMP, Business, DealResult, added_points)
from .view import make_view, make_views

from ..core.game import CHANCE

HEARTS_MASK = SUIT_MASK[HEARTS]
_BIT = tuple(1 << c for c in range(52))
_HEART_MODES = {"none": 0, "never_unless_only_hearts": 1, "first_trick": 2, "until_broken": 3}


class Match:
    """A whole match under one ruleset.  Mutable; `clone()` for a cheap copy."""

    __slots__ = (
        "rules", "n", "contracts", "contract_by_key", "deck", "hand_size", "total_deals", "rng", "seed",
        "phase", "history", "dealer", "declarer", "deal_no", "contracts_left", "dbl_count",
        "hands", "dealt", "contract", "trump", "rank", "business", "dbl_queue", "dbl_first_round",
        "dbl_turn_taken", "turn", "leader", "trick", "trick_mask", "led_mask", "trump_mask",
        "won", "tricks_won", "winners", "trick_log", "in_hands", "hearts_broken", "heart_mode",
        "playable", "layout", "finished", "domino_passes", "results", "totals", "deal_start", "_late",
        "_dbl_cache", "head_mask", "stop_mask", "_deck_list", "set_aside", "bonus_turn", "passes_in_row", "arranged",
        "lenient",
    )

    def __new__(cls, rules: Ruleset | str = "classic", seed: int | None = None) -> "Match":
        """``Match(rules)`` builds the family's own match class where it has one (the Scottish game)."""
        if cls is Match:
            r = Ruleset.parse(rules) if isinstance(rules, str) else rules
            cls = r.family_spec.match_class or Match
        return object.__new__(cls)

    @classmethod
    def slot_names(cls) -> tuple[str, ...]:
        """Every slot of the class, its own and its bases' (clone and undo copy them all)."""
        names = _SLOT_NAMES.get(cls)
        if names is None:
            names = _SLOT_NAMES[cls] = tuple(n for c in reversed(cls.__mro__) for n in getattr(c, "__slots__", ()))
        return names

    def __init__(self, rules: Ruleset | str = "classic", seed: int | None = None) -> None:
        if isinstance(rules, str):
            rules = Ruleset.parse(rules)
        self.rules = rules
        fam = rules.family_spec
        self.n = rules.players
        self.contracts: tuple[Contract, ...] = fam.contracts(rules)
        self.contract_by_key = {c.key: c for c in self.contracts}
        self.deck = fam.deck(rules)
        self._deck_list = list(cards_of(self.deck))
        self.hand_size = self.deck.bit_count() // self.n
        self.total_deals = self.n * len(self.contracts)
        self.seed = seed
        self.rng = random.Random(seed)
        self.phase = DRAW
        self.history: list[Any] = []
        self.dealer = -1
        self.declarer = -1
        self.deal_no = 0  # deals finished so far
        self.contracts_left = [set(self.contract_by_key) for _ in range(self.n)]
        # dbl_count[declarer][seat]: doubles seat made on declarer in declarer's series
        self.dbl_count = [[0] * self.n for _ in range(self.n)]
        self.results: list[DealResult] = []
        self.totals = [0] * self.n
        self.deal_start = -1  # index in history of the current deal's Deal action
        # A scorekeeper records doubles made at a real table: a missed obligation is flagged there, not refused.
        self.lenient = False
        self._reset_deal()

    # ------------------------------------------------------------------ basics
    def _reset_deal(self) -> None:
        n = self.n
        self.hands = [0] * n
        self.dealt: tuple[int, ...] = ()
        self.contract: Contract | None = None
        self.trump: int | None = None
        self.rank: int | None = None
        self.business: dict[int, Business] = {}  # keyed by the pair as a two-bit mask
        self.dbl_queue: list[int] = []
        self.dbl_first_round = True
        self.dbl_turn_taken = [False] * n
        self.turn = -1
        self.leader = -1
        self.trick: list[int] = []
        self.trick_mask = 0
        self.led_mask = 0
        self.trump_mask = 0
        self.head_mask = 0
        self.stop_mask = 0
        self.won = [0] * n
        self.tricks_won = [0] * n
        self.winners: list[int] = []
        self.trick_log: list[tuple[int, tuple[int, ...]]] = []
        self.in_hands = 0
        self.hearts_broken = False
        self.heart_mode = 0
        self.playable = 0
        self.layout: list[tuple[int, int] | None] = [None] * 4
        self.finished: list[int] = []
        self.domino_passes: list[tuple[int, int]] = []
        self.set_aside = 0  # cards dealt to nobody, face up (French rules with 3, 5 or 6 players)
        self.bonus_turn = False  # Success: the player who laid an ace may lay one more card
        self.passes_in_row = 0
        self.arranged: list[Arrange] = []  # Chinese poker arrangements so far, from the declarer on
        # pairs whose double came after the doubled seat's first-round turn
        self._late: set[int] = set()
        self._dbl_cache: tuple[tuple[int, int], tuple[Double, ...]] | None = None

    def clone(self) -> "Match":
        """A copy that shares nothing mutable with this match (the rng is copied too)."""
        m = object.__new__(type(self))
        for name in self.slot_names():
            setattr(m, name, getattr(self, name))
        if self.seed is None:
            m.rng = random.Random()
            m.rng.setstate(self.rng.getstate())
        m.history = list(self.history)
        m.contracts_left = [set(s) for s in self.contracts_left]
        m.dbl_count = [list(r) for r in self.dbl_count]
        m.hands = list(self.hands)
        m.business = dict(self.business)
        m.dbl_queue = list(self.dbl_queue)
        m.dbl_turn_taken = list(self.dbl_turn_taken)
        m.trick = list(self.trick)
        m.won = list(self.won)
        m.tricks_won = list(self.tricks_won)
        m.winners = list(self.winners)
        m.trick_log = list(self.trick_log)
        m.layout = list(self.layout)
        m.finished = list(self.finished)
        m.domino_passes = list(self.domino_passes)
        m.arranged = list(self.arranged)
        m._late = set(self._late)
        m.results = list(self.results)
        m.totals = list(self.totals)
        return m

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def to_act(self) -> int | None:
        """The seat to act, `CHANCE` for a random event, or None when the match is over."""
        ph = self.phase
        if ph == PLAY or ph == DOMINO_PLAY or ph == ARRANGE:
            return self.turn
        if ph == DRAW or ph == DEAL:
            return CHANCE
        if ph == DOUBLING:
            return self.dbl_queue[0]
        if ph == OVER:
            return None
        return self.declarer

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> tuple:
        """Exactly the actions the seat to act may take (empty at chance nodes and at the end)."""
        ph = self.phase
        if ph == PLAY:
            return cards_of(self._play_mask())
        if ph == DOMINO_PLAY:
            m = self.hands[self.turn] & self.playable
            if self.bonus_turn:
                return cards_of(m) + (PASS,)
            return cards_of(m) if m else (PASS,)
        if ph == DECLARE:
            return tuple(Declare(c.key) for c in self._choosable())
        if ph == ARRANGE:
            return Arrangements(self.hands[self.turn])  # type: ignore[return-value]
        if ph == TRUMP:
            suits: list[int | None] = list(range(4))
            if self.rules.allow_no_trump:
                suits.append(None)
            return tuple(NameTrump(s) for s in suits)
        if ph == RANK:
            return tuple(NameRank(r) for r in range(13) if self._rank_in_deck(r))
        if ph == DOUBLING:
            return self._doubling_actions(self.dbl_queue[0])
        return ()

    def legal_mask(self) -> int:
        """The legal cards as a bitmask (play phases only): the bots' fast path."""
        if self.phase == PLAY:
            return self._play_mask()
        if self.phase == DOMINO_PLAY:
            return self.hands[self.turn] & self.playable
        return 0

    def _choosable(self) -> list[Contract]:
        """Contracts the declarer may still name in this deal."""
        left = self.contracts_left[self.declarer]
        return [c for c in self.contracts if c.key in left and not c.needs_in_play & self.set_aside]

    def _rank_in_deck(self, r: int) -> bool:
        return any(self.deck >> (s * 13 + r) & 1 for s in range(4))

    def _play_mask(self) -> int:
        hand = self.hands[self.turn]
        if not self.trick:
            mode = self.heart_mode
            if mode:
                others = hand & ~HEARTS_MASK
                if others and (mode == 1 or (mode == 2 and not self.winners)
                               or (mode == 3 and not self.hearts_broken)):
                    return others
            return hand
        follow = hand & self.led_mask
        tm = self.trump_mask
        if not tm:
            return follow or hand
        if self.led_mask == tm:  # trumps led
            if follow and self.rules.trump_rules == "classic":
                top = (self.trick_mask & tm).bit_length()
                higher = follow >> top << top
                return higher or follow
            return follow or hand
        if follow:
            return follow
        my_trumps = hand & tm
        if not my_trumps:
            return hand
        played = self.trick_mask & tm
        if not played:
            return my_trumps
        top = played.bit_length()
        over = my_trumps >> top << top
        return over or hand

    def _explain(self, card: int) -> IllegalAction:
        """Why a card the seat holds is not legal now: the refusal, with its code."""
        hand = self.hands[self.turn]
        if self.phase == DOMINO_PLAY:
            s = card // 13
            if self.layout[s] is None:
                return IllegalAction.of(R.DOMINO_ROW_NOT_STARTED, card=card, suit=s, rank=self.rank or 0)
            return IllegalAction.of(R.DOMINO_NOT_NEXT, card=card)
        if not self.trick:
            return IllegalAction.of(R.NO_HEART_LEAD_UNTIL_DISCARD if self.heart_mode == 3 else
                                    R.NO_HEART_LEAD_FIRST_TRICK if self.heart_mode == 2 else R.NO_HEART_LEAD)
        led = (self.led_mask.bit_length() - 1) // 13
        if hand & self.led_mask and not (self.led_mask >> card & 1):
            return IllegalAction.of(R.FOLLOW_SUIT, suit=led)
        tm = self.trump_mask
        if self.led_mask == tm:
            return IllegalAction.of(R.MUST_OVERTRUMP_LED)
        if not self.trick_mask & tm:
            return IllegalAction.of(R.MUST_TRUMP, suit=led)
        return IllegalAction.of(R.MUST_OVERTRUMP)

    # ------------------------------------------------------------------ doubling
    def _may_be_doubled_by(self, s: int) -> list[int]:
        """Seats s may double now (no business yet with them)."""
        dealer = self.dealer
        if s == dealer:
            return []
        business = self.business
        bs = 1 << s
        if self.contract.positive:  # type: ignore[union-attr]
            return [] if bs | 1 << dealer in business else [dealer]
        return [p for p in range(self.n) if p != s and bs | 1 << p not in business]

    def _redoublable(self, s: int) -> list[int]:
        """Seats whose double on s is not yet redoubled."""
        return [b.doubler for b in self.business.values() if b.doubled == s and not b.redoubled]

    def must_double_dealer(self, s: int) -> bool:
        """Whether s is forced to double the dealer now by the obligation."""
        if s == self.dealer or not self.dbl_first_round:
            return False
        owed = self.rules.double_obligation - self.dbl_count[self.declarer][s]
        if owed <= 0:
            return False
        deals_left = len(self.contracts_left[self.declarer]) + 1
        return deals_left <= owed

    def doubles_owed(self, s: int) -> int:
        """Doubles s still owes the current declarer in his series."""
        return max(0, self.rules.double_obligation - self.dbl_count[self.declarer][s])

    def _doubling_actions(self, s: int) -> tuple[Double, ...]:
        key = (s, len(self.history))
        cached = self._dbl_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        acts = self._make_doubling_actions(s)
        self._dbl_cache = (key, acts)
        return acts

    def _make_doubling_actions(self, s: int) -> tuple[Double, ...]:
        """First round: double anyone one may, redouble any double received.  After the round:
        only redouble doubles received after one's own turn."""
        if self.dbl_first_round:
            fresh = self._may_be_doubled_by(s)
            redo = self._redoublable(s)
        else:
            fresh = []
            redo = [p for p in self._redoublable(s) if self._late_double(p, s)]
        subsets = _subsets(tuple(sorted(fresh + redo)))
        if self.must_double_dealer(s) and self.dealer in fresh and not self.lenient:
            return tuple(d for d in subsets if self.dealer in d.targets)
        return subsets

    def _late_double(self, doubler: int, s: int) -> bool:
        """True if doubler's double on s came after s had taken his first-round turn."""
        return (1 << s | 1 << doubler) in self._late

    def _apply_double(self, action: Double) -> None:
        s = self.dbl_queue[0]
        legal = self._doubling_actions(s)
        if action not in legal:
            raise self._explain_double(s, action)
        for p in action.targets:
            key = 1 << s | 1 << p  # the pair, as a two-bit mask
            b = self.business.get(key)
            if b is not None:  # p doubled s: this is a redouble
                self.business[key] = b._replace(redoubled=True)
            else:
                self.business[key] = Business(s, p)
                if self.dbl_turn_taken[p]:
                    self._late.add(key)
                if p == self.dealer:
                    self.dbl_count[self.declarer][s] += 1
        self.dbl_turn_taken[s] = True
        self.dbl_queue.pop(0)
        if not self.dbl_queue and self.dbl_first_round:
            self.dbl_first_round = False
            for i in range(1, self.n + 1):
                p = (self.dealer + i) % self.n
                if any(self._late_double(d, p) for d in self._redoublable(p)):
                    self.dbl_queue.append(p)
        if not self.dbl_queue:
            self._end_doubling()

    def _explain_double(self, s: int, action: Double) -> IllegalAction:
        """Why seat s may not make this doubling action now: the refusal, with its code."""
        if not isinstance(action, Double):
            return IllegalAction.of(R.NOT_A_DOUBLE, action=str(action))
        targets = action.targets
        if s in targets:
            return IllegalAction.of(R.DOUBLE_SELF)
        bad = [p for p in targets if not 0 <= p < self.n]
        if bad:
            return IllegalAction.of(R.NO_SUCH_SEAT, seat=bad[0])
        if s == self.dealer:
            if targets - set(self._redoublable(s)):
                return IllegalAction.of(R.DEALER_NEVER_DOUBLES)
        if self.contract and self.contract.positive and targets - {self.dealer} - set(self._redoublable(s)):
            return IllegalAction.of(R.POSITIVE_ONLY_DEALER, contract=self.contract.key, name=self.contract.name)
        if not self.dbl_first_round:
            return IllegalAction.of(R.ONLY_REDOUBLE_NOW)
        for p in targets:
            b = self.business.get(1 << s | 1 << p)
            if b is not None and (b.doubler == s or b.redoubled):
                return IllegalAction.of(R.ALREADY_BUSINESS, seat=p)
        if self.must_double_dealer(s) and self.dealer not in targets:
            return IllegalAction.of(R.MUST_DOUBLE_DEALER, seat=self.dealer, n=self.doubles_owed(s))
        return IllegalAction.of(R.DOUBLE_NOT_ALLOWED, action=str(action))

    def _end_doubling(self) -> None:
        contract = self.contract
        assert contract is not None
        if (not self.business and not contract.positive and self.rules.doubling != "none"
                and self.rules.undoubled_negative == "split"):
            self._finish_deal(played=False)
            return
        self._start_play()

    # ------------------------------------------------------------------ play
    def _start_play(self) -> None:
        contract = self.contract
        assert contract is not None
        self.turn = self.declarer
        self.leader = self.declarer
        self.in_hands = 0
        for h in self.hands:
            self.in_hands |= h
        if contract.kind == CHINESE:
            self.phase = ARRANGE
            return
        if contract.kind == DOMINO:
            self.phase = DOMINO_PLAY
            if contract.open_any:  # Success: the first card is free and fixes the rank
                self.playable = self.deck
            else:
                r = self.rank if self.rank is not None else 0
                self.playable = sum(1 << (s * 13 + r) for s in range(4)) & self.deck
            return
        self.phase = PLAY
        self.heart_mode = _HEART_MODES[self.rules.heart_lead] if contract.heart_ban else 0
        self.trump_mask = SUIT_MASK[self.trump] if contract.trump and self.trump is not None else 0
        self.head_mask = self.trump_mask if self.rules.trump_rules == "classic" else 0
        self.stop_mask = contract.penalty_mask if self.rules.stop_when_decided and contract.decided_by_cards else 0

    def _apply_card(self, card: int) -> None:
        turn = self.turn
        bit = 1 << card
        hand = self.hands[turn]
        if not hand & bit:
            raise IllegalAction.of(C.YOU_DO_NOT_HOLD, card=card)
        trick = self.trick
        # Cheap checks first; the full rule (_play_mask) only where trumps or the heart ban bite.
        if trick:
            led = self.led_mask
            if bit & led:
                if led == self.head_mask and not self._play_mask() & bit:
                    raise self._explain(card)
            elif hand & led or (self.trump_mask and not self._play_mask() & bit):
                raise self._explain(card)
        elif self.heart_mode and not self._play_mask() & bit:
            raise self._explain(card)
        self.hands[turn] = hand ^ bit
        in_hands = self.in_hands ^ bit
        self.in_hands = in_hands
        trick.append(card)
        tm = self.trick_mask | bit
        k = len(trick)
        if k == 1:
            self.led_mask = SUIT_MASK[card // 13]
        if k < self.n:
            self.trick_mask = tm
            self.turn = (turn + 1) % self.n
            return
        # The trick is complete.
        trumps = tm & self.trump_mask
        top = (trumps or (tm & self.led_mask)).bit_length() - 1
        leader = self.leader
        winner = (leader + trick.index(top)) % self.n
        self.won[winner] |= tm
        self.tricks_won[winner] += 1
        self.winners.append(winner)
        self.trick_log.append((leader, tuple(trick)))
        if tm & HEARTS_MASK:
            self.hearts_broken = True
        self.trick = []
        self.trick_mask = 0
        self.led_mask = 0
        self.leader = self.turn = winner
        stop = self.stop_mask
        if not in_hands or (stop and not in_hands & stop):
            self._finish_deal(played=True)

    def _apply_domino(self, action: Any) -> None:
        turn = self.turn
        contract = self.contract
        assert contract is not None
        if isinstance(action, Pass):
            if self.bonus_turn:  # declining the extra card after an ace says nothing about the hand
                self.bonus_turn = False
            else:
                if self.hands[turn] & self.playable:
                    raise IllegalAction.of(R.DOMINO_PASS_WITH_CARD)
                self.domino_passes.append((turn, self.playable))
                self.passes_in_row += 1
                if self.passes_in_row >= sum(1 for h in self.hands if h):
                    # Nobody can lay a card any more (cards set aside block the rows): the deal ends.
                    self._finish_deal(played=True)
                    return
        else:
            card = int(action)
            bit = 1 << card
            if not self.hands[turn] & bit:
                raise IllegalAction.of(C.YOU_DO_NOT_HOLD, card=card)
            if not self.playable & bit:
                raise self._explain(card)
            self.bonus_turn = False
            self.passes_in_row = 0
            self.hands[turn] ^= bit
            self.in_hands ^= bit
            self.playable ^= bit
            s, r = divmod(card, 13)
            if contract.open_any and self.rank is None:
                self.rank = r
                self.playable = sum(1 << (x * 13 + r) for x in range(4)) & self.deck & ~bit
            high_ace = self.rules.domino_ace == "high"
            pos = self._pos(r, high_ace)
            span = self.layout[s]
            if span is None:
                self.layout[s] = (pos, pos)
                for p in (pos - 1, pos + 1):
                    self._add_playable(s, p, high_ace)
            elif pos < span[0]:
                self.layout[s] = (pos, span[1])
                self._add_playable(s, pos - 1, high_ace)
            else:
                self.layout[s] = (span[0], pos)
                self._add_playable(s, pos + 1, high_ace)
            self.trick_log.append((turn, (card,)))
            if not self.hands[turn]:
                self.finished.append(turn)
                left = [p for p in range(self.n) if self.hands[p]]
                if contract.ends_after and len(self.finished) >= contract.ends_after:
                    self._finish_deal(played=True)
                    return
                if not left or (len(left) == 1 and self.rules.stop_when_decided):
                    self.finished.extend(left)
                    self._finish_deal(played=True)
                    return
            elif contract.ace_again and r == ACE:
                # The same player may lay one more card, or pass.  Offered even when nothing fits, so
                # that the offer itself tells the table nothing about his hand.
                self.bonus_turn = True
                return
        n = self.n
        nxt = (turn + 1) % n
        while not self.hands[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _apply_arrange(self, action: Any) -> None:
        """Chinese poker: each seat in turn, from the declarer, lays out its rows face down."""
        if not isinstance(action, Arrange):
            raise IllegalAction.of(R.TIME_TO_ARRANGE, action=str(action))
        hand = self.hands[self.turn]
        if action not in Arrangements(hand):
            rows = (action.back.bit_count(), action.middle.bit_count(), action.front.bit_count())
            if rows != (5, 5, 3):
                raise IllegalAction.of(R.ROW_SIZES, back=rows[0], middle=rows[1], front=rows[2])
            raise IllegalAction.of(R.ROWS_NOT_HAND)
        self.arranged.append(action)
        if len(self.arranged) == self.n:
            self._finish_deal(played=True)
            return
        self.turn = (self.turn + 1) % self.n

    @staticmethod
    def _pos(rank: int, high_ace: bool) -> int:
        if high_ace:
            return rank
        return 0 if rank == ACE else rank + 1

    def _add_playable(self, suit: int, pos: int, high_ace: bool) -> None:
        if not 0 <= pos <= 12:
            return
        rank = pos if high_ace else (ACE if pos == 0 else pos - 1)
        card = suit * 13 + rank
        if self.deck >> card & 1:
            self.playable |= 1 << card

    # ------------------------------------------------------------------ scoring
    def _finish_deal(self, played: bool) -> None:
        contract = self.contract
        assert contract is not None
        n = self.n
        if not played:
            base = split_undoubled(contract.total(n, self.hand_size, self.deck & ~self.set_aside), n, self.dealer)
        elif contract.kind == DOMINO:
            base = score_finishing(contract, self.finished, n)
        elif contract.kind == CHINESE:
            order = [(self.declarer + i) % n for i in range(n)]
            by_seat = [self.arranged[order.index(s)] for s in range(n)]
            base = score_arrangements(by_seat)
        else:
            base = score_tricks(contract, n, self.won, self.tricks_won, self.winners)
        scores, series = self.deal_points(base)
        for s in range(n):
            self.totals[s] += scores[s]
        for s in range(len(series)):
            self.totals[s] += series[s]
        self.results.append(DealResult(
            number=self.deal_no + 1, dealer=self.dealer, declarer=self.declarer, contract=contract.key,
            trump=self.trump, rank=self.rank, doubles=tuple(sorted(self.business.values(),
                                                                  key=lambda b: (b.doubler, b.doubled))),
            played=played, base=tuple(base), scores=tuple(scores), hands=self.dealt,
            tricks=tuple(self.trick_log), finishing=tuple(self.finished), set_aside=self.set_aside,
            arrangements=tuple(self.arranged[(s - self.declarer) % n] for s in range(n)) if self.arranged else (),
            series=series))
        self.deal_no += 1
        if self.deal_no >= self.total_deals:
            self.phase = OVER
            return
        if self.rules.rotation == "quick" or not self.contracts_left[self.declarer]:
            self.declarer = self.dealer = (self.dealer + 1) % n
        self.phase = DEAL

    def deal_points(self, base: list[int]) -> tuple[list[int], tuple]:
        """The deal's scores (its doubles settled) and any series points, were the deal in play to end
        with these base points now.  `_finish_deal` counts with it, and so do playouts that score a
        deal without playing it in the engine (`barbu.agents.search`)."""
        n = self.n
        scores = settle(base, self.business.values())
        series: tuple = ()
        series_end = self.rules.family_spec.series_end
        if series_end is not None and not self.contracts_left[self.declarer]:
            own = [r.scores for r in self.results if r.declarer == self.declarer] + [scores]
            series = tuple(series_end([sum(x[s] for x in own) for s in range(n)], self.declarer))
        return scores, series

    def points_added(self, base: list[int] | tuple[int, ...]) -> tuple:
        """What the deal in play would add to the running totals, were it to end with these base points
        now: the `DealResult.added` it would record."""
        scores, series = self.deal_points(list(base))
        return added_points(tuple(scores), series)

    def finish_counted(self, won: list[int], tricks_won: list[int], winners: list[int],
                       finished: list[int] = (), arranged: list[Arrange] = (),  # type: ignore[assignment]
                       trick_log: list[tuple[int, tuple[int, ...]]] = ()) -> None:  # type: ignore[assignment]
        """End the deal in play from what was counted at a real table rather than played here.

        The scorekeeper's path: ``won`` holds cards each seat took (the penalty cards matter),
        ``winners`` the winners of the last tricks, ``finished`` the finishing order, ``arranged``
        the Chinese poker rows by seat.  Scoring, doubles and series points are the engine's own.
        """
        if self.phase not in (PLAY, DOMINO_PLAY, ARRANGE):
            raise IllegalAction.of(R.NO_DEAL_PLAYED)
        n = self.n
        self.won = list(won)
        self.tricks_won = list(tricks_won)
        self.winners = list(winners)
        self.finished = list(finished)
        self.trick_log = list(trick_log)
        if arranged:
            self.arranged = [arranged[(self.declarer + i) % n] for i in range(n)]
        self._finish_deal(True)

    # ------------------------------------------------------------------ apply
    def apply(self, action: Any, seat: int | None = None) -> None:
        """Advance by one action; with ``seat``, first check it is that seat's turn."""
        ph = self.phase
        if ph == PLAY and type(action) is Card and seat is None:  # the hot path
            self._apply_card(action)
            self.history.append(action)
            return
        if isinstance(action, str):
            action = self.parse_action(action)
        if seat is not None:
            actor = self.to_act()
            if actor != seat:
                if actor is None:
                    raise IllegalAction.of(C.MATCH_OVER)
                raise (IllegalAction.of(C.NOT_YOUR_TURN_CHANCE) if actor == CHANCE
                       else IllegalAction.of(C.NOT_YOUR_TURN, seat=actor))
        self._apply_phase(ph, action)
        self.history.append(action)

    def _apply_phase(self, ph: int, action: Any) -> None:
        """Check and apply one (parsed) action in phase ``ph``; families with phases of their own extend it."""
        if ph == PLAY:
            if type(action) is not Card and not (isinstance(action, int) and not isinstance(action, bool)):
                raise IllegalAction.of(R.TIME_TO_PLAY, action=str(action))
            if not 0 <= action < 52:
                raise IllegalAction.of(C.NOT_A_CARD_NUMBER, action=str(action))
            self._apply_card(action)
        elif ph == DOMINO_PLAY:
            if not isinstance(action, (int, Pass)) or isinstance(action, bool):
                raise IllegalAction.of(R.TIME_TO_PLAY_DOMINO, action=str(action))
            if isinstance(action, int) and not 0 <= action < 52:
                raise IllegalAction.of(C.NOT_A_CARD_NUMBER, action=str(action))
            self._apply_domino(action)
        elif ph == ARRANGE:
            self._apply_arrange(action)
        elif ph == DOUBLING:
            if not isinstance(action, Double):
                raise IllegalAction.of(R.NOT_A_DOUBLE, action=str(action))
            self._apply_double(action)
        elif ph == DECLARE:
            self._apply_declare(action)
        elif ph == TRUMP:
            self._apply_trump(action)
        elif ph == RANK:
            self._apply_rank(action)
        elif ph == DEAL:
            self._apply_deal(action)
        elif ph == DRAW:
            self._apply_draw(action)
        else:
            raise IllegalAction.of(C.MATCH_OVER)

    def _apply_draw(self, action: Any) -> None:
        if not isinstance(action, Draw):
            raise IllegalAction.of(R.NOT_A_DRAW, action=str(action))
        cards = action.cards
        if len(cards) != self.n or len(set(cards)) != self.n or any(not self.deck >> c & 1 for c in cards):
            raise IllegalAction.of(R.DRAW_SHAPE, n=self.n)
        ranks = [c % 13 for c in cards]
        top = max(ranks)
        if ranks.count(top) == 1:
            self.dealer = self.declarer = ranks.index(top)
            self.phase = DEAL

    def _apply_deal(self, action: Any) -> None:
        if not isinstance(action, Deal):
            raise IllegalAction.of(R.NOT_A_DEAL, action=str(action))
        hands = action.hands
        if len(hands) != self.n:
            raise IllegalAction.of(R.DEAL_HANDS, n=self.n)
        union = 0
        for h in hands:
            if h.bit_count() != self.hand_size or union & h:
                raise IllegalAction.of(R.DEAL_HAND_SIZE, n=self.hand_size)
            union |= h
        if union & ~self.deck:
            raise IllegalAction.of(R.DEAL_OUTSIDE_DECK)
        self.deal_start = len(self.history)
        self._reset_deal()
        self.hands = list(hands)
        self.dealt = tuple(hands)
        self.set_aside = self.deck & ~union
        self._after_deal()

    def _after_deal(self) -> None:
        """What follows the deal: the declaration (families with cuts and pass-ons extend it)."""
        # A declarer left only with contracts the set-aside cards forbid gets a new deal.
        self.phase = DECLARE if self._choosable() else DEAL

    def _apply_declare(self, action: Any) -> None:
        if not isinstance(action, Declare):
            raise IllegalAction.of(R.NAME_A_CONTRACT, action=str(action))
        c = self.contract_by_key.get(action.contract)
        if c is None:
            raise IllegalAction.of(R.UNKNOWN_CONTRACT, contract=action.contract,
                                   contracts=[(c.key, c.name) for c in self.contracts])
        if action.contract not in self.contracts_left[self.declarer]:
            raise IllegalAction.of(R.CONTRACT_PLAYED, contract=c.key, name=c.name)
        if c.needs_in_play & self.set_aside:
            raise IllegalAction.of(R.CONTRACT_SET_ASIDE, contract=c.key, name=c.name,
                                   cards=[int(x) for x in cards_of(c.needs_in_play & self.set_aside)])
        self.contracts_left[self.declarer].discard(action.contract)
        self.contract = c
        if c.trump:
            self.phase = TRUMP
        elif c.kind == DOMINO and not c.open_any:
            self.phase = RANK
        else:
            self._start_doubling()

    def _apply_trump(self, action: Any) -> None:
        if not isinstance(action, NameTrump):
            raise IllegalAction.of(R.NAME_TRUMP, action=str(action))
        if action.suit is None and not self.rules.allow_no_trump:
            raise IllegalAction.of(R.NO_TRUMP_FORBIDDEN)
        if action.suit is not None and action.suit not in range(4):
            raise IllegalAction.of(R.BAD_TRUMP)
        self.trump = action.suit
        self._start_doubling()

    def _apply_rank(self, action: Any) -> None:
        if not isinstance(action, NameRank):
            raise IllegalAction.of(R.NAME_RANK, action=str(action))
        if action.rank not in range(13) or not self._rank_in_deck(action.rank):
            raise IllegalAction.of(R.RANK_NOT_IN_DECK)
        self.rank = action.rank
        self._start_doubling()

    def _start_doubling(self) -> None:
        if self.rules.doubling == "none":
            self._start_play()
            return
        self.phase = DOUBLING
        self.dbl_queue = [(self.dealer + i) % self.n for i in range(1, self.n + 1)]
        self.dbl_first_round = True
        self._late = set()

    # ------------------------------------------------------------------ chance
    def sample_chance(self, rng: random.Random | None = None) -> Any:
        """A random outcome for the chance node (from the match's own seeded rng by default)."""
        if rng is None:
            # Seeded per event: a match resumed from its record deals the same future cards.
            rng = self.rng if self.seed is None else random.Random(self.seed * 1_000_003 + len(self.history))
        if self.phase == DRAW:
            return Draw(tuple(rng.sample(cards_of(self.deck), self.n)))
        if self.phase == DEAL:
            # Sorting by random keys is a uniform shuffle, and faster than random.shuffle.
            rand = rng.random
            cards = sorted(self._deck_list, key=lambda _: rand())
            k = self.hand_size
            hands = []
            for i in range(0, k * self.n, k):  # any cards beyond n hands stay set aside
                m = 0
                for c in cards[i:i + k]:
                    m |= _BIT[c]
                hands.append(m)
            return Deal(tuple(hands))
        raise IllegalAction.of(C.NO_CHANCE_DUE)

    def play_chance(self) -> Any:
        """Sample and apply the pending chance event; returns it."""
        a = self.sample_chance()
        self.apply(a)
        return a

    # ------------------------------------------------------------------ undo
    def undo(self) -> Any:
        """Take back the last action (chance included) and return it.

        The match is rebuilt by replaying its history: a few milliseconds, and
        no per-deal snapshot slows the playouts down.  Search uses `clone()`.
        """
        if not self.history:
            raise IllegalAction.of(C.NOTHING_TO_UNDO)
        target = len(self.history) - 1
        last = self.history[target]
        base = type(self)(self.rules, self.seed)
        replay = self.history[:target]
        rng_state = self.rng.getstate()
        for a in replay:
            base.apply(a)
        for name in self.slot_names():
            setattr(self, name, getattr(base, name))
        self.rng.setstate(rng_state)
        return last

    # ------------------------------------------------------------------ parsing
    def parse_action(self, text: str) -> Any:
        """Read an action typed for the current phase: ``QH``, ``no-queens``, ``trump H``, ``double 1 3``…"""
        t = " ".join(text.strip().lower().split())
        ph = self.phase
        if ph == PLAY:
            return CARDS[parse_card(t)]
        if ph == DOMINO_PLAY:
            return PASS if t in ("pass", "p", "-") else CARDS[parse_card(t)]
        if ph == DECLARE:
            key = t.removeprefix("contract ").replace(" ", "-")
            key = CONTRACT_ALIASES.get(key.replace("-", ""), CONTRACT_ALIASES.get(key, key))
            if key not in self.contract_by_key:
                names = {c.name.lower(): c.key for c in self.contracts}
                key = names.get(t.removeprefix("contract "), key)
            if key not in self.contract_by_key:
                raise ParseError.of(R.NOT_A_CONTRACT_TEXT, text=text,
                                   contracts=[(c.key, c.name) for c in self.contracts])
            return Declare(key)
        if ph == TRUMP:
            return NameTrump(parse_suit(t.removeprefix("trump ")))
        if ph == RANK:
            return NameRank(parse_rank(t.removeprefix("rank ")))
        if ph == DOUBLING:
            return self._parse_double(t)
        if ph == ARRANGE:
            return parse_arrange(text)
        if ph in (DRAW, DEAL):
            return parse_chance(text, self.n)
        raise ParseError.of(R.NO_ACTION_EXPECTED)

    def _parse_double(self, t: str) -> Double:
        s = self.dbl_queue[0]
        if t in ("pass", "p", "no", "-", "double"):
            return NO_DOUBLE if t != "double" else self._bad_double(t)
        if t in ("maximum", "max", "table"):
            # Doubles everyone one may double and redoubles every double one may redouble now.  A
            # non-dealer's maximum leaves nobody who could double him later, so no standing order is needed.
            return max(self._doubling_actions(s), key=lambda d: len(d.targets))
        if t in ("family", "flanks"):
            return Double(frozenset(p for p in range(self.n) if p not in (s, self.dealer)))
        words = t.replace(",", " ").split()
        if words and words[0] in ("double", "redouble", "x", "xx", "d", "r"):
            words = [w for w in words if w not in ("double", "redouble", "x", "xx", "d", "r", "and")]
        try:
            seats = frozenset(int(w) for w in words)
        except ValueError:
            raise ParseError.of(R.NOT_A_DOUBLING_CALL, text=t) from None
        if not seats:
            return self._bad_double(t)
        return Double(seats)

    @staticmethod
    def _bad_double(t: str) -> Double:
        raise ParseError.of(R.SAY_WHOM, text=t)

    # ------------------------------------------------------------------ views
    def view(self, seat: int):  # -> View
        return make_view(self, seat)

    def views(self) -> list:  # -> list[View]
        """Every seat's view, cheaper than asking each seat in turn."""
        return make_views(self)

    def _view_extras(self, seat: int, in_deal: bool) -> dict[str, Any]:
        """View fields a family fills in its own way (the Scottish pass-ons); none here."""
        return {}

    # ------------------------------------------------------------------ convenience
    def current_trick(self) -> list[tuple[int, Card]]:
        return [((self.leader + i) % self.n, CARDS[c]) for i, c in enumerate(self.trick)]

    def seat_name(self, seat: int) -> str:
        return seat_name(seat, self.n)

    def totals_after(self, deals: int) -> list[int]:
        """Running totals after the first ``deals`` finished deals."""
        t = [0] * self.n
        for r in self.results[:deals]:
            for s in range(self.n):
                t[s] += r.added[s]
        return t

    def standings(self) -> list[tuple[int, int]]:
        """(seat, total) best first, by the family's rule of who wins."""
        rev = self.rules.family_spec.highest_wins
        return sorted(enumerate(self.totals), key=lambda t: (-t[1] if rev else t[1], t[0]))

    @classmethod
    def replay(cls, rules: Ruleset | str, actions: Iterable[Any], seed: int | None = None) -> "Match":
        m = cls(rules, seed)
        for a in actions:
            m.apply(a)
        return m



_SLOT_NAMES: dict[type, tuple[str, ...]] = {}
_DOUBLES: dict[tuple[int, ...], Double] = {}
_SUBSETS: dict[tuple[int, ...], tuple[Double, ...]] = {}


def _double(targets: tuple[int, ...]) -> Double:
    """Interned doubling actions: the doubling round builds the same few values again and again."""
    d = _DOUBLES.get(targets)
    if d is None:
        d = _DOUBLES[targets] = Double(frozenset(targets)) if targets else NO_DOUBLE
    return d


def _subsets(cands: tuple[int, ...]) -> tuple[Double, ...]:
    """Every doubling action over a sorted tuple of candidate seats, smallest first."""
    out = _SUBSETS.get(cands)
    if out is None:
        out = _SUBSETS[cands] = tuple(_double(c) for k in range(len(cands) + 1)
                                      for c in combinations(cands, k))
    return out


def settle(base: list[int], business: Iterable[Business]) -> list[int]:
    """Apply the doubles: for each pair, the lower pays the higher the difference (twice if redoubled)."""
    scores = list(base)
    for b in business:
        diff = (base[b.doubler] - base[b.doubled]) * (2 if b.redoubled else 1)
        scores[b.doubler] += diff
        scores[b.doubled] -= diff
    return scores


def split_undoubled(total: int, n: int, dealer: int) -> list[int]:
    """No doubles, no play: each non-dealer takes total/(n-1) rounded away from zero, the dealer the rest."""
    each = -((-abs(total)) // (n - 1))
    each = each if total >= 0 else -each
    scores = [each] * n
    scores[dealer] = total - each * (n - 1)
    return scores


def seat_name(seat: int, n: int) -> str:
    """Seats are numbered from 0 everywhere, in text forms and on screen alike."""
    return f"seat {seat}"
