"""The short match (issue 43, "a rated game in twenty minutes"): each player declares a few contracts of his
list (`contracts_each`), Bésigue is played to 500, and a rated short match moves ratings by its share."""

from __future__ import annotations

import random

import pytest

from barbu.classic.match import CHANCE, Match
from barbu.classic.ruleset import Ruleset
from barbu.core.actions import NO_DOUBLE
from barbu.core.errors import RulesetError
from barbu.games import open_game, short_rules
from barbu.ratings import Rating, match_weight, update

SHORT_FAMILIES = [
    "classic",
    "italian",
    "italian-six",
    "salad(players=5)",
    "french(players=3)",
    "classic(rotation=quick)",
]


def play_out(m: Match, seed: int) -> Match:
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(m.sample_chance(rng) if m.to_act() == CHANCE else rng.choice(list(m.legal_actions())))
    return m


@pytest.mark.parametrize("rules", SHORT_FAMILIES)
def test_each_player_declares_two_distinct_contracts_and_the_match_ends(rules: str) -> None:
    m = play_out(Match(short_rules(rules), 11), 5)
    assert m.total_deals == 2 * m.n and len(m.results) == 2 * m.n
    by_declarer: dict[int, list[str]] = {}
    for r in m.results:
        by_declarer.setdefault(r.declarer, []).append(r.contract)
    assert sorted(by_declarer) == list(range(m.n))
    assert all(len(set(c)) == len(c) == 2 for c in by_declarer.values())
    if m.rules.rotation == "dealer":  # a declarer's two contracts are played in a row
        assert [r.declarer for r in m.results] == [
            d for d in dict.fromkeys(r.declarer for r in m.results) for _ in "ab"
        ]
    assert m.totals == [sum(r.added[s] for r in m.results) for s in range(m.n)]


def test_the_full_match_is_unchanged() -> None:
    m = Match("classic", 3)
    assert m.total_deals == 28 and m.series_length == 7 and m.rules.contracts_each == 0
    assert str(Ruleset.parse("classic")) == "classic"


def test_the_italian_six_bonus_comes_after_each_short_series() -> None:
    m = play_out(Match(short_rules("italian-six"), 4), 8)
    with_series = [r.number for r in m.results if r.series]
    assert with_series == [2, 4, 6, 8]


def test_the_double_obligation_falls_due_within_the_short_series() -> None:
    """Short classic owes one double on each dealer over his two deals: a seat that passed him on the first
    must double him on the second."""
    m = Match(short_rules("classic"), 21)
    assert m.rules.double_obligation == 1
    rng = random.Random(2)
    owed_seen = False
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.apply(m.sample_chance(rng))
            continue
        s = m.to_act()
        legal = list(m.legal_actions())
        if m.phase_name == "doubling" and s is not None and m.must_double_dealer(s):
            owed_seen = True
            assert m.series_left(m.declarer) == 0 and m.dbl_count[m.declarer][s] == 0
            assert NO_DOUBLE not in legal and all(m.dealer in a.targets for a in legal)
        # pass whenever allowed, so that the obligation comes due
        m.apply(NO_DOUBLE if NO_DOUBLE in legal else rng.choice(legal))
    assert owed_seen


@pytest.mark.parametrize(
    "text,code",
    [
        ("classic(contracts_each=1)", "obligation-over-series"),
        ("italian-six(contracts_each=7, double_obligation=1)", "contracts-each-too-many"),
        ("scottish(contracts_each=2)", "not-for-family"),
    ],
)
def test_impossible_short_matches_are_refused_with_a_code(text: str, code: str) -> None:
    with pytest.raises(RulesetError) as e:
        Ruleset.parse(text)
    assert e.value.code == code


def test_short_forms_and_their_text_round_trips() -> None:
    assert short_rules("classic") == "classic(double_obligation=1, contracts_each=2)"
    assert short_rules("salad") == "salad(contracts_each=2)"  # Salad owes no doubles
    assert short_rules("besigue-english") == "besigue-english(target=500)"
    assert short_rules("scottish") == "scottish"  # one Set is the Scottish game's shortest match
    assert short_rules(short_rules("classic")) == short_rules("classic")
    for text in ("classic", "italian", "french", "besigue"):
        g = open_game(short_rules(text), 1)
        assert str(g.rules) == short_rules(text)


def test_a_short_match_moves_ratings_by_its_share() -> None:
    assert match_weight("classic") == 1.0 and match_weight("scottish") == 1.0
    assert match_weight(short_rules("classic")) == pytest.approx(2 / 7)
    assert match_weight(short_rules("besigue")) == pytest.approx(0.5)
    start = [Rating() for _ in range(4)]
    full = update(start, [1, 2, 3, 4])
    short = update(start, [1, 2, 3, 4], 2 / 7)
    assert full == update(start, [1, 2, 3, 4], 1.0)
    for f, s, b in zip(full, short, start):
        assert s.mu - b.mu == pytest.approx((f.mu - b.mu) * 2 / 7)
        assert f.sigma < s.sigma < b.sigma and s.matches == f.matches == 1
    with pytest.raises(ValueError):
        update(start, [1, 2, 3, 4], 0.0)
