"""The expert player: its inference weighs the true deal well, its perfect twin sees the real cards, and it
plays every family legally."""

from __future__ import annotations

import pytest

from barbu import CHANCE
from barbu.agents import make_agent
from barbu.agents.expert import ExpertAgent
from barbu.agents.rule import RuleAgent
from barbu.arena.duplicate import run_arena
from barbu.games import open_game


def rule_positions(rules: str, seed: int, phase: str, every: int = 5):
    """(match, view) pairs where a seat must act in ``phase``, in a match played by rule players."""
    m = open_game(rules, seed)
    bots = [RuleAgent(seed + s) for s in range(m.n)]
    k = 0
    while not m.is_over and len(m.results) < 6:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        v = m.view(actor)
        k += 1
        if v.phase == phase and len(v.legal) > 1 and k % every == 0:
            yield m, v
        m.apply(bots[actor].act(v), seat=actor)


def test_the_perfect_twin_searches_the_real_deal_only():
    agent = make_agent("perfect", 1, measure=True)
    for m, v in rule_positions("classic", 4, "play", every=7):
        agent.match = m
        worlds = list(agent.worlds(v, 1, float("inf")))
        assert len(worlds) == 1 and worlds[0].hands == m.hands
        assert agent.act(v) in v.legal
        break


def test_the_twin_can_see_the_cards_in_some_phases_only():
    """`sees_in` (benchmarks/strength.py --perfect-in): the true deal where it looks, sampled deals elsewhere."""
    agent = make_agent("perfect(steps=0, end_cards=0, samples=5)", 1, measure=True)
    agent.sees_in = frozenset({"play"})
    for phase in ("play", "doubling"):
        m, v = next(rule_positions("classic", 4, phase, every=1))
        agent.match = m
        worlds = list(agent.worlds(v, 1, float("inf")))
        if phase == "play":
            assert len(worlds) == 1 and worlds[0].hands == m.hands
        else:
            assert len(worlds) == 5 and any(w.hands != m.hands for w in worlds)


def test_the_arena_hands_the_true_match_to_the_perfect_player_only():
    rows, summary = run_arena("classic", ["perfect(samples=4)", "expert(samples=4)", "rule", "rule"], 1, seed=3)
    assert summary.boards == 1 and len(rows) == 4


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        "classic",
        "italian-six",
        "salad(players=5)",
        "french(players=3)",
        "scottish",
        "classic(ravage_city=true, chinese_poker=true)",
    ],
)
def test_the_expert_plays_every_family_legally(rules):
    m = open_game(rules, 8)
    expert = ExpertAgent(3, samples=6, seconds=0.3)
    others = [RuleAgent(s) for s in range(m.n)]
    decisions = 0
    while not m.is_over and len(m.results) < 3:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        v = m.view(actor)
        action = expert.act(v) if actor == 0 else others[actor].act(v)
        assert action in v.legal or actor != 0
        decisions += actor == 0
        m.apply(action, seat=actor)
    assert decisions > 10


def test_solved_ends_play_the_last_tricks_as_they_should_be():
    """At No last two with A♠ 2♠ left, the rule player's own playout ducks with the 2♠ and pays for the last
    trick; with the end solved, each playout knows cashing the A♠ costs only the second-to-last trick."""
    from test_agents import last_two_ending, trumps_ending

    from barbu.agents.search import rollout

    m = last_two_ending()
    policy = RuleAgent(1)
    values = {}
    for card in ("AS", "2S"):
        w = m.clone()
        w.apply(card)
        values[card] = rollout(w, policy, 1, end_cards=2)[0]
    assert values == {"AS": -10, "2S": -20}
    assert str(ExpertAgent(1, samples=8).act(m.view(0))) == "AS"
    t = trumps_ending()
    assert str(ExpertAgent(2, samples=8).act(t.view(0))) == "AD"


@pytest.mark.parametrize("kind", ["search(samples=6)", "expert(samples=6)"])
def test_a_card_that_ends_the_deal_is_worth_that_deals_result(kind):
    """A deal that stops once decided (No King: the K♥ falls) ends on the card that completes the trick: its
    value is that deal's result, not what the next deal of the playout would bring."""
    m = open_game("classic", 5)
    bots = [RuleAgent(1)] * 4
    checked = 0
    while not m.is_over and checked < 2:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        v = m.view(actor)
        if v.phase == "play" and len(v.legal) > 1:
            for card in v.legal:
                w = m.clone()
                done = len(w.results)
                w.apply(card)
                if len(w.results) > done:
                    agent = make_agent(kind, 3)
                    agent.act(v)
                    values = dict(agent.last_values)
                    assert values[card] == w.results[-1].added[actor]
                    checked += 1
                    break
        m.apply(bots[actor].act(v), seat=actor)
    assert checked == 2


def test_the_starting_rank_is_searched_among_the_best_ranks_after_a_few_deals():
    """Every Domino starting rank is tried on the first `RANK_FIRST` deals, only the best `RANK_KEPT` after:
    the expert's slowest decision costs half as much, and the choice is still the same for a seed."""
    from barbu.agents.expert import RANK_FIRST, RANK_KEPT

    _, v = next(rule_positions("classic", 2, "rank", every=1))
    assert len(v.legal) == 13
    choices = set()
    for _ in range(2):
        agent = ExpertAgent(5, samples=RANK_FIRST + 3, seconds=1e6)
        choices.add(agent.act(v))
        assert agent.last_samples == RANK_FIRST + 3 and agent.capped == 0
        assert len(agent.last_values) == RANK_KEPT and agent.last_values[0][0] in choices
    assert len(choices) == 1
    few = ExpertAgent(5, samples=RANK_FIRST - 1, seconds=1e6)
    few.act(v)
    assert len(few.last_values) == 13  # narrowed only once the first deals are all played


def test_decisions_cut_short_by_the_time_cap_are_counted():
    """`capped` counts the decisions that looked at fewer deals than planned (the benchmarks report it: past
    the cap a player no longer replays for its seed)."""
    _, v = next(rule_positions("classic", 3, "play", every=1))
    hurried = ExpertAgent(1, samples=30, seconds=1e-9)
    hurried.act(v)
    assert hurried.capped == 1 and hurried.last_samples < 30
    calm = make_agent("search(samples=3, seconds=1e6)", 1)
    calm.act(v)
    assert calm.capped == 0 and calm.last_samples == 3
