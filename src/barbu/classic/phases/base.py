"""The fields of a match that every phase reads and writes, a fresh deal, and a cheap copy.

The fields are slots: search copies a match for every playout, and slots keep
both the copy and the hot path's attribute reads cheap.  They are declared here
once, with their types, so that each phase's module can use them.
"""

from __future__ import annotations

import random
from typing import Any, Self

from ...core.actions import Double
from ...core.cards import cards_of
from ..chinese import Arrange
from ..contracts import Contract
from ..ruleset import Ruleset
from ..state import DRAW, Business, DealResult, Points

_SLOT_NAMES: dict[type, tuple[str, ...]] = {}


class MatchState:
    """What a match is made of: the ruleset's facts, the match so far, and the deal in play."""

    __slots__ = (
        "rules",
        "n",
        "contracts",
        "contract_by_key",
        "deck",
        "hand_size",
        "total_deals",
        "series_length",
        "rng",
        "seed",
        "phase",
        "history",
        "dealer",
        "declarer",
        "deal_no",
        "contracts_left",
        "dbl_count",
        "hands",
        "dealt",
        "contract",
        "trump",
        "rank",
        "business",
        "dbl_queue",
        "dbl_first_round",
        "dbl_turn_taken",
        "turn",
        "leader",
        "trick",
        "trick_mask",
        "led_mask",
        "trump_mask",
        "won",
        "tricks_won",
        "winners",
        "trick_log",
        "in_hands",
        "hearts_broken",
        "heart_mode",
        "playable",
        "layout",
        "finished",
        "domino_passes",
        "results",
        "totals",
        "deal_start",
        "_late",
        "_dbl_cache",
        "head_mask",
        "stop_mask",
        "_deck_list",
        "set_aside",
        "bonus_turn",
        "passes_in_row",
        "arranged",
        "lenient",
    )

    # -- from the ruleset
    rules: Ruleset
    n: int
    contracts: tuple[Contract, ...]
    contract_by_key: dict[str, Contract]
    deck: int
    _deck_list: list[int]
    hand_size: int
    total_deals: int
    series_length: int  # deals in each declarer's series: every contract, or the short match's count
    seed: int | None
    rng: random.Random
    # -- the match so far
    phase: int
    history: list[Any]  # the actions applied, chance included: any game's of the family (the Scottish ones too)
    dealer: int
    declarer: int
    deal_no: int  # deals finished so far
    contracts_left: list[set[str]]
    dbl_count: list[list[int]]  # dbl_count[declarer][seat]: doubles seat made on declarer in declarer's series
    results: list[DealResult]
    totals: list[Points]
    deal_start: int  # index in history of the current deal's Deal action
    lenient: bool
    # -- the deal in play
    hands: list[int]
    dealt: tuple[int, ...]
    contract: Contract | None
    trump: int | None
    rank: int | None
    business: dict[int, Business]  # keyed by the pair as a two-bit mask
    dbl_queue: list[int]
    dbl_first_round: bool
    dbl_turn_taken: list[bool]
    _late: set[int]  # pairs whose double came after the doubled seat's first-round turn
    _dbl_cache: tuple[tuple[int, int], tuple[Double, ...]] | None
    turn: int
    leader: int
    trick: list[int]
    trick_mask: int
    led_mask: int
    trump_mask: int
    head_mask: int
    stop_mask: int
    won: list[int]
    tricks_won: list[int]
    winners: list[int]
    trick_log: list[tuple[int, tuple[int, ...]]]
    in_hands: int
    hearts_broken: bool
    heart_mode: int
    playable: int
    layout: list[tuple[int, int] | None]
    finished: list[int]
    domino_passes: list[tuple[int, int]]
    set_aside: int
    bonus_turn: bool
    passes_in_row: int
    arranged: list[Arrange]

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
        self.contracts = fam.contracts(rules)
        self.contract_by_key = {c.key: c for c in self.contracts}
        self.deck = fam.deck(rules)
        self._deck_list = list(cards_of(self.deck))
        self.hand_size = self.deck.bit_count() // self.n
        self.series_length = min(rules.contracts_each or len(self.contracts), len(self.contracts))
        self.total_deals = self.n * self.series_length
        self.seed = seed
        self.rng = random.Random(seed)
        self.phase = DRAW
        self.history = []
        self.dealer = -1
        self.declarer = -1
        self.deal_no = 0
        self.contracts_left = [set(self.contract_by_key) for _ in range(self.n)]
        self.dbl_count = [[0] * self.n for _ in range(self.n)]
        self.results = []
        self.totals = [0] * self.n
        self.deal_start = -1
        # A scorekeeper records doubles made at a real table: a missed obligation is flagged there, not refused.
        self.lenient = False
        self._reset_deal()

    def _reset_deal(self) -> None:
        """Clear the deal in play (families with fields of their own per deal extend it)."""
        n = self.n
        self.hands = [0] * n
        self.dealt = ()
        self.contract = None
        self.trump = None
        self.rank = None
        self.business = {}
        self.dbl_queue = []
        self.dbl_first_round = True
        self.dbl_turn_taken = [False] * n
        self.turn = -1
        self.leader = -1
        self.trick = []
        self.trick_mask = 0
        self.led_mask = 0
        self.trump_mask = 0
        self.head_mask = 0
        self.stop_mask = 0
        self.won = [0] * n
        self.tricks_won = [0] * n
        self.winners = []
        self.trick_log = []
        self.in_hands = 0
        self.hearts_broken = False
        self.heart_mode = 0
        self.playable = 0
        self.layout = [None] * 4
        self.finished = []
        self.domino_passes = []
        self.set_aside = 0  # cards dealt to nobody, face up (French rules with 3, 5 or 6 players)
        self.bonus_turn = False  # Success: the player who laid an ace may lay one more card
        self.passes_in_row = 0
        self.arranged = []  # Chinese poker arrangements so far, from the declarer on
        self._late = set()
        self._dbl_cache = None

    def series_left(self, seat: int) -> int:
        """Deals ``seat`` has still to declare: the contracts left to him, less those a short match skips."""
        return max(0, len(self.contracts_left[seat]) - (len(self.contracts) - self.series_length))

    def _view_extras(self, seat: int, in_deal: bool) -> dict[str, Any]:
        """View fields a family fills in its own way (the Scottish pass-ons); none here."""
        return {}

    def clone(self) -> Self:
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
