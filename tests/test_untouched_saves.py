"""A match started and left before anything was played leaves no save (issue 43, finding 10): no "0 of 28
deals played" in the saved matches.  One with a move of the person's, or one resumed, is always kept."""

from __future__ import annotations

import pytest
from tuikit import SIZE, first_dealer, new_app, settle

from barbu.classic.ruleset import Ruleset
from barbu.play.session import Session, Settings
from barbu.records.savefiles import saved_matches
from barbu.tui import BarbuApp
from barbu.tui.besigue_session import besigue_settings

pytestmark = pytest.mark.asyncio

RULES = "classic"


async def test_a_new_match_quit_before_any_move_leaves_no_save(tmp_path):
    app = new_app(tmp_path, RULES, 5, first_dealer(RULES, 5))
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        assert table.waiting_for_human and (tmp_path / "game.jsonl").exists()  # reserved while it is played
        await pilot.press("ctrl+q")
    assert app.saved_to is None
    assert saved_matches(tmp_path) == [] and list(tmp_path.iterdir()) == []


async def test_a_match_with_a_move_of_yours_is_kept(tmp_path):
    app = new_app(tmp_path, RULES, 5, first_dealer(RULES, 5))
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        await pilot.press(*"no-queens", "enter")
        await settle(pilot)
        assert table.session.view().phase != "declare"
        await pilot.press("ctrl+q")
    assert app.saved_to == tmp_path / "game.jsonl" and app.saved_to.exists()


async def test_a_resumed_match_is_never_removed(tmp_path):
    """A record resumed and left at once stays, even with nothing in it played (the person kept it)."""
    path = tmp_path / "kept.jsonl"
    Session.new(Settings(rules=Ruleset.parse(RULES), seat=0, seed=5, delay=0, save=path, save_exact=True))
    assert path.exists()
    app = BarbuApp(session=Session.resume(path), delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+q")
    assert path.exists() and app.saved_to == path


async def test_a_new_besigue_game_quit_at_once_leaves_no_save(tmp_path):
    app = BarbuApp(besigue_settings("besigue", 0, "rule", 3, 0, tmp_path / "barbu-game.jsonl", False), setup=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await pilot.pause()
            if app.session is not None and app.session.moves:
                break
        assert (tmp_path / "barbu-game.jsonl").exists()
        await pilot.press("ctrl+q")
    assert saved_matches(tmp_path) == [] and list(tmp_path.iterdir()) == [] and app.saved_to is None
