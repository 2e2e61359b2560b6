"""Observations hold only what the seat may see: another deal of the unseen cards gives the same array."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import random

import numpy as np

from barbu.besigue.sampler import sample_game
from barbu.classic.sampler import determinize, sample_hands
from barbu.core.cards import cards_of
from barbu.rl.observe import BARBU_SIZE, BESIGUE_SIZE, describe, observe_barbu, observe_besigue
from barbu.rl.table import Table

from .test_codec import positions


@pytest.mark.parametrize("rules", ["classic", "italian", "salad(players=5)", "french(players=3)", "scottish"])
def test_barbu_observation_ignores_hidden_cards(rules):
    rng = random.Random(2)
    checked = 0
    for i, t in enumerate(positions(rules, 11, 300)):
        if i % 7:
            continue
        for seat in range(t.n):
            v = t.game.view(seat)
            if v.phase in ("draw", "deal", "over"):
                continue
            other = determinize(v, sample_hands(v, rng))
            assert np.array_equal(observe_barbu(v), observe_barbu(other.view(seat))), (rules, seat, v.phase)
            checked += 1
    assert checked > 20


def test_besigue_observation_ignores_hidden_cards():
    rng = random.Random(4)
    checked = 0
    for i, t in enumerate(positions("besigue", 3, 300)):
        if i % 5:
            continue
        for seat in (0, 1):
            v = t.game.view(seat)
            if v.phase in ("first-dealer", "shuffle", "over"):
                continue
            other = sample_game(v, rng)
            assert np.array_equal(observe_besigue(v), observe_besigue(other.view(seat)))
            checked += 1
    assert checked > 20


def test_fields_read_back_the_view():
    t = Table("classic", deals=1)
    t.reset(8)
    rng = random.Random(8)
    while t.game.phase_name != "play" or len(t.game.trick) < 2:
        t.step(rng.choice(t.legal_tokens()))
    seat = t.to_act
    v = t.game.view(seat)
    o = t.observe(seat)
    f = {name: o[a:b] for name, a, b, _ in describe("barbu")}
    assert set(np.flatnonzero(f["hand"])) == set(cards_of(v.hand))
    assert f["to_act"][0] == 1  # seats are relative: I am row 0
    leader_row = (v.leader - seat) % 4
    assert f["trick"][leader_row * 52 + v.trick[0]] == 1
    assert f["seats"].tolist() == [1, 1, 1, 1, 0, 0]
    assert o.shape == (BARBU_SIZE,) and o.dtype == np.float32


def test_besigue_fields():
    t = Table("besigue", deals=1)
    t.reset(3)
    seat = t.to_act
    o = t.observe(seat)
    f = {name: o[a:b] for name, a, b, _ in describe("besigue")}
    assert f["hand"].sum() * 2 == len(t.game.view(seat).hand)
    assert o.shape == (BESIGUE_SIZE,)


def test_observation_names_each_slice_once():
    for kind, size in (("barbu", BARBU_SIZE), ("besigue", BESIGUE_SIZE)):
        fields = describe(kind)
        assert fields[0][1] == 0 and fields[-1][2] == size
        assert all(a[2] == b[1] for a, b in zip(fields, fields[1:]))


def test_silly_round_pass_ons_stay_private():
    """In the Scottish Silly Round each seat sees the cards it passed and received, never another's choice."""
    t = Table("scottish")
    t.reset(6)
    rng = random.Random(6)
    while not (t.game.state.silly and t.game.phase_name in ("play", "domino") and t.game.pass_log):
        t.step(rng.choice(t.legal_tokens()))
    checked = 0
    for _ in range(30):
        for seat in range(4):
            v = t.game.view(seat)
            other = determinize(v, sample_hands(v, rng))
            assert np.array_equal(observe_barbu(v), observe_barbu(other.view(seat)))
            checked += 1
        if t.to_act is None:
            break
        t.step(rng.choice(t.legal_tokens()))
    assert checked >= 40


def test_the_docs_tables_give_every_field_its_slice():
    """docs/rl.md documents the observations field by field: the same names and the same slices as the code."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    for kind, heading in (
        ("barbu", f"The Barbu family ({BARBU_SIZE:,} values)"),
        ("besigue", f"Bésigue ({BESIGUE_SIZE} values;"),
    ):
        table = doc[doc.index(heading) :]
        table = table[: table.index("\n\n", table.index("| field"))]
        rows = [
            (re.findall(r"`(\w+)`", names), where)
            for names, where in re.findall(r"^\| (`[^|]+`) \| ([0-9–]+) \|", table, re.MULTILINE)
        ]
        slices = {name: (start, stop) for name, start, stop, _ in describe(kind)}
        assert sorted(n for names, _ in rows for n in names) == sorted(slices)
        for names, where in rows:
            low, high = (int(x) for x in where.split("–")) if "–" in where else (int(where), int(where))
            if len(names) == 1:  # one field: exactly its slice
                assert slices[names[0]] == (low, high + 1), (kind, names, where)
            else:  # fields listed together: one span, covered end to end
                assert min(slices[n][0] for n in names) == low and max(slices[n][1] for n in names) == high + 1
