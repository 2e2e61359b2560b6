"""The duplicate arena: same cards in every rotation, intervals over boards, the CLI end to end."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from barbu.arena.duplicate import DealRow, interval, play_rotation, run_arena, split_bots, summarize
from barbu.core.actions import Deal
from barbu.core.errors import AgentError
from barbu.records.barbu import load_match


def test_split_bots_keeps_settings_together():
    assert split_bots("search(samples=20, seconds=0.5),rule, random") == [
        "search(samples=20, seconds=0.5)",
        "rule",
        "random",
    ]
    with pytest.raises(AgentError, match="unknown computer player"):
        split_bots("rule,alphazero")


def test_every_rotation_gets_the_same_cards(tmp_path):
    bots = ["rule", "random", "random", "random"]
    rows = [play_rotation("classic", bots, 5, rot, 6, str(tmp_path)) for rot in range(4)]
    deals = []
    for rot in range(4):
        m = load_match(tmp_path / f"seed5-rot{rot}.jsonl")
        deals.append([a.hands for a in m.history if isinstance(a, Deal)])
        assert [r.bots for r in rows[rot]][0] == tuple(bots[(s - rot) % 4] for s in range(4))
    assert all(d == deals[0] for d in deals) and len(deals[0]) == 6
    # The rotations differ in who plays, so the play differs somewhere.
    assert len({tuple(r.points for r in rows[rot]) for rot in range(4)}) > 1


def test_summary_means_and_intervals_are_over_boards():
    rows = []
    # Two boards; bot A sits in seat 0 in rotation 0 and seat 1 in rotation 1.
    for seed, (a0, a1) in enumerate([(10.0, 6.0), (2.0, 4.0)]):
        rows.append(DealRow(seed, 0, 0, "no-tricks", ("A", "B"), (a0, -a0)))
        rows.append(DealRow(seed, 1, 0, "no-tricks", ("B", "A"), (-a1, a1)))
    s = summarize(rows, ["A", "B"], 1)
    assert s.boards == 2
    mean, half = s.mean["A"]
    assert mean == pytest.approx(5.5)  # board means 8 and 3
    assert half == pytest.approx(1.96 * math.sqrt(((8 - 5.5) ** 2 + (3 - 5.5) ** 2) / 1) / math.sqrt(2))
    diff, _ = s.pairs[("A", "B")]
    assert diff == pytest.approx(11.0)
    assert s.contract_deals == {"no-tricks": 4}
    # An incomplete board (one rotation missing) is left out.
    s2 = summarize(rows[:3], ["A", "B"], 1)
    assert s2.boards == 1


def test_interval_of_one_value_is_unbounded():
    assert interval([3.0]) == (3.0, math.inf)


def test_rule_beats_random_in_a_small_arena():
    _, s = run_arena("classic", ["rule", "random", "random", "random"], 28, seed=3)
    mean, half = s.pairs[("rule", "random")]
    assert s.boards == 28 and mean - half > 0


def test_arena_command_end_to_end(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "barbu",
            "arena",
            "--rules",
            "salad(players=3)",
            "--bots",
            "rule,random,random",
            "--deals",
            "4",
            "--workers",
            "2",
            "--out",
            str(tmp_path / "recs"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"COLUMNS": "200", "PATH": ""},
    )
    assert out.returncode == 0, out.stderr
    assert "duplicate deals" in out.stdout and "rule" in out.stdout and "Per contract" in out.stdout
    records = sorted((tmp_path / "recs").glob("*.jsonl"))
    assert len(records) == 3
    header = json.loads(records[0].read_text().splitlines()[0])
    assert header["arena"] == {"seed": 1, "rotation": 0}
    bad = subprocess.run(
        [sys.executable, "-m", "barbu", "arena", "--bots", "rule,rule"], capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and "give 4 computer players" in bad.stderr
