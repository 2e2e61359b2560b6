"""Bésigue in the Textual game: a deal played by keys against a computer player, what the table shows at
80x24 and 140x45, the declare step, refusals with the engine's reason, the rules screen, save and resume."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest
from bhelpers import deal_game, endgame
from rich.console import Console
from tuikit import screen_text

from barbu.agents.besigue import RuleAgent
from barbu.besigue import BesigueGame
from barbu.besigue.cards import SPADES, card_text, parse_type, type_of
from barbu.records.besigue import read_record
from barbu.records.savefiles import SaveError
from barbu.tui import BarbuApp
from barbu.tui.besigue_session import BesigueSession, besigue_settings
from barbu.tui.besigue_table import BesigueTableScreen, face_text, in_hand_order
from barbu.tui.dialogs import DealOverDialog, InfoDialog, MatchOverDialog
from barbu.tui.launch import settings_from_args


def new_app(tmp_path: Path, rules: str = "besigue", seed: int = 3, save: str = "game.jsonl") -> BarbuApp:
    """A new game against the rule player, started at once (no setup screen), with no pause between moves."""
    return BarbuApp(besigue_settings(rules, 0, "rule", seed, 0, tmp_path / save, False), setup=False)


async def settle(pilot, limit: int = 3000) -> BesigueTableScreen:
    """Wait until the table waits for the person or shows a dialog."""
    for _ in range(limit):
        await pilot.pause()
        t = next((s for s in reversed(pilot.app.screen_stack) if isinstance(s, BesigueTableScreen)), None)
        if t is not None and (t.waiting_for_human or t.paused):
            return t
    raise AssertionError("the table never came back to the person")


def position_with_opponent_melds(seed: int = 3) -> BesigueGame:
    """A game played by two rule players until the opponent (seat 1) has cards laid and seat 0 is to play."""
    g = BesigueGame("besigue", seed)
    bots = [RuleAgent(1), RuleAgent(2)]
    while not (g.table[1] and g.to_act() == 0 and g.phase == "play" and g.stock):
        seat = g.to_act()
        if seat == -1:
            g.play_chance()
        else:
            g.apply(bots[seat].act(g.view(seat)))
    return g


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_deal_played_by_keys_and_typed_cards_against_the_computer(tmp_path):
    app = new_app(tmp_path, rules="besigue(target=100)")
    decisions = declared_from_list = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while True:
            table = await settle(pilot)
            if table.paused:
                break
            s = table.session
            v = s.view()
            before = s.moves
            if table.zone == "list":
                declared_from_list += 1
                await pilot.press("enter")  # the list opens on the most valuable choice
            elif decisions % 2:
                await pilot.press("right", "left", "enter")  # the cursor starts on a playable card
            else:
                play = next(a for a in v.legal if not a.from_table)
                await pilot.press(*card_text(play.card).lower(), "enter")
            await pilot.pause()
            assert s.moves > before, screen_text(app)
            decisions += 1
        assert isinstance(app.screen, DealOverDialog)
        text = screen_text(app)
        for words in ("Deal 1", "combinations", "brisques", "last trick", "this deal", "total", "Enter: next deal"):
            assert words in text
        g = table.session.game
        assert len(g.results) == 1 and g.tricks == 32 and decisions >= 16
        # this short game (to 100) is over after one deal: the end of the match, then leaving the table
        assert g.is_over, g.totals
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchOverDialog)
        text = screen_text(app)
        assert ("You win" in text or "The computer wins" in text) and f"{max(g.totals)}" in text
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_code == 0
    rep = read_record(tmp_path / "game.jsonl")  # saved after the deal; the replay agrees with every score
    assert rep.consistent and len(rep.game.results) == 1 and rep.header["tui"]["seat"] == 0


def row_after(text: str, marker: str, tall: bool, width: int) -> str:
    """The cards drawn on the line(s) after (or at) ``marker``, as ranks-then-suits without spaces."""
    lines = [line[:width] for line in text.splitlines()]
    i = next(k for k, line in enumerate(lines) if marker in line)
    if marker.startswith("laid"):
        rows = lines[i : i + (3 if tall else 1)]
        rows = [r.replace("laid:", "") for r in rows]
    else:
        rows = lines[i + 1 : i + (4 if tall else 2)]
    if tall:  # rank in the top corner, suit in the middle
        return "".join(rows[0].split()) + "".join(rows[1].split())
    return "".join(rows[0].split())


def expected_row(cards: list[int], tall: bool) -> str:
    if tall:
        return "".join(face_text(c)[:-1] for c in cards) + "".join(face_text(c)[-1] for c in cards)
    return "".join(face_text(c) for c in cards)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (140, 45)])
async def test_the_table_shows_opponent_stock_turn_up_melds_and_hand(tmp_path, size):
    g = position_with_opponent_melds()
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=size) as pilot:
        table = await settle(pilot)
        assert table.waiting_for_human
        v = table.session.view()
        text = screen_text(app)
        tall = size[1] >= 34
        left = size[0] - table.query_one("#b-side").size.width
        assert "Opponent: computer (good player)" in text and f"Stock {v.stock_size}" in text
        assert f"trumps {'♠♥♦♣'[v.trump]}" in text and "your turn" in text and "Scores to 1000" in text
        assert f"Your hand ({len(v.hand)} cards)" in text
        assert row_after(text, "Your hand (", tall, left) == expected_row(in_hand_order(v.hand, v.trump), tall)
        lines = text.splitlines()
        i = next(k for k, line in enumerate(lines) if f"Stock {v.stock_size}" in line)
        col = lines[i].index("Stock")
        stock = "\n".join(line[col : col + 16] for line in lines[i + 1 : i + 4])  # the stock's column of the felt
        assert v.turn_up is not None and face_text(v.turn_up)[:-1] in stock and face_text(v.turn_up)[-1] in stock
        laid = [c for c, _ in table._laid_order(v.table[1], v.trump)]
        assert row_after(text, "laid:", tall, left) == expected_row(laid, tall)
        assert "declared:" in text
        # the opponent's hidden cards are shown as backs, one each, and nothing else of his hand
        j = next(k for k, line in enumerate(lines) if "Opponent:" in line)
        backs = lines[j + 1][:left].count("▚▞▚" if tall else "▚▞")
        assert backs == v.opponent_hand_size - len(v.opponent_known)


@pytest.mark.asyncio
async def test_a_declaration_is_made_from_the_declare_step(tmp_path):
    # Seat 0 leads A♥; the computer holds no heart and no club (trumps): seat 0 wins and may declare a bésigue.
    g = deal_game(
        ["QS", "JD", "AH", "TH", "KH", "9S", "8S", "7D", "8D"],
        ["AS", "TS", "KS", "JS", "9D", "TD", "AD", "KD", "QD"],
        "8C",
    )
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        await pilot.press(*"ah", "enter")
        table = await settle(pilot)
        assert table.zone == "list" and g.phase == "declare" and g.actor == 0
        text = screen_text(app)
        assert "You won: declare one combination, or nothing." in text
        assert "Declare a bésigue: Q♠ J♦ — 40" in text and "Declare nothing" in text
        await pilot.press("enter")
        table = await settle(pilot)
        assert [m[0] for m in g.melds[0]] == ["bezique"] and g.scores[0] == 40
        drawn = next(
            c for c in g.hands[0] if c % 32 not in {parse_type(t) for t in ("TH", "KH", "9S", "8S", "7D", "8D")}
        )
        assert f"you drew {face_text(drawn)}" in screen_text(app)  # the card drawn from the stock, in the log
        mine = next(
            line
            for line in screen_text(app).splitlines()
            if "Q♠" in line and "J♦" in line and "declared: a bésigue 40" in line
        )
        assert mine


def seven_of_trumps_deal() -> BesigueGame:
    """English rules (seven=exchange, hands of 8): seat 0 holds the 7♣ (clubs trumps) and wins the first trick."""
    return deal_game(
        ["7C", "AH", "9S", "8S", "7D", "8D", "9H", "7S"],
        ["AS", "TS", "KS", "JS", "TD", "AD", "KD", "QD"],
        "KC",
        rules="besigue-english",
    )


@pytest.mark.asyncio
async def test_the_seven_of_trumps_is_exchanged_for_the_turn_up_from_the_declare_step(tmp_path):
    g = seven_of_trumps_deal()
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"ah", "enter")
        table = await settle(pilot)
        assert table.zone == "list"
        text = screen_text(app)
        assert "Exchange your 7♣ for the turn-up K♣ — 10" in text and "Show your 7♣" in text
        index = next(i for i, a in enumerate(table.choices) if str(a) == "exchange 7C")
        for _ in range(index - table.query_one("#b-choices").highlighted):
            await pilot.press("down")
        await pilot.press("enter")
        table = await settle(pilot)
        assert g.scores[0] == 10 and g.turn_up is not None and g.turn_up % 32 == 24  # the 7♣ lies turned up now
        assert any(c % 32 == 29 for c in g.hands[0])  # and the K♣ is in seat 0's hand
        assert "you exchanged 7♣ (10)" in screen_text(app)


@pytest.mark.asyncio
async def test_the_declare_list_is_most_valuable_first_and_the_arrows_move_through_it(tmp_path):
    g = seven_of_trumps_deal()
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"ah", "enter")
        table = await settle(pilot)
        assert [str(a) for a in table.choices] == ["exchange 7C", "show 7C", "no-declaration"]
        lines = [line.strip() for line in screen_text(app).splitlines()]
        assert lines.index("Declare nothing") > lines.index("Show your 7♣ (the 7 of trumps) — 10")
        choices = table.query_one("#b-choices")
        assert choices.highlighted == 0
        await pilot.press("down")
        assert choices.highlighted == 1
        await pilot.press("down", "up", "down")
        assert choices.highlighted == 2
        await pilot.press("enter")
        await settle(pilot)
        assert g.scores[0] == 0 and "you declared nothing" in screen_text(app)


@pytest.mark.asyncio
async def test_a_forced_no_declaration_is_made_with_a_note(tmp_path):
    g = deal_game(
        ["AH", "9H", "7H", "9S", "8S", "7S", "7D", "8D", "9D"],
        ["AS", "TS", "KS", "JS", "TD", "AD", "KD", "QD", "JD"],
        "8C",
    )
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"ah", "enter")
        table = await settle(pilot)
        assert g.log[-1] == (0, "no-declaration") or any(t == "no-declaration" for _, t in g.log)
        assert "You won the trick; nothing to declare." in screen_text(app)
        assert table.zone == "cards"


@pytest.mark.asyncio
async def test_with_confirm_forced_the_lone_choice_waits_for_the_person(tmp_path):
    g = deal_game(
        ["AH", "9H", "7H", "9S", "8S", "7S", "7D", "8D", "9D"],
        ["AS", "TS", "KS", "JS", "TD", "AD", "KD", "QD", "JD"],
        "8C",
    )
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0, confirm_forced=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"ah", "enter")
        await settle(pilot)
        assert g.to_act() == 0 and [str(a) for a in g.legal_actions()] == ["no-declaration"]
        assert "nothing to declare" not in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert any(t == "no-declaration" for _, t in g.log)


@pytest.mark.asyncio
async def test_an_illegal_card_is_refused_with_the_engines_reason_and_nothing_changes(tmp_path):
    # The last tricks: the computer leads, and seat 0 must follow suit.
    g = endgame(["AS", "9S", "7H", "9H"], ["KS", "8S", "8H", "TH"], trump=SPADES, leader=1)
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        led = g.trick[0][1]
        wrong = "7h" if led % 32 // 8 == 0 else "as"
        hand, moves = set(g.hands[0]), table.session.moves
        await pilot.press(*wrong, "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Not allowed: the stock is empty: you must" in text
        assert set(g.hands[0]) == hand and table.session.moves == moves and table.waiting_for_human
        await pilot.press(*"zz", "enter")
        await pilot.pause()
        assert "Not allowed: cannot read the action 'zz'" in screen_text(app) and table.session.moves == moves


@pytest.mark.asyncio
async def test_f1_shows_the_rules_of_besigue_and_f2_the_last_trick(tmp_path):
    g = position_with_opponent_melds()
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, InfoDialog)
        assert "Help and the rules of Bésigue" in screen_text(app) and "The game" in screen_text(app)
        console = Console(width=100, file=io.StringIO(), record=True)
        console.print(app.screen.body)  # the whole dialog, past what fits on the screen
        body = console.export_text()
        for words in (
            "While the stock lasts",
            "Combinations",
            "a double bésigue",
            "500",
            "The last tricks",
            "follow suit if you can",
            "Options of this table",
        ):
            assert words in body
        await pilot.press("escape", "f2")
        await pilot.pause()
        assert "Last trick" in screen_text(app) and "All tricks of this deal" in screen_text(app)


@pytest.mark.asyncio
async def test_save_and_resume_and_a_saved_game_is_never_overwritten(tmp_path):
    app = new_app(tmp_path, save="barbu-game.jsonl")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        await pilot.press("enter")
        table = await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in screen_text(app)
        moves, hand = table.session.moves, sorted(type_of(c) for c in table.session.view().hand)
        await pilot.press("ctrl+q")
    path = tmp_path / "barbu-game.jsonl"
    assert app.saved_to == path
    saved = path.read_bytes()
    # a second new game beside it takes the next name
    second = new_app(tmp_path, save="barbu-game.jsonl")
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
    assert second.session.save_path == tmp_path / "barbu-game-2.jsonl" and path.read_bytes() == saved
    # resuming puts the person back at the same decision
    resumed = BarbuApp(session=BesigueSession.resume(path), delay=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        assert table.session.moves == moves
        assert sorted(type_of(c) for c in table.session.view().hand) == hand
        assert table.session.strength == "rule"
    # a file named with --save that exists is refused before the game opens
    args = argparse.Namespace(
        rules="besigue", players=None, sets=None, seat=None, seed=1, delay=0, save=str(path), opponents=None
    )
    with pytest.raises(SaveError, match="already exists"):
        settings_from_args(args)
    assert path.read_bytes() == saved


def test_plain_besigue_game_from_the_command_line(tmp_path):
    save = tmp_path / "plain.jsonl"
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "play", "--plain", "--rules", "besigue", "--seed", "3", "--save", str(save)],
        input="zz\npass\nhelp\njs\nquit\n",  # a card played: a game quit before any move is not kept
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "Your hand:" in out.stdout and "You may:" in out.stdout and "Not allowed" in out.stdout
    assert "it is time to play a card" in out.stdout  # `pass` when a card is due: the engine's words
    assert "Saved to" in out.stdout and read_record(save).game.rules.preset == "besigue"
    again = subprocess.run(
        [sys.executable, "-m", "barbu", "play", "--plain", "--resume", str(save)],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert again.returncode == 0 and "Resumed" in again.stdout


@pytest.mark.asyncio
async def test_setup_screen_offers_besigue_with_its_options_and_resumes_a_saved_game(tmp_path):
    from barbu.tui import Settings
    from barbu.tui.setup_screen import SetupScreen

    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "barbu-game.jsonl"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#preset").value = "besigue-english"
        for _ in range(50):  # the options are rebuilt after the change: wait for them (a loaded machine is slow)
            await pilot.pause(0.1)
            text = screen_text(app)
            if "North plays" in text:
                break
        assert "the common English rules" in text and "North plays" in text and "Players" not in text
        screen.query_one("#opt-target").value = "1500"
        await pilot.pause()
        screen.query_one("#start").focus()
        await pilot.press("enter")
        table = await settle(pilot)
        assert isinstance(table, BesigueTableScreen)
        assert str(table.session.rules) == "besigue-english(target=1500)" and table.session.game.seed == 4
        assert "Scores to 1500" in screen_text(app)
        await pilot.press("enter")  # one card played: a game quit before any move is not kept
        await settle(pilot)
        await pilot.press("ctrl+q")
    # the unfinished game is offered on the next setup screen, and its button resumes it
    app = BarbuApp(Settings(seed=5, delay=0, save=tmp_path / "barbu-game.jsonl"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        listed = app.screen.query_one("#saved-list")
        assert listed.option_count == 1
        assert str(listed.get_option_at_index(0).prompt).endswith(
            "English Bésigue, 1 option changed, 0 deals played · barbu-game.jsonl"
        )
        listed.focus()
        await pilot.press("enter")
        table = await settle(pilot)
        assert isinstance(table, BesigueTableScreen) and table.session.save_path == tmp_path / "barbu-game.jsonl"


@pytest.mark.asyncio
async def test_a_click_plays_a_card_from_the_hand_or_from_the_melds(tmp_path):
    g = position_with_opponent_melds()
    app = BarbuApp(session=BesigueSession(g, 0, "rule", None), delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        first = table.slots[0][0]
        assert not table.slots[0][1]  # the hand comes first, then the laid cards
        moves = table.session.moves
        await pilot.click("#b-hand", offset=(2, 1))  # on the first card of the hand (under the title rule)
        await pilot.pause()
        assert table.session.moves > moves and any(t == f"play {card_text(first)}" for _, t in g.log[moves:])
        table = await settle(pilot)
        while table.zone != "cards":  # a declaration after winning the trick: take the first offered
            await pilot.press("enter")
            table = await settle(pilot)
        laid = next(i for i, (_, on) in enumerate(table.slots) if on)  # this position has cards laid
        card = table.slots[laid][0]
        moves = table.session.moves
        await pilot.click("#b-mine", offset=(2, 1))  # on the first laid card
        await pilot.pause()
        assert any(t == f"play {card_text(card)}*" for _, t in g.log[moves:])


@pytest.mark.asyncio
async def test_barbu_play_rules_besigue_opens_the_setup_screen_on_besigue(tmp_path):
    args = argparse.Namespace(
        rules="besigue(target=500)",
        players=None,
        sets=None,
        seat=1,
        seed=2,
        delay=0,
        save=str(tmp_path / "b.jsonl"),
        opponents="random",
    )
    settings = settings_from_args(args)
    app = BarbuApp(settings)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert (
            "Bésigue (2 players)" in text
            and "as the French rules of reference state it" in text
            and "North plays" in text
        )
        await pilot.press("enter")  # Start has the focus
        table = await settle(pilot)
        s = table.session
        assert isinstance(table, BesigueTableScreen) and str(s.rules) == "besigue(target=500)"
        assert s.seat == 1 and s.strength == "random" and s.save_path == tmp_path / "b.jsonl"


@pytest.mark.asyncio
async def test_take_back_returns_to_your_last_choice_and_hint_suggests_a_legal_move(tmp_path):
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await settle(pilot)
        moves = table.session.moves
        await pilot.press("ctrl+z")  # nothing of yours to take back yet: refused, nothing changes
        await pilot.pause()
        assert table.session.moves == moves
        hand = sorted(table.session.view().hand)
        await pilot.press("enter")
        table = await settle(pilot)
        while table.zone == "list":
            await pilot.press("enter")
            table = await settle(pilot)
        after = table.session.moves
        assert after > moves
        await pilot.press("ctrl+z")  # back to your last choice (a declaration, or the card)
        table = await settle(pilot)
        assert moves <= table.session.moves < after and table.waiting_for_human
        if table.session.moves > moves:
            await pilot.press("ctrl+z")  # and once more, to the card
            table = await settle(pilot)
        assert table.session.moves == moves and sorted(table.session.view().hand) == hand
        await pilot.press("f4")
        for _ in range(200):
            await pilot.pause()
            if isinstance(app.screen, InfoDialog):
                break
        assert isinstance(app.screen, InfoDialog)
        assert "The strongest computer player would play" in screen_text(app)
        assert table.session.moves == moves  # a hint changes nothing
