"""The ratings layer (barbu.ratings): placings, OpenSkill updates, the shown figure, bot seeds, rated games."""

from __future__ import annotations

import itertools
import math

import pytest
from hypo import _settings
from hypothesis import given
from hypothesis import strategies as st

from barbu.agents import AGENT_KINDS
from barbu.besigue.ruleset import PRESETS as BESIGUE_PRESETS
from barbu.classic.ruleset import presets
from barbu.games import open_game  # noqa: F401  (registers every family's presets)
from barbu.ratings import (
    GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MODEL,
    PROVISIONAL_MATCHES,
    Rating,
    bot_rating,
    leaderboard,
    placings,
    provisional,
    rated_game,
    seeded_strengths,
    shown,
    update,
)
from barbu.ratings.bots import seed_data

SETTLED = Rating(25.0, 1.7, 40)  # a middling player after some dozens of matches

counts = st.integers(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS)
mus = st.floats(min_value=-10, max_value=60, allow_nan=False)
sigmas = st.floats(min_value=0.3, max_value=10, allow_nan=False)
ratings = st.builds(Rating, mus, sigmas, st.integers(min_value=0, max_value=500))


@st.composite
def totals_and_left(draw: st.DrawFn) -> tuple[list[int], bool, set[int]]:
    n = draw(counts)
    totals = draw(st.lists(st.integers(min_value=-5, max_value=5), min_size=n, max_size=n))
    left = draw(st.sets(st.integers(min_value=0, max_value=n - 1), max_size=n))
    return totals, draw(st.booleans()), left


@st.composite
def matches(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    """Some players' ratings and a placing of them, ties likely."""
    n = draw(counts)
    rs = draw(st.lists(ratings, min_size=n, max_size=n))
    totals = draw(st.lists(st.integers(min_value=0, max_value=3), min_size=n, max_size=n))
    return rs, placings(totals, True)


# ------------------------------------------------------------------ placings


def test_placings_by_points_ties_sharing_a_place():
    assert placings([10, 20, 20, 5], highest_wins=True) == [3, 1, 1, 4]
    assert placings([10, 20, 20, 5], highest_wins=False) == [2, 3, 3, 1]
    assert placings([7, 7], highest_wins=True) == [1, 1]
    assert placings([0, 0, 0, 0, 0, 0], highest_wins=False) == [1] * 6


def test_leavers_placed_last_whatever_their_points():
    assert placings([10, 20, 20, 5], True, left={1}) == [2, 4, 1, 3]
    assert placings([10, 20, 20, 5], True, left={0, 1}) == [3, 3, 1, 2]
    assert placings([-300, 0, 50], False, left={0}) == [3, 1, 2]  # the lowest total wins, but he walked out
    assert placings([1, 2], True, left={0, 1}) == [1, 1]
    with pytest.raises(ValueError):
        placings([1, 2], True, left={2})


@_settings(300)
@given(totals_and_left())
def test_placings_are_a_competition_ranking_with_leavers_last(case):
    totals, highest_wins, left = case
    places = placings(totals, highest_wins, left)
    n = len(totals)
    sign = 1 if highest_wins else -1
    stayed = [s for s in range(n) if s not in left]
    assert all(1 <= p <= n for p in places)
    for s in range(n):  # a place is one more than the number of seats strictly above it
        assert places[s] == 1 + sum(1 for t in range(n) if places[t] < places[s])
    for s, t in itertools.permutations(stayed, 2):
        if sign * totals[s] > sign * totals[t]:
            assert places[s] < places[t]
        if totals[s] == totals[t]:
            assert places[s] == places[t]
    for s in left:
        assert places[s] == len(stayed) + 1
        assert all(places[t] < places[s] for t in stayed)


# ------------------------------------------------------------------ updates


@pytest.mark.parametrize("n", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_winner_rises_last_falls_at_every_player_count(n):
    before = [Rating()] * n
    after = update(before, list(range(1, n + 1)))
    assert after[0].mu > Rating().mu > after[-1].mu
    assert [r.mu for r in after] == sorted((r.mu for r in after), reverse=True)
    assert all(r.matches == 1 and r.sigma < Rating().sigma for r in after)
    settled = update([SETTLED] * n, list(range(1, n + 1)))
    assert settled[0].mu > SETTLED.mu > settled[-1].mu


@_settings(300)
@given(matches())
def test_a_sole_winner_always_rises_and_a_sole_last_always_falls(match):
    rs, places = match
    new = update(rs, places)
    assert [r.matches for r in new] == [r.matches + 1 for r in rs]
    if places.count(1) == 1:
        i = places.index(1)
        assert new[i].mu > rs[i].mu
    worst = max(places)
    if places.count(worst) == 1 and worst > 1:
        i = places.index(worst)
        assert new[i].mu < rs[i].mu


@_settings(300)
@given(counts, ratings, st.data())
def test_ties_between_equal_ratings_get_equal_updates(n, rating, data):
    totals = data.draw(st.lists(st.integers(min_value=0, max_value=2), min_size=n, max_size=n))
    places = placings(totals, True)
    new = update([rating] * n, places)
    for s, t in itertools.combinations(range(n), 2):
        if places[s] == places[t]:
            assert new[s].mu == pytest.approx(new[t].mu, abs=1e-9)
            assert new[s].sigma == pytest.approx(new[t].sigma, abs=1e-9)
    if len(set(places)) == 1:  # everyone tied: nobody's skill moves, only the certainty
        assert all(r.mu == pytest.approx(rating.mu, abs=1e-9) for r in new)


@_settings(300)
@given(matches())
def test_each_update_conserves_the_weighted_total_of_mu(match):
    """Plackett–Luce moves μ as a zero-sum exchange weighted by the uncertainties: Σ Δμ / (σ² + τ²) = 0.
    So newcomers (all σ equal) give and take exactly what they win and lose between them."""
    rs, places = match
    new = update(rs, places)
    weights = [1 / (r.sigma**2 + MODEL.tau**2) for r in rs]
    moved = sum(w * abs(b.mu - a.mu) for w, a, b in zip(weights, rs, new))
    assert sum(w * (b.mu - a.mu) for w, a, b in zip(weights, rs, new)) == pytest.approx(0, abs=1e-9 + 1e-9 * moved)


@_settings(200)
@given(counts, st.data())
def test_updates_are_deterministic(n, data):
    rs = data.draw(st.lists(ratings, min_size=n, max_size=n))
    places = placings(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), False)
    assert update(rs, places) == update(list(rs), list(places))


def play(n: int, results: list[list[int]]) -> list[Rating]:
    """Newcomers through these matches of all of them, in this order."""
    rs = [Rating()] * n
    for places in results:
        rs = update(rs, places)
    return rs


@_settings(200)
@given(counts, st.data())
def test_order_of_matches_never_turns_clear_results_around(n, data):
    """The same matches in another order give other ratings (each update weighs a result by what the
    ratings expected then), but a player who won every match alone ends above the start, and one last
    in every match below it, whatever the order."""
    k = data.draw(st.integers(min_value=1, max_value=8))
    results = []
    for _ in range(k):  # seat 0 alone first, the last seat alone last, the others anyhow between them
        middle = data.draw(st.lists(st.integers(0, 2), min_size=n - 2, max_size=n - 2))
        results.append([1, *(1 + p for p in placings(middle, True)), n])
    shuffled = data.draw(st.permutations(results))
    for rs in (play(n, results), play(n, shuffled)):
        assert rs[0].mu > Rating().mu > rs[-1].mu


def test_order_of_matches_changes_ratings_a_little():
    a, b = [1, 2, 3, 4], [4, 3, 2, 1]
    one, two = play(4, [a, a, b]), play(4, [b, a, a])
    assert one != two  # OpenSkill weighs each result by the ratings of the moment
    for x, y in zip(one, two):
        assert abs(x.mu - y.mu) < 1.5 and abs(x.sigma - y.sigma) < 0.1
    assert one[0].mu > one[3].mu and two[0].mu > two[3].mu  # two wins out of three either way


@pytest.mark.parametrize(
    "ratings_, places",
    [
        ([Rating()], [1]),
        ([Rating()] * 7, list(range(1, 8))),
        ([Rating()] * 3, [1, 2]),
        ([Rating()] * 3, [0, 1, 2]),
        ([Rating()] * 3, [1, 2, 4]),
    ],
)
def test_update_refuses_a_malformed_match(ratings_, places):
    with pytest.raises(ValueError):
        update(ratings_, places)


def test_rating_values():
    assert Rating() == Rating(25.0, 25 / 3, 0)
    assert Rating.from_dict(Rating(31.5, 2.25, 17).as_dict()) == Rating(31.5, 2.25, 17)
    for bad in ((25.0, 0.0, 0), (math.nan, 1.0, 0), (25.0, 1.0, -1)):
        with pytest.raises(ValueError):
            Rating(*bad)


# ------------------------------------------------------------------ the shown figure


def test_shown_for_a_newcomer_and_a_settled_player():
    assert shown(Rating()) == 1000
    assert 1480 <= shown(SETTLED) <= 1520
    assert shown(Rating(-40.0, 9.0)) == 0


@_settings(300)
@given(ratings, st.floats(min_value=0, max_value=20), st.floats(min_value=0, max_value=5))
def test_shown_rises_with_mu_and_falls_with_sigma(r, more_mu, more_sigma):
    assert shown(Rating(r.mu + more_mu, r.sigma, r.matches)) >= shown(r)
    assert shown(Rating(r.mu, r.sigma + more_sigma, r.matches)) <= shown(r)
    if more_mu >= 0.1:
        assert shown(Rating(r.mu + more_mu, r.sigma, r.matches)) > shown(r) or shown(r) == 0


@pytest.mark.parametrize("n", [2, 4, 6])
def test_provisional_until_enough_matches(n):
    me = Rating()
    for i in range(PROVISIONAL_MATCHES):
        assert provisional(me)
        places = list(range(1, n + 1))
        me = update([me] + [SETTLED] * (n - 1), places[i % n :] + places[: i % n])[0]
    assert me.matches == PROVISIONAL_MATCHES and not provisional(me)


# ------------------------------------------------------------------ leaderboards


def test_leaderboard_orders_by_the_shown_figure_and_shares_places():
    players = [
        ("ann", Rating(30, 2, 20)),
        ("bob", Rating(30, 2, 12)),
        ("cid", Rating(40, 2, 3)),
        ("dee", Rating(20, 2, 30)),
        ("eve", Rating(33, 3, 10)),
    ]
    assert leaderboard(players) == [(1, "ann", 1600), (1, "bob", 1600), (1, "eve", 1600), (4, "dee", 1350)]
    assert leaderboard(players, min_matches=0)[0][1] == "cid"


# ------------------------------------------------------------------ computer players


def test_every_game_rates_every_strength():
    assert set(seed_data()["games"]) == set(GAMES)
    for game in GAMES:
        assert set(seeded_strengths(game)) == set(AGENT_KINDS)
        for strength in AGENT_KINDS:
            r = bot_rating(game, strength)
            assert r.matches > 0 and r != Rating()
        assert seed_data()["runs"][game]["command"].startswith("python tools/seed_bot_ratings.py")


def test_stronger_computer_players_start_higher():
    """What the seeds show in every game: random far below the rest, search above rule.  The expert is
    above rule in every Barbu game; in Bésigue, with the arena's small budget, it is not clearly better
    than rule (+22 ± 43 points a deal over 30 boards), and its seed is below.  Search and expert are
    close (docs/benchmarks.md: the expert's edge is about 2 points a deal over a thousand boards), so
    their order is not pinned."""
    for game in GAMES:
        r = {s: shown(bot_rating(game, s)) for s in AGENT_KINDS}
        assert r["random"] + 200 < min(r["rule"], r["search"], r["expert"]), (game, r)
        assert r["rule"] < r["search"], (game, r)
        if game != "besigue":
            assert r["rule"] < r["expert"], (game, r)
    assert all(not provisional(bot_rating(g, s)) for g in GAMES for s in AGENT_KINDS)


def test_unknown_strengths_and_games_start_as_newcomers():
    assert bot_rating("classic", "policy:trained.npz") == Rating()
    assert bot_rating("bridge", "expert") == Rating()


# ------------------------------------------------------------------ rated games


def test_every_preset_and_alias_has_its_game():
    seen = set()
    for p in presets():
        for name in (p.name, *p.aliases):
            assert rated_game(name) == p.ruleset.family, name
        seen.add(p.ruleset.family)
    for name in BESIGUE_PRESETS:
        assert rated_game(name) == "besigue"
    assert seen | {"besigue"} == set(GAMES)


def test_options_keep_the_game_and_nonsense_has_none():
    assert rated_game("classic(rotation=quick, ravage_city=true)") == "classic"
    assert rated_game("salad(players=6)") == "salad"
    assert rated_game("french(players=3)") == "french"
    assert rated_game("no such game") is None
    assert rated_game("classic(no_such_option=1)") is None
