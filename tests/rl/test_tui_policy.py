"""``barbu play --opponents policy:FILE``: the setup screen offers the trained policy and the table names it."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

from tuikit import SIZE, screen_text, settle

from barbu.classic.ruleset import Ruleset
from barbu.rl.policy import MaskedPolicy
from barbu.tui import BarbuApp, Settings
from barbu.tui.besigue_session import besigue_settings
from barbu.tui.setup_screen import SetupScreen


@pytest.fixture
def policy_file(tmp_path):
    path = tmp_path / "runs" / "classic-policy.npz"
    path.parent.mkdir()
    MaskedPolicy("barbu", hidden=8, seed=1).save(path)
    return path


@pytest.mark.asyncio
async def test_setup_screen_offers_the_policy_given_on_the_command_line(tmp_path, policy_file, plugin_path):
    spec = f"policy:{policy_file}"
    settings = Settings(
        rules=Ruleset.parse("classic"),
        seat=0,
        seed=3,
        delay=0,
        opponents={1: spec, 2: "rule", 3: spec},
        save=tmp_path / "game.jsonl",
    )
    app = BarbuApp(settings, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        seats = [line for line in screen_text(app).splitlines() if "plays" in line]
        assert ["trained policy classic-policy.npz" in line for line in seats] == [True, False, True]
        assert str(policy_file.parent) not in screen_text(app)  # the file's name, not where it lies
        app.screen.action_start()
        table = await settle(pilot)
        assert table.session.strengths == {1: spec, 2: "rule", 3: spec}
        text = screen_text(app)
        assert "computer" in text and "(trained" in text and "classic-policy.npz)" in text


@pytest.mark.asyncio
async def test_besigue_setup_screen_keeps_a_policy_opponent(tmp_path, plugin_path):
    path = tmp_path / "besigue-policy.npz"
    MaskedPolicy("besigue", hidden=8, seed=1).save(path)
    settings = besigue_settings("besigue", 0, f"policy:{path}", 3, 0, tmp_path / "game.jsonl", True)
    app = BarbuApp(settings, setup=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "trained policy besigue-policy.npz" in screen_text(app)


def test_a_besigue_game_against_a_policy_resumes_against_it(tmp_path, plugin_path):
    from barbu.tui.besigue_session import BesigueSession

    path = tmp_path / "besigue-policy.npz"
    MaskedPolicy("besigue", hidden=8, seed=1).save(path)
    spec = f"policy:{path}"
    session = BesigueSession.new(besigue_settings("besigue", 0, spec, 3, 0, tmp_path / "game.jsonl", True))
    assert session.strength == spec
    again = BesigueSession.resume(tmp_path / "game.jsonl")
    assert again.strength == spec and "trained policy besigue-policy.npz" in again.who(1)
