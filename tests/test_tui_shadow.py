"""The terminal table compares each deal with a computer player replaying it in your seat (in the background)."""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from tuikit import SIZE, first_dealer, new_app, play_deal, screen_text, settle

from barbu.agents import make_agent
from barbu.classic.match import CHANCE, Match
from barbu.records.barbu import read_record, write_record
from barbu.tui import BarbuApp, Session
from barbu.tui.review import ReviewDialog
from barbu.tui.shadow import ShadowMatchOverDialog

PLAYED = "classic(undoubled_negative=play)"


def last_card(v):
    if v.phase == "declare":
        return v.legal[0]
    return v.legal[-1]


async def wait_for(pilot, text: str, limit: float = 60) -> str:
    """The screen once it shows ``text`` (the replay runs in another process: poll, never a fixed wait)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + limit
    while loop.time() < until:
        await pilot.pause(0.1)
        shown = screen_text(pilot.app)
        if text in shown:
            return shown
    raise AssertionError(f"{text!r} never showed:\n{screen_text(pilot.app)}")


@pytest.mark.asyncio
async def test_the_expert_line_appears_beside_the_score_after_a_deal(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat, compare="rule")
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, last_card)
        assert table.shadow is not None
        await pilot.press("enter")  # the next deal: the table never waited for the replay
        await settle(pilot)
        shown = await wait_for(pilot, "You against the expert:")  # ("Expert in your seat: replaying…" meanwhile)
        scores = " ".join(table.shadow.score_lines())  # the lines under the scores, read whole (wrapped there)
        assert "Expert in your seat:" in shown and "in all over 1 deal" in scores and "replaying" not in shown
        assert "you against him:" in scores  # the difference says what it is (issue 43, finding 6)
        r = table.shadow.results[0]
        assert r.you == table.session.match.results[0].added[seat]
        # the record keeps the comparison, so a resumed match does not replay the deal again
        table.session.save()
        saved = read_record(tmp_path / "game.jsonl").header["tui"]["shadow"]
        assert saved["with"] == "rule" and saved["deals"] == {"0": r.expert}


@pytest.mark.asyncio
async def test_no_comparison_when_turned_off(tmp_path):
    app = new_app(tmp_path, PLAYED, 5, first_dealer(PLAYED, 5))
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, last_card)
        assert table.shadow is None
        assert "Expert in your seat" not in screen_text(app)


@pytest.mark.asyncio
async def test_the_setup_screen_box_turns_the_comparison_off_and_on(tmp_path):
    """The setup screen's box, on by default (the --compare-with player kept), survives a change of language."""
    from textual.widgets import Checkbox

    from barbu.i18n import use
    from barbu.play.session import Settings
    from barbu.tui.setup_screen import SetupScreen

    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl", compare="rule"))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SetupScreen)
            box = screen.query_one("#compare", Checkbox)
            screen.query_one("#setup-form").scroll_end(animate=False)  # the last row of the form
            await pilot.pause()
            assert box.value is True and "Compare with the expert after each deal" in screen_text(app)
            assert screen.settings().compare == "rule"
            box.value = False
            await pilot.pause()
            assert screen.settings().compare is None
            await screen.switch_language("fr")  # drawn again in French: the box stays off
            await pilot.pause()
            assert screen.query_one("#compare", Checkbox).value is False
            screen.query_one("#start").focus()
            await pilot.press("enter")
            table = await settle(pilot)
            assert table.session.compare is None and table.shadow is None
    finally:
        use("en")


def finished_match(rules: str, seed: int) -> Match:
    m = Match(rules, seed)
    bots = [make_agent("rule", s) for s in range(m.n)]
    while not m.is_over:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
        else:
            m.apply(bots[actor].act(m.view(actor)), seat=actor)
    return m


@pytest.mark.slow
@pytest.mark.asyncio
async def test_the_match_end_sums_up_and_opens_the_worst_deals(tmp_path):
    """A resumed match recomputes what its record lacks; at the end, the line and the three worst deals."""
    path = tmp_path / "done.jsonl"
    write_record(
        finished_match("salad(players=3)", 7), path, {"tui": {"seat": 0, "opponents": {"1": "rule", "2": "rule"}}}
    )
    session = Session.resume(path)
    session.compare = "random"  # a weak player in your seat: the rule player (you, here) beats it on some deals
    app = BarbuApp(session=session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        shown = await wait_for(pilot, "You against the expert on your own cards:", limit=120)
        assert isinstance(app.screen, ShadowMatchOverDialog)
        dialog = app.screen
        while dialog.shadow.pending:
            await pilot.pause(0.1)
            dialog.tick()
        assert dialog.shadow.summary().deals == len(session.match.results)
        await pilot.pause(0.6)  # the dialog redraws what came back, whoever collected it
        assert f"over {len(session.match.results)} deals" in screen_text(app)
        assert "Still replaying" not in screen_text(app)
        worst = dialog.shadow.summary().worst
        assert worst and all(r.advantage < 0 for r in worst)
        shown = screen_text(app)
        assert "The deals where you lost most to the expert:" in shown and "1: deal" in shown
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ReviewDialog) and app.screen.deal == worst[0].deal + 1


@pytest.mark.slow
def test_the_plain_game_sums_up_a_resumed_match_against_the_expert(tmp_path):
    """``barbu play --plain``: the deals a resumed record has not compared are replayed, then the summary."""
    import argparse
    import io

    from rich.console import Console

    from barbu.cli.textplay import play_in_terminal

    path = tmp_path / "done.jsonl"
    write_record(finished_match("salad(players=3)", 7), path)
    out = io.StringIO()
    args = argparse.Namespace(
        resume=str(path), seat=0, opponents="rule", no_compare=False, compare_with="random", confirm_forced=False
    )
    assert play_in_terminal(args, read=lambda _prompt: "quit", console=Console(file=out, width=200)) == 0
    text = out.getvalue()
    assert "You against the expert on your own cards:" in text and "over 18 deals" in text
    assert "The deals where you lost most to the expert:" in text and "barbu analyze" in text


def test_a_resumed_session_keeps_the_comparisons_its_record_holds(tmp_path):
    from barbu.play.session import known_shadow
    from barbu.play.shadow import ShadowWatch

    path = tmp_path / "done.jsonl"
    m = finished_match("salad(players=3)", 7)
    write_record(
        m,
        path,
        {
            "tui": {
                "seat": 0,
                "opponents": {"1": "rule", "2": "rule"},
                "shadow": {"with": "expert", "deals": {"0": 12, "1": "5/2", "x": 3, "2": []}},
            }
        },
    )
    session = Session.resume(path)
    assert session.shadow_known == {0: 12, 1: Fraction(5, 2)}  # a damaged entry is dropped (replayed again)
    watch = ShadowWatch.of(session)
    assert set(watch.results) == {0, 1} and watch.results[0].you == m.results[0].added[0]
    assert known_shadow({"with": "rule", "deals": {"0": 1}}, "expert") == {}  # another player's: replayed
    assert known_shadow(None, "expert") == {} and known_shadow({"with": "expert"}, "expert") == {}


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_besigue_game_compares_too(tmp_path):
    """Bésigue's table: a finished game resumed, every deal replayed, the sum at the end and under the scores."""
    from barbu.agents.besigue import make_besigue_agent
    from barbu.besigue import BesigueGame
    from barbu.play.besigue_session import BesigueSession
    from barbu.records.besigue import write_record as write_besigue

    g = BesigueGame("besigue(target=300)", 4)
    bots = [make_besigue_agent("rule", s) for s in (0, 1)]
    while not g.is_over:
        actor = g.to_act()
        g.apply(g.sample_chance() if actor == CHANCE else bots[actor].act(g.view(actor)))
    path = tmp_path / "besigue.jsonl"
    write_besigue(g, path, {"tui": {"seat": 0, "opponents": {"1": "rule"}}})
    session = BesigueSession.resume(path)
    session.compare = "rule"
    app = BarbuApp(session=session, delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # the end's dialog, once every deal is replayed (the side panel may say "over n deals" a moment before)
        for _ in range(1200):
            if isinstance(app.screen, ShadowMatchOverDialog):
                break
            await pilot.pause(0.1)
        assert isinstance(app.screen, ShadowMatchOverDialog)
        dialog = app.screen
        for _ in range(1200):  # every deal replayed: the dialog's last line is the sum
            if not dialog.shadow.pending and len(dialog.shadow.results) == len(g.results):
                break
            await pilot.pause(0.1)
        await pilot.pause(0.6)  # the dialog's next tick draws it
        words = " ".join(str(dialog.body_now().renderables[-1]).split())
        assert words.startswith("You against the expert on your own cards: 0 in all"), words  # same player, cards


@pytest.mark.asyncio
async def test_an_80_by_24_table_shows_the_comparison_in_its_short_words(tmp_path):
    """The narrow table's score column is 30 wide: the long lines would wrap to four rows and push the contract
    list out of the middle; the short words take a row each and are on screen."""
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat, compare="rule")
    async with app.run_test(size=(80, 24)) as pilot:
        table, _ = await play_deal(pilot, last_card, typed_every=10**6)
        await pilot.press("enter")
        await settle(pilot)
        shown = await wait_for(pilot, "vs expert:")
        r = table.shadow.results[0]
        assert f"vs expert: {r.advantage:+d} over 1 deal".replace("+0", "0") in shown
        assert "Expert in your seat" not in shown and "Domino" in shown  # the whole contract list still shows
