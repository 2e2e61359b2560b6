"""Puzzles as data: JSON in and out, malformed input refused in plain words, files, the day's puzzle, ratings."""

from __future__ import annotations

import gzip
import random

import pytest

from barbu.puzzles import library
from barbu.puzzles.find import Tally, find
from barbu.puzzles.model import OPEN, SINGLE, Puzzle, PuzzleError, Step
from barbu.puzzles.rating import Rating, meet, near, shown


@pytest.fixture(scope="module")
def puzzles(classic_match) -> list[Puzzle]:
    m = classic_match
    found = find(
        str(m.rules), [str(a) for a in m.history], "selfplay:t", (OPEN, SINGLE), Tally(), samples=20, exact_cards=5
    )
    assert len(found) >= 5
    return found


def test_json_round_trip(puzzles):
    for p in puzzles:
        assert Puzzle.from_dict(p.to_dict()) == p
    lined = Puzzle(**{**puzzles[0].__dict__, "line": (Step(("2H", "3H"), ("4S",), (("5S", 6),)),)})
    assert Puzzle.from_dict(lined.to_dict()) == lined


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"id": "XYZ"}, "12 lowercase hex characters, not 'XYZ'"),
        ({"kind": "closed"}, "of the kind open or single, not 'closed'"),
        ({"theme": "magic"}, "'magic' is not one of the puzzles' themes"),
        ({"costs": [["2H", 0]]}, "costs more than nothing"),
        ({"costs": [["2H", "a lot"]]}, "costs is not what it should be"),
        ({"seat": True}, "seat is not what it should be"),
        ({"share": 1.5}, "share runs from 0 to 1"),
        ({"solution": []}, "solution is not what it should be"),
        ({"actions": None}, "needs the field actions"),
    ],
)
def test_malformed_data_is_refused_in_plain_words(puzzles, change, words):
    d = {**puzzles[0].to_dict(), **change}
    if change.get("actions", 1) is None:
        del d["actions"]
    with pytest.raises(PuzzleError) as e:
        Puzzle.from_dict(d)
    assert words in str(e.value)
    with pytest.raises(PuzzleError, match="a puzzle is a JSON object"):
        Puzzle.from_dict([1, 2])


def test_actions_that_do_not_lead_to_the_seat_are_refused(puzzles):
    p = puzzles[0]
    wrong = Puzzle(**{**p.__dict__, "seat": (p.seat + 1) % 4})
    with pytest.raises(PuzzleError, match="do not lead to a card for seat"):
        wrong.match()


def test_files_round_trip_plain_and_gzip_and_name_a_bad_line(tmp_path, puzzles):
    for name in ("p.jsonl", "p.jsonl.gz"):
        path = tmp_path / name
        library.write(path, puzzles)
        assert library.read(path) == puzzles
        assert [f.name for f in tmp_path.iterdir() if f.name.endswith(".tmp")] == []
    assert gzip.open(tmp_path / "p.jsonl.gz").read().startswith(b"{")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(library.dumps(puzzles[0]) + "\n{nope\n")
    with pytest.raises(PuzzleError, match=r"bad.jsonl, line 2: not valid JSON"):
        library.read(bad)
    with pytest.raises(PuzzleError, match="cannot read the puzzles in"):
        library.read(tmp_path / "missing.jsonl")


def test_the_shipped_library_loads_and_every_puzzle_reaches_its_position():
    shipped = library.load()
    assert shipped
    for p in shipped[:50]:
        m = p.match()
        assert m.to_act() == p.seat


def test_the_day_s_puzzle_is_the_same_for_everyone_and_open(puzzles):
    day = library.daily("2026-11-29", puzzles)
    assert day == library.daily("2026-11-29", list(reversed(puzzles))) and day.kind == OPEN
    assert len({library.daily(f"2026-12-{d:02}", puzzles).id for d in range(1, 31)}) > 1
    with pytest.raises(PuzzleError, match="a day is written YYYY-MM-DD"):
        library.daily("tomorrow", puzzles)
    with pytest.raises(PuzzleError, match="no puzzle"):
        library.daily("2026-11-29", [])


def test_choose_filters_by_contract_theme_and_kind(puzzles):
    p = puzzles[0]
    got = library.choose(puzzles, family="classic", contract=p.contract, theme=p.theme, kind=p.kind)
    assert p in got and all(q.contract == p.contract and q.theme == p.theme for q in got)
    assert library.choose(puzzles, family="french") == []


def test_ratings_move_the_right_way_on_a_solved_and_a_failed_puzzle():
    player, puzzle = Rating(), Rating()
    won_player, won_puzzle = meet(player, puzzle, solved=True)
    assert won_player.mu > player.mu and won_puzzle.mu < puzzle.mu
    lost_player, lost_puzzle = meet(player, puzzle, solved=False)
    assert lost_player.mu < player.mu and lost_puzzle.mu > puzzle.mu
    assert won_player.sigma < player.sigma and won_player.matches == 1
    assert shown(won_player) > shown(lost_player)


def test_near_offers_puzzles_near_the_player_s_level():
    rated = [(i, Rating(mu=float(i), sigma=2.0)) for i in range(100)]
    rng = random.Random(1)
    picks = {near(rated, Rating(mu=50.0, sigma=2.0), rng) for _ in range(200)}
    assert picks <= set(range(44, 57)) and len(picks) > 3
    with pytest.raises(ValueError):
        near([], Rating(), rng)
