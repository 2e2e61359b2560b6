"""Property tests over every preset and player count: random legal play keeps every invariant."""

from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from barbu import CHANCE, Match
from barbu.classic.contracts import DOMINO
from barbu.classic.ruleset import presets
from barbu.classic.sampler import determinize, sample_hands
from barbu.records.barbu import read_record, record_lines, replay

CASES = [(p.name, n) for p in presets() for n in p.ruleset.family_spec.players]
CASES += [
    ("classic(rotation=quick, ravage_city=true, chinese_poker=true)", 4),
    ("classic(ravage_city=true, ravage_value=36)", 4),
    ("salad(rotation=quick)", 5),
    ("scottish(sets=2, stop_when_decided=false)", 4),
]

# The Scottish calls' table totals (seed 004): each Round plays each call once, alone or grouped.
SCOTTISH_TOTALS = {
    "aces": -80,
    "king": -100,
    "queens": -60,
    "hearts": -100,
    "tricks": -80,
    "patience-1": 210,
    "patience-2": 210,
}


def rules_text(name: str, players: int) -> str:
    if "(" in name:
        return name
    return f"{name}(players={players})" if players != 4 else name


def zero_sum(m: Match) -> bool:
    """A match is zero-sum when a declarer's contracts add up to zero (and nothing else adds points)."""
    fixed = all(c.fixed_total for c in m.contracts)
    return fixed and sum(c.total(m.n, m.hand_size, m.deck) for c in m.contracts) == 0


def check_deal_invariants(m: Match) -> None:
    """During a deal: hands, played cards and set-aside cards partition the deck."""
    if m.phase_name in ("draw", "deal", "over"):
        return
    played = 0
    for _, cards in m.trick_log:
        for c in cards:
            assert not played >> c & 1
            played |= 1 << c
    for c in m.trick:
        played |= 1 << c
    union = played | m.set_aside
    for h in m.hands:
        assert not union & h
        union |= h
    assert union == m.deck
    if m.phase_name == "play":
        for leader, cards in m.trick_log:
            assert len(cards) == m.n


def play_checked(rules: str, seed: int, sample_every: int = 0) -> Match:
    m = Match(rules, seed)
    rng = random.Random(seed)
    steps = 0
    while not m.is_over:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        check_deal_invariants(m)
        if sample_every and steps % sample_every == 0:
            v = m.view(actor)
            hands = sample_hands(v, rng)
            d = determinize(v, hands)
            assert d.view(actor).legal == v.legal and d.view(actor).hand == v.hand
            for s in range(m.n):  # nobody is dealt a card the view says he cannot hold
                assert not hands[s] & v.cant_hold[s] or s == actor
        legal = m.legal_actions()
        assert len(legal) > 0
        m.apply(legal[rng.randrange(len(legal))], seat=actor)
        steps += 1
    return m


def check_scottish_results(m: Match) -> None:
    """Every Set is four Player Rounds and a Silly Round; every Round plays each of the seven calls once;
    each call's points add up to its table total; a Player Round's groups include two of 2+ or one of 3+."""
    rounds: dict[tuple[int, int], list] = {}
    for r in m.results:
        info = r.scottish
        rounds.setdefault((info.set_no, info.round_no), []).append(r)
        assert sum(r.scores) == sum(SCOTTISH_TOTALS[c] for c in info.calls), f"deal {r.number} {info.calls}"
        for call, pts in zip(info.calls, info.parts):
            assert sum(pts) == SCOTTISH_TOTALS[call], f"deal {r.number}: {call} scored {pts}"
        assert list(r.scores) == [sum(p[s] for p in info.parts) for s in range(m.n)]
        for h in r.hands:
            assert h.bit_count() == m.hand_size == 8
    assert sorted(rounds) == [(s, k) for s in range(1, m.rules.sets + 1) for k in range(1, 6)]
    first_caller = m.results[0].scottish.caller
    for (set_no, round_no), deals in rounds.items():
        calls = [c for r in deals for c in r.scottish.calls]
        assert sorted(calls) == sorted(SCOTTISH_TOTALS), f"set {set_no} round {round_no} played {calls}"
        sizes = [len(r.scottish.calls) for r in deals]
        if round_no <= 4:
            caller = (first_caller + round_no - 1) % 4
            assert all(r.scottish.caller == caller == r.dealer for r in deals)
            assert sum(1 for k in sizes if k >= 2) >= 2 or max(sizes) >= 3, f"groups {sizes}"
        else:
            assert 2 <= len(deals) <= 7
            dealers = [r.dealer for r in deals]
            assert dealers == [(dealers[0] + i) % 4 for i in range(len(deals))]
    assert list(m.totals) == [sum(r.scores[s] for r in m.results) for s in range(m.n)]


def check_results(m: Match) -> None:
    n = m.n
    if m.rules.family == "scottish":
        check_scottish_results(m)
        return
    assert len(m.results) == m.total_deals
    per_declarer: dict[int, list[str]] = {}
    for r in m.results:
        c = m.contract_by_key[r.contract]
        per_declarer.setdefault(r.declarer, []).append(r.contract)
        assert sum(r.scores) == sum(r.base), f"deal {r.number}: doubles changed the table total"
        in_play = m.deck & ~r.set_aside
        stuck = c.kind == DOMINO and c.ends_after and len(r.finishing) < c.ends_after
        if c.fixed_total and not stuck:
            assert sum(r.base) == c.total(n, m.hand_size, in_play), f"deal {r.number} {r.contract}"
        for h in r.hands:
            assert h.bit_count() == m.hand_size
    for seat, declared in per_declarer.items():
        assert sorted(declared) == sorted(m.contract_by_key), f"seat {seat} declared {declared}"
    if zero_sum(m):
        assert sum(m.totals) == 0


@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant(name, players, seed):
    m = play_checked(rules_text(name, players), seed, sample_every=23)
    check_results(m)
    # The record replays to the same scores.
    text = "".join(json.dumps(x) + "\n" for x in record_lines(m))
    rep = replay(read_record(io.StringIO(text)))
    assert rep.consistent and rep.match.totals == m.totals


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CASES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches_keep_every_invariant_slow(name, players, seed):
    m = play_checked(rules_text(name, players), seed, sample_every=7)
    check_results(m)
