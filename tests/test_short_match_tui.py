"""The short match in the terminal: "Length" on the setup screen, and ``barbu play --short``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from tuikit import SIZE, composed, screen_text, settle

from barbu.classic.ruleset import Ruleset, short_form
from barbu.guide.ruleset_words import game_name
from barbu.i18n import translator
from barbu.tui import BarbuApp, Settings
from barbu.tui.setup_screen import SetupScreen


@pytest.mark.asyncio
async def test_the_setup_screen_makes_the_match_short_and_full_again(tmp_path):
    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen) and "Length" in screen_text(app)
        assert not screen.query("#opt-contracts_each")  # the length has its own row, not a number among the options
        screen.query_one("#length").value = "short"
        await pilot.pause()
        await composed(pilot, screen, "#opt-double_obligation")
        assert screen.values["contracts_each"] == 2 and screen.values["double_obligation"] == 1
        screen.query_one("#length").value = "full"
        await pilot.pause()
        await composed(pilot, screen, "#opt-double_obligation")
        assert screen.values["contracts_each"] == 0 and screen.values["double_obligation"] == 2
        screen.query_one("#length").value = "short"
        await pilot.pause()
        await composed(pilot, screen, "#opt-double_obligation")
        screen.query_one("#start").focus()
        await pilot.press("enter")
        table = await settle(pilot)
        m = table.session.match
        assert m.rules.contracts_each == 2 and m.total_deals == 8
        assert "Classic, short match · deal 1 of 8" in screen_text(app)  # not "Classic, 2 options changed"


@pytest.mark.asyncio
async def test_short_rules_given_at_the_start_show_as_a_short_match(tmp_path):
    rules = Ruleset.parse("classic(contracts_each=2, double_obligation=1)")
    app = BarbuApp(Settings(rules=rules, seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#length").value == "short"


def test_barbu_play_short_plays_eight_deals(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "play", "--plain", "--short", "--seed", "3"],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent / "src")),
    )
    assert "Deal 1 of 8" in out.stdout, out.stdout + out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "lang, rules, name",
    [
        ("en", "classic", "Classic, short match"),
        ("fr", "classic", "Classique, partie courte"),
        ("it", "classic", "Classico, partita breve"),
        ("en", "classic(heart_lead=none)", "Classic, short match, 1 option changed"),
        ("it", "besigue(target=500)", "Bésigue, partita breve"),
    ],
)
def test_a_short_match_is_named_short_not_by_its_options(lang, rules, name):
    """The title and the end-of-match standings name the game: never "2 options changed" nor the ruleset text
    "classic(double_obligation=1, contracts_each=2)" (seen on issue 43's screenshots)."""
    short = rules if rules.startswith("besigue") else short_form(Ruleset.parse(rules))
    assert game_name(short, translator(lang, "guide")) == name
