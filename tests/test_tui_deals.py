"""Whole deals of every kind of decision, played through the Textual app by key presses (pilot).

Computer players act at once (delay 0) and are seeded, so each deal is the same on every run.
"""

from __future__ import annotations

import json
import random

import pytest
from tuikit import SIZE, first_dealer, is_card, new_app, play_deal, screen_text, settle

from barbu.classic.chinese import fouled
from barbu.classic.match import CHANCE, Match
from barbu.core.actions import Declare, Double, NameRank, NameTrump, Pass
from barbu.core.cards import CARDS
from barbu.play.labels import place
from barbu.records.barbu import write_record
from barbu.tui import BarbuApp, Session
from barbu.tui.dialogs import DealOverDialog
from barbu.tui.widgets import ArrangeChooser, HandView

pytestmark = pytest.mark.asyncio

PLAYED = "classic(undoubled_negative=play)"  # negative deals are played even when nobody doubles


def keeper(contract: str, **named):
    """A chooser: declare ``contract``, name what ``named`` says, redouble all it may, play the last legal card."""

    def choose(v):
        if v.phase == "declare":
            return Declare(contract)
        if v.phase == "trump":
            return named["trump"]
        if v.phase == "rank":
            return named["rank"]
        if v.phase == "doubling":
            return max(v.legal, key=lambda d: len(d.targets))
        return v.legal[-1]

    return choose


async def test_a_trick_contract_deal(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat, confirm_forced=True)  # every card by keys, the last one too
    async with app.run_test(size=SIZE) as pilot:
        table, decisions = await play_deal(pilot, keeper("no-queens"))
        result = table.session.match.results[0]
        assert result.contract == "no-queens" and result.played and result.declarer == seat
        assert decisions >= 8
        text = screen_text(app)
        assert "Deal 1: No queens" in text and "running total" in text
        # Saved after the deal: the record holds the deal's line with its scores.
        lines = [json.loads(x) for x in (tmp_path / "game.jsonl").read_text().splitlines()]
        assert [x["contract"] for x in lines if x["type"] == "deal"] == ["no-queens"]
        await pilot.press("enter")  # the table waits for the person after each deal
        table = await settle(pilot)
        assert table.waiting_for_human and table.session.view().phase == "declare"
        assert "no-queens" not in {a.contract for a in table.session.view().legal}


async def test_a_trumps_deal_naming_trumps(tmp_path):
    seed = 2
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, keeper("trumps", trump=NameTrump(1)), typed_every=3)
        r = table.session.match.results[0]
        assert r.contract == "trumps" and r.trump == 1 and r.played
        assert sum(r.base) == 13 * 5  # every trick scored
        assert "Trumps, ♥ hearts" in screen_text(app)


async def test_a_domino_deal_naming_the_rank_and_passing(tmp_path):
    seed = 4  # the person cannot play four times in this deal
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat, confirm_forced=True)  # passes made by keys
    passes = []

    def choose(v):
        a = keeper("domino", rank=NameRank(5))(v)
        if v.phase == "domino":
            a = v.legal[0]
            if isinstance(a, Pass):
                passes.append(v.to_act)
        return a

    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, choose)
        r = table.session.match.results[0]
        assert r.contract == "domino" and r.rank == 5 and r.played
        assert len(passes) >= 2 and set(passes) == {seat}
        assert "Finishing order" in screen_text(app)


async def test_a_domino_turn_shows_the_layout(tmp_path):
    seed = 4
    seat = first_dealer("classic", seed)
    app = new_app(tmp_path, "classic", seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        await pilot.press(*"domino", "enter")
        table = await settle(pilot)
        await pilot.press(*"rank 7", "enter")
        for _ in range(3):  # a few turns in, the rows are on the table
            table = await settle(pilot)
            v = table.session.view()
            if v.phase == "domino" and sum(1 for x in v.layout if x):
                break
            await pilot.press("enter")
        text = screen_text(app)
        assert "7♠" in text or "7♥" in text or "7♦" in text or "7♣" in text
        assert "not started" in text or all(v.layout)


async def test_doubling_from_the_keyboard(tmp_path):
    seed = 3
    dealer = first_dealer(PLAYED, seed)
    seat = (dealer + 1) % 4
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        assert v.phase == "doubling" and v.to_act == seat
        text = screen_text(app)
        assert "Obligation: double the dealer 2 times" in text
        assert f"double {place(dealer, seat, 4)} (dealer)" in text
        # Choose "double the dealer" with the arrow keys and Enter.
        target = next(a for a in table.choices if a == Double(frozenset({dealer})))
        index = table.choices.index(target)
        assert table.zone == "list"
        for _ in range(index):
            await pilot.press("down")
        await pilot.press("enter")
        table = await settle(pilot)
        assert any(b.doubler == seat and b.doubled == dealer for b in table.session.view().doubles)
        table, _ = await play_deal(pilot, lambda v: v.legal[0])
        r = table.session.match.results[0]
        assert any(b.doubler == seat and b.doubled == dealer for b in r.doubles)


async def test_chinese_poker_rows_by_keys(tmp_path):
    rules = "classic(chinese_poker=true)"
    seed = 6
    seat = first_dealer(rules, seed)
    app = new_app(tmp_path, rules, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        await pilot.press(*"chinese-poker", "enter")
        while True:
            table = await settle(pilot)
            if table.session.view().phase == "arrange":
                break
            await pilot.press("enter")  # the doubling round: the first choice (pass)
        chooser = table.query_one(ArrangeChooser)
        assert table.zone == "arrange" and chooser.display
        start = chooser.arrangement()
        hand = table.session.view().hand
        assert start.back | start.middle | start.front == hand and not fouled(start)
        text = screen_text(app)
        assert "Lay out these rows" in text and "back" in text and "front" in text
        # Swap the first back card with the first front card: ↓ from 'Lay out' wraps to the back row.
        await pilot.press("down", "enter", "down", "down", "enter")
        swapped = chooser.arrangement()
        assert swapped != start and swapped.back.bit_count() == 5 and swapped.front.bit_count() == 3
        assert swapped.back | swapped.middle | swapped.front == hand
        # Go to 'Lay out' and confirm.
        await pilot.press("down", "enter")
        table = await settle(pilot)
        assert isinstance(app.screen, DealOverDialog)
        r = table.session.match.results[0]
        assert r.contract == "chinese-poker" and r.arrangements[seat] == swapped
        text = screen_text(app)
        assert "back" in text and "middle" in text and "front" in text


async def test_other_arrangements_stay_hidden_until_the_end(tmp_path):
    """Resumed after two others have laid out their rows face down: none of their cards shows."""
    rules = "classic(chinese_poker=true)"
    seed = 6
    m = Match(rules, seed)
    while m.to_act() == CHANCE:
        m.play_chance()
    dealer = m.dealer
    seat = (dealer + 2) % 4  # arranges after the declarer and the next seat
    m.apply("chinese-poker")
    rng = random.Random(3)
    while not (m.phase_name == "arrange" and m.to_act() == seat):
        legal = m.legal_actions()
        m.apply(legal[0] if m.phase_name == "doubling" else rng.choice(legal))
    record = tmp_path / "cp.jsonl"
    write_record(m, record, {"tui": {"seat": seat}})
    app = BarbuApp(session=Session.resume(record), delay=0)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        assert v.phase == "arrange" and table.zone == "arrange"
        text = screen_text(app)
        assert "2 of 4 players have laid out their rows" in text
        for c in range(52):  # no card but the person's own is anywhere on the screen
            if not v.hand >> c & 1:
                assert CARDS[c].display() not in text, CARDS[c].display()
        await pilot.press("enter")  # the cursor starts on 'Lay out': the suggested rows
        table = await settle(pilot)
        r = table.session.match.results[0]
        assert len(r.arrangements) == 4 and not fouled(r.arrangements[seat])
        text = screen_text(app)
        assert "fouled" in text or "back" in text


async def test_salad_with_five_players(tmp_path):
    rules = "salad(players=5)"
    seed = 8
    seat = first_dealer(rules, seed)
    app = new_app(tmp_path, rules, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        assert "deal 1 of 30" in screen_text(app)  # five declarers, six contracts each
        table, _ = await play_deal(pilot, keeper("salad"))
        r = table.session.match.results[0]
        assert r.contract == "salad" and r.played and len(r.scores) == 5


async def test_french_success_with_set_aside_cards(tmp_path):
    rules = "french(players=5)"
    seed = 3
    seat = first_dealer(rules, seed)
    app = new_app(tmp_path, rules, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        v = table.session.view()
        assert v.set_aside and "Set aside, face up" in screen_text(app)
        if "success" not in {a.contract for a in v.legal}:  # barred when a needed card is set aside
            pytest.fail("seed no longer lets Success be chosen")
        table, _ = await play_deal(pilot, keeper("success"))
        r = table.session.match.results[0]
        assert r.contract == "success" and r.played and len(r.finishing) >= 2


async def test_hand_is_sorted_by_suit_and_cursor_starts_on_a_legal_card(tmp_path):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"no-hearts", "enter")
        while True:
            table = await settle(pilot)
            v = table.session.view()
            if v.phase == "play":
                break
            await pilot.press("enter")
        hand = table.query_one(HandView)
        keys = [(c // 13, -(c % 13)) for c in hand.cards]
        assert keys == sorted(keys)
        assert hand.current() in v.legal
        assert all(is_card(a) for a in v.legal)
