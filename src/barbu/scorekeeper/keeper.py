"""A game kept at a real table: the deals as entered, replayed through the engine into its own results.

An entry is a plain dict, as a person fills it in after a deal::

    {"contract": "no-hearts", "doubles": [[1, 0, false], [2, 0, true]],
     "outcome": {"hearts": [3, 5, 0, 5], "AH": 1}}

with ``trump`` (``S``/``H``/``D``/``C``/``none``) or ``rank`` (``7``, ``J``…) where the contract asks for
one, ``set_aside`` (the cards left out face up, French rules with 3, 5 or 6 players), ``dealer`` (who
deals, when a draw decides it: the Scottish Silly Round) and ``cuts`` (the Silly Round's cuts of the
Unused Pack, in order).  `Keeper` feeds each entry to a real match: the contract, trumps, rank and
doubles go through the engine's own checks, the outcome is checked against the deck and the deal is
scored by the engine's own code (`Match.finish_counted`).  Corrections replay every entry again, so
every total is recomputed; a correction that would make a later deal impossible is refused and
changes nothing.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..classic.match import Match
from ..classic.ruleset import Ruleset
from ..classic.state import CUT, DEAL, DECLARE, DOUBLING, DRAW, OVER, PASS_ON, RANK, TRUMP, DealResult
from ..core.actions import Deal, Double, Draw, NameRank, NameTrump, parse_rank, parse_suit
from ..core.cards import cards_of, parse_card
from ..core.errors import IllegalAction, ParseError, RulesetError
from ..scottish.match import ScottishMatch, call_choices
from ..scottish.pack import BRIDGE, Cut, PackDraw, parse_pack
from . import refusals as K
from .questions import Question, counted_outcome, questions
from .refusals import KeeperError, Note


@dataclass(frozen=True)
class Needs:
    """What the next deal (or the entry being filled in) still needs, in the order a table settles it."""

    number: int  # the deal, 1-based
    ask: str  # dealer, set_aside, cuts, contract, trump, rank, doubles, outcome, done, over
    dealer: int | None = None
    declarer: int | None = None
    contracts: tuple[tuple[str, str], ...] = ()  # (key, name) the declarer may choose
    set_aside: int = 0  # cards left out face up this deal
    trumps: tuple[str, ...] = ()  # suits that may be named (``none`` for no-trump)
    ranks: tuple[str, ...] = ()
    doublers: dict[int, tuple[int, ...]] = field(default_factory=dict)  # seat -> seats it may double
    owed: dict[int, int] = field(default_factory=dict)  # doubles each seat still owes the declarer
    questions: tuple[Question, ...] = ()
    where: str = ""  # the Scottish game's Set and Round
    contract: str | None = None  # once settled (by the declarer, or by the Silly Round's cuts)
    contract_name: str | None = None
    cut_for: str = ""  # the Silly Round's cut being asked for: "calls" or "passes"

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["contracts"] = [list(c) for c in self.contracts]
        d["doublers"] = {str(k): list(v) for k, v in self.doublers.items()}
        d["owed"] = {str(k): v for k, v in self.owed.items()}
        d["questions"] = [q.to_dict() for q in self.questions]
        return d


class EntryLog:
    """Deals entered one by one, corrected, deleted and taken back.

    Every change rebuilds the whole game from its entries (`_rebuild`, which raises `KeeperError` to refuse),
    and only then replaces it (`_install`): a refused change leaves everything as it was.
    """

    entries: list[dict]
    _undo: list[list[dict]]

    def _rebuild(self, entries: list[dict]) -> Any:  # pragma: no cover - each game has its own
        raise NotImplementedError

    def _install(self, entries: list[dict], state: Any) -> None:  # pragma: no cover - each game has its own
        raise NotImplementedError

    def _change(self, entries: list[dict]) -> None:
        state = self._rebuild(entries)
        self._undo.append(self.entries)
        del self._undo[:-50]
        self._install(entries, state)

    def add(self, entry: dict) -> Any:
        """Enter the next deal; returns its result.  Refused with a `KeeperError` (nothing changes) if the
        rules or the deck say no."""
        self._change(self.entries + [copy.deepcopy(entry)])
        return self.results[-1]  # type: ignore[attr-defined]

    def replace(self, index: int, entry: dict) -> None:
        """Correct deal ``index`` (0-based); every later deal is scored again."""
        self._index(index)
        entries = list(self.entries)
        entries[index] = copy.deepcopy(entry)
        self._change(entries)

    def delete(self, index: int) -> None:
        """Remove deal ``index`` (0-based); the deals after it move up and are scored again."""
        self._index(index)
        self._change(self.entries[:index] + self.entries[index + 1 :])

    def undo(self) -> None:
        """Take back the last change (an entry, a correction or a deletion)."""
        if not self._undo:
            raise KeeperError.of(K.NOTHING_TO_UNDO)
        entries = self._undo.pop()
        self._install(entries, self._rebuild(entries))

    def _index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.entries):
            raise KeeperError.of(
                K.NO_SUCH_DEAL, number=index + 1 if isinstance(index, int) else index, n=len(self.entries)
            )


class Keeper(EntryLog):
    """One game kept at a table: rules, players, first dealer and the deals entered so far."""

    game = "barbu"

    def __init__(
        self, rules: str | Ruleset, names: Sequence[str], first: int = 0, entries: Sequence[dict] = ()
    ) -> None:
        try:
            self.rules = rules if isinstance(rules, Ruleset) else Ruleset.parse(rules)
        except (RulesetError, ParseError) as e:
            raise KeeperError.wrap(e) from None
        names = [str(x).strip() for x in names]
        if len(names) != self.rules.players:
            raise KeeperError.of(
                K.PLAYERS_NAMES, preset=self.rules.preset, players=self.rules.players, given=len(names)
            )
        if any(not x for x in names) or len(set(x.lower() for x in names)) != len(names):
            raise KeeperError.of(K.OWN_NAMES)
        if not isinstance(first, int) or not 0 <= first < len(names):
            raise KeeperError.of(K.FIRST_DEALER, n=len(names))
        self.names = names
        self.first = first
        self.entries: list[dict] = []
        self._undo: list[list[dict]] = []
        self.match, self.flags = self._replay([])
        if entries:
            entries = [copy.deepcopy(e) for e in entries]
            self._install(entries, self._replay(entries))

    # ------------------------------------------------------------------ reading
    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def results(self) -> list[DealResult]:
        return self.match.results

    @property
    def totals(self) -> list:
        return list(self.match.totals)

    @property
    def is_over(self) -> bool:
        return self.match.phase == OVER

    def standings(self) -> list[tuple[int, Any]]:
        return self.match.standings()

    def needs(self, partial: dict | None = None) -> Needs:
        """What the next deal needs, given what has been filled in so far (``partial``)."""
        m = self.match.clone()
        try:
            return _feed(m, dict(partial or {}), self.names, len(self.results) + 1, [], partial=True)
        except KeeperError as e:
            e.deal = len(self.results) + 1
            raise

    def _rebuild(self, entries: list[dict]) -> Any:
        return self._replay(entries)

    def _install(self, entries: list[dict], state: Any) -> None:
        self.entries = entries
        self.match, self.flags = state

    def _replay(self, entries: list[dict]) -> tuple[Match, dict[int, list[str]]]:
        m = Match(self.rules, seed=0)
        m.lenient = True
        flags: dict[int, list[str]] = {}
        _draw(m, self.first)
        for i, entry in enumerate(entries):
            if m.phase == OVER:
                raise KeeperError.of(K.GAME_OVER, i + 1, n=i, next=i + 1)
            notes: list[str] = []
            before = len(m.results)
            try:
                need = _feed(m, entry, self.names, i + 1, notes, partial=False)
            except KeeperError as e:
                e.deal = i + 1
                raise
            if len(m.results) == before:
                raise KeeperError.of(K.INCOMPLETE, i + 1, ask=need.ask)
            if notes:
                flags[m.results[-1].number] = notes
        return m, flags

    # ------------------------------------------------------------------ storage
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "barbu-scorekeeper",
            "version": 1,
            "game": "barbu",
            "rules": str(self.rules),
            "names": list(self.names),
            "first": self.first,
            "entries": copy.deepcopy(self.entries),
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Keeper":
        return cls(*saved_fields(data))


def saved_fields(data: Any) -> tuple[str, list, int, list]:
    """(rules, names, first dealer, entries) of a kept game's JSON form, checked for shape."""
    if not isinstance(data, dict) or data.get("format") != "barbu-scorekeeper":
        raise KeeperError.of(K.NOT_SAVED)
    if data.get("version") != 1:
        raise KeeperError.of(K.NEWER, version=repr(data.get("version")))
    entries = data.get("entries", [])
    names = data.get("names", [])
    if not isinstance(entries, list) or not isinstance(names, list):
        raise KeeperError.of(K.NOT_LISTS)
    return str(data.get("rules", "")), names, data.get("first", 0), entries


# ---------------------------------------------------------------------- feeding an entry to the match
def _draw(m: Match, dealer: int) -> None:
    """Settle a draw for the dealer so that ``dealer`` wins it (the keeper is told who deals)."""
    rng = random.Random(dealer)
    scottish = isinstance(m, ScottishMatch)
    for _ in range(10_000):
        trial = m.clone()
        if scottish:
            trial.apply(PackDraw(tuple(rng.sample(range(BRIDGE + 1), m.n))))
        else:
            trial.apply(Draw(tuple(rng.sample(cards_of(m.deck), m.n))))
        if trial.phase != DRAW and trial.dealer == dealer:
            for name in m.slot_names():
                setattr(m, name, getattr(trial, name))
            return
    raise AssertionError("no draw found")  # pragma: no cover - every seat can win a draw


def _deal(m: Match, set_aside: int) -> None:
    """Deal placeholder hands: the keeper never knows the hands, only what was left out face up."""
    cards = [c for c in cards_of(m.deck) if not set_aside >> c & 1]
    hands = [sum(1 << c for c in cards[s :: m.n][: m.hand_size]) for s in range(m.n)]
    m.apply(Deal(tuple(hands)))


def _parse_cards(value: Any, what: str) -> int:
    words = value.replace(",", " ").split() if isinstance(value, str) else list(value or [])
    mask = 0
    for w in words:
        try:
            c = parse_card(str(w))
        except ParseError as e:
            raise KeeperError.wrap(e, (), K.ABOUT, what=what) from None
        if mask >> c & 1:
            raise KeeperError.of(K.NAMED_TWICE, what=what, card=c)
        mask |= 1 << c
    return mask


def _doubling_needs(m: Match) -> tuple[dict[int, tuple[int, ...]], dict[int, int]]:
    """Who may double whom in this deal, and what each seat still owes the declarer."""
    c = m.contract
    assert c is not None
    may = {}
    for s in range(m.n):
        if s == m.dealer:
            continue
        may[s] = (m.dealer,) if c.positive else tuple(p for p in range(m.n) if p != s)
    owed = {s: m.doubles_owed(s) for s in range(m.n) if s != m.dealer and m.rules.double_obligation}
    return may, {s: k for s, k in owed.items() if k}


def _apply(m: Match, action: Any, names: Sequence[str], who: str = "") -> None:
    try:
        m.apply(action)
    except (IllegalAction, ParseError) as e:
        error = KeeperError.wrap(e, names, K.BY_PLAYER, who=who) if who else KeeperError.wrap(e, names)
        raise error from None


_SHAPES: dict[str, tuple[type, ...]] = {
    "contract": (str,),
    "trump": (str,),
    "rank": (str, int),
    "doubles": (list, tuple),
    "set_aside": (str, list, tuple),
    "dealer": (int,),
    "cuts": (list, tuple),
    "outcome": (dict,),
    "note": (str,),
}


def _check_shape(entry: Any) -> None:
    """Each field of an entry has the type a form sends; anything else is refused in words."""
    if not isinstance(entry, dict):
        raise KeeperError.of(K.NAMED_ANSWERS)
    for key, value in entry.items():
        if key not in _SHAPES:
            raise KeeperError.of(K.UNKNOWN_FIELD, field=repr(key))
        kinds = _SHAPES[key]
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise KeeperError.of(K.NOT_A, field=key, value=repr(value), what=K.SHAPES[key])
    for x in entry.get("cuts") or ():
        if not isinstance(x, str):
            raise KeeperError.of(K.NOT_A_CUT, value=repr(x))


def _feed(m: Match, entry: dict, names: Sequence[str], number: int, notes: list[str], partial: bool) -> Needs:
    """Apply one entry to the match as far as it goes; returns what is still needed (``done`` when scored)."""
    _check_shape(entry)
    n = m.n
    scottish = isinstance(m, ScottishMatch)
    start = len(m.results)
    where = _where(m) if isinstance(m, ScottishMatch) else ""

    def needs(ask: str, **kw: Any) -> Needs:
        if len(m.results) > start:  # scored: the match has moved on, but the entry is still about this deal
            r = m.results[start]
            c = m.contract_by_key.get(r.contract)
            dealer, declarer = r.dealer, r.declarer
        else:
            c = m.contract if m.phase not in (DRAW, DEAL, OVER) else None
            dealer, declarer = m.dealer, m.declarer
        return Needs(
            number,
            ask,
            dealer=dealer if dealer >= 0 else None,
            declarer=declarer if declarer >= 0 else None,
            where=where,
            contract=c.key if c else None,
            contract_name=c.name if c else None,
            **kw,
        )

    if m.phase == OVER:
        return needs("over")
    if m.phase == DRAW:
        dealer = entry.get("dealer")
        if dealer is None:
            return needs("dealer")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise KeeperError.of(K.DEALER_PLAYER, value=repr(dealer))
        _draw(m, dealer)
    elif entry.get("dealer") is not None and entry["dealer"] != m.dealer:
        raise KeeperError.of(K.WRONG_DEALER, dealer=names[m.dealer], name=_name(entry["dealer"], names))
    aside_count = m.deck.bit_count() - m.hand_size * n
    if m.phase == DEAL:
        aside = 0
        if aside_count:
            if "set_aside" not in entry:
                return needs("set_aside", set_aside=aside_count)
            aside = _parse_cards(entry["set_aside"], K.CARDS_SET_ASIDE)
            if aside.bit_count() != aside_count or aside & ~m.deck:
                raise KeeperError.of(K.SET_ASIDE_COUNT, n=n, k=aside_count)
        elif entry.get("set_aside"):
            raise KeeperError.of(K.NONE_SET_ASIDE, n=n)
        _deal(m, aside)
        if m.phase == DEAL:  # the declarer could choose nothing the set-aside cards allow: a new deal
            raise KeeperError.of(K.NO_CHOICE, name=names[m.declarer], cards=cards_of(aside))
    # The Silly Round: cuts of the Unused Pack settle the calls and the pass-ons.
    cuts = list(entry.get("cuts") or [])
    while isinstance(m, ScottishMatch) and m.phase in (CUT, PASS_ON):
        if m.phase == PASS_ON:  # which cards were passed does not change the score
            m.apply(m.legal_actions()[0])
            continue
        if not cuts:
            if not partial:
                raise KeeperError.of(K.CUTS_MISSING)
            return needs("cuts", cut_for=m.cut_for)
        text = cuts.pop(0)
        try:
            card = parse_pack(str(text))
        except ParseError as e:
            raise KeeperError.wrap(e, (), K.CUT_ERROR, text=repr(text)) from None
        _apply(m, Cut(card), names)
    if cuts:
        raise KeeperError.of(K.TOO_MANY_CUTS, n=len(cuts))
    if len(m.results) > start:
        return needs("done")
    if m.phase == DECLARE:
        legal = [a.contract for a in m.legal_actions()]
        if isinstance(m, ScottishMatch):
            choices = tuple((k, m.contract_by_key[k].name) for k in call_choices(m.state))
        else:
            choices = tuple((c.key, c.name) for c in m.contracts if c.key in legal)
        key = entry.get("contract")
        if not key:
            return needs("contract", contracts=choices)
        text = str(key).strip()
        try:
            action = m.parse_action(("call " if scottish else "contract ") + text)
        except (ParseError, IllegalAction) as e:
            raise KeeperError.wrap(e, names) from None
        _apply(m, action, names, names[m.declarer])
    elif entry.get("contract") and m.contract is not None and not scottish:
        raise KeeperError.of(K.SETTLED)
    contract = m.contract
    if m.phase == TRUMP:
        trump = entry.get("trump")
        suits = tuple("SHDC") + (("none",) if m.rules.allow_no_trump else ())
        if trump is None or trump == "":
            return needs("trump", trumps=suits)
        try:
            action = NameTrump(parse_suit(str(trump)))
        except ParseError as e:
            raise KeeperError.wrap(e) from None
        _apply(m, action, names, names[m.declarer])
    elif entry.get("trump") not in (None, ""):
        raise (KeeperError.of(K.NO_TRUMPS, contract=contract.name) if contract else KeeperError.of(K.NO_TRUMPS_DEAL))
    if m.phase == RANK:
        rank = entry.get("rank")
        ranks = tuple(str(a).split()[-1] for a in m.legal_actions())
        if rank is None or rank == "":
            return needs("rank", ranks=ranks)
        try:
            action = NameRank(parse_rank(str(rank)))
        except ParseError as e:
            raise KeeperError.wrap(e) from None
        _apply(m, action, names, names[m.declarer])
    elif entry.get("rank") not in (None, ""):
        raise (KeeperError.of(K.NO_RANK, contract=contract.name) if contract else KeeperError.of(K.NO_RANK_DEAL))
    doubles = entry.get("doubles")
    if m.phase == DOUBLING:
        may, owed = _doubling_needs(m)
        if doubles is None:
            return needs("doubles", doublers=may, owed=owed)
        _apply_doubles(m, doubles, names, notes)
    elif doubles:
        raise KeeperError.of(K.NO_DOUBLING if m.rules.doubling == "none" else K.DOUBLES_AFTER)
    if len(m.results) > start:  # not played: nobody doubled a negative contract
        notes.append(Note.of(K.NOT_PLAYED))
        if entry.get("outcome"):
            raise KeeperError.of(K.NOT_PLAYED_OUTCOME)
        return needs("done")
    contract = m.contract
    assert contract is not None
    in_play = m.deck & ~m.set_aside
    qs = questions(contract, n, in_play, m.hand_size, scottish)
    if "outcome" not in entry:
        return needs("outcome", questions=tuple(qs))
    counted = counted_outcome(contract, qs, entry["outcome"], n, in_play, m.hand_size, names)
    notes.extend(counted.notes)
    try:
        m.finish_counted(
            counted.won, counted.tricks_won, counted.winners, counted.finished, counted.arranged, counted.trick_log
        )
    except IllegalAction as e:  # pragma: no cover - the phase was checked above
        raise KeeperError.wrap(e) from None
    return needs("done")


def _name(x: Any, names: Sequence[str]) -> str:
    return names[x] if isinstance(x, int) and 0 <= x < len(names) else repr(x)


def _apply_doubles(m: Match, doubles: Any, names: Sequence[str], notes: list[str]) -> None:
    """Turn the table's doubles (who doubled whom, redoubled or not) into the doubling round's turns."""
    if not isinstance(doubles, (list, tuple)):
        raise KeeperError.of(K.DOUBLES_LIST)
    wanted: dict[frozenset, tuple[int, int, bool]] = {}
    for d in doubles:
        if not isinstance(d, (list, tuple)) or len(d) not in (2, 3):
            raise KeeperError.of(K.NOT_A_DOUBLE, value=repr(d))
        a, b = d[0], d[1]
        redo = bool(d[2]) if len(d) == 3 else False
        for x in (a, b):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < m.n:
                raise KeeperError.of(K.NOT_A_PLAYER, value=repr(x))
        if a == b:
            raise KeeperError.of(K.DOUBLE_HIMSELF, name=names[a])
        pair = frozenset((a, b))
        if pair in wanted:
            raise KeeperError.of(K.ONCE_ONLY, a=names[a], b=names[b])
        wanted[pair] = (a, b, redo)
    while m.phase == DOUBLING:
        s = m.dbl_queue[0]
        first = m.dbl_first_round
        targets = set()
        for a, b, redo in wanted.values():
            if first and a == s:
                targets.add(b)
            elif (
                b == s
                and redo
                and any(x.doubler == a and x.doubled == s and not x.redoubled for x in m.business.values())
            ):
                late = (1 << s | 1 << a) in m._late
                if first or late:
                    targets.add(a)
        if first and m.must_double_dealer(s) and m.dealer not in targets:
            owed = m.doubles_owed(s)
            notes.append(
                Note.of(
                    K.DID_NOT_DOUBLE,
                    name=names[s],
                    dealer=names[m.dealer],
                    owed=owed,
                    left=m.series_left(m.declarer) + 1,
                )
            )
        _apply(m, Double(frozenset(targets)), names, names[s])
    made = {frozenset((b.doubler, b.doubled)): (b.doubler, b.doubled, b.redoubled) for b in m.business.values()}
    for pair, (a, b, redo) in wanted.items():
        got = made.get(pair)
        if got is None or got[0] != a:
            raise KeeperError.of(K.NOT_MADE, a=names[a], b=names[b])
        if redo and not got[2]:
            raise KeeperError.of(K.NO_REDOUBLE, a=names[a], b=names[b])


def _where(m: ScottishMatch) -> str:
    st = m.state
    if st.silly:
        return Note.of(K.SILLY_ROUND, set=st.set_no + 1)
    return Note.of(K.PLAYER_ROUND, set=st.set_no + 1, round=st.round_no + 1)


__all__ = ["Keeper", "KeeperError", "Needs", "Question"]
