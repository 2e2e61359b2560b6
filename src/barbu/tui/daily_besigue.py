"""``barbu play --daily --rules besigue`` on the Bésigue table: the day's Bésigue deals, one after another, offline.

Each board is the first deal of a fresh game (`barbu.duplicate.daily_besigue.BesigueBoard`): the dealer drawn and
the cards shuffled from the board's key, the person the elder hand on odd-numbered deals and the dealer on the
others, the computer's every decision a fresh player seeded by everything played so far, so the same moves get
the same answers as on the server.  The table is Bésigue's own (`BesigueTableScreen`); no hint, no take-back,
nothing saved.  With nobody else's results at hand, each deal is compared with the computer's own result in the
person's seat on the same cards, as the Barbu games' daily table does (`barbu.tui.daily_screen`).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.markup import escape
from textual.widgets import Static

from ..besigue.view import BesigueView
from ..core.words import N_
from ..duplicate.daily import DailySet
from ..duplicate.daily_besigue import DEALER, BesigueBoard
from ..guide.ruleset_words import preset_name
from ..i18n import _, number, words
from ..play.besigue_session import BesigueSession
from ..play.labels import player_word
from ..records.barbu import number_out
from .besigue_table import BesigueTableScreen
from .daily_board import BoardComputer, DailyBoardCalls
from .dialogs import InfoDialog


class DailyBesigueSession(DailyBoardCalls, BesigueSession):
    """One board of Bésigue's daily set behind the Bésigue table, with the calls the table makes of a session."""

    board: BesigueBoard

    def __init__(self, dset: DailySet, board: int) -> None:
        self.board = BesigueBoard(dset, board, paced=True)  # dealt: the person's seat known
        self.dset = dset
        super().__init__(self.board.match, self.board.seat, dset.strength, None)
        self.agent = BoardComputer(self.board, 1 - self.board.seat)
        self.compare = None  # no expert here: the deal is compared with the fixed strength's own result


class DailyBesigueScreen(BesigueTableScreen):
    """The Bésigue table of a daily set: deal after deal, then the comparison with the computer's results."""

    session: DailyBesigueSession

    # The table's F4, Ctrl+Z and Ctrl+S, kept off the footer: each says in plain words why it does nothing here.
    BINDINGS = [
        Binding("f4", "hint", N_("Hint"), show=False),
        Binding("ctrl+z", "take_back", N_("Undo"), show=False),
        Binding("ctrl+s", "save", N_("Save"), show=False),
    ]

    def __init__(self, dset: DailySet, delay: float = 0.6, confirm_forced: bool = False) -> None:
        super().__init__(DailyBesigueSession(dset, 0), delay, confirm_forced)
        self.dset = dset
        self.mine: list[int] = []
        self.theirs: list[int] = []

    def _draw_scores(self, v: BesigueView) -> None:
        super()._draw_scores(v)
        self.query_one("#b-scores").border_title = _("Scores")  # each deal is a game of its own: no target

    def _draw_title(self, v: BesigueView) -> None:
        s = self.session
        fields = dict(
            day=self.dset.day,
            game=preset_name(self.dset.game, words()),
            n=number(s.board.board + 1),
            total=number(self.dset.size),
        )
        title = (
            _("Daily deals {day} · {game} · deal {n}/{total} · you deal")
            if s.board.role == DEALER
            else _("Daily deals {day} · {game} · deal {n}/{total} · you lead first")
        ).format(**fields)
        turn = _("your turn") if self.waiting_for_human else _("computer to play") if self.thinking is not None else ""
        fits = len(title) + len(turn) + 6 <= self.size.width  # on a narrow screen the turn shows below anyway
        self.query_one("#b-title", Static).update(
            f"[b]{escape(title)}[/b]" + (f" · [b reverse] {escape(turn)} [/]" if turn and fits else "")
        )

    def help_page(self) -> tuple[str, str, Any]:
        keys = _("""\
[b]Keys[/b]
  ← → Enter     choose a card of your hand or melds, and play it
  ↑ ↓ Enter     choose a declaration after you win a trick
  type + Enter  qs, 10d, Q♠ (qs* a laid card), pass,
                declare bezique QS JD, exchange 7H, show 7H
  mouse         click a card or a declaration
  F1 rules  F2 tricks  F3 scores  Ctrl+Q quit
  The daily deals give no hints, take nothing back and save nothing: everyone plays them once, on his own.""")
        return _("Help and the rules of Bésigue"), keys + "\n", self.session.rules

    def action_hint(self) -> None:
        self.notify(_("No hints in the daily deals: everyone plays them on his own."), timeout=4)

    def action_take_back(self) -> None:
        self.notify(_("The daily deals take nothing back: everyone is compared on his first decisions."), timeout=4)

    def action_save(self) -> None:
        self.notify(_("Nothing to save: the daily deals are dealt again from the day's key."), timeout=4)

    def _show_deal_over(self, results: list[dict[str, Any]]) -> None:
        """The deal is over: its points, the person's score beside the computer's in his seat, then the next
        deal or the end."""
        self.paused = True
        s = self.session
        k = s.board.board
        mine = s.board.score
        theirs = BesigueBoard(self.dset, k, computer=True).score
        assert mine is not None and theirs is not None
        self.mine.append(mine)
        self.theirs.append(theirs)
        summary = dict(results[-1], deal=k + 1)  # numbered as the set's deal
        line = _("Deal {n}: you scored {you}; the computer in your seat scored {it}.").format(
            n=number(k + 1), you=number_out(mine), it=number_out(theirs)
        )
        explain = _("A deal's score is your points less the computer's.")
        if k + 1 < self.dset.size:

            def next_deal(_result: None = None) -> None:
                self.call_later(self.load, k + 1)

            self.app.push_screen(
                InfoDialog(
                    _("Deal over"),
                    Group(Text(line, style="bold"), Text(explain, style="dim"), self.deal_summary(summary)),
                    closing=_("Enter: next deal"),
                ),
                next_deal,
            )
            return
        diff = sum(self.mine) - sum(self.theirs)
        body = Group(
            Text(line),
            Text(
                _("You against the computer players ({strength}) on your own cards: {diff:+d} over {n} deals.").format(
                    strength=player_word(self.dset.strength), diff=diff, n=self.dset.size
                ),
                style="bold",
            ),
            Text(
                _(
                    "Offline, you are compared with the computer players' own result in your seat on the same cards, "
                    "not with other people: play on the server to be ranked against them."
                ),
                style="dim",
            ),
            self.deal_summary(summary),
        )
        self.app.push_screen(
            InfoDialog(_("The daily deals are over"), body, closing=_("Enter: leave the table")),
            lambda _result=None: self.app.exit(0),
        )

    def _show_match_over(self) -> None:
        return None  # each board ends in `_show_deal_over`

    async def load(self, board: int) -> None:
        """The next deal at the same table: a fresh game, the person's part turned round."""
        self.session = DailyBesigueSession(self.dset, board)
        self.slots, self.cursor, self.note = [], 0, ""
        self.recent.clear()
        self.decision_at = -1
        await self.recompose()
        self.say("")
        self.paused = False
        self.on_mount()


def daily_besigue_app(dset: DailySet, delay: float = 0.6, confirm_forced: bool = False) -> Any:
    """The Textual application that opens on the Bésigue daily set's table (``barbu play --daily --rules besigue``)."""
    from .app import BarbuApp

    class DailyApp(BarbuApp):
        def table_screen(self) -> DailyBesigueScreen:
            return DailyBesigueScreen(dset, self.delay, self.confirm_forced)

    return DailyApp(session=DailyBesigueSession(dset, 0), delay=delay, confirm_forced=confirm_forced)
