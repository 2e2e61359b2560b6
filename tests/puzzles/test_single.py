"""The single kind's share: drawn deals agree with an exact count of every deal consistent with the seat's view."""

from __future__ import annotations

import math
import random

from barbu.classic.match import Match
from barbu.puzzles.find import judge, positions, sign_of
from barbu.puzzles.single import consistent_deals, sample_deals, share
from barbu.solver.position import spec_of, state_of


def small_endings(m: Match, cards: int):
    """Positions of a match where the seat holds ``cards`` cards and the solver's verdict is a puzzle."""
    for pos in positions(str(m.rules), [str(a) for a in m.history], cards):
        mm = pos.match
        spec, state, sign = spec_of(mm), state_of(mm), sign_of(mm)
        j = judge(spec, state, pos.seat, sign, mm.legal_mask())
        if j.reason is None:
            yield pos, spec, state, sign, set(j.solution)


def test_every_consistent_deal_is_listed_once_and_respects_the_voids(classic_match):
    pos, *_ = next(small_endings(classic_match, 3))
    m, seat = pos.match, pos.seat
    deals = consistent_deals(m, seat, 10_000)
    assert deals is not None and len({tuple(d) for d in deals}) == len(deals)
    view = m.view(seat)
    for d in deals:
        assert d[seat] == m.hands[seat]
        assert [h.bit_count() for h in d] == [h.bit_count() for h in m.hands]
        assert all(not (d[s] & view.cant_hold[s]) for s in range(m.n) if s != seat)
    assert list(m.hands) in deals  # the true deal is one of them


def test_the_sampled_share_is_within_sampling_error_of_the_exact_one(classic_match, french_match):
    checked = 0
    rng = random.Random(5)
    for m in (classic_match, french_match):
        for pos, spec, state, sign, solution in small_endings(m, 4):
            deals = consistent_deals(pos.match, pos.seat, 3000)
            if deals is None or len(deals) < 30:
                continue
            exact = share(spec, state, sign, solution, deals)
            if not 0.05 < exact < 0.95:
                continue
            n = 400
            drawn = share(spec, state, sign, solution, sample_deals(pos.match, pos.seat, n, rng))
            assert abs(drawn - exact) <= 4 * math.sqrt(exact * (1 - exact) / n) + 1e-9, (drawn, exact)
            checked += 1
            if checked == 3:
                return
    assert checked, "no ending with a share strictly between 5% and 95%"
