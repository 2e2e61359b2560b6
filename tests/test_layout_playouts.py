"""The expert's playouts solve the ends of layout deals (Domino, Success, Patience) exactly; `search`'s do not."""

from __future__ import annotations

import itertools

import pytest

from barbu.agents.expert import ExpertAgent
from barbu.agents.rule import RuleAgent
from barbu.agents.search import rollout
from barbu.classic.state import DOMINO_PLAY
from barbu.solver.layout import affordable_cards, cards_left, layout_spec_of, layout_state_of, solve
from barbu.solver.layout_samples import layout_positions

FAMILIES = ["classic", "italian", "french", "scottish"]


@pytest.mark.parametrize("rules", FAMILIES)
def test_playouts_with_end_cards_play_the_solvers_moves(rules):
    """From a position the solver can afford, a playout with ``end_cards`` ends where max^n says; without
    it (the search player) the rule player's moves end elsewhere in some of the deals."""
    differ = 0
    for m in itertools.islice(layout_positions(rules, 4, 8), 12):
        spec, st = layout_spec_of(m), layout_state_of(m)
        assert cards_left(st) <= affordable_cards(spec)
        solved = tuple(spec.sign * x for x in solve(spec, st))
        assert rollout(m.clone(), RuleAgent(1), spec.sign, end_cards=5) == solved
        differ += rollout(m.clone(), RuleAgent(1), spec.sign) != solved
    assert differ


@pytest.mark.parametrize("rules", FAMILIES)
def test_playouts_from_a_full_layout_deal_end_solved(rules):
    """From the first card of a layout deal the rule player plays until the solver can afford the rest; the
    playout then ends as the solver says from that point (checked by replaying it with the solver)."""
    for m in itertools.islice(layout_positions(rules, 6, 60), 3):
        spec = layout_spec_of(m)
        full = rollout(m.clone(), RuleAgent(1), spec.sign, end_cards=5)
        # the same playout stopped where the solver takes over: the rule player's moves until then
        w = m.clone()
        policy = RuleAgent(1)
        while cards_left(layout_state_of(w)) > affordable_cards(spec):
            before = len(w.results)
            rollout_step(w, policy, spec.sign)
            assert len(w.results) == before
        assert full == tuple(spec.sign * x for x in solve(spec, layout_state_of(w)))


def rollout_step(m, policy, sign) -> None:
    """One move of the rule-based playout (what `rollout` plays above the solver's reach)."""
    deals = len(m.results)
    probe = m.clone()
    history = len(probe.history)
    rollout(probe, policy, sign)
    m.apply(probe.history[history], seat=m.turn)
    assert len(m.results) == deals or m.phase != DOMINO_PLAY


@pytest.mark.parametrize("rules", ["classic", "french", "scottish"])
def test_the_expert_plays_a_whole_layout_deal_legally(rules):
    """The expert plays every seat of a Domino, Success and Patience deal from its first card to its end."""
    m = next(layout_positions(rules, 9, 60))
    expert = ExpertAgent(3, samples=4, seconds=0.3)
    deals = len(m.results)
    decisions = 0
    while len(m.results) == deals:
        seat = m.to_act()
        v = m.view(seat)
        action = expert.act(v)
        assert action in v.legal
        m.apply(action, seat=seat)
        decisions += 1
    assert decisions >= 10


@pytest.mark.parametrize("rules", FAMILIES)
def test_with_a_responding_seat_domino_and_success_are_played_out_by_the_rule_player(rules):
    """The expert's own playouts (a ``root`` seat): Domino and Success to the end with the rule player's moves,
    as the search player's; the Scottish Patience ends as the layout solver says, as without a root."""
    differ = 0
    for m in itertools.islice(layout_positions(rules, 4, 8), 12):
        spec = layout_spec_of(m)
        responded = rollout(m.clone(), RuleAgent(1), spec.sign, end_cards=5, root=m.turn)
        solved = rollout(m.clone(), RuleAgent(1), spec.sign, end_cards=5)
        if rules == "scottish":
            assert responded == solved
        else:
            assert responded == rollout(m.clone(), RuleAgent(1), spec.sign)
            differ += responded != solved
    assert differ or rules == "scottish"


def test_the_domino_benchmark_plays_each_domino_deal_at_every_seat(tmp_path, capsys):
    """benchmarks/domino.py: every Domino deal of a seed, a row for each seat (the player alone against rule
    players, or a table in every rotation); a second run resumes with nothing left to play; the comparison
    pairs the runs board by board."""
    import importlib.util
    import json
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "domino_bench", Path(__file__).parents[1] / "benchmarks" / "domino.py"
    )
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    deals = bench.layout_deals("classic", 1, "domino")
    assert deals and all(m.contract.key == "domino" and m.phase_name == "rank" for m in deals.values())
    alone, table = tmp_path / "alone.jsonl", tmp_path / "table.jsonl"
    bench.play("classic", "search(samples=2, seconds=1e6)", 1, 1, "domino", alone)
    bench.play("classic", "rule", 1, 1, "domino", tmp_path / "rule.jsonl")
    bench.play("classic", "search(samples=2, seconds=1e6),rule,rule,rule", 1, 1, "domino", table)
    rows = [json.loads(line) for line in alone.open()]
    assert len(rows) == 4 * len(deals) and {r["seat"] for r in rows} == {0, 1, 2, 3}
    assert all(r["capped"] == 0 and r["decisions"] > 0 for r in rows)
    assert len(table.read_text().splitlines()) == 16 * len(deals)
    bench.play("classic", "search(samples=2, seconds=1e6)", 1, 1, "domino", alone)
    assert len(alone.read_text().splitlines()) == len(rows)
    bench.compare([alone, tmp_path / "rule.jsonl", table])
    out = capsys.readouterr().out
    assert "alone.jsonl - rule.jsonl" in out and f"over {len(deals)} boards" in out
    assert "table.jsonl: search(samples=2, seconds=1e6) - rule" in out
