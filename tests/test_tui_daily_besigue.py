"""``barbu play --daily --rules besigue`` on the Bésigue table: deal after deal, the computer answering the same
moves the same way as the server's (`BoardPlay`), no hint, take-back or saving in the footer, and the end compared
with the computer's own results on those cards."""

from __future__ import annotations

import pytest
from tuikit import screen_text

from barbu.duplicate.daily import BoardPlay, daily_set
from barbu.tui.daily_besigue import DailyBesigueScreen, daily_besigue_app
from barbu.tui.dialogs import InfoDialog

SECRET = bytes(range(32))


async def waiting(pilot) -> DailyBesigueScreen:
    """Wait until the table waits for the person or shows a deal's end."""
    for _ in range(5000):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, InfoDialog):
            return next(s for s in pilot.app.screen_stack if isinstance(s, DailyBesigueScreen))
        if isinstance(screen, DailyBesigueScreen) and (screen.waiting_for_human or screen.paused):
            return screen
    raise AssertionError("the table never came back to the person")


@pytest.mark.asyncio
async def test_the_besigue_daily_deals_on_the_table():
    dset = daily_set(SECRET, "2026-11-27", "besigue", limit=2)
    app = daily_besigue_app(dset, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await waiting(pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "Rules" in footer and not any(w in footer for w in ("Hint", "Undo", "Save"))
        log = list(table.session.game.log)
        for key in ("f4", "ctrl+z", "ctrl+s"):
            await pilot.press(key)
            await pilot.pause()
        said = " ".join(n.message for n in app._notifications)
        assert "No hints" in said and "take nothing back" in said and "Nothing to save" in said
        assert table.session.game.log == log
        for k in range(dset.size):
            title = screen_text(app).splitlines()[0]
            assert f"deal {k + 1}/2" in title and ("you lead first" if k == 0 else "you deal") in title
            typed = 0
            while not table.paused:
                legal = table.session.view().legal
                if typed < 3 and str(legal[-1]).startswith("play "):  # typed, as a person would
                    await pilot.press(*str(legal[-1]).removeprefix("play ").lower(), "enter")
                    typed += 1
                else:
                    table.submit(legal[-1])
                table = await waiting(pilot)
            board = table.session.board
            assert board.board == k and board.done
            alone = BoardPlay(dset, k, board.moves)  # the server's board, the same moves: the same game
            assert alone.match.log == board.match.log and alone.score == board.score
            shown = " ".join(screen_text(app).split())
            it = BoardPlay(dset, k, computer=True).score
            assert f"Deal {k + 1}: you scored {board.score}; the computer in your seat scored {it}." in shown
            await pilot.press("enter")
            if k + 1 < dset.size:
                table = await waiting(pilot)
                assert table.session.board.board == k + 1
        assert app.return_value == 0
