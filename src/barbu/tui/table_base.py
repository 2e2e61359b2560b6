"""What every card table of the terminal game shares, whatever the game: the loop that plays chance and the
computer players up to the person's turn, forced moves made for him, his choices applied or refused with the
engine's reason, and the message line; and the person's actions that work alike at every table: Enter on the
list of choices, a click on one, the help with the rules guide (F1), the hint thought off the screen's
thread (F4), taking back a move (Ctrl+Z), and the expert's replays of his deals polled and closed.

`barbu.tui.table.TableScreen` (the Barbu family) and `barbu.tui.besigue_table.BesigueTableScreen` fill in
their frame, their drawing and the few hooks below; a fix to the loop reaches both games.  The session behind
a table (`Session`, `BesigueSession`) gives the same calls: ``to_act``, ``human_to_act``, ``finished_deals``,
``play_chance``, ``agents``, ``bot_view(seat)``, ``apply_bot(seat, action)``, ``apply_human``, ``moves``,
``take_back``, ``save``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.markup import escape
from textual.message import Message
from textual.widgets import OptionList, Static

from ..core.errors import BarbuError
from ..guide import Guide
from ..guide import Table as GuideTable
from ..i18n import _, current, ngettext, number, word_error
from ..i18n.rules import guide_in
from ..play.shadow import ShadowWatch
from .command_screen import CommandScreen
from .dialogs import InfoDialog
from .widgets import ChoiceList, CommandInput


def sentence(text: str) -> str:
    """A refusal as a sentence of its own: a capital first letter and a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def guide_renderables(guide: Guide) -> list:
    """The rules guide as Rich renderables for the help screen: headings, paragraphs, lists, tables."""
    out: list = [Text(guide.title, style="bold underline")]
    for s in guide.sections:
        out.append(Text("\n" + s.heading, style="bold"))
        for b in s.blocks:
            if isinstance(b, str):
                out.append(Text(b))
            elif isinstance(b, GuideTable):
                t = RichTable(*b.header, box=box.SIMPLE, show_edge=False, expand=True)
                for r in b.rows:
                    t.add_row(*r)
                out.append(t)
            else:
                out.extend(Text(f" • {item}") for item in b)
    return out


class CardTableScreen(CommandScreen):
    """A game's table against computer players: the shared loop; subclasses draw it."""

    MESSAGE = "#message"  # the line that tells the person what happened or what was refused
    RECENT = 4  # moves kept in the log under the table
    GLANCE = 0.4  # seconds a new decision is on the screen before Enter on it counts (at most the table's delay)

    def __init__(self, session: Any, delay: float = 0.6, confirm_forced: bool = False) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.confirm_forced = confirm_forced  # False: a decision with one possible choice makes itself, with a note
        self.zone: str | None = None  # where Enter acts (the hand, the list …: each game names its own)
        self.choices: list[Any] = []  # the actions behind the list's lines
        self.decision_at = -1  # the move number the current decision widgets were built for
        self.thinking: int | None = None  # the computer seat whose move is under way
        self.paused = False  # an end-of-deal or end-of-match dialog is open
        self.recent: deque[str] = deque(maxlen=self.RECENT)
        self.shadow: ShadowWatch | None = None  # the expert's replays of your deals (None: the comparison is off)
        # Enter chooses only a decision the person has seen: the move number of the decision drawn on the screen
        # and when it was. Enters typed ahead (the one that closed a deal's summary, a second press, a held key)
        # never commit the next decision unseen.
        self.on_screen = -1
        self.busy_said = False  # the message line says the computer players are playing (until his turn)
        self.on_screen_at = 0.0

    # ---------------------------------------------------------------- hooks a game fills in
    def redraw(self) -> None:
        raise NotImplementedError

    def _show_deal_over(self, results: list) -> None:
        raise NotImplementedError

    def _show_match_over(self) -> None:
        raise NotImplementedError

    def forced_action(self) -> Any | None:
        """The person's only sensible action now, made for him unless he asked to confirm forced moves."""
        return None

    def play_forced(self, action: Any) -> None:
        """Make the forced ``action`` for the person, with a note saying so."""
        raise NotImplementedError

    def play_chance(self) -> None:
        self.session.play_chance()

    def before_move(self) -> Any:
        """What `after_move` needs to know of the table before a move (Bésigue: the view, for the draws)."""
        return None

    def after_move(self, seat: int, action: Any, before: Any, chosen: bool = False) -> None:
        """Log a move just made (``chosen``: the person chose it himself)."""

    def read_choice(self, choice: Any) -> Any:
        """The person's choice as the session applies it (a typed text may need reading first)."""
        return choice

    def not_your_turn(self) -> str:
        """Why the person may not act now (the match is over, or whose turn it is), in his words."""
        raise NotImplementedError

    def computer_failed(self, seat: int, error: str) -> str:
        """The note when a computer player's choice failed and a random legal move was played instead."""
        raise NotImplementedError

    def busy_words(self) -> str:
        """What Enter says while the computer players play."""
        raise NotImplementedError

    def activate_zone(self) -> None:
        """Enter where the cursor is, in a zone of the game's own (the hand, the melds, the Chinese rows…)."""

    def help_page(self) -> tuple[str, str, Any]:
        """The help's title, its first part (markup: the deal, the keys) and the rules its guide explains."""
        raise NotImplementedError

    def think_hint(self, view: Any) -> Any:
        """What the strongest computer player would do from the person's ``view`` (run off the screen's thread)."""
        raise NotImplementedError

    def hint_words(self, view: Any, answer: Any) -> tuple[str, str | None]:
        """The hint's first line, and why (None: nothing more to say)."""
        raise NotImplementedError

    def take_back_moves(self) -> int:
        """Take back the person's last decision in the session; how many moves went (BarbuError: none)."""
        return self.session.take_back()

    def taken_back(self, undone: int) -> None:
        """After a take-back: what the table forgets or logs."""

    def redraw_scores(self) -> None:
        """Draw the scores again (a replay by the expert came back)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- the game loop
    @property
    def waiting_for_human(self) -> bool:
        """True when the table waits for the person's decision (and nothing else is open)."""
        return not self.paused and self.thinking is None and self.session.human_to_act()

    def advance(self) -> None:
        """Play chance events, report finished deals, start a computer move, or stop at the person's turn."""
        if self.paused or self.thinking is not None:
            return
        s = self.session
        while True:
            done = s.finished_deals()
            if done:
                self._save_quietly()
                self.redraw()
                self._show_deal_over(done)
                return
            actor = s.to_act()
            if actor is None:
                self.redraw()
                self._show_match_over()
                return
            if actor < 0:  # chance: the draw for the first dealer, a deal, a shuffle
                self.play_chance()
                continue
            if actor == s.seat:
                forced = None if self.confirm_forced else self.forced_action()
                if forced is None:
                    if self.busy_said:  # "the computer players are playing" is over: the prompt says it is his turn
                        self.say("")
                    self.redraw()
                    if self.on_screen != s.moves:
                        self.call_after_refresh(self._decision_shown, s.moves)
                    return
                self.play_forced(forced)
                continue
            self.thinking = actor
            self.redraw()
            self.run_worker(self._computer_move(actor, s.moves), group="computer")
            return

    def _decision_shown(self, moves: int) -> None:
        """The person's decision at move ``moves`` is drawn: from now on an Enter pressed may choose it."""
        self.on_screen, self.on_screen_at = moves, Message().time  # Textual's clock, which stamps key presses

    def seen_before(self, pressed_at: float) -> bool:
        """True when a key pressed at ``pressed_at`` came after the person's decision had been on the screen.

        A key pressed before it was drawn (typed ahead: the Enter that closed a summary, a second press, a held
        key) is not a choice; nor is one within a glance of it at a table that paces the computer players."""
        if self.on_screen != self.session.moves:
            return False
        # a hair of slack: Textual's clock counts seconds since boot, and a day of uptime leaves (t + 0.4) - t
        # a float's breadth under 0.4
        return pressed_at - self.on_screen_at >= min(self.delay, self.GLANCE) - 1e-6

    async def _computer_move(self, seat: int, moves: int) -> None:
        """One computer move: the agent sees only its seat's view, and takes at least ``delay`` seconds."""
        s = self.session
        view = s.bot_view(seat)
        start = time.monotonic()
        problem = ""
        try:
            action = await asyncio.to_thread(s.agents[seat].act, view)
        except Exception as e:  # a broken agent must not end the person's game
            action, problem = None, f"{type(e).__name__}: {e}"
        wait = self.delay - (time.monotonic() - start)
        if wait > 0:
            await asyncio.sleep(wait)
        if s.moves != moves:  # the match moved on meanwhile (it cannot, but never apply a stale move)
            self.thinking = None
            return
        before = self.before_move()
        try:
            if action is None:
                raise BarbuError(problem)
            s.apply_bot(seat, action)
        except Exception as e:  # an illegal or malformed choice: the state is unchanged, play on
            action = random.Random(moves).choice(view.legal)
            self.say(self.computer_failed(seat, word_error(e, current())), error=True)
            s.apply_bot(seat, action)
        self.thinking = None
        self.after_move(seat, action, before)
        self.advance()

    def submit(self, choice: Any) -> bool:
        """The person's choice (an action or typed text): applied, or refused with the engine's reason."""
        s = self.session
        if self.paused:
            return False
        if not s.human_to_act():
            self.say(self.not_your_turn(), error=True)
            return False
        choice = self.read_choice(choice)
        before = self.before_move()
        try:
            action = s.apply_human(choice)
        except BarbuError as e:
            self.say(_("Not allowed: {reason}").format(reason=word_error(e, current())), error=True)
            return False
        self.say("")
        self.after_move(s.seat, action, before, chosen=True)
        self.advance()
        return True

    # ---------------------------------------------------------------- the expert's replays
    def watch_shadow(self) -> None:
        """Poll the expert's replays of the person's deals while the table is shown."""
        if self.shadow is not None:
            self.set_interval(0.5, self._shadow_tick)

    def _shadow_tick(self) -> None:
        """Start the expert's replay of a deal just finished; redraw the scores when one comes back."""
        if self.shadow is not None and self.shadow.update():
            self.redraw_scores()

    def on_unmount(self) -> None:
        if self.shadow is not None:
            self.shadow.close()

    # ---------------------------------------------------------------- keys and clicks every table has
    def activate(self) -> None:
        """Enter on an empty command line: choose what the cursor is on."""
        if not self.waiting_for_human:
            if not self.paused and not self.session.is_over:
                self.say(self.busy_words())
                self.busy_said = True
            return
        if not self.seen_before(self.query_one(CommandInput).enter_pressed_at):
            return  # pressed before the decision was on the screen: the person has not seen it yet
        if self.zone == "list":
            index = self.query_one(ChoiceList).highlighted
            if index is not None and index < len(self.choices):
                self.submit(self.choices[index])
        else:
            self.activate_zone()

    @on(OptionList.OptionSelected)
    def on_choice_clicked(self, event: OptionList.OptionSelected) -> None:
        if isinstance(event.option_list, ChoiceList) and event.option_index < len(self.choices):
            self.submit(self.choices[event.option_index])

    def action_help(self) -> None:
        title, text, rules = self.help_page()
        body = Group(Text.from_markup(text), *guide_renderables(guide_in(rules, current())))
        self.app.push_screen(InfoDialog(title, body))

    def action_hint(self) -> None:
        """What the strongest computer player would do from your seat (your view only)."""
        if not self.waiting_for_human:
            self.notify(_("A hint is for your turn."), timeout=4)
            return
        self.notify(_("Thinking about your hand…"), timeout=3)
        self.run_worker(self._hint(), group="hint", exclusive=True)

    async def _hint(self) -> None:
        s = self.session
        v = s.view()
        moves = s.moves
        answer = await asyncio.to_thread(self.think_hint, v)
        if s.moves != moves:
            return
        first, why = self.hint_words(v, answer)
        self.app.push_screen(
            InfoDialog(
                _("Hint"),
                "[b]"
                + escape(first)
                + "[/b]\n\n"
                + (f"{escape(why)}\n\n" if why is not None else "")
                + "[dim]"
                + escape(_("It sees only what you see."))
                + "[/dim]",
            )
        )

    def action_take_back(self) -> None:
        """Undo back to your previous decision of this deal: the others here are all computer players."""
        if self.thinking is not None or self.paused:
            self.notify(_("Wait for the computer player to finish its move."), timeout=4)
            return
        try:
            undone = self.take_back_moves()
        except BarbuError as e:
            self.notify(sentence(word_error(e, current())), severity="warning", timeout=5)
            return
        self.taken_back(undone)
        self.notify(
            ngettext("Took back {n} move: your turn again.", "Took back {n} moves: your turn again.", undone).format(
                n=number(undone)
            ),
            timeout=4,
        )
        self.redraw()
        self.advance()

    def _save_quietly(self) -> None:
        try:
            self.session.save()
        except OSError as e:
            self.say(_("Could not save the record: {error}").format(error=e), error=True)

    def say(self, text: str, error: bool = False) -> None:
        self.busy_said = False
        msg = self.query_one(self.MESSAGE, Static)
        msg.set_class(error, "error")
        msg.update(escape(text))
