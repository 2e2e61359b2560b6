"""The Textual table: what it shows, refusing illegal choices, help screens, save and resume, setup."""

from __future__ import annotations

import io
import json
import random
import shutil
from fractions import Fraction

import pytest
from rich.console import Console
from tuikit import SIZE, composed, first_dealer, is_card, new_app, screen_text, settle

from barbu.agents import AGENT_KINDS
from barbu.classic.match import CHANCE, Match
from barbu.core.actions import Declare
from barbu.core.cards import CARDS, CardSet
from barbu.play.labels import place
from barbu.records.barbu import write_record
from barbu.tui import BarbuApp, Session, Settings
from barbu.tui.dialogs import InfoDialog
from barbu.tui.setup_screen import SetupScreen
from barbu.tui.table import TableScreen
from barbu.tui.widgets import HandView

pytestmark = pytest.mark.asyncio

PLAYED = "classic(undoubled_negative=play)"


async def to_play_phase(pilot, contract: str) -> TableScreen:
    """As the declarer, declare ``contract`` and pass through the doubling until a card is to be played."""
    await settle(pilot)
    await pilot.press(*contract, "enter")
    while True:
        table = await settle(pilot)
        v = table.session.view()
        if v.phase == "play" and any(is_card(a) for a in v.legal):
            return table
        await pilot.press("enter")


async def test_screen_shows_the_hand_and_the_table_and_nothing_hidden(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        text = screen_text(app)
        assert v.phase == "declare"
        assert "Your hand (13 cards)" in text and "You declare this deal" in text
        assert "deal 1 of 28" in text and "you are South" in text
        for c in CardSet(v.hand):
            assert c.display() in text
        for c in range(52):  # before any card is played, no other card is on the screen
            if not v.hand >> c & 1:
                assert CARDS[c].display() not in text
        for name in ("No tricks", "No queens", "Trumps", "Domino"):
            assert name in text
        # Later, in play: the trick, the taken penalty cards and scores are on the table.
        table = await to_play_phase(pilot, "no-queens")
        for _ in range(6):
            await pilot.press("enter")
            table = await settle(pilot)
            if table.paused:
                break
        text = screen_text(app)
        assert "Contract: No queens" in text and "Trick" in text and "Scores" in text
        assert all(place in text for place in ("West", "North", "East"))  # the players around the table


async def test_illegal_choices_are_refused_with_the_reason(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        before = table.session.moves
        await pilot.press(*"zz", "enter")
        assert "Not allowed: 'zz' is not a contract" in screen_text(app)
        assert table.session.moves == before and table.waiting_for_human
        table = await to_play_phase(pilot, "no-hearts")
        # Play on until the person must follow suit while holding other cards, then try one of those.
        for _ in range(13):
            v = table.session.view()
            hand = table.query_one(HandView)
            illegal = [c for c in hand.cards if c not in v.legal]
            if v.trick and illegal:
                break
            await pilot.press("enter")
            table = await settle(pilot)
        else:
            pytest.fail("never had to follow suit")
        before = table.session.moves
        while hand.current() != illegal[0]:
            await pilot.press("right")
        await pilot.press("enter")
        text = screen_text(app)
        assert "Not allowed: you must follow suit" in text
        assert table.session.moves == before and table.session.view().hand == v.hand
        # Typed, the same card is refused the same way; a card not held is refused too.
        await pilot.press(*str(CARDS[illegal[0]]), "enter")
        assert "you must follow suit" in screen_text(app)
        missing = next(c for c in range(52) if not v.hand >> c & 1 and c not in v.trick)
        await pilot.press(*str(CARDS[missing]), "enter")
        assert "you do not hold" in screen_text(app)
        assert table.session.moves == before
        # The legal card under the cursor still plays.
        await pilot.press("escape", "left")
        legal = [c for c in hand.cards if c in v.legal]
        while hand.current() != legal[0]:
            await pilot.press("right")
        await pilot.press("enter")
        assert table.session.moves > before


async def test_heart_lead_refused_with_the_rule(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await to_play_phase(pilot, "no-hearts")
        v = table.session.view()
        hearts = [c for c in CardSet(v.hand) if c.suit == 1]
        assert not v.trick and hearts and any(c.suit != 1 for c in CardSet(v.hand))
        await pilot.press(*str(hearts[0]), "enter")
        assert "hearts may not be led while you hold another suit" in screen_text(app)


async def test_forced_double_is_shown_and_a_pass_refused(tmp_path):
    """Owing two doubles with two deals left in the dealer's series, the person must double him."""
    seed = 11
    dealer = first_dealer("classic", seed)
    seat = (dealer + 1) % 4
    m = Match("classic", seed)
    rng = random.Random(1)
    while True:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
        elif actor == seat and m.phase_name == "doubling" and m.must_double_dealer(seat):
            break
        elif actor == seat and m.phase_name == "doubling":
            m.apply(next(a for a in m.legal_actions() if dealer not in a.targets))  # never double him
        else:
            m.apply(rng.choice(m.legal_actions()))
    record = tmp_path / "forced.jsonl"
    write_record(m, record, {"tui": {"seat": seat, "opponents": {}}})
    app = BarbuApp(session=Session.resume(record), delay=0, confirm_forced=True)  # else the double makes itself
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        assert table.session.seat == seat
        text = screen_text(app)
        assert f"You must double the dealer ({place(dealer, seat, 4)}) now" in text
        assert "you owe 2" in text
        assert all(dealer in a.targets for a in table.choices)
        before = table.session.moves
        await pilot.press(*"pass", "enter")
        assert "Not allowed: you must double the dealer" in screen_text(app)
        assert table.session.moves == before
        await pilot.press("enter")  # the first listed choice: double the dealer
        table = await settle(pilot)
        assert table.session.moves > before


async def test_help_last_trick_and_scoresheet(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await to_play_phase(pilot, "no-queens")
        await pilot.press("f1")
        assert isinstance(app.screen, InfoDialog)
        text = screen_text(app)
        assert "This deal: No queens" in text and "Each queen you take costs points" in text
        assert "How a match runs" in text  # the rules guide follows, with the values
        console = Console(width=120, file=io.StringIO(), record=True)
        console.print(app.screen.body)
        whole = console.export_text()
        assert "−6 for each queen" in whole and "Worked example" in whole
        await pilot.press("escape")
        assert app.screen is table
        await pilot.press("f2")
        assert "No trick has been completed" in screen_text(app)
        await pilot.press("escape")
        for _ in range(2):
            await pilot.press("enter")
            table = await settle(pilot)
        await pilot.press("f2")
        text = screen_text(app)
        assert "Last trick" in text and "All tricks of this deal" in text
        await pilot.press("enter")
        await pilot.press(*"scores", "enter")
        assert "Scoresheet" in screen_text(app) and "0 of 28 deals played" in screen_text(app)
        await pilot.press("escape")
        await pilot.press(*"help", "enter")
        assert isinstance(app.screen, InfoDialog)


async def test_save_quit_and_resume(tmp_path):
    seed = 2
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat, opponents={s: AGENT_KINDS[0] for s in range(4) if s != seat})
    record = tmp_path / "game.jsonl"
    async with app.run_test(size=SIZE) as pilot:
        table = await to_play_phase(pilot, "no-last-two")
        await pilot.press("enter")
        table = await settle(pilot)
        view = table.session.view()
        moves = table.session.moves
        await pilot.press("ctrl+s")
        assert "Saved to" in screen_text(app)
        await pilot.press("ctrl+q")  # quit saves too
    assert app.saved_to == record
    header = json.loads(record.read_text().splitlines()[0])
    assert header["tui"]["seat"] == seat

    session = Session.resume(record)
    assert session.seat == seat and session.moves == moves
    assert session.view() == view
    again = BarbuApp(session=session, delay=0)
    async with again.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        assert table.waiting_for_human
        text = screen_text(again)
        for c in CardSet(view.hand):
            assert c.display() in text
        await pilot.press("enter")
        table = await settle(pilot)
        assert table.session.moves > moves


async def test_setup_screen_enter_starts_with_defaults(tmp_path):
    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        text = screen_text(app)
        assert "Classic" in text and "Your seat" in text and "West plays" in text  # the game in words
        await pilot.press("enter")
        table = await settle(pilot)
        assert str(table.session.match.rules) == "classic" and table.session.seat == 0
        assert table.session.match.seed == 4
        assert set(table.session.strengths) == {1, 2, 3}


async def test_setup_screen_changes_game_players_seat_and_options(tmp_path):
    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#preset").value = "french"
        await pilot.pause()
        await composed(pilot, screen, "#players")
        screen.query_one("#players").value = "5"
        await pilot.pause()
        await composed(pilot, screen, "#seat")
        screen.query_one("#seat").value = "2"
        await pilot.pause()
        await composed(pilot, screen, "#opt-rotation")
        screen.query_one("#opt-rotation").value = "dealer"
        await pilot.pause()
        assert "North-east plays" in screen_text(app) or screen.query_one("#opp-4")
        screen.query_one("#start").focus()
        await pilot.press("enter")
        table = await settle(pilot)
        rules = table.session.match.rules
        assert rules.preset == "french" and rules.players == 5 and rules.rotation == "dealer"
        assert table.session.seat == 2 and set(table.session.strengths) == {0, 1, 3, 4}


async def test_setup_screen_refuses_a_bad_combination(tmp_path):
    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#opt-doubling").value = "none"
        await pilot.pause()
        screen.query_one("#start").focus()
        await pilot.press("enter")
        assert isinstance(app.screen, SetupScreen)
        text = " ".join(screen_text(app).split())
        assert "Cannot start: option undoubled_negative=split needs doubling" in text


async def test_bots_wait_for_the_person_and_only_see_their_view(tmp_path):
    """Computer players are given their own seat's view, never the whole state."""
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    seen = []
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        for s, agent in table.session.agents.items():
            real = agent.act

            def spy(view, real=real, s=s):
                seen.append((s, view.seat, view.hand == table.session.match.hands[s]))
                return real(view)

            agent.act = spy
        await pilot.press(*"no-queens", "enter")
        table = await settle(pilot)
        assert table.waiting_for_human  # the table stops at the person's turn
        assert seen and all(s == vs and own for s, vs, own in seen)


async def test_a_declare_typed_by_name_and_by_alias(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        await pilot.press(*"queens", "enter")
        table = await settle(pilot)
        assert table.session.view().contract == "no-queens"
        assert Declare("no-queens") not in table.session.view().legal


async def test_mouse_clicks_choose_and_play(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        index = table.choices.index(Declare("no-queens"))
        await pilot.click("#choices", offset=(3, index))
        table = await settle(pilot)
        assert table.session.view().contract == "no-queens"
        while table.session.view().phase != "play":
            await pilot.press("enter")
            table = await settle(pilot)
        v = table.session.view()
        hand = table.query_one(HandView)
        line = screen_text(app).splitlines()
        row = next(i for i, x in enumerate(line) if "Your hand" in x) + 1
        card = next(c for c in hand.cards if c in v.legal)
        x = line[row].index(CARDS[card].display())
        before = table.session.moves
        await pilot.click(offset=(x, row))
        await pilot.pause()
        assert table.session.moves > before
        assert not table.session.view().hand >> card & 1


@pytest.mark.slow
async def test_a_whole_match_by_pressing_enter(tmp_path):
    """Enter at every turn and after every deal plays a whole classic match to the final standings (the short
    match: its end comes after 8 deals, as the full one's after 28)."""
    app = new_app(tmp_path, "classic(double_obligation=1, contracts_each=2)", 9, 0)
    async with app.run_test(size=SIZE) as pilot:
        deals = 0
        while app.is_running:
            table = await settle(pilot)
            if table.paused and table.session.is_over and "Final standings" in screen_text(app):
                break
            if table.paused:
                deals += 1
            await pilot.press("enter")
        assert deals == 8 and table.session.is_over
        await pilot.press("enter")  # leaves the table
    lines = [json.loads(x) for x in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert lines[-1]["type"] == "result" and sum(1 for x in lines if x["type"] == "deal") == 8


async def test_resuming_a_finished_match_shows_the_standings(tmp_path):
    m = Match("salad(players=3)", 4)
    rng = random.Random(4)
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
    record = tmp_path / "done.jsonl"
    write_record(m, record)
    app = BarbuApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Final standings" in text and "match over" in text
        await pilot.press("enter")
    assert not app.is_running


async def test_quit_when_the_record_cannot_be_written(tmp_path):
    folder = tmp_path / "going"
    folder.mkdir()
    app = new_app(folder, "classic", 3, 0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # a move: the match has something to keep
        await settle(pilot)
        shutil.rmtree(folder)  # the folder disappears during the match
        await pilot.press("ctrl+q")
        assert app.is_running and app.save_failed  # told, and still at the table
        await pilot.press("ctrl+q")
    assert not app.is_running and app.saved_to is None


async def test_a_broken_computer_player_does_not_end_the_game(tmp_path):
    seed = 5
    seat = (first_dealer(PLAYED, seed) + 1) % 4
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        for agent in table.session.agents.values():
            agent.act = lambda view: "not an action"
        await pilot.press("enter")
        table = await settle(pilot)
        assert table.waiting_for_human or table.paused
        assert "computer player failed" in screen_text(app)


async def test_series_points_with_exact_fractions_in_the_scoresheet(tmp_path):
    """Barbù a sei colpi: a series ends with shared placement points (halves); the sheet shows them."""
    m = Match("italian-six", 11)
    rng = random.Random(11)
    while len(m.results) < 6:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
    assert Fraction(295, 2) in m.results[5].series
    record = tmp_path / "six.jsonl"
    write_record(m, record)
    app = BarbuApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        text = screen_text(app)
        assert "6 of 24 deals played" in text and "+295/2" in text


async def test_hint_and_take_back(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await to_play_phase(pilot, "no-queens")
        s = table.session
        before_hand = s.view().hand
        await pilot.press("f4")
        for _ in range(400):
            await pilot.pause(0.05)
            if isinstance(app.screen, InfoDialog):
                break
        text = screen_text(app)
        assert "The strongest computer player would choose" in text and "on average" in text
        await pilot.press("escape")
        # play the first legal card, let the computer players answer, then take it back
        moves = s.moves
        await pilot.press("enter")
        table = await settle(pilot)
        assert s.moves > moves
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert s.moves == moves and s.view().hand == before_hand and s.to_act() == seat
