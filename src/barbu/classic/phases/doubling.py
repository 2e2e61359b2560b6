"""The doubling round: once round the table, dealer last, then redoubles of doubles that came late.

Who may double whom (only the dealer in a positive contract), the doubling
obligation towards the declarer over his series, and the refusals that say
which rule a doubling call broke.  The same few `Double` values come back
again and again, so they are interned.
"""

from __future__ import annotations

from itertools import combinations

from ...core.actions import NO_DOUBLE, Double
from ...core.errors import IllegalAction, ParseError
from .. import refusals as R
from ..state import DOUBLING, Business
from .play import Play


class Doubling(Play):
    """Doubles and redoubles between pairs of seats (`business`), then play, or a split when nobody doubled."""

    __slots__ = ()

    def _start_doubling(self) -> None:
        if self.rules.doubling == "none":
            self._start_play()
            return
        self.phase = DOUBLING
        self.dbl_queue = [(self.dealer + i) % self.n for i in range(1, self.n + 1)]
        self.dbl_first_round = True
        self._late = set()

    def _may_be_doubled_by(self, s: int) -> list[int]:
        """Seats s may double now (no business yet with them)."""
        dealer = self.dealer
        if s == dealer:
            return []
        business = self.business
        bs = 1 << s
        contract = self.contract
        assert contract is not None
        if contract.positive:
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
        deals_left = self.series_left(self.declarer) + 1
        return deals_left <= owed

    def doubles_owed(self, s: int) -> int:
        """Doubles s still owes the current declarer in his series."""
        return max(0, self.rules.double_obligation - self.dbl_count[self.declarer][s])

    def _doubling_actions(self, s: int) -> tuple[Double, ...]:
        """The doubling calls s may make, kept for the position (legality checks ask again at once)."""
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
        if (
            not self.business
            and not contract.positive
            and self.rules.doubling != "none"
            and self.rules.undoubled_negative == "split"
        ):
            self._finish_deal(played=False)
            return
        self._start_play()

    def _parse_double(self, t: str) -> Double:
        """A doubling call typed by the seat to act: ``pass``, ``double 1 3``, ``maximum``, ``family``…"""
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
        out = _SUBSETS[cands] = tuple(_double(c) for k in range(len(cands) + 1) for c in combinations(cands, k))
    return out
