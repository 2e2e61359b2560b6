"""The card table on screen, at 80x24 and 140x45: the players around it, the trick in the middle in front of
whoever played each card, your hand at the bottom and the decision; forced single choices made by themselves."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tuikit import first_dealer, new_app, screen_text, settle

from barbu.core.actions import Double, Pass
from barbu.core.cards import CARDS, CardSet
from barbu.play.labels import place
from barbu.tui.dialogs import DealOverDialog
from barbu.tui.setup_screen import SetupScreen
from barbu.tui.table import TableScreen
from barbu.tui.widgets import ChoiceList

pytestmark = pytest.mark.asyncio

PLAYED = "classic(undoubled_negative=play)"
SIZES = [(80, 24), (140, 45)]


def find(lines: list[str], text: str, below: int = 0, above: int | None = None) -> tuple[int, int]:
    """Row and column of the first ``text`` on the screen between two rows."""
    for r in range(below, len(lines) if above is None else above):
        c = lines[r].find(text)
        if c >= 0:
            return r, c
    raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(lines))


def seat_box(lines: list[str], name: str, above: int) -> tuple[int, int]:
    """Row and column of the title of a player's box (``╭─ ▶ West · D ─``) above a row."""
    for r in range(above):
        m = re.search(rf"╭─ (▶ )?{name}\b", lines[r])
        if m:
            return r, m.start()
    raise AssertionError(f"no box for {name}:\n" + "\n".join(lines))


def hand_row(lines: list[str]) -> int:
    return find(lines, "Your hand (")[0]


async def until(pilot, want, typed=lambda v: "", limit: int = 400) -> TableScreen:
    """Play on (typing ``typed(view)``, else Enter: the first choice) until ``want(table, view)``."""
    for _ in range(limit):
        table = await settle(pilot)
        v = table.session.view()
        if want(table, v):
            return table
        text = typed(v) if not table.paused else ""
        await pilot.press(*text, "enter") if text else await pilot.press("enter")
    raise AssertionError("the table never reached the wanted state")


def declaring(contract: str, rank: str = "rank 7"):
    return lambda v: contract if v.phase == "declare" else (rank if v.phase == "rank" else "")


def assert_players_around(lines: list[str], width: int, me: int, players: int = 4) -> None:
    """West at the left, East at the right, North at the top: each named above your hand."""
    mine = hand_row(lines)
    west = seat_box(lines, "West", mine)
    east = seat_box(lines, "East", mine)
    north = seat_box(lines, "North", mine)
    assert west[1] < width // 3, west
    assert east[1] > width // 2, east
    assert north[0] < west[0] and north[0] < east[0], (north, west, east)


@pytest.mark.parametrize("size", SIZES)
async def test_contract_choice_on_the_table(tmp_path, size):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=size) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        assert v.phase == "declare"
        lines = screen_text(app).splitlines()
        text = "\n".join(lines)
        assert_players_around(lines, size[0], seat)
        if size[1] >= 34:
            assert "You declare this deal" in text and "You are choosing the contract" in text
        else:  # 24 lines: the seven contracts take the middle alone, every one on the screen (issue 43, finding 4)
            choices = table.query_one(ChoiceList)
            labels = [str(choices.get_option_at_index(k).prompt) for k in range(choices.option_count)]
            assert len(labels) == 7 and all(label.split(" — ")[0] in text for label in labels), text
        assert "Contract: not chosen yet" in text
        for name in ("No tricks", "No queens"):  # the choices, in the middle of the table
            r, c = find(lines, name)
            assert hand_row(lines) > r and size[0] // 6 < c < size[0] // 2
        row = hand_row(lines) + 1
        for card in CardSet(v.hand):  # the whole hand, along the bottom
            assert card.display() in lines[row], lines[row]
        if size[1] >= 34:
            assert "computer" in text and "(good player)" in text  # who plays each seat, on a roomy screen


@pytest.mark.parametrize("size", SIZES)
async def test_a_trick_in_progress_lies_in_front_of_each_player(tmp_path, size):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=size) as pilot:
        table = await until(
            pilot, lambda t, v: v.phase == "play" and len(v.trick) >= 2 and t.waiting_for_human, declaring("no-queens")
        )
        v = table.session.view()
        lines = screen_text(app).splitlines()
        text = "\n".join(lines)
        width = size[0]
        mine = hand_row(lines)
        caption = find(lines, f"Trick {len(v.tricks) + 1} of 13", above=mine)
        assert "led" in lines[caption[0] + 1]
        assert f"Your turn: {place(v.leader, seat, 4)} led" in text
        for i, card in enumerate(v.trick):
            who = place((v.leader + i) % 4, seat, 4)
            r, c = find(lines, CARDS[card].display(), above=mine)
            if who == "West":
                assert c < width // 3 and abs(r - caption[0]) <= 2, (who, r, c, caption)
            elif who == "East":
                assert c > 2 * width // 3 and abs(r - caption[0]) <= 2, (who, r, c, caption)
            else:
                assert who == "North" and r < caption[0] and width // 3 < c < 2 * width // 3, (who, r, c)
        assert_players_around(lines, width, seat)
        for card in CardSet(v.hand):
            assert card.display() in lines[mine + 1]
        # The tricks and the taken queens show at each place; the totals are on screen.
        assert f"{v.tricks_won[seat]} trick" in lines[mine]
        assert "total" in text


@pytest.mark.parametrize("size", SIZES)
async def test_domino_rows_in_the_middle(tmp_path, size):
    seed = 4
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat)
    async with app.run_test(size=size) as pilot:
        table = await until(
            pilot,
            lambda t, v: v.phase == "domino" and t.waiting_for_human and sum(1 for x in v.layout if x) >= 2,
            declaring("domino"),
        )
        v = table.session.view()
        lines = screen_text(app).splitlines()
        text = "\n".join(lines)
        mine = hand_row(lines)
        head = find(lines, "Domino, rows from the sevens", above=mine)
        for suit, symbol in enumerate("♠♥♦♣"):
            r, _ = find(lines, symbol, below=head[0] + 1, above=mine)
            if v.layout[suit] is None:
                assert "not started" in lines[r]
            else:
                assert " 7" in lines[r]  # each row starts from the 7, in its column
        assert_players_around(lines, size[0], seat)
        assert "Place a card on the layout" in text or "you may lay one more card" in text


@pytest.mark.parametrize("size", SIZES)
async def test_doubling_on_the_table(tmp_path, size):
    seed = 3
    dealer = first_dealer(PLAYED, seed)
    seat = (dealer + 1) % 4
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=size) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        assert v.phase == "doubling" and v.to_act == seat
        lines = screen_text(app).splitlines()
        text = "\n".join(lines)
        assert "Doubling round: you to call" in text and "pass — no double" in text
        dealer_place = place(dealer, seat, 4)
        assert f"double {dealer_place} (dealer)" in text
        assert f"Dealer: {dealer_place}" in text and "Doubles: none" in text
        assert "Obligation: double the dealer 2 times" in text
        assert_players_around(lines, size[0], seat)
        # Double the dealer: the doubles are said in words at the side of the table.
        await pilot.press(*f"double {dealer_place.lower()}", "enter")  # by its place: a number is refused
        await settle(pilot)
        assert f"You doubled {dealer_place}" in screen_text(app)


async def test_forced_passes_play_themselves_with_a_note(tmp_path):
    """Domino: when no card fits, the person's pass is made at once, and the screen says so."""
    seed = 4  # the person cannot play four times in this deal
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat)
    notes = 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = await until(pilot, lambda t, v: v.phase == "domino", declaring("domino"))
        while not table.paused:
            v = table.session.view()
            assert v.legal != (Pass(),), "the table waited for a forced pass"
            if "You pass: no card can be played." in screen_text(app):
                notes += 1
            await pilot.press("enter")
            table = await settle(pilot)
        r = table.session.match.results[0]
        assert r.contract == "domino"
    passes = [a for a in table.session.match.history if isinstance(a, Pass)]
    assert passes and notes >= 1


async def test_forced_passes_wait_when_asked_to(tmp_path):
    seed = 4
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat, confirm_forced=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await until(
            pilot,
            lambda t, v: v.phase == "domino" and t.waiting_for_human and tuple(v.legal) == (Pass(),),
            declaring("domino"),
        )
        assert "none of your cards fits the layout" in screen_text(app)
        assert "You pass: no card can be played." not in screen_text(app)
        before = table.session.moves
        await pilot.press("enter")  # the pass, chosen by the person
        await settle(pilot)
        assert table.session.moves > before


async def test_no_double_possible_passes_by_itself(tmp_path):
    """The dealer of a positive contract cannot double anyone: with nothing to redouble, he passes at once."""
    seed = 3
    dealer = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, dealer)
    async with app.run_test(size=(140, 45)) as pilot:
        table = await settle(pilot)
        await pilot.press(*"trumps", "enter")
        table = await settle(pilot)
        await pilot.press(*"trump h", "enter")
        table = await until(pilot, lambda t, v: v.phase == "play")
        history = table.session.match.history
        assert Double(frozenset()) in history
        assert "No double possible: you pass." in screen_text(app)


async def test_the_finished_deal_stays_under_its_summary(tmp_path):
    """The end-of-deal summary is shown over the deal just played (its last trick, empty hands), not the next."""
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=(140, 45)) as pilot:
        table = await until(pilot, lambda t, v: t.paused, declaring("no-queens"))
        assert isinstance(app.screen, DealOverDialog)
        r = table.session.match.results[0]
        text = screen_text(app)
        assert "deal 1 of 28 · deal over" in text and "Your hand (0 cards)" in text
        console = Console(width=100, file=io.StringIO(), record=True)
        console.print(table.query_one("#trick").content)
        middle = console.export_text()
        assert "Deal 1 over: No queens" in middle
        for card in r.tricks[-1][1]:  # the last trick lies on the table
            assert CARDS[card].display() in middle
        await pilot.press("enter")
        table = await settle(pilot)
        assert "deal 2 of 28" in screen_text(app) and "deal over" not in screen_text(app)


async def test_setup_screen_sets_the_forced_choices(tmp_path):
    from barbu.tui import BarbuApp, Settings

    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "g.jsonl"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "A forced move" in screen_text(app) and "is made for you, with a note" in screen_text(app)
        app.screen.query_one("#forced").value = "confirm"
        await pilot.pause()
        app.screen.query_one("#start").focus()
        await pilot.press("enter")
        table = await settle(pilot)
        assert table.confirm_forced and app.settings.confirm_forced


async def test_the_end_of_a_deal_offers_a_review_of_your_play(tmp_path):
    """F4 on the end-of-deal summary weighs the person's own decisions of the deal and shows what they cost."""
    from barbu.tui.review import ReviewDialog

    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=(140, 45)) as pilot:
        await until(pilot, lambda t, v: t.paused, declaring("no-queens"))
        assert isinstance(app.screen, DealOverDialog)
        assert "F4: review your play" in screen_text(app)
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, ReviewDialog)
        for _ in range(600):
            await pilot.pause(0.2)
            if "decisions weighed" in screen_text(app) or "no choice" in screen_text(app):
                break
        text = screen_text(app)
        assert "decisions weighed" in text and "Your play in deal 1" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, DealOverDialog)  # back on the summary; Enter goes on
        await pilot.press("enter")
        await settle(pilot)
        assert "deal 2 of 28" in screen_text(app)
