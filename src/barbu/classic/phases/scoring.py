"""The end of a deal: its base points by the contract's table, doubles settled, series points, the next deal.

Every kind of play ends here, and so does a negative deal nobody doubled (its
points shared without play).  Playouts that score a deal without playing it in
the engine count with `Scoring.deal_points` too, so there is one scoring rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...core.errors import IllegalAction
from .. import refusals as R
from ..chinese import Arrange, score_arrangements
from ..contracts import CHINESE, DOMINO, score_finishing, score_tricks
from ..state import ARRANGE, DEAL, DOMINO_PLAY, OVER, PLAY, Business, DealResult, Points, added_points
from .base import MatchState


class Scoring(MatchState):
    """Scores the deal in play and sets up the next one (or ends the match)."""

    __slots__ = ()

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
        self.results.append(
            DealResult(
                number=self.deal_no + 1,
                dealer=self.dealer,
                declarer=self.declarer,
                contract=contract.key,
                trump=self.trump,
                rank=self.rank,
                doubles=tuple(sorted(self.business.values(), key=lambda b: (b.doubler, b.doubled))),
                played=played,
                base=tuple(base),
                scores=tuple(scores),
                hands=self.dealt,
                tricks=tuple(self.trick_log),
                finishing=tuple(self.finished),
                set_aside=self.set_aside,
                arrangements=tuple(self.arranged[(s - self.declarer) % n] for s in range(n)) if self.arranged else (),
                series=series,
            )
        )
        self.deal_no += 1
        if self.deal_no >= self.total_deals:
            self.phase = OVER
            return
        if self.rules.rotation == "quick" or not self.series_left(self.declarer):
            self.declarer = self.dealer = (self.dealer + 1) % n
        self.phase = DEAL

    def deal_points(self, base: list[int]) -> tuple[list[int], tuple[Points, ...]]:
        """The deal's scores (its doubles settled) and any series points, were the deal in play to end
        with these base points now.  `_finish_deal` counts with it, and so do playouts that score a
        deal without playing it in the engine (`barbu.agents.search`)."""
        n = self.n
        scores = settle(base, self.business.values())
        series: tuple[Points, ...] = ()
        series_end = self.rules.family_spec.series_end
        if series_end is not None and not self.series_left(self.declarer):
            own = [r.scores for r in self.results if r.declarer == self.declarer] + [scores]
            series = tuple(series_end([sum(x[s] for x in own) for s in range(n)], self.declarer))
        return scores, series

    def points_added(self, base: Sequence[int]) -> tuple[Points, ...]:
        """What the deal in play would add to the running totals, were it to end with these base points
        now: the `DealResult.added` it would record."""
        scores, series = self.deal_points(list(base))
        return added_points(tuple(scores), series)

    def finish_counted(
        self,
        won: Sequence[int],
        tricks_won: Sequence[int],
        winners: Sequence[int],
        finished: Sequence[int] = (),
        arranged: Sequence[Arrange] = (),
        trick_log: Sequence[tuple[int, tuple[int, ...]]] = (),
    ) -> None:
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
