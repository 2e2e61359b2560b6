"""What ``barbu puzzle`` keeps and how its modes run, without a screen: the puzzle file written whole and never
over an unreadable one, two processes' answers both kept, the day's puzzle rated once, a streak that climbs and
stops at the first mistake, a line of several cards, and your own puzzles from a record."""

from __future__ import annotations

import multiprocessing
import random
from pathlib import Path

import pytest

from barbu.classic.match import CHANCE, Match
from barbu.games import short_rules
from barbu.puzzles import library
from barbu.puzzles.mine import from_record
from barbu.puzzles.model import Puzzle
from barbu.records.barbu import write_record
from barbu.tui.puzzle_series import DailySeries, MineSeries, RatedSeries, StreakSeries, difficulty
from barbu.tui.puzzle_session import PuzzleSession
from barbu.tui.puzzle_store import PuzzleStore, PuzzleStoreError

DAY = "2026-11-29"


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return library.load()


def test_an_unreadable_puzzle_file_is_refused_and_left_as_it_is(tmp_path: Path, puzzles) -> None:
    store = PuzzleStore(tmp_path)
    RatedSeries(store, puzzles, random.Random(1)).answer(puzzles[0], puzzles[0].solution[0], True, 0)
    for broken in (
        b'{"version": 1, "rating": {"mu": 25',
        b"\xff\xfe not text",
        b'{"version": 1, "rating": {"mu": 1e999}}',
    ):
        store.path.write_bytes(broken)
        with pytest.raises(PuzzleStoreError, match="cannot be read.*left as it is"):
            store.read()
        series = RatedSeries(store, puzzles, random.Random(1))
        with pytest.raises(PuzzleStoreError):
            series.answer(puzzles[1], puzzles[1].solution[0], True, 0)
        assert store.path.read_bytes() == broken  # never overwritten
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "puzzles.json",
        "puzzles.lock",
    ]  # no half-written file left beside it


def _answer_many(folder: str, ids: list[str], start: int) -> None:
    store = PuzzleStore(Path(folder))
    by_id = {p.id: p for p in library.load()}
    series = RatedSeries(store, list(by_id.values()), random.Random(start))
    for k, pid in enumerate(ids):
        series.answer(by_id[pid], by_id[pid].solution[0], (k + start) % 2 == 0, 0)


def test_two_puzzle_processes_at_once_lose_no_answer(tmp_path: Path, puzzles) -> None:
    ids = [p.id for p in puzzles[:20]]
    ctx = multiprocessing.get_context("fork")
    workers = [ctx.Process(target=_answer_many, args=(str(tmp_path), ids, s)) for s in (0, 1)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(60)
        assert w.exitcode == 0
    rec = PuzzleStore(tmp_path).read()
    assert len(rec.history) == 40  # each process read the other's answers afresh under the lock
    assert rec.rating.matches == 40 and all(rec.puzzles[i].matches == 2 for i in ids)


def test_rated_answers_move_both_ratings_and_offer_puzzles_not_tried_yet(tmp_path: Path, puzzles) -> None:
    store = PuzzleStore(tmp_path)
    series = RatedSeries(store, puzzles[:5], random.Random(4))
    seen = []
    for k in range(5):
        p = series.next()
        assert p is not None and p.id not in seen
        seen.append(p.id)
        out = series.answer(p, p.solution[0], k < 3, 0 if k < 3 else p.costs[0][1])
        assert out.rated and (out.after > out.before if k < 3 else out.after < out.before)
    assert series.next() is not None  # all tried: the series goes on with them


def test_the_puzzle_of_the_day_is_rated_once(tmp_path: Path, puzzles) -> None:
    store = PuzzleStore(tmp_path)
    today = library.daily(DAY, puzzles)
    first = DailySeries(store, today, DAY)
    assert first.next() == today and first.next() is None  # one puzzle
    out = first.answer(today, today.solution[0], True, 0)
    assert out.rated and out.after > out.before
    again = DailySeries(store, library.daily(DAY, puzzles), DAY)
    p = again.next()
    assert p == today
    out = again.answer(p, p.costs[0][0], False, p.costs[0][1])
    assert not out.rated and out.after == out.before and "only the first answer is rated" in out.note
    assert store.read().daily == {DAY: {"puzzle": today.id, "solved": True}}


def test_a_streak_climbs_and_stops_at_the_first_mistake(tmp_path: Path, puzzles) -> None:
    store = PuzzleStore(tmp_path)
    series = StreakSeries(store, puzzles, random.Random(5))
    rec = store.read()
    order = [series.ladder.index(p) for p in series.ladder]
    assert order == sorted(order) and series.ladder[0] != series.ladder[-1]
    assert difficulty(series.ladder[0], rec.puzzle_rating(series.ladder[0].id)) <= difficulty(
        series.ladder[-1], rec.puzzle_rating(series.ladder[-1].id)
    )
    levels = []
    for _ in range(3):
        p = series.next()
        assert p is not None
        levels.append(series.ladder.index(p))
        out = series.answer(p, p.solution[0], True, 0)
        assert not out.rated and out.streak == len(levels)
    assert levels == sorted(levels)  # rising
    p = series.next()
    assert p is not None
    out = series.answer(p, p.costs[0][0], False, p.costs[0][1])
    assert out.streak == 3 and out.best_streak == 3 and series.next() is None
    again = StreakSeries(store, puzzles, random.Random(6))
    p = again.next()
    assert p is not None
    assert again.answer(p, p.costs[0][0], False, 1).best_streak == 3  # the best is kept


def test_a_line_plays_the_others_replies_between_its_cards(puzzles) -> None:
    line = next(p for p in puzzles if p.line and p.line[0].replies)
    s = PuzzleSession(line)
    s.apply_human(s.match.parse_action(line.solution[0]))
    assert not s.finished and s.step == 1 and s.replies == list(line.line[0].replies)
    while s.to_act() != s.seat:
        s.apply_bot(s.to_act(), s.agents[s.to_act()].act(s.bot_view(s.to_act())))
    assert s.human_to_act() and s.at_decision().history == s.match.history
    wrong, cost = line.line[0].costs[0]
    s.apply_human(wrong.lower())  # typed, as a person types it
    assert s.finished and not s.solved and s.cost == cost

    s = PuzzleSession(line)
    s.apply_human(line.costs[0][0])
    assert s.finished and not s.solved and s.cost == line.costs[0][1]  # a wrong first card ends the line


def finished_match(path: Path, seed: int = 11) -> None:
    m = Match(short_rules("classic"), seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    write_record(m, path, {"tui": {"seat": 0}})


def test_your_own_puzzles_come_in_order_and_are_not_rated(tmp_path: Path) -> None:
    record = tmp_path / "mine.jsonl"
    finished_match(record)
    found = from_record(record, 0)
    assert found and all(p.source.startswith("mine:mine/") for p in found)
    series = MineSeries(PuzzleStore(tmp_path), found)
    for p in found:
        assert series.next() == p
        assert not series.answer(p, p.solution[0], True, 0).rated
    assert series.next() is None
