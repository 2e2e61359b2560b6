"""``barbu play --daily`` on the Textual table: the day's daily deals, one board after another, offline.

Each board is a fresh match (`barbu.duplicate.daily.BoardPlay`): dealt from the board's key, its contract fixed
and declared for the declarer, the other seats played by the set's fixed strength, a fresh player for each
decision seeded by everything played so far, so the same moves get the same answers as on the server.  The
table shows their moves at its pace (a paced board stops at each of their turns).  With nobody else's results
at hand, each board is compared with the computer players' own result in the person's seat on the same cards,
and the end says so, as the line-by-line game does (`barbu.cli.daily`, ``--plain``).  Nothing is saved: the
deals are dealt again from the day's key.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.binding import Binding
from textual.markup import escape
from textual.widgets import Static

from ..core.words import N_
from ..duplicate.daily import BoardPlay, DailySet
from ..guide.ruleset_words import preset_name
from ..i18n import _, number, words
from ..play.labels import player_word, rules_info
from ..play.session import Session
from ..records.barbu import number_out
from .daily_board import BoardComputer, DailyBoardCalls
from .dialogs import InfoDialog
from .table import TableScreen


class DailySession(DailyBoardCalls, Session):
    """One board of a daily set behind the table, with the calls the table makes of a `Session`."""

    board: BoardPlay

    def __init__(self, dset: DailySet, board: int) -> None:
        self.board = BoardPlay(dset, board, paced=True)  # dealt, its contract declared: the person's seat known
        self.dset = dset
        others = {s: dset.strength for s in range(self.board.n) if s != self.board.seat}
        super().__init__(self.board.match, self.board.seat, others, None)
        self.compare = None  # no expert here: the board is compared with the fixed strength's own result
        self.agents = {s: BoardComputer(self.board, s) for s in others}


class DailyScreen(TableScreen):
    """The table of a daily set: board after board, then the comparison with the computer players' results.

    The daily deals allow no hint, no taking back and no saving: their keys leave the footer (a key or a typed
    word still answers, with a plain message), and the help lists only the keys that work here."""

    session: DailySession

    # The table's F4, Ctrl+Z and Ctrl+S, kept off the footer: each says in plain words why it does nothing here.
    BINDINGS = [
        Binding("f4", "hint", N_("Hint"), show=False),
        Binding("ctrl+z", "take_back", N_("Take back"), show=False),
        Binding("ctrl+s", "save", N_("Save"), show=False),
    ]

    def __init__(self, dset: DailySet, delay: float = 0.6, confirm_forced: bool = False) -> None:
        super().__init__(DailySession(dset, 0), delay, confirm_forced)
        self.dset = dset
        self.mine: list[Any] = []
        self.theirs: list[Any] = []

    def _draw_title(self, v: Any, ended: Any) -> None:
        """The day, the game, the board and the person's part in it; shorter where the long line would be cut."""
        s = self.session
        declares = s.board.seat == s.board.match.declarer
        caller = declares and self.dset.rules.family == "scottish"  # the Scottish game's declarer is its Caller
        if caller:
            title = _("The daily deals of {day}, {game}: deal {n} of {total}, the call fixed; you are the caller")
        elif declares:
            title = _("The daily deals of {day}, {game}: deal {n} of {total}, the contract fixed; you declare it")
        else:
            title = _("The daily deals of {day}, {game}: deal {n} of {total}, the contract fixed; you defend")
        fields = dict(
            day=self.dset.day,
            game=preset_name(self.dset.game, words()),
            n=number(s.board.board + 1),
            total=number(self.dset.size),
        )
        line = "[b]barbu[/b] — " + escape(title.format(**fields))
        if len("barbu — ") + len(title.format(**fields)) > self.size.width - 2:
            short = (
                _("Daily deals {day} · {game} · deal {n}/{total} · you call")
                if caller
                else _("Daily deals {day} · {game} · deal {n}/{total} · you declare")
                if declares
                else _("Daily deals {day} · {game} · deal {n}/{total} · you defend")
            )
            line = "[b]" + escape(short.format(**fields)) + "[/b]"
        self.query_one("#title", Static).update(line)

    def _draw_decision(self, v: Any) -> None:
        """As the table's, but a finished board says what Enter does next (a board is no whole match)."""
        super()._draw_decision(v)
        board = self.session.board
        if board.done:
            self.query_one("#prompt", Static).update(
                _("Deal {n} is over: Enter for the next deal.").format(n=number(board.board + 1))
                if board.board + 1 < self.dset.size
                else _("The daily deals are over: Enter to leave the table.")
            )

    def keys_help(self) -> str:
        """The keys that work at the daily deals' table (no hint, no take-back, no saving)."""
        return _("""\
[b]Keys[/b]
  ← →            move along your hand
  ↑ ↓            move in the list of choices
  Enter          play or choose what the cursor is on (on an empty command line)
  type + Enter   a card (qh, 10s, A♠), pass, double west north, lay jh qh kh
  mouse          click a card or a choice
  F1 help   F2 last trick   F3 scoresheet   Ctrl+Q quit
  The daily deals give no hints, take nothing back and save nothing: everyone plays them once, on his own.""")

    def action_hint(self) -> None:
        self.notify(_("No hints in the daily deals: everyone plays them on his own."), timeout=4)

    def action_take_back(self) -> None:
        self.notify(_("The daily deals take nothing back: everyone is compared on his first decisions."), timeout=4)

    def action_save(self) -> None:
        self.notify(_("Nothing to save: the daily deals are dealt again from the day's key."), timeout=4)

    def _show_match_over(self) -> None:
        """The board is over: its score beside the computer's in the same seat, then the next board or the end."""
        self.paused = True
        s = self.session
        k = s.board.board
        self.ended = [s.board.result]  # the board's contract and scores stay on the table until the next board
        self.redraw()
        mine = s.board.score
        theirs = BoardPlay(self.dset, k, computer=True).score
        assert mine is not None and theirs is not None  # both boards are over
        self.mine.append(mine)
        self.theirs.append(theirs)
        line = _("Deal {n}: you scored {you}; the computer in your seat scored {it}.").format(
            n=number(k + 1), you=number_out(mine), it=number_out(theirs)
        )
        if k + 1 < self.dset.size:

            def next_board(_result: None = None) -> None:
                self.call_later(self.load, k + 1)

            self.app.push_screen(InfoDialog(_("Deal over"), Text(line), closing=_("Enter: next deal")), next_board)
            return
        sign = 1 if self.dset.highest_wins else -1
        diff = sign * (sum(self.mine) - sum(self.theirs))
        body = Group(
            Text(line),
            Text(""),
            Text(
                _("You against the computer players ({strength}) on your own cards: {diff:+d} over {n} deals.").format(
                    strength=player_word(self.dset.strength), diff=diff, n=self.dset.size
                ),
                style="bold",
            ),
            Text(""),
            Text(
                _(
                    "Offline, you are compared with the computer players' own result in your seat on the same cards, "
                    "not with other people: play on the server to be ranked against them."
                )
            ),
        )
        self.app.push_screen(
            InfoDialog(_("The daily deals are over"), body, closing=_("Enter: leave the table")),
            lambda _result=None: self.app.exit(0),
        )

    async def load(self, board: int) -> None:
        """The next board at the same table: a fresh match, and the person's seat turned round."""
        self.session = DailySession(self.dset, board)
        self.info = rules_info(str(self.session.match.rules))
        self.ended = []
        self.recent.clear()
        self.decision_at = -1
        await self.recompose()
        self.say("")
        self.paused = False
        self.on_mount()


def daily_app(dset: DailySet, delay: float = 0.6, confirm_forced: bool = False) -> Any:
    """The Textual application that opens on the daily set's table (``barbu play --daily``)."""
    from .app import BarbuApp

    class DailyApp(BarbuApp):
        def table_screen(self) -> DailyScreen:
            return DailyScreen(dset, self.delay, self.confirm_forced)

    # a session given, the application opens on its table (nothing is saved: Ctrl+Q simply leaves)
    return DailyApp(session=DailySession(dset, 0), delay=delay, confirm_forced=confirm_forced)
