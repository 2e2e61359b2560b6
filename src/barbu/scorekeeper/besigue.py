"""Bésigue kept at a real table: each deal's declarations, sevens, brisques and last trick, to the target.

The values are the engine's (`MELD_VALUES` and the brisque, seven and last-trick
points of `barbu.besigue.actions`); a deal's result has the shape of
`BesigueGame.results`, so sheets and screens show kept and played games alike.
"""

from __future__ import annotations

import copy
from typing import Any, Sequence

from ..besigue.actions import BRISQUE_POINTS, LAST_TRICK_POINTS, MELD_NAMES, MELD_VALUES, SEVEN_POINTS
from ..besigue.ruleset import BesigueRules
from ..core.errors import RulesetError
from ..core.words import N_
from . import refusals as K
from .keeper import EntryLog, KeeperError, Needs
from .questions import COUNTS, SEATS, Question

MELDS = "melds"
MAX_MELDS = 12  # more of one kind in one deal than any real deal gives: a typing slip


MELDS_LABEL = N_("Declarations each player scored")
SEVENS_EXCHANGED = N_("Sevens of trumps each player scored (turned up, exchanged or shown)")
SEVENS_DRAWN = N_("Sevens of trumps each player scored (turned up, drawn and shown)")
BRISQUES_ACES_TENS = N_("Brisques (aces and tens) each player took in tricks")
BRISQUES_ACES = N_("Brisques (aces) each player took in tricks")


def besigue_questions(rules: BesigueRules) -> tuple[Question, ...]:
    tens = rules.brisques == "aces_and_tens"
    return (
        Question("melds", MELDS, MELDS_LABEL, choices=tuple((k, MELD_NAMES[k], v) for k, v in MELD_VALUES.items())),
        Question("sevens", COUNTS, SEVENS_EXCHANGED if rules.seven == "exchange" else SEVENS_DRAWN, maximum=2),
        Question("brisques", COUNTS, BRISQUES_ACES_TENS if tens else BRISQUES_ACES, total=16 if tens else 8),
        Question("last", SEATS, "Who took the last trick?", size=1),
    )


class BesigueKeeper(EntryLog):
    """A Bésigue game kept at a table: the same interface as `Keeper`."""

    game = "besigue"

    def __init__(
        self, rules: str | BesigueRules, names: Sequence[str], first: int = 0, entries: Sequence[dict] = ()
    ) -> None:
        try:
            self.rules = rules if isinstance(rules, BesigueRules) else BesigueRules.parse(rules)
        except RulesetError as e:
            raise KeeperError.wrap(e) from None
        names = [str(x).strip() for x in names]
        if len(names) != 2 or not all(names) or names[0].lower() == names[1].lower():
            raise KeeperError.of(K.BESIGUE_PLAYERS)
        if first not in (0, 1):
            raise KeeperError.of(K.BESIGUE_FIRST)
        self.names, self.first = names, first
        self.entries: list[dict] = []
        self.results: list[dict] = []
        self.flags: dict[int, list[str]] = {}
        self._undo: list[list[dict]] = []
        if entries:
            entries = [copy.deepcopy(e) for e in entries]
            self._install(entries, self._replay(entries))

    @property
    def n(self) -> int:
        return 2

    @property
    def totals(self) -> list[int]:
        return list(self.results[-1]["totals"]) if self.results else [0, 0]

    @property
    def is_over(self) -> bool:
        t = self.totals
        return max(t) >= self.rules.target and t[0] != t[1]

    def standings(self) -> list[tuple[int, int]]:
        return sorted(enumerate(self.totals), key=lambda x: (-x[1], x[0]))

    def needs(self, partial: dict | None = None) -> Needs:
        number = len(self.results) + 1
        if self.is_over:
            return Needs(number, "over")
        dealer = self.first if number % 2 else 1 - self.first
        if partial and "outcome" in partial:
            self._replay(self.entries + [partial])
            return Needs(number, "done", dealer=dealer)
        return Needs(number, "outcome", dealer=dealer, questions=besigue_questions(self.rules))

    def _rebuild(self, entries: list[dict]) -> list[dict]:
        return self._replay(entries)

    def _install(self, entries: list[dict], state: list[dict]) -> None:
        self.entries, self.results = entries, state

    def _replay(self, entries: list[dict]) -> list[dict]:
        results: list[dict] = []
        totals = [0, 0]
        for i, entry in enumerate(entries):
            if results and max(totals) >= self.rules.target and totals[0] != totals[1]:
                raise KeeperError.of(K.GAME_OVER, i + 1, n=i, next=i + 1)
            try:
                result = self._score(entry, i, totals)
            except KeeperError as e:
                e.deal = i + 1
                raise
            totals = result["totals"]
            results.append(result)
        return results

    def _score(self, entry: Any, i: int, totals: list[int]) -> dict:
        if not isinstance(entry, dict) or not isinstance(entry.get("outcome"), dict):
            raise KeeperError.of(K.OUTCOME_MISSING)
        unknown = set(entry) - {"outcome", "dealer", "note"}
        out = entry["outcome"]
        unknown |= set(out) - {"melds", "sevens", "brisques", "last"}
        if unknown:
            raise KeeperError.of(K.UNKNOWN_FIELDS, fields=", ".join(sorted(unknown)))
        dealer = self.first if i % 2 == 0 else 1 - self.first
        if entry.get("dealer") is not None and entry["dealer"] != dealer:
            raise KeeperError.of(K.ALTERNATES, name=self.names[dealer])
        melds = out.get("melds", [{}, {}])
        if not isinstance(melds, list) or len(melds) != 2 or not all(isinstance(m, dict) for m in melds):
            raise KeeperError.of(K.MELDS_EACH)
        for s, m in enumerate(melds):
            for kind, count in m.items():
                if kind not in MELD_VALUES:
                    raise KeeperError.of(K.NOT_A_MELD, kind=repr(kind), kinds=list(MELD_VALUES))
                if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_MELDS:
                    raise KeeperError.of(
                        K.MELD_COUNT, name=self.names[s], value=repr(count), meld=MELD_NAMES[kind], most=MAX_MELDS
                    )
        q = {x.key: x for x in besigue_questions(self.rules)}
        sevens = _counts(out.get("sevens", [0, 0]), q["sevens"].label, 2, self.names)
        if sum(sevens) > 2:
            raise KeeperError.of(K.TWO_SEVENS)
        brisques = _counts(out.get("brisques"), q["brisques"].label, q["brisques"].total, self.names)
        want = q["brisques"].total
        if sum(brisques) != want:
            raise KeeperError.of(K.BRISQUES_SUM, sum=sum(brisques), total=want)
        last = out.get("last")
        if isinstance(last, list) and len(last) == 1:
            last = last[0]
        if last not in (0, 1) or isinstance(last, bool):
            raise KeeperError.of(K.LAST_ONE_OF, a=self.names[0], b=self.names[1])
        meld_points = [sum(MELD_VALUES[k] * c for k, c in melds[s].items()) for s in (0, 1)]
        scores = [
            meld_points[s]
            + SEVEN_POINTS * sevens[s]
            + BRISQUE_POINTS * brisques[s]
            + (LAST_TRICK_POINTS if last == s else 0)
            for s in (0, 1)
        ]
        new = [totals[s] + scores[s] for s in (0, 1)]
        return {
            "deal": i + 1,
            "dealer": dealer,
            "scores": scores,
            "brisques": [BRISQUE_POINTS * b for b in brisques],
            "sevens": [SEVEN_POINTS * x for x in sevens],
            "last_trick": last,
            "melds": [[(k, MELD_VALUES[k]) for k, c in melds[s].items() for _ in range(c)] for s in (0, 1)],
            "totals": new,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "barbu-scorekeeper",
            "version": 1,
            "game": "besigue",
            "rules": str(self.rules),
            "names": list(self.names),
            "first": self.first,
            "entries": copy.deepcopy(self.entries),
        }


def _counts(value: Any, label: str, most: int | None, names: Sequence[str]) -> list[int]:
    if not isinstance(value, list) or len(value) != 2:
        raise KeeperError.of(K.ONE_NUMBER_EACH, label=label)
    for s, x in enumerate(value):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0 or (most is not None and x > most):
            raise KeeperError.of(K.COUNT_FROM, label=label, name=names[s], value=repr(x), most=most)
    return list(value)
