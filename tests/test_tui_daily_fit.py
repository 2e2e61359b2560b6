"""The daily deals at 80×24 and 160×48 (issue 43, finding 4): the list of choices and the whole of the decision's
words stay on the screen when the doubles pile up, in English, French and Italian.

2026-03-05's first board has the person, the dealer, doubled five times (one redoubled): the words of the doubles
pushed the redoubles off the screen; its second board offers eight doublings."""

from __future__ import annotations

import pytest
from tuikit import save_shot, screen_text, settle

from barbu.duplicate.daily import daily_set
from barbu.i18n import use
from barbu.tui.daily_screen import daily_app
from barbu.tui.widgets import ChoiceList

pytestmark = pytest.mark.asyncio

SECRET = bytes(range(32))
DAY = "2026-03-05"
SIZES = ((80, 24), (160, 48))


def flat(text: str) -> str:
    return " ".join(text.split())


def off_screen(table, text: str) -> list[str]:
    """What the person's decision says or offers that the screen does not show whole."""
    shown = flat(text)
    missing = []
    choices = table.query_one(ChoiceList)
    if choices.display:
        for k in range(choices.option_count):
            label = flat(str(choices.get_option_at_index(k).prompt))
            if label not in shown:
                missing.append(label)
    prompt = flat(str(table.query_one("#prompt").render()))
    if prompt not in shown:
        missing.append(prompt)
    # the side of the table (contract, dealer, doubles) shares its lines with the seats: it must be whole, not
    # cut by the screen's edge nor by its own box
    status = table.query_one("#status")
    lines = len(status.render_lines(status.region.reset_offset)) if status.region.height else 0
    if status.region.bottom > table.app.size.height or lines > status.region.height:
        missing.append("the side of the table is cut")
    return missing


@pytest.fixture(params=["en", "fr", "it"])
def lang(request):
    use(request.param)
    yield request.param
    use("en")


async def test_every_doubling_choice_and_the_whole_decision_fit(lang):
    """At each doubling decision of the day's first two boards, at 80×24 and at 160×48 (the same table resized)."""
    dset = daily_set(SECRET, DAY, "classic", limit=2)
    app = daily_app(dset, delay=0)
    checked = 0
    async with app.run_test(size=SIZES[0]) as pilot:
        while True:
            table = await settle(pilot)
            if table.paused:
                if table.session.board.board + 1 >= dset.size:
                    break
                await pilot.press("enter")
                continue
            view = table.session.view()
            if view.phase != "doubling":
                table.submit(view.legal[-1])  # the cards: played at once, nothing to look at here
                continue
            checked += 1
            for size in SIZES:
                await pilot.resize_terminal(*size)
                await pilot.pause()
                text = screen_text(app)
                assert not off_screen(table, text), (lang, size, off_screen(table, text), text)
                save_shot(app, f"daily-fit-{lang}-{size[0]}x{size[1]}-{checked}.svg")
            await pilot.resize_terminal(*SIZES[0])
            await pilot.press("enter")  # the first choice, pass: chosen by a key, as a person does
            await pilot.pause()
    assert checked >= 2


async def test_the_title_names_the_game_in_words(lang):
    """ "Daily deals 2026-03-05 · Classico · …", not the engine's key 'classic' in every language."""
    app = daily_app(daily_set(SECRET, DAY, "classic", limit=1), delay=0)
    async with app.run_test(size=SIZES[0]) as pilot:
        await settle(pilot)
        title = screen_text(app).splitlines()[0]
        assert f" · {dict(en='Classic', fr='Classique', it='Classico')[lang]} · " in title, title
