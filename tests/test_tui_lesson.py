"""Learn to play at the terminal: the four lessons played through in each language, from the keyboard,
wrong and illegal cards refused with the lesson, and the way to a real match."""

from __future__ import annotations

import pytest
from tuikit import act, screen_text, settle

from barbu.core.cards import Card
from barbu.guide.lesson import KEYS, lesson, replay
from barbu.i18n import translator, use
from barbu.tui.learn import LessonApp
from barbu.tui.lesson_screen import LessonOver, LessonScreen
from barbu.tui.table import TableScreen

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def english_after():
    yield
    use("en")


def first_way(key: str) -> tuple[str, ...]:
    done: tuple[str, ...] = ()
    while not (state := replay(key, done)).finished:
        done += (str(state.expected[0]),)
    return done


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


async def play_lesson(pilot, key: str) -> LessonScreen:
    """The learner's accepted actions, typed and by the arrow keys in turn; returns at the lesson's end."""
    n = 0
    while True:
        table = await settle(pilot)
        assert isinstance(table, LessonScreen) and table.session.key == key
        if table.paused:
            return table
        action = table.session.play.expected()[0]
        before = table.session.moves
        await act(pilot, table, action, typed=n % 2 == 0)
        await pilot.pause()
        assert table.session.moves > before, screen_text(pilot.app)
        n += 1


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "fr", "it"])
async def test_the_four_lessons_played_through_then_a_real_match(lang, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the real match saves its record here
    use(lang)
    words = translator(lang)
    app = LessonApp(delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        for key in KEYS:
            table = await settle(pilot)
            step = table.session.play.message().worded(words)
            assert flat(step)[:60] in flat(screen_text(app))  # the first step says what to do, in his words
            table = await play_lesson(pilot, key)
            assert isinstance(app.screen, LessonOver)
            assert flat(lesson(key).done.worded(words))[:60] in flat(screen_text(app))
            await pilot.press("enter")  # the next lesson, and after the last, a real match
            await pilot.pause()
        for _ in range(50):
            await pilot.pause()
            if app.session is not None:
                break
        assert app.session is not None and app.session.match.rules.preset == "classic"
        assert isinstance(app.screen, TableScreen) and not isinstance(app.screen, LessonScreen)


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
async def test_a_wrong_card_is_refused_with_its_lesson(lang):
    use(lang)
    words = translator(lang)
    app = LessonApp(delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        table = await settle(pilot)
        before = table.session.moves
        await act(pilot, table, Card.parse("AD"), typed=False)  # legal, but it would take the trick
        await pilot.pause()
        assert table.session.moves == before and table.session.play.refusal.code == "lesson"
        why = flat(lesson("no-queens").steps[0].why.worded(words))
        assert why[:50] in flat(screen_text(app))
        table.say("")
        await act(pilot, table, Card.parse("QS"), typed=False)  # not even legal: the engine's reason first
        await pilot.pause()
        assert table.session.moves == before and table.session.play.refusal.code == "follow-suit"
        shown = flat(screen_text(app))
        assert why[:50] in shown
        assert {"en": "follow suit", "fr": "fournir", "it": "rispondere al seme"}[lang] in shown
        await act(pilot, table, Card.parse("TD"), typed=False)
        await pilot.pause()
        assert table.session.moves > before


async def test_learn_to_play_opens_from_the_setup_screen_and_back(tmp_path):
    from barbu.tui import BarbuApp, Settings

    app = BarbuApp(Settings(save=tmp_path / "game.jsonl"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Learn to play" in screen_text(app)
        await pilot.press("ctrl+l")
        table = await settle(pilot)
        assert isinstance(table, LessonScreen) and table.waiting_for_human
        await pilot.press("ctrl+z")  # a lesson takes nothing back, and says so
        await pilot.pause()
        assert table.session.moves == len(table.session.match.history)
        table.session.play.step = len(lesson("no-queens").steps)  # to the end at once
        table.session.play.match.apply(Card.parse("TD"), seat=0)
        table.advance()
        table = await settle(pilot)
        assert table.paused and isinstance(app.screen, LessonOver)
        await pilot.press("escape")  # back to the setup screen
        await pilot.pause()
        assert "Learn to play" in screen_text(app) and app.session is None
