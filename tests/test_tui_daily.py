"""``barbu play --daily`` on the Textual table: board after board, the computer players answering the same
moves the same way as the server's (`BoardPlay`), and the end compared with their own results on those cards."""

from __future__ import annotations

import pytest
from tuikit import SIZE, play_deal, save_shot, screen_text, settle

from barbu.duplicate.daily import BoardPlay, daily_set
from barbu.tui.daily_screen import DailyScreen, daily_app

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
        save_shot(app, "daily-tui-end.svg")
        shown = " ".join(screen_text(app).split())
        assert "You against the computer players (good player) on your own cards:" in shown
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


@pytest.mark.asyncio
async def test_the_footer_offers_no_hint_take_back_or_save_and_those_keys_only_say_so():
    dset = daily_set(SECRET, "2026-03-01", "classic", limit=1)
    app = daily_app(dset, delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "Help" in footer and "Quit" in footer
        assert not any(word in footer for word in ("Hint", "Take back", "Save"))
        history = list(table.session.match.history)
        for key in ("f4", "ctrl+z", "ctrl+s"):
            await pilot.press(key)
            await pilot.pause()
        for word in ("hint", "undo", "save"):  # the typed words too
            await pilot.press(*word, "enter")
            await pilot.pause()
        said = " ".join(n.message for n in app._notifications)
        assert "No hints in the daily deals" in said and "take nothing back" in said
        assert "Nothing to save" in said and "Saving is off" not in screen_text(app)
        assert table.session.match.history == history and table.waiting_for_human
        # the title fits 80 columns and still says the person's part in the board
        title = screen_text(app).splitlines()[0]
        assert "deal 1/1" in title and ("you declare" in title or "you defend" in title)


@pytest.mark.asyncio
async def test_a_finished_board_keeps_its_contract_on_the_table():
    dset = daily_set(SECRET, "2026-03-01", "classic", limit=2)
    app = daily_app(dset, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, last_card)
        name = table.info.contract_name(table.session.board.contract)
        await pilot.press("enter")  # past the deal's scores: the comparison with the computer
        await pilot.pause()
        shown = " ".join(screen_text(app).split())
        assert f"Contract: {name}" in shown and "not chosen yet" not in shown
        assert "Deal 1 is over: Enter for the next deal." in shown and "The match is over" not in shown
        await pilot.press("enter")  # the next board: its own contract
        table = await settle(pilot)
        assert table.session.board.board == 1
        shown = " ".join(screen_text(app).split())
        assert f"Contract: {table.info.contract_name(table.session.board.contract)}" in shown


@pytest.mark.asyncio
async def test_a_scottish_double_patience_board_on_the_table_lays_a_set_to_go_out():
    """``barbu play --daily --rules scottish``: the Patience rows on the table, a `Lay` chosen from the list or
    typed, and the very board the server's `BoardPlay` gives for the same moves."""
    from barbu.core.actions import Lay

    dset = daily_set(SECRET, "2026-11-27", "scottish")
    app = daily_app(dset, delay=0)

    def lay_first(v):
        return next((a for a in v.legal if isinstance(a, Lay)), v.legal[0])

    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        await table.load(6)
        table = await settle(pilot)
        assert table.session.board.contract == "double-patience"
        shown = " ".join(screen_text(app).split())
        assert "Double Patience" in shown and "deal 7 of 7" in shown
        table, decisions = await play_deal(pilot, lay_first)
        assert decisions > 0
        board = table.session.board
        assert board.done and any(m.startswith("lay ") for m in board.moves)
        alone = BoardPlay(dset, 6, board.moves)
        assert alone.match.history == board.match.history and alone.score == board.score
        assert sorted(board.result.scores) == [0, 60, 120, 240]
