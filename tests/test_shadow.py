"""Duplicate against the computer: a deal replayed on the same cards with a stronger player in the person's seat."""

from __future__ import annotations

import pytest

from barbu.agents import make_agent
from barbu.agents.besigue import make_besigue_agent
from barbu.core.actions import Deal
from barbu.core.game import CHANCE
from barbu.duplicate.shadow import ShadowResult, deal_chances, replay_game, shadow_deal, sign_of, summarize
from barbu.games import open_game

#: A cheap expert whose samples, not its clock, end each decision: the same inputs give the same choices.
CHEAP_EXPERT = "expert(samples=2, seconds=60)"
PRESETS = ["classic", "italian", "french", "salad", "scottish", "besigue"]


def played(rules: str, seed: int, deals: int, kinds: dict[int, str] | None = None) -> tuple[object, list]:
    """A match of computer players (rule by default) through ``deals`` deals, and its actions in order."""
    g = open_game(rules, seed)
    besigue = rules == "besigue"
    make = make_besigue_agent if besigue else make_agent
    kinds = kinds or {}
    bots = {s: make(kinds.get(s, "rule"), seed * 1000 + s) for s in range(g.n)}
    actions = []
    while len(g.results) < deals and not g.is_over:
        actor = g.to_act()
        action = g.sample_chance() if actor == CHANCE else bots[actor].act(g.view(actor))
        g.apply(action) if besigue else g.apply(action, seat=None if actor == CHANCE else actor)
        actions.append(action)
    return g, actions


def added(g, k: int) -> tuple:
    r = g.results[k]
    return tuple(r["scores"]) if isinstance(r, dict) else tuple(r.added)


@pytest.mark.parametrize("rules", PRESETS)
def test_the_same_player_in_the_seat_scores_what_the_table_scored(rules):
    """Replayed by hand: a table of rule players, compared with the rule player in the seat, on every deal."""
    g, actions = played(rules, 3, 3)
    n = g.n
    for k in range(len(g.results)):
        for seat in range(n):
            r = shadow_deal(rules, actions, k, seat, {s: "rule" for s in range(n)}, "rule")
            assert r.you == r.expert == added(g, k)[seat]
            assert r.advantage == 0 and r.deal == k


@pytest.mark.parametrize("rules", PRESETS)
def test_the_expert_replays_the_same_cards_deterministically(rules):
    g, actions = played(rules, 11, 2)
    strengths = {s: "rule" for s in range(g.n)}
    k = len(g.results) - 1
    first = shadow_deal(rules, actions, k, 0, strengths, CHEAP_EXPERT, key=11)
    again = shadow_deal(rules, actions, k, 0, strengths, CHEAP_EXPERT, key=11)
    assert first == again
    assert first.you == added(g, k)[0]
    start, chances, table = deal_chances(rules, actions, k)
    assert table == added(g, k) and chances  # at least the deal itself
    assert len(start.results) == k
    replayed = replay_game(start, chances, 0, strengths, CHEAP_EXPERT, key=11)
    assert len(replayed.results) == k + 1  # one deal more, and only one
    assert len(added(replayed, k)) == g.n  # every seat scored
    assert added(replayed, k)[0] == first.expert
    if rules != "besigue":  # the same cards in the same seats
        assert replayed.results[k].hands == g.results[k].hands
    else:
        assert replayed.log[len(start.log)] == g.log[len(start.log)]  # the same shuffle


def test_the_position_before_the_deal_is_the_table_s():
    """Deal 3 starts from the match's state after deal 2: the same dealer, contracts left and totals."""
    g, actions = played("classic", 5, 3)
    start, _chances, _table = deal_chances("classic", actions, 2)
    assert start.totals == [sum(r.added[s] for r in g.results[:2]) for s in range(4)]
    assert isinstance(actions[len(start.history)], Deal)  # the next action is deal 3's cards
    declared = {(r.declarer, r.contract) for r in g.results[:2]}
    assert all(c not in start.contracts_left[d] for d, c in declared)


def test_a_missing_chance_event_is_drawn_the_same_every_time():
    g, actions = played("classic", 5, 1)
    start, _chances, _table = deal_chances("classic", actions, 0)
    strengths = {s: "rule" for s in range(4)}
    a = replay_game(start, [], 0, strengths, "rule", key=9)
    b = replay_game(start, [], 0, strengths, "rule", key=9)
    assert a.results[0].hands == b.results[0].hands
    assert a.history == b.history
    # a recorded event that no longer fits is skipped, not applied
    c = replay_game(start, ["not a deal"] + list(_chances), 0, strengths, "rule", key=9)
    assert c.results[0].hands == g.results[0].hands


def test_the_person_who_played_differently_is_compared_on_the_same_cards():
    """A random player at the table; the rule player in the seat: the deal is the same, the scores differ."""
    g, actions = played("classic", 21, 4, {0: "random"})
    strengths = {s: "rule" for s in range(1, 4)}
    rows = [shadow_deal("classic", actions, k, 0, strengths, "rule") for k in range(4)]
    assert [r.you for r in rows] == [g.results[k].added[0] for k in range(4)]
    assert any(r.you != r.expert for r in rows)


def test_a_deal_not_finished_is_refused():
    g, actions = played("classic", 5, 1)
    with pytest.raises(ValueError):
        shadow_deal("classic", actions, 1, 0, {}, "rule")
    with pytest.raises(ValueError):
        shadow_deal("classic", actions[:-1], 0, 0, {}, "rule")


def test_the_summary_orients_by_who_wins_and_names_the_worst_deals():
    assert sign_of("classic") == 1 and sign_of("french") == -1 and sign_of("besigue") == 1
    rows = [
        ShadowResult(0, 10, 30, 1),
        ShadowResult(1, 5, 0, 1),
        ShadowResult(2, -40, -10, 1),
        ShadowResult(3, 0, 0, 1),
        ShadowResult(4, 1, 2, 1),
        ShadowResult(5, 1, 3, 1),
    ]
    s = summarize(rows)
    assert s.deals == 6 and s.advantage == -20 + 5 - 30 + 0 - 1 - 2
    assert [r.deal for r in s.worst] == [2, 0, 5]
    low = summarize([ShadowResult(0, 10, 30, -1), ShadowResult(1, 50, 20, -1)])  # the lowest total wins
    assert low.advantage == 20 - 30 and [r.deal for r in low.worst] == [1]
    assert summarize([]).deals == 0 and summarize([]).advantage == 0
