"""``barbu puzzle`` on the terminal's table, driven by keys: a puzzle solved and one missed (the rating moves each
way and is kept), the two kinds shown as they must be (every hand, or only yours), the words in French and
Italian, and "Puzzles from this match" at the end of a match played in the terminal."""

from __future__ import annotations

import io
import random
from functools import cache
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static
from tuikit import save_shot, screen_text

from barbu.classic.match import CHANCE, Match
from barbu.core.cards import CARDS
from barbu.games import short_rules
from barbu.i18n import use
from barbu.play.session import Session
from barbu.puzzles import library
from barbu.puzzles.model import SINGLE, Puzzle
from barbu.records.barbu import write_record
from barbu.tui import BarbuApp
from barbu.tui.dialogs import MatchOverDialog
from barbu.tui.puzzle_app import PuzzleApp
from barbu.tui.puzzle_screen import PuzzleAnswer, PuzzleScreen
from barbu.tui.puzzle_series import MineSeries, RatedSeries
from barbu.tui.puzzle_store import PuzzleStore
from barbu.tui.puzzle_words import share_line
from barbu.tui.widgets import HandView, SeatBox

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def english_after():
    yield
    use("en")


@cache
def one_card() -> list[Puzzle]:
    """The library's puzzles of one decision (a line's own test is below)."""
    return [p for p in library.load() if not p.line]


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


async def until(pilot, ready, limit: int = 400) -> None:
    for _ in range(limit):
        await pilot.pause()
        if ready():
            return
    raise AssertionError(screen_text(pilot.app))


def dialog_text(app) -> str:
    """The answer's words as the dialog holds them, whatever lines the screen's width wrapped them on."""
    console = Console(width=1000, file=io.StringIO(), record=True, color_system=None)
    console.print(app.screen.query_one("#dialog-text", Static).content)
    return flat(console.export_text())


def at_decision(app) -> bool:
    screen = app.screen
    return isinstance(screen, PuzzleScreen) and screen.waiting_for_human


async def pick_by_keys(pilot, screen: PuzzleScreen, card: str) -> None:
    """The card chosen with the arrow keys and Enter, as a player at the table does."""
    target = screen.session.match.parse_action(card)
    hand = screen.query_one(HandView)
    for _ in range(len(hand.cards)):
        if hand.current() == target:
            break
        await pilot.press("right")
    assert hand.current() == target
    await pilot.press("enter")


def seat_text(screen: PuzzleScreen) -> str:
    return "\n".join(str(box.render()) for box in screen.query(SeatBox))


async def test_a_puzzle_solved_then_one_missed_moves_the_rating_each_way_and_keeps_it(tmp_path: Path) -> None:
    store = PuzzleStore(tmp_path)
    app = PuzzleApp(RatedSeries(store, one_card(), random.Random(1)), delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: at_decision(app))
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        first = screen.session.puzzle
        text = flat(screen_text(app))
        assert "Find the best card." in text and "Every hand is shown" in text
        others = [s for s in range(screen.session.players) if s != first.seat]
        assert all(screen.session.hand_of(s) for s in others)  # an open puzzle: every hand in its seat's box
        assert seat_text(screen).count("♠") >= len(others)
        save_shot(app, "puzzle-en-100x32.svg")
        await pick_by_keys(pilot, screen, first.solution[0])
        await until(pilot, lambda: isinstance(app.screen, PuzzleAnswer))
        answer = flat(screen_text(app)) + " " + dialog_text(app)
        assert "Puzzle 1: solved" in answer and "is the best card" in answer
        assert "loses" in answer and "Your puzzle rating: 1000 →" in answer
        after_one = store.read()
        assert after_one.rating.mu > 25 and after_one.puzzles[first.id].mu < 25  # the solver up, the puzzle down
        await pilot.press("enter")  # the next puzzle, at the same table
        await until(pilot, lambda: at_decision(app) and app.screen.session.puzzle.id != first.id)
        second = app.screen.session.puzzle
        wrong, cost = second.costs[-1]
        await pilot.press(*wrong.lower(), "enter")  # typed, as at the table
        await until(pilot, lambda: isinstance(app.screen, PuzzleAnswer))
        answer = flat(screen_text(app)) + " " + dialog_text(app)
        assert "Puzzle 2: missed" in answer and f"loses {cost} point" in answer
        save_shot(app, "puzzle-en-100x32-missed.svg")
        await pilot.press("escape")  # leave
        await pilot.pause()
    kept = PuzzleStore(tmp_path).read()  # read again from the file: both answers are there
    assert [(a.puzzle, a.solved, a.rated) for a in kept.history] == [(first.id, True, True), (second.id, False, True)]
    assert kept.rating.mu < after_one.rating.mu and kept.puzzles[second.id].mu > 25  # down, and the puzzle up
    assert kept.history[1].after < kept.history[1].before


async def test_a_card_not_allowed_is_refused_and_judges_nothing(tmp_path: Path) -> None:
    store = PuzzleStore(tmp_path)
    app = PuzzleApp(RatedSeries(store, one_card(), random.Random(2)), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: at_decision(app))
        screen = app.screen
        v = screen.session.view()
        illegal = next(c for c in range(52) if not (v.hand >> c & 1))
        await pilot.press(*str(CARDS[illegal]).lower(), "enter")
        await pilot.pause()
        assert at_decision(app) and "Not allowed" in flat(screen_text(app))
        await pilot.press("f4")  # no hint in a puzzle
        await pilot.pause()
        assert at_decision(app) and not store.path.exists()  # nothing judged, nothing written
        save_shot(app, "puzzle-en-80x24.svg")


@pytest.mark.parametrize("lang", ["fr", "it"])
async def test_a_single_puzzle_in_french_and_italian_shows_only_your_hand(lang: str, tmp_path: Path) -> None:
    use(lang)
    puzzles = [p for p in one_card() if p.kind == SINGLE][:8]
    store = PuzzleStore(tmp_path)
    app = PuzzleApp(RatedSeries(store, puzzles, random.Random(3)), delay=0)
    words = {
        "fr": (
            "Trouvez la meilleure carte",
            "Seules votre main",
            "La meilleure dans",
            "Dans les autres mains :",
        ),
        "it": ("Trova la carta migliore", "Solo la tua mano", "La migliore in", "Nelle altre mani:"),
    }[lang]
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: at_decision(app))
        screen = app.screen
        text = flat(screen_text(app))
        assert words[0] in text and words[1] in text and words[3] in text  # and the cards still out, to count
        assert "♠ " not in seat_text(screen) and "♥ " not in seat_text(screen)  # no other hand, even suit by suit
        with pytest.raises(PermissionError):
            screen.session.hand_of((screen.session.seat + 1) % screen.session.players)
        save_shot(app, f"puzzle-{lang}-100x32-single.svg")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        save_shot(app, f"puzzle-{lang}-80x24-single.svg")
        await pick_by_keys(pilot, screen, screen.session.puzzle.solution[0])
        await until(pilot, lambda: isinstance(app.screen, PuzzleAnswer))
        save_shot(app, f"puzzle-{lang}-80x24-answer.svg")
        share = share_line(screen.session.puzzle)
        assert share is not None and share.startswith(words[2]) and flat(share) in dialog_text(app)


def finished_match(path: Path) -> None:
    """A short classic match played to its end by random choices: a player with costly decisions to learn from."""
    m = Match(short_rules("classic"), 11)
    rng = random.Random(11)
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    write_record(m, path, {"tui": {"seat": 0}})


async def test_the_end_of_a_match_offers_its_puzzles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    record = tmp_path / "game.jsonl"
    finished_match(record)
    session = Session.resume(record)
    session.compare = None  # no expert's replays: the match's end at once
    app = BarbuApp(session=session, delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MatchOverDialog))
        assert "P: puzzles from this match" in flat(screen_text(app))
        await pilot.press("p")
        await until(pilot, lambda: at_decision(app))
        screen = app.screen
        assert screen.series.mode == "mine" and screen.session.puzzle.source.startswith("mine:game/")
        assert "Puzzles from your match" in flat(screen_text(app))
        await pick_by_keys(pilot, screen, screen.session.puzzle.solution[0])
        await until(pilot, lambda: isinstance(app.screen, PuzzleAnswer))
        assert "this puzzle is not rated" in dialog_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MatchOverDialog))  # back to the match's end
    kept = PuzzleStore(tmp_path / "data" / "barbu").read()
    assert [(a.mode, a.solved, a.rated) for a in kept.history] == [("mine", True, False)]


async def test_a_line_has_the_others_reply_at_the_table_then_asks_again(tmp_path: Path) -> None:
    line = next(p for p in library.load() if p.line and p.line[0].replies)  # the others play between the cards
    app = PuzzleApp(MineSeries(PuzzleStore(tmp_path), [line]), delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await until(pilot, lambda: at_decision(app))
        total = len(line.line) + 1
        assert f"(card 1 of {total})" in flat(screen_text(app))
        await pick_by_keys(pilot, app.screen, line.solution[0])
        await until(pilot, lambda: at_decision(app) and app.screen.session.step == 1)
        assert f"(card 2 of {total})" in flat(screen_text(app)) and "Now your next card." in flat(screen_text(app))
        wrong, cost = line.line[0].costs[0]
        await pick_by_keys(pilot, app.screen, wrong)
        await until(pilot, lambda: isinstance(app.screen, PuzzleAnswer))
        assert "Puzzle 1: missed" in flat(screen_text(app)) and f"loses {cost} point" in dialog_text(app)
        await pilot.press("enter")  # no next puzzle: Enter leaves
        await pilot.pause()
    assert not app.is_running
