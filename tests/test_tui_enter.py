"""Enter that closes a box never commits a decision (issue 43, finding 7).

The person's Enter closed a deal's summary, and the Enters typed after it (a second press, a held key) chose
the next contract, the first of the list, before it was on the screen.  A decision takes its own key press,
pressed after the decision is drawn.
"""

from __future__ import annotations

import threading

import pytest
from textual import events
from tuikit import SIZE, first_dealer, new_app, play_deal, screen_text, settle

from barbu.agents import RandomAgent
from barbu.core.actions import Declare
from barbu.tui.dialogs import DealOverDialog

pytestmark = pytest.mark.asyncio

RULES = "classic(undoubled_negative=play)"


def type_ahead(app, *keys: str) -> None:
    """Keys pressed at once, as a terminal delivers them when the person presses faster than the table reads."""
    for key in keys:
        event = events.Key(key, "\r" if key == "enter" else key)
        event.set_sender(app)
        app._driver.send_message(event)


def declare_no_queens(v):
    if v.phase == "declare":
        return next(a for a in v.legal if a == Declare("no-queens"))
    return v.legal[-1]


async def test_enters_after_the_summary_choose_nothing_until_the_contract_is_on_screen(tmp_path):
    seed = 5
    seat = first_dealer(RULES, seed)  # the person declares the next deal too: his decision comes at once
    app = new_app(tmp_path, RULES, seed, seat, confirm_forced=True)
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, declare_no_queens)
        assert isinstance(app.screen, DealOverDialog)
        type_ahead(app, "enter", "enter", "enter")  # one closes the summary; the others were pressed with it
        table = await settle(pilot)
        for _ in range(20):
            await pilot.pause()
        assert not isinstance(app.screen, DealOverDialog)
        view = table.session.view()
        assert table.waiting_for_human and view.phase == "declare", "an Enter typed ahead chose the contract"
        assert len(table.session.match.results) == 1
        # The contract list is on the screen now: the next Enter is a choice of its own.
        first = table.choices[0]
        await pilot.press("enter")
        await pilot.pause()
        view = table.session.view()
        assert view.phase != "declare" and view.contract == first.contract


async def test_an_enter_within_a_glance_of_a_new_decision_is_not_a_choice(tmp_path):
    """At a paced table (the computer players take ``delay``), an Enter pressed less than a glance after the
    decision showed is a double press, not a choice; one pressed later chooses."""
    app = new_app(tmp_path, RULES, 5, first_dealer(RULES, 5))
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        table.delay = 0.6
        shown = table.on_screen_at
        assert table.on_screen == table.session.moves
        assert not table.seen_before(shown - 1.0)  # pressed before it was drawn
        assert not table.seen_before(shown + 0.1)
        assert table.seen_before(shown + table.GLANCE)
        table.delay = 0  # a table that does not pace (tests, a quick player's choice): no glance needed
        assert table.seen_before(shown)


async def test_the_message_line_stops_saying_the_computers_play_when_it_is_your_turn(tmp_path, monkeypatch):
    """Enter while the computer players play says so; when the person's turn comes the line no longer says it
    beside "Your turn" (issue 43, finding 10)."""
    gate = threading.Event()  # the computer players think until the test lets them go
    act = RandomAgent.act
    monkeypatch.setattr(RandomAgent, "act", lambda self, view: (gate.wait(30), act(self, view))[1])
    seed = 5
    seat = (first_dealer(RULES, seed) + 1) % 4  # not the declarer: the computer players act first
    app = new_app(tmp_path, RULES, seed, seat, opponents={s: "random" for s in range(4) if s != seat})
    async with app.run_test(size=SIZE) as pilot:
        table = app.table
        await pilot.press("enter")
        busy = table.busy_words()
        assert table.thinking is not None and busy in screen_text(app)
        gate.set()
        table = await settle(pilot)
        await pilot.pause()
        assert table.waiting_for_human
        text = screen_text(app)
        assert busy not in text, text


async def test_a_forced_moves_note_does_not_stay_into_the_next_deal(tmp_path):
    """ "You play 4♥: your only legal card." of a deal's last trick stood under the next deal's doubling round,
    whose hand holds no 4♥ (issue 43's screenshots at 80×24)."""
    seed = 5
    app = new_app(tmp_path, RULES, seed, first_dealer(RULES, seed))
    async with app.run_test(size=SIZE) as pilot:
        table, _ = await play_deal(pilot, declare_no_queens)
        table.say("You play 4♥: your only legal card.")  # the note of the deal's last, forced card
        await pilot.press("enter")
        table = await settle(pilot)
        assert "4♥" not in str(table.query_one("#message").render()), screen_text(app)
