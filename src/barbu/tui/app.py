"""The Textual application: the setup screen, then the table, with save-and-quit at any time."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import App

from ..classic.match import Match
from ..core.errors import BarbuError
from ..i18n import _, current, word_error
from ..play.besigue_session import BesigueSession, is_besigue_settings
from ..play.session import Session, Settings
from ..records.besigue import is_besigue_record
from . import bindings
from .besigue_table import BesigueTableScreen
from .setup_screen import SetupScreen
from .table import TableScreen


class BarbuApp(App[int]):
    """Barbu in the terminal: one person against computer players.

    Give it a ready `Session` (a resumed match) to go straight to the table, or
    `Settings` for the setup screen (``setup=False`` starts with them at once).
    """

    CSS_PATH = "barbu.tcss"
    TITLE = "barbu"
    BINDINGS = bindings.APP
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        settings: Settings | None = None,
        session: Session | BesigueSession | None = None,
        setup: bool = True,
        delay: float | None = None,
        confirm_forced: bool | None = None,
    ) -> None:
        super().__init__()
        bindings.translate(self)
        self.settings = settings or Settings()
        self.session = session
        self.show_setup = setup
        self.delay = self.settings.delay if delay is None else delay
        self.confirm_forced = self.settings.confirm_forced if confirm_forced is None else confirm_forced
        self.saved_to: Path | None = None
        self.save_failed = False

    def on_mount(self, event: events.Mount) -> None:
        """The table of a session given, else the setup screen (`LessonApp` stops this with the event)."""
        if self.session is not None:
            self.push_screen(self.table_screen())
        elif self.show_setup:
            self.push_screen(SetupScreen(self.settings), self.start)
        else:
            self.start(self.settings)

    def start(self, settings: Settings | Path | None) -> None:
        """Seat the person at a new match with these settings, or at the saved match chosen."""
        if settings is None:
            self.exit(0)
            return
        try:
            if isinstance(settings, Path):
                self.session = (
                    BesigueSession.resume(settings) if is_besigue_record(settings) else Session.resume(settings)
                )
            else:
                self.settings = settings
                self.delay = settings.delay
                self.confirm_forced = settings.confirm_forced
                self.session = BesigueSession.new(settings) if is_besigue_settings(settings) else Session.new(settings)
        except BarbuError as e:
            self.notify(
                _("Cannot start: {reason}").format(reason=word_error(e, current())),
                severity="error",
                timeout=10,
                markup=False,
            )
            if not self.show_setup:
                self.exit(2)
            else:
                self.push_screen(SetupScreen(self.settings), self.start)
            return
        self.push_screen(self.table_screen())

    def table_screen(self) -> TableScreen | BesigueTableScreen:
        """The table for the session's game: Bésigue has a table of its own."""
        if isinstance(self.session, BesigueSession):
            return BesigueTableScreen(self.session, self.delay, self.confirm_forced)
        assert self.session is not None  # asked for once a session is seated
        return TableScreen(self.session, self.delay, self.confirm_forced)

    def puzzles_from(self, match: Match, seat: int, saved: Path | None = None) -> None:
        """Open the person's costliest decisions of the match just played as puzzles (`barbu.tui.puzzle_match`)."""
        from .puzzle_match import open_match_puzzles

        open_match_puzzles(self, match, seat, saved.stem if saved else "match")

    @property
    def table(self) -> TableScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        return None

    async def action_quit(self) -> None:
        """Save the match (if one is under way) and leave: nothing is lost.

        If the record cannot be written, say so and stay; a second Ctrl+Q leaves without saving.
        """
        if self.session is not None and not self.save_failed:
            try:
                self.saved_to = self.session.leave()  # an untouched new match is not kept
            except OSError as e:
                self.save_failed = True
                self.notify(
                    _("Could not save the record: {error}. Press Ctrl+Q again to quit without saving.").format(error=e),
                    severity="error",
                    timeout=10,
                    markup=False,
                )
                return
        self.exit(0)
