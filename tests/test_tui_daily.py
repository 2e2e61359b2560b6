"""``barbu play --daily`` on the Textual table: board after board, the computer players answering the same
moves the same way as the server's (`BoardPlay`), and the end compared with their own results on those cards."""

from __future__ import annotations

import pytest

from barbu.duplicate.daily import BoardPlay, daily_set
from barbu.tui.daily_screen import DailyScreen, daily_app
from tuikit import SIZE, play_deal, screen_text, settle

SECRET = bytes(range(32))


def last_card(v):
    return v.legal[-1]


@pytest.mark.asyncio
async def test_the_daily_deals_on_the_table_end_with_the_comparison(tmp_path):
    dset = daily_set(SECRET, "2026-03-01", "classic", limit=2)
    app = daily_app(dset, delay=0)
    boards = []
    async with app.run_test(size=SIZE) as pilot:
        for k in range(dset.size):
            table, decisions = await play_deal(pilot, last_card)
            assert isinstance(table, DailyScreen) and decisions > 0
            board = table.session.board
            assert board.board == k and board.done and table.session.compare is None
            # the same moves, played at once by the server's BoardPlay: the same cards, the same computer moves
            alone = BoardPlay(dset, k, board.moves)
            assert alone.match.history == board.match.history and alone.score == board.score
            assert board.contract == alone.contract and board.seat == alone.seat
            boards.append(board.score)
            await pilot.press("enter")  # the deal's scores
            await pilot.pause()
            shown = " ".join(screen_text(app).split())
            it = BoardPlay(dset, k, computer=True).score
            assert f"Deal {k + 1}: you scored {board.score}; the computer in your seat scored {it}." in shown
            if k + 1 < dset.size:
                await pilot.press("enter")  # the next board, at the same table
                table = await settle(pilot)
                assert table.session.board.board == k + 1
                assert f"deal {k + 2} of {dset.size}" in " ".join(screen_text(app).split())
        app.save_screenshot("/tmp/shots/r3_daily_tui_end.svg")
        shown = " ".join(screen_text(app).split())
        assert "You against the computer players (rule) on your own cards:" in shown
        assert "Offline, you are compared" in shown
        await pilot.press("h")
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_value == 0


@pytest.mark.asyncio
async def test_the_daily_table_takes_nothing_back_and_gives_no_hints(tmp_path):
    dset = daily_set(SECRET, "2026-03-01", "classic", limit=1)
    app = daily_app(dset, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        moves = table.session.moves
        table.action_hint()
        await pilot.pause()
        with pytest.raises(Exception) as refused:
            table.session.take_back()
        assert "take nothing back" in str(refused.value)
        assert table.session.moves == moves
