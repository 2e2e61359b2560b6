"""The finder: every puzzle proved again by the pure solver, and what is not a puzzle never becomes one."""

from __future__ import annotations

import pytest

from barbu.classic.match import Match
from barbu.puzzles.check import verify
from barbu.puzzles.find import MIN_CARDS, Tally, classes, find, judge, positions, rebuild, sign_of
from barbu.puzzles.model import OPEN, SINGLE
from barbu.solver import pure
from barbu.solver.position import objective, spec_of, state_of

SMALL = 5  # cards a hand: the pure solver proves these in milliseconds


def actions_of(m: Match) -> list[str]:
    return [str(a) for a in m.history]


@pytest.fixture(scope="module", params=["classic", "french"])
def run(request, classic_match, french_match):
    m = classic_match if request.param == "classic" else french_match
    tally = Tally()
    found = find(str(m.rules), actions_of(m), "selfplay:test", (OPEN, SINGLE), tally, samples=30, exact_cards=SMALL)
    return m, found, tally


def test_every_puzzle_of_a_run_is_proved_again_by_the_pure_solver(run):
    m, found, tally = run
    assert found, tally
    assert {p.kind for p in found} <= {OPEN, SINGLE}
    for p in found:
        assert verify(p) == [], p.to_dict()
        assert p.family == m.rules.family and p.source == "selfplay:test"
    assert sum(tally.found.values()) == len(found)


def test_what_is_not_a_puzzle_is_counted_and_never_kept(run):
    m, found, tally = run
    # each reason to drop a position happens in a match, so the checks below can fail
    for reason in ("forced", "all-equal", "two-best", "last-trick", "obvious"):
        assert tally.rejected[reason] > 0, (reason, tally)
    for p in found:
        mm = p.match()
        spec, state = objective(spec_of(mm), sign_of(mm)), state_of(mm)
        values = dict(pure.move_values(spec, [state])[0])
        assert len(values) >= 2  # not a forced card
        assert mm.hands[p.seat].bit_count() >= MIN_CARDS  # not the last tricks
        assert len(set(values.values())) >= 2  # not every card equal
        best = max(values.values())
        tops = {c for c, v in values.items() if v == best}
        group = next(g for g in classes(spec, mm.legal_mask(), mm.hands[p.seat], state) if min(tops) in g)
        assert tops <= set(group)  # one best card, or cards equivalent to it


def test_two_different_best_cards_are_never_a_puzzle(classic_match):
    """Every position the judge calls "two-best" has best cards in two classes, and none of them is kept."""
    m = classic_match
    seen = 0
    for pos in positions(str(m.rules), actions_of(m), SMALL):
        mm = pos.match
        spec, state, sign = spec_of(mm), state_of(mm), sign_of(mm)
        j = judge(spec, state, pos.seat, sign, mm.legal_mask())
        values = dict(pure.move_values(objective(spec, sign), [state])[0])
        best = max(values.values())
        tops = {c for c, v in values.items() if v == best}
        split = len({tuple(g) for g in classes(spec, mm.legal_mask(), mm.hands[pos.seat], state) if set(g) & tops})
        if split > 1:
            seen += 1
            assert j.reason in ("two-best", "forced", "last-trick", "all-equal")
        if j.reason is None:
            assert split == 1
    assert seen


def test_a_puzzle_rebuilds_in_a_fresh_match_and_a_changed_deal_does_not(classic_match):
    m = classic_match
    later = [pos for pos in positions(str(m.rules), actions_of(m), SMALL) if pos.deal > 1]
    pos = later[len(later) // 2]
    acts = rebuild(str(m.rules), pos)
    assert acts is not None and acts[0].startswith("draw ") and acts[1].startswith("deal ")
    fresh = Match(str(m.rules), None)
    for a in acts:
        fresh.apply(fresh.parse_action(a))
    assert spec_of(fresh) == spec_of(pos.match) and state_of(fresh) == state_of(pos.match)
    # the same actions after another deal do not reach the same position: not rebuilt
    words = pos.actions[0].split()
    swapped = " ".join([words[0], words[2], words[1], *words[3:]])
    pos.actions = (swapped, *pos.actions[1:])
    assert rebuild(str(m.rules), pos) is None


def test_the_check_finds_a_wrong_solution_a_wrong_cost_and_a_wrong_value(run):
    _m, found, _tally = run
    p = next(q for q in found if len(q.solution) == 1)
    (wrong, cost), *rest = p.costs
    swapped = p.__class__(**{**p.__dict__, "solution": (wrong,), "costs": ((p.solution[0], cost), *rest)})
    assert any("is not best" in x for x in verify(swapped))
    dearer = p.__class__(**{**p.__dict__, "costs": ((wrong, cost + 1), *rest)})
    assert any(f"{wrong} costs {cost}, not {cost + 1}" in x for x in verify(dearer))
    valued = p.__class__(**{**p.__dict__, "value": p.value + 1})
    assert any("the value is" in x for x in verify(valued))


def test_an_open_puzzle_s_line_is_proved_too(run):
    m, found, _tally = run
    lined = [p for p in found if p.line]
    if m.rules.family != "classic":
        return
    assert lined and all(p.kind == OPEN for p in lined)
    p = lined[0]
    step = p.line[0]
    assert verify(p) == []
    (wrong, cost), *rest = step.costs
    bad = p.__class__(
        **{**p.__dict__, "line": (step.__class__(step.replies, (wrong,), ((step.solution[0], cost), *rest)),)}
    )
    assert any(x.startswith("step 1: ") for x in verify(bad))
