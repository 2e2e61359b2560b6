"""Helpers for driving the Textual game with its pilot: wait for the person's turn, act by keys, read the screen."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from barbu.classic.match import DRAW, Match
from barbu.classic.ruleset import Ruleset
from barbu.core.actions import Declare, Double
from barbu.play.labels import place
from barbu.tui import BarbuApp, Settings
from barbu.tui.dialogs import DealOverDialog, InfoDialog
from barbu.tui.table import TableScreen
from barbu.tui.widgets import ChoiceList, HandView

SIZE = (120, 40)


def first_dealer(rules: str, seed: int) -> int:
    """The seat that deals (and, in the classic rotation, declares) the first deals of a seeded match."""
    m = Match(rules, seed)
    while m.phase == DRAW:
        m.play_chance()
    return m.dealer


def new_app(
    tmp_path: Path,
    rules: str = "classic",
    seed: int = 1,
    seat: int = 0,
    opponents: dict[int, str] | None = None,
    confirm_forced: bool = False,
    compare: str | None = None,
) -> BarbuApp:
    """A match that starts at once; ``confirm_forced`` makes the person confirm even a forced choice; ``compare``
    replays each deal with that player in your seat (off by default here: tests/test_tui_shadow.py turns it on)."""
    settings = Settings(
        rules=Ruleset.parse(rules),
        seat=seat,
        seed=seed,
        delay=0,
        opponents=opponents or {},
        save=tmp_path / "game.jsonl",
        confirm_forced=confirm_forced,
        compare=compare,
    )
    return BarbuApp(settings, setup=False)


async def settle(pilot, limit: int = 5000) -> TableScreen:
    """Wait until the table waits for the person or shows a dialog (end of deal or match)."""
    app = pilot.app
    for _ in range(limit):
        await pilot.pause()
        t = app.table
        if t is not None and (t.waiting_for_human or t.paused):
            return t
    raise AssertionError("the table never came back to the person")


def screen_text(app) -> str:
    """The characters on the screen now, as plain text."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text().replace("\u00a0", " ")  # the table pads with no-break spaces: blanks on screen


def is_card(a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def typed_text(action: Any, me: int = 0, players: int = 4) -> str:
    """What a person would type for an action: ``QH``, ``no-queens``, ``trump H``, ``double west east``… (the
    players he doubles by their places from his seat ``me``: numbers are refused to a person)."""
    if isinstance(action, Declare):
        return action.contract
    if isinstance(action, Double) and action.targets:
        return "double " + " ".join((place(s, me, players) or "").lower() for s in sorted(action.targets))
    return str(action)


async def act(pilot, table: TableScreen, action: Any, typed: bool) -> None:
    """Make ``action`` from the keyboard: typed as text, or with the arrow keys and Enter."""
    if typed:
        session = table.session
        me = session.seat
        players = (session.match if hasattr(session, "match") else session.board.match).n
        await pilot.press(*list(typed_text(action, me, players)), "enter")
        return
    if is_card(action):
        hand = table.query_one(HandView)
        for _ in range(len(hand.cards)):
            if hand.current() == action and table.zone == "hand":
                break
            await pilot.press("right")
        assert hand.current() == action
        await pilot.press("enter")
        return
    index = table.choices.index(action)
    choices = table.query_one(ChoiceList)
    if table.zone != "list":
        await pilot.press("down")  # the first ↓ moves from the hand to the list
    while choices.highlighted != index:
        await pilot.press("down" if choices.highlighted < index else "up")
    await pilot.press("enter")


async def play_deal(pilot, choose: Callable[[Any], Any], typed_every: int = 2) -> tuple[TableScreen, int]:
    """Play the person's decisions until a deal ends; ``choose(view)`` picks each action.

    Alternates typing and arrow keys.  Returns the table (showing the end-of-deal dialog) and the
    number of decisions made.
    """
    n = 0
    while True:
        table = await settle(pilot)
        if table.paused:
            assert isinstance(pilot.app.screen, (DealOverDialog, InfoDialog))
            return table, n
        view = table.session.view()
        action = choose(view)
        before = table.session.moves
        await act(pilot, table, action, typed=(n % typed_every == 0))
        await pilot.pause()
        assert table.session.moves > before, f"{action} was not taken: {screen_text(pilot.app)}"
        n += 1


def save_shot(app, name: str) -> None:
    """The screen as SVG, for people, only when BARBU_SHOTS names a folder (helpers.shot_path)."""
    from helpers import shot_path

    path = shot_path(name)
    if path is not None:
        app.save_screenshot(path.name, str(path.parent))


async def composed(pilot, screen, selector: str) -> None:
    """Wait until a Select rebuilt by the last change has its label (a loaded machine is slower to compose it)."""
    for _ in range(100):
        if screen.query(f"{selector} SelectCurrent #label"):
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{selector} never finished composing")
