"""What every card table of the terminal game shares, whatever the game: the loop that plays chance and the
computer players up to the person's turn, forced moves made for him, his choices applied or refused with the
engine's reason, and the message line.

`barbu.tui.table.TableScreen` (the Barbu family) and `barbu.tui.besigue_table.BesigueTableScreen` fill in
their frame, their drawing and the few hooks below; a fix to the loop reaches both games.  The session behind
a table (`Session`, `BesigueSession`) gives the same calls: ``to_act``, ``human_to_act``, ``finished_deals``,
``play_chance``, ``agents``, ``bot_view(seat)``, ``apply_bot(seat, action)``, ``apply_human``, ``moves``,
``save``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import Any

from textual.markup import escape
from textual.widgets import Static

from ..core.errors import BarbuError
from ..i18n import _, current, word_error
from .command_screen import CommandScreen


class CardTableScreen(CommandScreen):
    """A game's table against computer players: the shared loop; subclasses draw it."""

    MESSAGE = "#message"  # the line that tells the person what happened or what was refused
    RECENT = 4  # moves kept in the log under the table

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
                    self.redraw()
                    return
                self.play_forced(forced)
                continue
            self.thinking = actor
            self.redraw()
            self.run_worker(self._computer_move(actor, s.moves), group="computer")
            return

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

    def _save_quietly(self) -> None:
        try:
            self.session.save()
        except OSError as e:
            self.say(_("Could not save the record: {error}").format(error=e), error=True)

    def say(self, text: str, error: bool = False) -> None:
        msg = self.query_one(self.MESSAGE, Static)
        msg.set_class(error, "error")
        msg.update(escape(text))
