"""The table screen: what the person sees at the table, and the game loop of one match.

It is drawn as a card table: you at the bottom with your hand, the other players
in boxes around the felt in the order they play (West on your left first), the
trick in the middle with each card in front of its player, the deal (contract,
trumps, doubles in words) at the top left and the scores at the top right.
A decision with a single possible choice makes itself, with a note, unless the
person asked to confirm forced moves.

Everything drawn comes from ``session.view()`` (the person's view).  Computer
players think off the UI thread on their own views and act no faster than the
chosen delay; chance events are applied at once; the table stops at the
person's turns and after each deal.  Every decision is a list of the view's
legal actions (or the hand, for cards, or the rows, for Chinese poker), and any
decision can also be typed: the text goes through ``Match.parse_action``, so
decision kinds added later work here as a plain list and as typed text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from rich.align import Align
from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Footer, Static

from ..agents.hint import hint, hint_label, hint_reason
from ..classic.chinese import Arrange, Arrangements
from ..classic.contracts import CHINESE, DOMINO
from ..classic.match import DealResult, Match
from ..classic.state import Points
from ..classic.view import HIDDEN, View
from ..core.cards import SUIT_SYMBOLS
from ..guide.ruleset_words import game_name
from ..i18n import _, ngettext, number, pgettext, words
from ..play.labels import (
    RulesInfo,
    action_label,
    contract_label,
    doubles_arrows,
    doubles_short,
    doubling_notes,
    forced_choice,
    forced_note,
    option_word,
    place,
    place_name,
    points,
    rank_label,
    result_label,
    rules_info,
    seat_name,
    seat_title,
    settlement_lines,
    signed,
)
from ..play.shadow import ShadowWatch
from ..records.barbu import trick_winner
from . import bindings
from .dialogs import DealOverDialog, InfoDialog, MatchOverDialog
from .labels import (
    FACE,
    INK,
    RED_SUITS,
    arrangement_text,
    card_chip,
    card_face,
    card_markup,
    cards_markup,
    move_text,
    prompt,
    taken_text,
)
from .review import ReviewDialog
from .shadow import ShadowMatchOverDialog
from .table_base import CardTableScreen
from .widgets import ArrangeChooser, ChoiceList, CommandInput, HandView, SeatBox, set_text


class Mover(Protocol):
    """A computer seat as the table asks it: its move from what it sees (an agent, a lesson's script)."""

    def act(self, view: View) -> Any: ...


class TableSession(Protocol):
    """What the table asks of the match behind it: a `Session`, or a session of its own kind answering the same
    calls (a daily board's, a lesson's)."""

    @property
    def match(self) -> Match: ...
    @property
    def seat(self) -> int: ...
    @property
    def agents(self) -> Mapping[int, Mover]: ...
    @property
    def compare(self) -> str | None: ...
    @property
    def save_path(self) -> Path | None: ...
    @property
    def players(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    def view(self) -> View: ...
    def to_act(self) -> int | None: ...
    def human_to_act(self) -> bool: ...
    def bot_view(self, seat: int) -> View: ...
    def apply_bot(self, seat: int, action: Any) -> None: ...
    def apply_human(self, choice: Any) -> Any: ...
    def play_chance(self) -> Any: ...
    def finished_deals(self) -> list[DealResult]: ...
    def save(self) -> Path | None: ...
    def take_back(self, skip_forced: bool = False) -> int: ...
    def who(self, s: int, english: bool = False) -> str: ...
    def player_kind(self, s: int, english: bool = False) -> str: ...


# Where each place sits: the row of boxes across the top, or the left or right side of the table…
SIDE = {"West": "left", "East": "right"}
# …and where its card lands in the middle (row, column of a 3 x 3 grid; yours is at the bottom centre).
SPOT = {"West": (1, 0), "North-west": (0, 0), "North": (0, 1), "North-east": (0, 2), "East": (1, 2)}
# The empty place of the card awaited, on a tall table.
SLOT = "[dim]┌╌╌╌╌┐\n╎ ?? ╎\n└╌╌╌╌┘[/]"
MAX_LISTED = 1000  # longer choice lists are typed (the first ones are still listed)
COMMANDS = {
    "help": "help",
    "?": "help",
    "last": "last_trick",
    "last trick": "last_trick",
    "tricks": "last_trick",
    "scores": "scoresheet",
    "scoresheet": "scoresheet",
    "sheet": "scoresheet",
    "save": "save",
    "quit": "quit",
    "exit": "quit",
    "hint": "hint",
    "undo": "take_back",
    "take back": "take_back",
}


def running_totals(v: View, deals: int) -> list[Points]:
    """Totals after the first ``deals`` deals, from the view's public results."""
    totals: list[Points] = [0] * v.players
    for r in v.results[:deals]:
        totals = [a + b for a, b in zip(totals, r.added)]
    return totals


def is_card(a: Any) -> bool:
    return isinstance(a, int) and not isinstance(a, bool)


def signed_points(x: int) -> str:
    return f"+{number(x)}" if x > 0 else number(x)


def fit_kind(kind: str, width: int) -> str:
    """``computer (strong)`` on two lines, before its bracket, where the seat's box is too narrow for one:
    Textual would otherwise break it inside the strength's words."""
    if 0 < width < len(kind) and " (" in kind:
        return kind.replace(" (", "\n(", 1)
    return kind


def tricks_text(n: int) -> str:
    return ngettext("{n} trick", "{n} tricks", n).format(n=number(n))


class TableScreen(CardTableScreen):
    """The table of one match with one person and computer players (the loop: `CardTableScreen`)."""

    TYPED_COMMANDS = COMMANDS

    BINDINGS = bindings.TABLE

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    CROWDED = 2  # on a short screen, a list of more choices than this takes the middle of the table alone

    session: TableSession

    def __init__(self, session: TableSession, delay: float = 0.6, confirm_forced: bool = False) -> None:
        super().__init__(session, delay, confirm_forced)  # self.zone: "hand", "list" or "arrange"
        bindings.translate(self)
        self.ended: list[DealResult] = []  # the deals just finished, shown on the table under their summary
        self.info: RulesInfo = rules_info(str(session.match.rules))
        # the expert's replays of your deals, in a process of their own (None: the comparison is off)
        self.shadow = ShadowWatch.of(session) if session.compare else None

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        s = self.session
        sides: dict[str, list[int]] = {"top": [], "left": [], "right": []}
        for seat in self.around():
            where = place(seat, s.seat, s.players)
            sides[SIDE.get(where or "", "top")].append(seat)
        yield Static(id="title")
        with Horizontal(id="top"):
            yield Static(id="status")
            with Horizontal(id="across"):
                for seat in sides["top"]:
                    yield SeatBox(id=f"seat-{seat}", classes="seat")
            yield Static(id="seats")
        with Horizontal(id="middle"):
            with Vertical(id="left", classes="side"):
                for seat in sides["left"]:
                    yield SeatBox(id=f"seat-{seat}", classes="seat")
            with Vertical(id="center"):
                yield Static(id="trick")
                yield ChoiceList(id="choices")
                yield ArrangeChooser(id="arrange")
            with Vertical(id="right", classes="side"):
                for seat in sides["right"]:
                    yield SeatBox(id=f"seat-{seat}", classes="seat")
        yield HandView(id="hand")
        with Vertical(id="decision"):
            yield Static(id="prompt")
        yield Static(id="log")
        with Vertical(id="bottom"):
            yield Static(id="message")
            yield CommandInput(
                placeholder=_("type a card (qh), an action (no-queens, trump h, double west, pass), or help"),
                id="command",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.session.players > 4, "many")
        self.query_one("#trick").border_title = _("Table")
        self.query_one("#seats").border_title = _("Scores")
        self.query_one("#decision").border_title = _("Your decision")
        self.query_one(CommandInput).focus()
        self.watch_shadow()
        self.advance()

    def redraw_scores(self) -> None:
        self.query_one("#seats", Static).update(self._scores(self.session.view()))

    def on_resize(self) -> None:
        if self.is_mounted:
            self.redraw()

    def around(self) -> list[int]:
        """The other seats in the order they play after you: from your left, across the table, to your right."""
        s = self.session
        return [(s.seat + k) % s.players for k in range(1, s.players)]

    def seat_word(self, seat: int) -> str:
        """A seat as the person calls it: "you", or its place at the table ("West")."""
        return seat_name(seat, self.session.seat, self.session.players)

    def seat_cap(self, seat: int) -> str:
        return seat_title(seat, self.session.seat, self.session.players)

    # ---------------------------------------------------------------- the game loop (CardTableScreen's hooks)
    def forced_action(self) -> Any | None:
        return forced_choice(self.session.view().legal)

    def play_forced(self, action: Any) -> None:
        s = self.session
        note = forced_note(action, s.view(), self.info)
        s.apply_human(action)
        self._note(s.seat, action)
        self.say(note)

    def after_move(self, seat: int, action: Any, before: Any, chosen: bool = False) -> None:
        self._note(seat, action)

    def not_your_turn(self) -> str:
        actor = self.session.to_act()
        return (
            _("The match is over.")
            if actor is None
            else _("Wait: it is {who}'s turn, not yours.").format(who=self.seat_word(actor))
        )

    def computer_failed(self, seat: int, error: str) -> str:
        return _("{who}: the computer player failed ({error}); it played a random legal move").format(
            who=self.seat_cap(seat), error=error
        )

    def _note(self, seat: int, action: Any) -> None:
        """Log a move as the person may know it: another seat's secret choice shows only as made."""
        v = self.session.view()
        shown = v.deal_actions[-1] if v.deal_actions else action
        text = _("a secret choice") if shown is HIDDEN else move_text(shown, seat, v, self.info)
        # TRANSLATORS: a move in the log under the table ("West: Q♥"); {move} is markup.
        self.recent.append(_("{who}: {move}").format(who=escape(self.seat_cap(seat)), move=text))

    # ---------------------------------------------------------------- drawing
    def redraw(self) -> None:
        v = self.session.view()
        ended = self.ended[-1] if self.ended else None
        self._draw_title(v, ended)
        set_text(self.query_one("#status", Static), self._status_text(v, ended))
        self.query_one("#seats", Static).update(self._scores(v))
        self._draw_seats(v, ended)
        self._draw_table(v, ended)
        self._draw_decision(v)
        self._draw_me(v, ended)
        set_text(self.query_one("#log", Static), " · ".join(self.recent))

    def _draw_title(self, v: View, ended: DealResult | None) -> None:
        s = self.session
        deal = ended.number if ended else min(v.deal_number, self.info.total_deals)
        state = (" · " + _("match over")) if s.is_over else ((" · " + _("deal over")) if ended else "")
        where = _("deal {n} of {total}").format(n=number(deal), total=number(self.info.total_deals))
        # TRANSLATORS: in the title: the person always sits at the bottom of the table, South.
        seat = _("you are {place}").format(place=place_name("South"))
        game = game_name(v.rules, words())
        set_text(self.query_one("#title", Static), f"[b]barbu[/b] — {escape(game)} · {where}{escape(state)} · {seat}")

    def _doubles(self, v: View, doubles: Any = None) -> str:
        """The doubles for the side of the table: in words ("West doubled you; you redoubled"), or as arrows
        ("West→North ×2 · West→you") on a short screen (24 lines) when the words would take more than two of
        the side's lines and push the choices off the screen."""
        said = doubles_short(v, doubles)
        width = self.query_one("#status").content_size.width or 28
        if self.has_class("-short") and len(_("Doubles: {doubles}.").format(doubles=said)) > 2 * width:
            return doubles_arrows(v, doubles)
        return said

    def _status_text(self, v: View, ended: DealResult | None) -> str:
        """The deal at the side of the table: contract, trumps, who declared, doubles in words."""
        me = v.seat
        if ended is not None:
            lines = [
                _("Contract: {contract}").format(contract=f"[b]{escape(result_label(self.info, ended))}[/b]"),
                _("Declarer: {who}").format(who=self.seat_word(ended.declarer)),
            ]
            if ended.doubles:
                lines.append(_("Doubles: {doubles}.").format(doubles=escape(self._doubles(v, ended.doubles))))
            return "\n".join(lines)
        lines = [_("Contract: {contract}").format(contract=f"[b]{escape(contract_label(self.info, v))}[/b]")]
        if v.scottish is not None:  # the Scottish game: where in the Set and Round, and who calls
            st = v.scottish.start or v.scottish.state
            where = _("Silly Round") if st.silly else _("Player Round {n}").format(n=number(st.round_no + 1))
            caller = (" · " + _("caller: {who}").format(who=self.seat_word(st.caller))) if st.caller is not None else ""
            lines.append(
                _("Set {n} of {total}, {round}").format(
                    n=number(st.set_no + 1), total=number(v.scottish.sets), round=where
                )
                + caller
            )
        if v.dealer >= 0:
            lines.append(
                _("Dealer: {who}").format(who=self.seat_word(v.dealer))
                + (
                    " · " + _("declarer: {who}").format(who=self.seat_word(v.declarer))
                    if v.declarer != v.dealer
                    else ""
                )
            )
        c = self.info.contract(v.contract)
        if c is not None and self.info.rules.doubling != "none":
            lines.append(
                _("Doubles: {doubles}.").format(doubles=escape(self._doubles(v))) if v.doubles else _("Doubles: none")
            )
        if v.set_aside:
            lines.append(_("Set aside, face up: {cards}").format(cards=cards_markup(v.set_aside)))
        if v.phase == "declare" and v.declarer != me and v.declarer >= 0 and v.contracts_left[v.declarer]:
            names = ", ".join(
                self.info.contract_name(k) for k in self.info.contracts if k in v.contracts_left[v.declarer]
            )
            lines.append(
                "[dim]"
                + escape(
                    _("Still to declare by {who}: {contracts}").format(who=self.seat_word(v.declarer), contracts=names)
                )
                + "[/]"
            )
        return "\n".join(lines)

    def _scores(self, v: View) -> Table:
        """The running totals at the side, with the last deal's points."""
        t = Table(box=None, padding=(0, 1), expand=True, show_header=bool(v.results))
        t.add_column("", no_wrap=True)
        t.add_column(_("total"), justify="right", no_wrap=True)
        if v.results:
            t.add_column(_("last"), justify="right", no_wrap=True, style="dim")
        for seat in [v.seat, *self.around()]:
            row = [self.seat_cap(seat), points(v.totals[seat])]
            if v.results:
                row.append(signed(v.results[-1].added[seat]))
            t.add_row(*row, style="bold" if seat == v.seat else "")
        lines = self.shadow.score_lines(short=self.size.width < 110) if self.shadow is not None else []
        return Group(t, Text("\n".join(lines), style="dim")) if lines else t  # type: ignore[return-value]

    def _seat_facts(self, v: View, ended: DealResult | None) -> tuple[list[int], list[int]]:
        """Cards held and tricks taken by each seat (at the end of a deal: what the deal's tricks say)."""
        if ended is None:
            return list(v.hand_sizes), list(v.tricks_won)
        tricks = [0] * v.players
        c = self.info.contract(ended.contract)
        if c is not None and c.kind not in (DOMINO, CHINESE):
            trump = ended.trump if c.trump else None
            for leader, cards in ended.tricks:
                tricks[trick_winner(leader, cards, trump, v.players)] += 1
        return [0] * v.players, tricks

    def _draw_seats(self, v: View, ended: DealResult | None) -> None:
        s = self.session
        held, tricks = self._seat_facts(v, ended)
        c = self.info.contract(ended.contract if ended else v.contract)
        in_tricks = c is not None and c.kind not in (DOMINO, CHINESE)
        for seat_box in self.query(SeatBox):
            seat = int((seat_box.id or "seat-0")[5:])
            lines = (
                [f"[dim]{escape(fit_kind(s.player_kind(seat), seat_box.content_size.width))}[/]"]
                if self._tall()
                else []
            )
            facts = [ngettext("{n} card", "{n} cards", held[seat]).format(n=number(held[seat]))]
            if in_tricks:
                facts.append(tricks_text(tricks[seat]))
            lines += [" · ".join(facts)] if self.size.width >= 110 else facts  # a narrow box: one per line
            if ended is None:
                taken = taken_text(v, self.info, seat)
                if taken:
                    lines.append(taken)
            else:
                lines.append(_("this deal {points}").format(points=signed(ended.added[seat])))
            lines.append(_("total {points}").format(points=f"[b]{points(v.totals[seat])}[/b]"))
            if self.thinking == seat:
                lines.append("[i]" + _("thinking…") + "[/i]")
            to_play = ended is None and v.to_act == seat and not self.paused
            dealer = (ended.dealer if ended else v.dealer) == seat
            seat_box.show(self.seat_cap(seat), lines, to_play, dealer)

    def _draw_me(self, v: View, ended: DealResult | None) -> None:
        """Your own place, on the rule above your hand: cards, dealer, tricks, what you took, your total."""
        hand = self.query_one(HandView)
        held, tricks = self._seat_facts(v, ended)
        me = v.seat
        parts = [ngettext("Your hand ({n} card)", "Your hand ({n} cards)", held[me]).format(n=number(held[me]))]
        if (ended.dealer if ended else v.dealer) == me:
            # TRANSLATORS: your own place is the dealer's; D is the dealer's mark on the other seats' boxes.
            parts.append(_("D dealer"))
        c = self.info.contract(ended.contract if ended else v.contract)
        if c is not None and c.kind not in (DOMINO, CHINESE):
            parts.append(tricks_text(tricks[me]))
        taken = taken_text(v, self.info, me) if ended is None else ""
        if taken:
            parts.append(_("took {cards}").format(cards=taken))
        parts.append(_("total {points}").format(points=points(v.totals[me])))
        hand.border_title = ("▶ " if self.waiting_for_human else "") + " · ".join(parts)
        hand.set_class(self.waiting_for_human, "to-play")

    def _draw_table(self, v: View, ended: DealResult | None) -> None:
        """The middle of the table: the trick, the Domino rows, or what the table waits for."""
        w = self.query_one("#trick", Static)
        if ended is not None:
            w.update(self._ended_middle(v, ended))
            return
        c = self.info.contract(v.contract)
        me = v.seat
        if v.phase in ("draw", "deal", "over"):
            set_text(w, "\n[b]" + _("The match is over.") + "[/b]" if v.phase == "over" else "\n" + _("Dealing…"))
        elif v.phase == "declare":
            set_text(
                w,
                "\n"
                + (
                    _("You are choosing the contract:")
                    if v.declarer == me
                    else _("{who} is choosing the contract…").format(who=self.seat_cap(v.declarer))
                ),
            )
        elif v.phase in ("trump", "rank"):
            if v.phase == "trump":
                what = (
                    _("You name trumps:")
                    if v.declarer == me
                    else _("{who} names trumps…").format(who=self.seat_cap(v.declarer))
                )
            else:
                what = (
                    _("You name the starting rank of the rows:")
                    if v.declarer == me
                    else _("{who} names the starting rank of the rows…").format(who=self.seat_cap(v.declarer))
                )
            set_text(w, f"\n[b]{escape(contract_label(self.info, v))}[/b]\n{escape(what)}")
        elif v.phase == "doubling":
            who = self.seat_word(v.to_act) if v.to_act is not None else ""
            set_text(
                w,
                f"[b]{escape(contract_label(self.info, v))}[/b]\n"
                + escape(_("Doubling round: {who} to call.").format(who=who))
                + "\n[dim]"
                + escape(_("Doubles so far: {doubles}").format(doubles=doubles_short(v)))
                + "[/]",
            )
        elif v.phase == "pass-on" and v.scottish is not None:
            to = (v.seat + v.scottish.pass_offset) % v.players
            chosen = ", ".join(self.seat_word(x) for x in v.scottish.chosen) or _("nobody yet")
            set_text(
                w,
                f"[b]{escape(contract_label(self.info, v))}[/b]\n"
                + escape(_("Silly Round: everyone passes three cards on to {who}.").format(who=self.seat_word(to)))
                + "\n[dim]"
                + escape(_("Chosen so far: {who}").format(who=chosen))
                + "[/]",
            )
        elif c is not None and (c.kind == DOMINO or any(v.layout)):
            parts: list = [Text.from_markup(f"[b]{escape(contract_label(self.info, v))}[/b]\n"), self._layout(v)]
            if v.finished:
                parts.append(Text("\n" + _("Out: {who}").format(who=", ".join(self.seat_word(x) for x in v.finished))))
            w.update(Group(*(Align.center(x) for x in parts)))
        elif c is not None and c.kind == CHINESE:
            arranged = sum(1 for a in v.deal_actions if a is HIDDEN or isinstance(a, Arrange))
            set_text(
                w,
                _(
                    "Chinese poker: {n} of {players} players have laid out their rows face down; "
                    "all are shown together at the end."
                ).format(n=number(arranged), players=number(v.players)),
            )
        else:
            w.update(self._trick_grid(v))

    def _layout(self, v: View) -> Text:
        """The Domino (or Patience) rows, each rank in its own column, so that the rows read as a layout.

        Every row is padded to the same width (with no-break spaces) so that, centred, the columns stay aligned.
        """
        c = self.info.contract(v.contract)
        high_ace = self.info.rules.domino_ace == "high" or (c is not None and c.fixed_rank is not None)
        nb = "\u00a0"
        out = Text()
        for suit in range(4):
            red = suit in RED_SUITS
            row = Text(SUIT_SYMBOLS[suit] + nb, style="red" if red else "bold")
            span = v.layout[suit]
            if span is None:
                row.append(nb + _("not started"), style="dim")
            else:
                for pos in range(13):
                    rank = pos if high_ace else (12 if pos == 0 else pos - 1)
                    laid = span[0] <= pos <= span[1] and v.deck >> (suit * 13 + rank) & 1
                    cell = rank_label(rank).rjust(3, nb)
                    ink = INK["red"] if red else INK["black"]
                    row.append(cell if laid else nb * 3, style=f"{ink} on {FACE['']} bold" if laid else "")
            row.append(nb * (41 - len(row)))
            out.append(row)
            if suit < 3:
                out.append("\n")
        return out

    def _grid(self, cells: dict[int, str], caption: str, tall: bool) -> Table:
        """Cards (or marks) set in front of each seat: yours at the bottom, the others at their places.

        On a tall screen the rows spread over the height of the table, each card under its player's name.
        """
        s = self.session
        n = s.players
        spot = {s.seat: (2, 1)}
        for seat in range(n):
            if seat != s.seat:
                spot[seat] = SPOT.get(place(seat, s.seat, n) or "", (0, 1))
        grid: list[list[Any]] = [["", "", ""] for _row in range(3)]
        grid[1][1] = Text.from_markup(caption, justify="center")
        aligns = ("left", "center", "right")
        for seat, text in cells.items():
            r, col = spot[seat]
            if tall:
                label = f"[dim]{escape(self.seat_cap(seat))}[/]"
                text = f"{label}\n{text}" if r < 2 else f"{text}\n{label}"
            elif n > 4 and seat != s.seat:  # two cards on a side: say whose is whose
                where = place(seat, s.seat, n)
                short = "".join(w[0] for w in (place_name(where) if where else "?").split("-")).upper()
                text = f"[dim]{short}[/] {text}" if col < 2 else f"{text} [dim]{short}[/]"
            # Left-justified inside, the block aligned as a whole: a card's face keeps its shape.
            grid[r][col] = Align(Text.from_markup(text, justify="left"), align=aligns[col])  # type: ignore[arg-type]
        t = Table.grid(expand=True)
        for just in aligns:
            t.add_column(justify=just, ratio=1)  # type: ignore[arg-type]
        gap = max(0, min(4, (self.query_one("#center").size.height - 16) // 3)) if tall else 0
        for i, row in enumerate(grid):
            for _blank in range(gap if i else 0):
                t.add_row("", "", "")
            t.add_row(*row)
        return t

    def _tall(self) -> bool:
        return self.size.height >= 34

    def _trick_grid(self, v: View) -> Table:
        """The trick in the middle, each card in front of the player who played it."""
        me = v.seat
        c = self.info.contract(v.contract)
        trump = v.trump if c is not None and c.trump else None
        total = sum(v.hand_sizes) // v.players + len(v.tricks) + (1 if v.trick else 0)
        cells: dict[int, str] = {}
        face = card_face if self._tall() else card_chip
        if v.trick or not v.tricks:
            leader = v.leader
            for i in range(v.players):
                seat = (leader + i) % v.players
                if i < len(v.trick):
                    cells[seat] = face(v.trick[i])
                elif seat == v.to_act:
                    cells[seat] = SLOT if self._tall() else "[reverse] ? [/]"
                else:
                    cells[seat] = "[dim] · [/]"
            if v.trick:
                lead = _("You led") if leader == me else _("{who} led").format(who=self.seat_cap(leader))
            else:
                lead = _("You lead") if leader == me else _("{who} leads").format(who=self.seat_cap(leader))
            caption = (
                _("Trick {n} of {total}").format(n=number(len(v.tricks) + 1), total=number(total))
                + f"\n[dim]{escape(lead)}[/]"
            )
        else:
            leader, cards = v.tricks[-1]
            winner = trick_winner(leader, cards, trump, v.players)
            for i, card in enumerate(cards):
                seat = (leader + i) % v.players
                cells[seat] = face(card, "won" if seat == winner else "old")
            took = _("You take it") if winner == me else _("{who} takes it").format(who=self.seat_cap(winner))
            lead = _("You to lead") if winner == me else _("{who} to lead").format(who=self.seat_cap(winner))
            caption = (
                _("Trick {n} of {total}").format(n=number(len(v.tricks)), total=number(total))
                + f"\n[b]{escape(took)}[/b]\n[dim]{escape(lead)}[/]"
            )
        return self._grid(cells, caption, self._tall())

    def _ended_middle(self, v: View, r: DealResult) -> Any:
        """The finished deal stays on the table under its summary: its last trick, rows or finishing order."""
        c = self.info.contract(r.contract)
        head = (
            "[b]"
            + escape(_("Deal {n} over: {contract}").format(n=number(r.number), contract=result_label(self.info, r)))
            + "[/b]"
        )
        if r.arrangements:
            return (
                head
                + "\n"
                + "\n".join(f"{self.seat_cap(s)}: {arrangement_text(a)}" for s, a in enumerate(r.arrangements))
            )
        if c is not None and c.kind == DOMINO:
            order = ", ".join(self.seat_word(x) for x in r.finishing)
            return head + "\n" + _("Finishing order: {who}").format(who=order) if order else head
        if not r.tricks:
            return head + ("\n" + _("Not played: nobody doubled.") if not r.played else "")
        leader, cards = r.tricks[-1]
        winner = trick_winner(leader, cards, r.trump if c is not None and c.trump else None, v.players)
        face = card_face if self._tall() else card_chip
        cells = {
            (leader + i) % v.players: face(x, "won" if (leader + i) % v.players == winner else "old")
            for i, x in enumerate(cards)
        }
        took = (
            _("Last trick: you take it")
            if winner == v.seat
            else _("Last trick: {who} takes it").format(who=self.seat_cap(winner))
        )
        return self._grid(cells, f"{head}\n{escape(took)}", self._tall())

    def _draw_decision(self, v: View) -> None:
        hand = self.query_one(HandView)
        choices = self.query_one(ChoiceList)
        arrange = self.query_one(ArrangeChooser)
        box = self.query_one("#decision")
        s = self.session
        # Cards drawn tall when the screen is tall and the whole hand fits on one row (7 columns a card).
        hand.big = self._tall() and 7 * v.hand.bit_count() + 8 <= self.size.width - 2
        if not self.waiting_for_human:
            self.zone = None
            hand.show(v.hand)
            choices.display = False
            arrange.display = False
            self.query_one("#trick").display = True
            if self.thinking is not None:
                # TRANSLATORS: {who} is a computer player's one name: "West, good player".
                text = _("{who} is playing…").format(who=s.who(self.thinking))
            elif s.is_over:
                text = _("The match is over.")
            elif self.paused:
                text = _("The deal is over: Enter for the next deal.")
            else:
                text = "…"
            set_text(self.query_one("#prompt", Static), text)
            box.set_class(False, "active")
            return
        box.set_class(True, "active")
        legal = v.legal
        cards = [a for a in legal if is_card(a)] if len(legal) <= MAX_LISTED else []
        hand.show(v.hand, cards, active=bool(cards))
        if self.decision_at == s.moves:
            self._fit_middle()  # the screen may have changed size
            return  # same decision: keep the cursors where the person left them
        self.decision_at = s.moves
        text = prompt(v, self.info)
        notes = doubling_notes(v, self.info, legal) if v.phase == "doubling" else []
        if isinstance(legal, Arrangements):
            self.zone = "arrange"
            choices.display = False
            arrange.display = True
            arrange.load(legal.sensible())
        else:
            arrange.display = False
            listed = legal if len(legal) <= MAX_LISTED else [legal[i] for i in range(MAX_LISTED)]
            self.choices = [a for a in listed if not is_card(a)]
            choices.display = bool(self.choices)
            if self.choices:
                choices.set_choices([action_label(a, v, self.info) for a in self.choices])
                if len(legal) > MAX_LISTED:
                    notes.append(
                        _("{n} choices: the first {listed} are listed; type any other.").format(
                            n=number(len(legal)), listed=number(MAX_LISTED)
                        )
                    )
            self.zone = "hand" if cards else "list"
        self._fit_middle()
        set_text(self.query_one("#prompt", Static), "\n".join([f"[b]{escape(text)}[/b]"] + [escape(n) for n in notes]))

    def _fit_middle(self) -> None:
        """A short screen gives the middle of the table to a long list of choices (the doublings, the
        contracts): what the middle said is on the side of the table and in the decision's own words."""
        choices = self.query_one(ChoiceList)
        crowded = self.has_class("-short") and choices.display and len(self.choices) > self.CROWDED
        self.query_one("#trick").display = not crowded

    # ---------------------------------------------------------------- keys and clicks
    @on(CommandInput.Nav)
    def on_nav(self, event: CommandInput.Nav) -> None:
        if not self.waiting_for_human:
            return
        key = event.key
        hand = self.query_one(HandView)
        choices = self.query_one(ChoiceList)
        if self.zone == "arrange":
            arrange = self.query_one(ArrangeChooser)
            arrange.move({"up": -1, "down": 1}.get(key, 0), {"left": -1, "right": 1}.get(key, 0))
            return
        if key in ("left", "right"):
            if hand.active:
                self.zone = "hand"
                hand.move(-1 if key == "left" else 1)
        elif choices.display and self.choices:
            if self.zone == "list":
                if key == "up":
                    choices.action_cursor_up()
                else:
                    choices.action_cursor_down()
            self.zone = "list"
        elif hand.active:
            hand.jump_suit(-1 if key == "up" else 1)

    def busy_words(self) -> str:
        return _("The computer players are playing; your turn will come.")

    def activate_zone(self) -> None:
        if self.zone == "hand":
            card = self.query_one(HandView).current()
            if card is not None:
                self.submit(card)
        elif self.zone == "arrange":
            a = self.query_one(ArrangeChooser).press()
            if a is not None:
                self.submit(a)

    def action_card_clicked(self, card: int) -> None:
        if self.zone == "arrange":
            self.say(_("Arrange the rows below: click a card there, then one of another row to swap them."))
            return
        self.submit(card)

    def action_arrange_clicked(self, row: int, col: int) -> None:
        if self.zone == "arrange":
            self.query_one(ArrangeChooser).click(row, col)

    def action_arrange_confirm(self) -> None:
        if self.zone == "arrange":
            self.submit(self.query_one(ArrangeChooser).arrangement())

    # ---------------------------------------------------------------- commands
    def keys_help(self) -> str:
        """The keys listed in the help (a table that allows fewer, the daily deals', lists its own)."""
        return bindings.keys_help()

    def help_page(self) -> tuple[str, str, Any]:
        v = self.session.view()
        c = self.info.contract(v.contract)
        deals = ngettext("{n} deal", "{n} deals", self.info.total_deals).format(n=number(self.info.total_deals))
        wins = _("highest total wins.") if self.info.highest_wins else _("lowest total wins.")
        parts = [f"[b]{escape(v.rules)}[/b] — " + escape(_("{deals}; {wins}").format(deals=deals, wins=wins))]
        rules = self.info.rules
        if c is not None:
            parts.append(
                "\n[b]"
                + escape(_("This deal: {contract}").format(contract=contract_label(self.info, v)))
                + f"[/b]\n{escape(self.info.contract_help(c))}"
            )
            if c.heart_ban:
                parts.append(escape(_("Leading hearts: {rule}.").format(rule=option_word(rules.heart_lead))))
            if c.trump:
                parts.append(
                    escape(
                        _("Trump rules: {rule} — {meaning}").format(
                            rule=option_word(rules.trump_rules),
                            meaning=(
                                _(
                                    "when trumps are led you must head the trick; a void player must trump and overtrump."
                                )
                                if rules.trump_rules == "classic"
                                else _(
                                    "a void player must trump and overtrump when he can; no duty to head a trump lead."
                                )
                            ),
                        )
                    )
                )
            if c.kind == DOMINO:
                parts.append(escape(_("The ace is {rule} in the rows.").format(rule=option_word(rules.domino_ace))))
        if v.phase == "doubling":
            parts.append("\n" + "\n".join(escape(n) for n in doubling_notes(v, self.info, v.legal)))
        parts.append("\n" + self.keys_help() + "\n")
        return _("Help and rules"), "\n".join(parts), self.info.rules

    def think_hint(self, view: View) -> Any:
        return hint(view, hint_label, None, 60, 1.5, self.info.highest_wins)

    def hint_words(self, view: View, answer: Any) -> tuple[str, str | None]:
        """The strongest player's choice, and why: over which imagined deals, by how many points."""
        v = view
        choice = action_label(answer.action, v, self.info) if answer.action in v.legal else hint_label(answer.action)
        reason = hint_reason(
            answer,
            words(),
            len(v.legal) == 1,
            self.info.highest_wins,
            lambda a: action_label(a, v, self.info) if a in v.legal else hint_label(a),
        )
        return _("The strongest computer player would choose {choice}.").format(choice=choice), reason

    def take_back_moves(self) -> int:
        return self.session.take_back(skip_forced=not self.confirm_forced)

    def action_last_trick(self) -> None:
        v = self.session.view()
        c = self.info.contract(v.contract)
        if not v.tricks:
            body = _("No trick has been completed in this deal yet.")
        elif c is not None and (c.kind == DOMINO or any(v.layout)):
            body = (
                _("Cards laid so far, in order:")
                + "\n"
                + "\n".join(f"  {self.seat_word(seat)}: {card_markup(cards[0])}" for seat, cards in v.tricks[-12:])
            )
        else:
            trump = v.trump if c is not None and c.trump else None
            rows = []
            for i, (leader, cards) in enumerate(v.tricks, start=1):
                winner = trick_winner(leader, cards, trump, v.players)
                played = "  ".join(
                    f"{self.seat_word((leader + j) % v.players)} {card_markup(x)}" for j, x in enumerate(cards)
                )
                rows.append(f"  {i:>2}. {played}   → {self.seat_word(winner)}")
            body = (
                "[b]"
                + _("Last trick")
                + "[/b]\n"
                + rows[-1]
                + "\n\n[b]"
                + _("All tricks of this deal")
                + "[/b]\n"
                + "\n".join(rows)
            )
        self.app.push_screen(InfoDialog(_("Tricks"), body))

    def action_scoresheet(self) -> None:
        self.app.push_screen(InfoDialog(pgettext("title", "Scoresheet"), self._scoresheet(self.session.view())))

    def _scoresheet(self, v: View) -> Table:
        played = ngettext("{n} of {total} deal played", "{n} of {total} deals played", len(v.results)).format(
            n=number(len(v.results)), total=number(self.info.total_deals)
        )
        t = Table(title=f"{game_name(v.rules, words())} — {played}")
        t.add_column(_("deal"), justify="right")
        t.add_column(_("declarer"))
        t.add_column(_("contract"))
        t.add_column(_("doubles"))
        for s in range(v.players):
            t.add_column(self.seat_word(s), justify="right")
        running: list[Points] = [0] * v.players
        for r in v.results:
            added = r.added
            running = [a + b for a, b in zip(running, added)]
            t.add_row(
                number(r.number),
                self.seat_word(r.declarer),
                result_label(self.info, r)
                if r.played
                else _("{contract} (not played)").format(contract=result_label(self.info, r)),
                number(len(r.doubles)),
                *(f"{signed(x)} → {points(tot)}" for x, tot in zip(added, running)),
            )
        t.add_section()
        t.add_row("", "", _("total"), "", *(points(x) for x in v.totals))
        return t

    # ---------------------------------------------------------------- deal and match ends
    def _show_deal_over(self, results: list) -> None:
        self.paused = True
        self.ended = list(results)
        self.redraw()
        v = self.session.view()
        parts: list[str | Table] = []
        for r in results:
            parts.append(
                "[b]"
                + escape(_("Deal {n}: {contract}").format(n=number(r.number), contract=result_label(self.info, r)))
                + "[/b], "
                + escape(
                    _("declared by you")
                    if r.declarer == v.seat
                    else _("declared by {who}").format(who=self.seat_word(r.declarer))
                )
            )
            if not r.played:
                parts.append(_("Not played: nobody doubled a negative contract, so its points were shared."))
            if r.doubles:
                parts.append(_("Doubles settled pair by pair (the difference of the two scores, twice if redoubled):"))
                parts += [f"  {escape(line)}" for line in settlement_lines(v, r.base, r.doubles)]
            c = self.info.contract(r.contract)
            if r.arrangements:
                for s, a in enumerate(r.arrangements):
                    parts.append(f"  {self.seat_word(s)}: {arrangement_text(a)}")
            elif c is not None and c.kind == DOMINO and r.finishing:
                parts.append(_("Finishing order: {who}").format(who=", ".join(self.seat_word(x) for x in r.finishing)))
            elif r.tricks:
                leader, cards = r.tricks[-1]
                winner = trick_winner(leader, cards, r.trump if c is not None and c.trump else None, v.players)
                won = (
                    _("Last trick, won by you:")
                    if winner == v.seat
                    else _("Last trick, won by {who}:").format(who=self.seat_word(winner))
                )
                parts.append(
                    won
                    + " "
                    + ", ".join(
                        f"{card_markup(x)} ({self.seat_word((leader + i) % v.players)})" for i, x in enumerate(cards)
                    )
                )
            t = Table(box=None)
            t.add_column("")
            for s in range(v.players):
                t.add_column(self.seat_word(s), justify="right")
            t.add_row(_("contract points"), *(points(x) for x in r.base))
            if r.doubles:
                t.add_row(_("doubles"), *(signed_points(x - y) for x, y in zip(r.scores, r.base)))
                t.add_row(_("this deal"), *(points(x) for x in r.scores))
            if r.series:
                t.add_row(_("series points"), *(points(x) for x in r.series))
            t.add_row(_("running total"), *(points(x) for x in running_totals(v, r.number)))
            parts.append(t)
        saved = _("Saved to {path}.").format(path=self.session.save_path) if self.session.save_path else ""
        body = Group(
            *(Text.from_markup(p) if isinstance(p, str) else p for p in parts), Text("\n" + saved if saved else "")
        )

        def resume(_: Any = None) -> None:
            self.paused = False
            self.ended = []
            self.say("")  # a note of the deal just over ("you play 4♥: your only legal card") stays with it
            self.advance()

        deal = results[-1].number if results else 0
        names = {c.key: c.name for c in self.session.match.contracts}

        def review() -> None:
            self.app.push_screen(ReviewDialog(self.session.match, self.session.seat, deal, names))

        reviewable = bool(deal) and self.session.match.rules.family != "scottish"
        self.app.push_screen(DealOverDialog(_("Deal over"), body, review if reviewable else None), resume)

    def _show_match_over(self) -> None:
        self.paused = True
        self._save_quietly()
        v = self.session.view()
        standings = sorted(range(v.players), key=lambda s: (-v.totals[s] if self.info.highest_wins else v.totals[s], s))
        t = Table(title=_("Final standings — {rules}").format(rules=game_name(v.rules, words())))
        t.add_column(_("place"), justify="right")
        t.add_column(_("player"))
        t.add_column(_("total"), justify="right")
        for rank, s in enumerate(standings, start=1):
            t.add_row(number(rank), self.session.who(s), points(v.totals[s]))
        if self.shadow is not None:
            self.shadow.update()
            names = {c.key: c.name for c in self.session.match.contracts}

            def review(deal: int) -> None:
                self.app.push_screen(ReviewDialog(self.session.match, self.session.seat, deal, names))

            reviewable = self.session.match.rules.family != "scottish"
            results = self.session.match.results
            self.app.push_screen(
                ShadowMatchOverDialog(
                    _("Match over"),
                    t,
                    self.shadow,
                    lambda k: self.info.contract_name(results[k].contract),
                    review if reviewable else None,
                    self.match_puzzles(),
                ),
                lambda _result=None: self.app.exit(0),
            )
            return
        self.app.push_screen(
            MatchOverDialog(_("Match over"), t, self.match_puzzles()), lambda _result=None: self.app.exit(0)
        )

    def match_puzzles(self) -> Callable[[], None] | None:
        """ "Puzzles from this match" at its end: the application's (`BarbuApp.puzzles_from`), for a match of
        tricks (not the Scottish game's)."""
        offer = getattr(self.app, "puzzles_from", None)
        if offer is None or self.session.match.rules.family == "scottish":
            return None
        return lambda: offer(self.session.match, self.session.seat, self.session.save_path)
