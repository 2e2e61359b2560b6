"""The Bésigue table: the opponent at the top, the stock and the trick on the felt, your melds and hand below.

Everything drawn comes from ``session.view()`` (the person's view; its
``legal`` actions when it is the person's turn).  The computer player thinks
off the UI thread on its own view and acts no faster than the chosen delay;
chance events (the first dealer, the shuffles) are applied at once; the table
stops at the person's turns and after each deal.  A card is played with ← →
and Enter along the hand and the laid melds, by a click, or typed (``qs``,
``10d``, ``Q♠``, ``qs*`` for a laid card); the declare step is a list of the
legal declarations.  Any action can also be typed in the engine's text form
(``declare bezique QS JD``, ``pass``, ``exchange 7H``).
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.widgets import Footer, OptionList, Static

from ..besigue.actions import MELD_NAMES, Declare, Exchange, NoDeclaration, Play, Show
from ..besigue.cards import RANKS, SUIT_SYMBOLS, parse_type, suit_of, type_of
from ..besigue.view import BesigueView
from ..core.errors import ParseError
from ..guide.ruleset_words import game_name
from ..i18n import _, current, ngettext, number, pgettext, words
from ..i18n.typed import card_of
from ..play.besigue_session import BesigueSession
from ..play.labels import place_name
from ..play.shadow import ShadowWatch
from . import bindings
from .dialogs import DealOverDialog, InfoDialog, MatchOverDialog
from .shadow import ShadowMatchOverDialog
from .table_base import CardTableScreen
from .widgets import ChoiceList, CommandInput, SuitColouredLinks, set_text

Slot = tuple[int, bool]  # a card number, and whether it lies among the player's laid melds
COMMANDS = {
    "help": "help",
    "?": "help",
    "rules": "help",
    "last": "last_trick",
    "last trick": "last_trick",
    "scores": "scores",
    "save": "save",
    "quit": "quit",
    "exit": "quit",
    "hint": "hint",
    "undo": "take_back",
    "take back": "take_back",
}

FACE = "#f5f1e6"
RED = "#c0392b"


def face_text(card: int) -> str:
    """``Q♠``, ``10♦``: a card as printed on its face (``D♠`` in French and Italian)."""
    return words().face(RANKS[card % 8], suit_of(card))


def rank_text(card: int) -> str:
    return words().rank_letter(RANKS[card % 8].replace("T", "10"))


def meld_name(kind: str) -> str:
    """A combination as players of the current language call it: ``a marriage`` (``un mariage``)."""
    return pgettext("combination", MELD_NAMES[kind])


def you_or_computer(seat: int, me: int) -> str:
    return _("you") if seat == me else _("computer")


def card_face(card: int, style: str = "") -> str:
    """A card drawn as a small face-up card in its suit colour (hearts and diamonds red).

    ``style``: ``dim`` (may not be played now), ``cursor`` (the card under the cursor), or plain.
    """
    return f"[{card_look(card, style)}]{escape(face_text(card)).center(4)}[/]"


def card_look(card: int, style: str = "") -> str:
    """The Rich style of a card's face: its suit's ink on the card, dimmed or under the cursor."""
    ink = RED if suit_of(card) in (1, 2) else "black"
    if style == "cursor":
        return f"bold {ink} on #ffd75f"
    if style == "dim":
        return f"{'#d89a92' if ink == RED else '#8a8a8a'} on #d4d0c4"
    return f"bold {ink} on {FACE}"


def tall_card(card: int, style: str = "") -> list[str]:
    """A card three lines tall: the rank in two corners, the suit in the middle."""
    look = card_look(card, style)
    rank = rank_text(card)
    suit = SUIT_SYMBOLS[suit_of(card)]
    return [f"[{look}]{rank:<5}[/]", f"[{look}]{suit:^5}[/]", f"[{look}]{rank:>5}[/]"]


def card_back_tall() -> list[str]:
    return ["[#9fb7d9 on #1d3f73]▚▞▚▞▚[/]"] * 3


def blank_card(tall: bool, mark: str = "") -> list[str]:
    """Where a card is still to come (``?``: this player is to play it) or none lies."""
    style = "reverse" if mark else "dim"
    if not tall:
        return [f"[{style}] {mark or '··':^2} [/]"]
    return [f"[{style}]{'':5}[/]", f"[{style}]{mark or '·':^5}[/]", f"[{style}]{'':5}[/]"]


def card_back(n: int) -> str:
    """``n`` cards face down."""
    return " ".join("[#9fb7d9 on #1d3f73]▚▞[/]" for _i in range(n))


def in_hand_order(cards: Any, trump: int) -> list[int]:
    """Cards by suit, trumps last, high to low within a suit: the order a hand is held in."""
    return sorted(cards, key=lambda c: (suit_of(c) == trump, suit_of(c), -(c % 8), c))


def declaration_points(a: Any) -> int:
    """What a declare-step choice scores: a combination's value, 10 for the 7 of trumps, nothing for no declaration."""
    return a.value if isinstance(a, Declare) else 10 if isinstance(a, (Exchange, Show)) else 0


def by_value(choices: Any) -> list[Any]:
    """The declare step's choices, most valuable first and "Declare nothing" last, so Enter takes the points."""
    return sorted(choices, key=lambda a: -declaration_points(a))


def action_label(a: Any, v: BesigueView) -> str:
    """A declare-step choice in words, with its points."""
    if isinstance(a, NoDeclaration):
        return _("Declare nothing")
    if isinstance(a, Declare):
        cards = " ".join(face_text(t) + ("*" if laid else "") for t, laid in a.cards)
        return _("Declare {combination}: {cards} — {points}").format(
            combination=meld_name(a.kind), cards=cards, points=number(a.value)
        )
    if isinstance(a, Exchange):
        if v.turn_up is None:
            return _("Exchange your {card} for the turn-up — 10").format(card=face_text(a.card))
        return _("Exchange your {card} for the turn-up {up} — 10").format(
            card=face_text(a.card), up=face_text(v.turn_up)
        )
    if isinstance(a, Show):
        return _("Show your {card} (the 7 of trumps) — 10").format(card=face_text(a.card))
    if isinstance(a, Play):
        return (_("Play {card} from your melds") if a.from_table else _("Play {card}")).format(card=face_text(a.card))
    return str(a)


def move_words(a: Any, you: bool) -> str:
    """A move as the log tells it: yours (``you``) or the computer's."""
    if isinstance(a, Play):
        card = face_text(a.card)
        if a.from_table:
            return (_("you played {card} (laid)") if you else _("computer played {card} (laid)")).format(card=card)
        return (_("you played {card}") if you else _("computer played {card}")).format(card=card)
    if isinstance(a, Declare):
        return (
            _("you declared {combination} ({points})") if you else _("computer declared {combination} ({points})")
        ).format(combination=meld_name(a.kind), points=number(a.value))
    if isinstance(a, Exchange):
        return (_("you exchanged {card} (10)") if you else _("computer exchanged {card} (10)")).format(
            card=face_text(a.card)
        )
    if isinstance(a, Show):
        return (_("you showed {card} (10)") if you else _("computer showed {card} (10)")).format(card=face_text(a.card))
    return _("you declared nothing") if you else _("computer declared nothing")


class CardRow(SuitColouredLinks, Static):
    """A row of face-up cards; those the person may click carry the screen's ``slot_clicked`` action."""

    def show(self, markup: str) -> None:
        set_text(self, markup)


class BesigueTableScreen(CardTableScreen):
    """The table of one Bésigue game: the person against one computer player (the loop: `CardTableScreen`)."""

    TYPED_COMMANDS = COMMANDS
    ACTIONS = {"scoresheet": "scores"}

    BINDINGS = bindings.BESIGUE_TABLE
    DEFAULT_CSS = """
    BesigueTableScreen { layout: vertical; }
    #b-title { height: 1; background: $primary-background; padding: 0 1; }
    #b-main { height: 1fr; }
    #b-left { width: 1fr; }
    #b-side { width: 25%; min-width: 28; max-width: 40; }
    #b-mine, #b-hand { link-style: none; }
    #b-opp, #b-felt, #b-mine, #b-hand, #b-scores, #b-log, #b-decision {
        border: none; border-top: solid $secondary; border-title-color: $text; padding: 0 1; height: auto;
    }
    #b-felt { background: #0e5a32; color: #f0f0e0; border-top: solid #2f8f5b; height: 1fr; min-height: 4;
              content-align: center middle; padding: 0 2; }
    #b-hand { border-top: solid $primary; }
    #b-log { color: $text-muted; height: 1fr; }
    #b-decision { height: auto; }
    #b-decision.active { border-top: solid $success; }
    #b-prompt { height: auto; }
    #b-choices { height: auto; max-height: 8; border: none; padding: 0; }
    #b-bottom { dock: bottom; height: auto; margin-bottom: 1; }
    #b-message { height: auto; padding: 0 1; color: $success; }
    #b-message.error { color: $error; text-style: bold; }
    #b-bottom #command { border: none; height: 1; padding: 0 1; background: $boost; }
    """

    MESSAGE = "#b-message"
    RECENT = 6
    session: BesigueSession

    def __init__(self, session: BesigueSession, delay: float = 0.6, confirm_forced: bool = False) -> None:
        super().__init__(session, delay, confirm_forced)  # self.zone: "cards" or "list"
        bindings.translate(self)
        self.slots: list[Slot] = []  # hand then laid cards, in the order the cursor moves along them
        self.cursor = 0
        self.note = ""
        # the expert's replays of your deals, in a process of their own (None: the comparison is off)
        self.shadow = ShadowWatch.of_besigue(session) if getattr(session, "compare", None) else None

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="b-title")
        with Horizontal(id="b-main"):
            with Vertical(id="b-left"):
                yield Static(id="b-opp")
                yield Static(id="b-felt")
                yield CardRow(id="b-mine")
                yield CardRow(id="b-hand")
                with Vertical(id="b-decision"):
                    yield Static(id="b-prompt")
                    yield ChoiceList(id="b-choices")
            with Vertical(id="b-side"):
                yield Static(id="b-scores")
                yield Static(id="b-log")
        with Vertical(id="b-bottom"):
            yield Static(id="b-message")
            yield CommandInput(placeholder=_("type a card (qs, 10d, qs* from your melds), pass, or help"), id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#b-felt").border_title = _("Table")
        self.query_one("#b-scores").border_title = _("Scores to {target}").format(
            target=number(self.session.rules.target)
        )
        self.query_one("#b-log").border_title = _("Moves")
        self.query_one(CommandInput).focus()
        self.watch_shadow()
        self.advance()

    def redraw_scores(self) -> None:
        self._draw_scores(self.session.view())

    @property
    def tall(self) -> bool:
        """Room for cards three lines tall in your hand (the felt decides for itself by its own height)."""
        return self.app.size.height >= 34

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    # ---------------------------------------------------------------- the game loop (CardTableScreen's hooks)
    def play_chance(self) -> None:
        s = self.session
        s.play_chance()
        if s.game.phase == "play" and not s.game.played:
            self.recent.append(
                _("deal {n}: trumps {suit}").format(n=number(s.game.deal_no), suit=words().named_suit(s.game.trump))
            )

    def forced_action(self) -> Any | None:
        legal = self.session.view().legal
        return legal[0] if len(legal) == 1 else None

    def play_forced(self, action: Any) -> None:
        """A forced choice is made for the person, with a note."""
        if isinstance(action, NoDeclaration):
            self.note = _("You won the trick; nothing to declare.")
        else:
            self.note = _("Your only possible card, {card}, was played for you.").format(card=face_text(action.card))
        before = self.before_move()
        self.session.apply_human(action)
        self.after_move(self.session.seat, action, before)

    def before_move(self) -> BesigueView:
        return self.session.view()

    def after_move(self, seat: int, action: Any, before: Any, chosen: bool = False) -> None:
        if chosen:
            self.note = ""
        self.recent.append(move_words(action, seat == self.session.seat))
        self._log_draws(before)

    def read_choice(self, choice: Any) -> Any:
        return self._typed(choice) if isinstance(choice, str) else choice

    def not_your_turn(self) -> str:
        return _("The game is over.") if self.session.is_over else _("Wait: it is the computer's turn, not yours.")

    def computer_failed(self, seat: int, error: str) -> str:
        return _("The computer player failed ({error}); it played a random legal move").format(error=error)

    def _log_draws(self, before: BesigueView) -> None:
        """After the draws from the stock: the card you drew, and a 7 of trumps the computer showed."""
        v = self.session.view()
        if v.deal_no != before.deal_no or v.stock_size >= before.stock_size:
            return
        drawn = sorted(set(v.hand) - set(before.hand) - {c for c, _meld in before.table[v.seat]})
        for c in drawn:
            self.recent.append(
                (_("you drew {card} (the turn-up)") if c == before.turn_up else _("you drew {card}")).format(
                    card=face_text(c)
                )
            )
        for c in sorted(set(v.shown) - set(before.shown) - set(v.hand)):
            self.recent.append(_("computer drew and showed {card} (10)").format(card=face_text(c)))

    @staticmethod
    def _typed(text: str) -> str:
        """A card typed alone (``qs``, ``10d``, ``Q♠``, ``qs*``; ``dp`` in French) means playing it; anything
        else is an action."""
        word = text.strip()
        try:
            parse_type(word.removesuffix("*"))
        except ParseError:
            card = card_of(word, current()) if len(word.split()) <= 3 else None
            return f"play {card}" if card else text
        return f"play {word}"

    # ---------------------------------------------------------------- drawing
    def redraw(self) -> None:
        v = self.session.view()
        self._draw_title(v)
        self._draw_opponent(v)
        self._draw_felt(v)
        self._draw_scores(v)
        self._draw_decision(v)
        self._draw_cards(v)
        set_text(self.query_one("#b-log", Static), "\n".join(escape(x) for x in list(self.recent)[::-1]))

    def _draw_title(self, v: BesigueView) -> None:
        s = self.session
        trumps = (" · " + _("trumps {suit}").format(suit=SUIT_SYMBOLS[v.trump])) if v.deal_no else ""
        turn = (
            _("match over")
            if s.is_over
            else _("your turn")
            if self.waiting_for_human
            else _("computer to play")
            if self.thinking is not None
            else ""
        )
        deal = _("deal {n}").format(n=number(max(v.deal_no, 1)))
        seat = _("you are {place}").format(place=place_name("South"))
        set_text(
            self.query_one("#b-title", Static),
            f"[b]{escape(game_name(v.rules, words()))}[/b] · {deal}{trumps} · {seat}"
            + (f" · [b reverse] {escape(turn)} [/]" if turn else ""),
        )

    def _draw_opponent(self, v: BesigueView) -> None:
        s = self.session
        opp = s.opponent
        laid = v.table[opp]
        w = self.query_one("#b-opp", Static)
        marks = ((" · ▶ " + _("to play")) if v.to_act == opp else "") + (
            (" · " + _("dealer")) if v.dealer == opp else ""
        )
        held = v.opponent_hand_size + len(laid)
        w.border_title = (
            _("Opponent: {who}").format(who=s.who(opp))
            + " · "
            + ngettext("{n} card", "{n} cards", held).format(n=number(held))
            + marks
        )
        known = in_hand_order(set(v.opponent_known), v.trump)
        hidden = v.opponent_hand_size - len(known)
        tall = self.tall
        faces = [tall_card(c) if tall else [card_face(c)] for c in known]
        backs = [card_back_tall()[:1] * 3 if tall else [card_back(1)]] * hidden
        if hidden and tall:
            backs = [["[#9fb7d9 on #1d3f73]▚▞▚[/]"] * 3] * hidden
        rows: list[tuple[str, ...]] = list(zip(*(backs + faces))) if backs or faces else [("",)]
        shown_word = _("shown")
        lines = [
            " ".join(parts) + (f" [dim]{shown_word}[/]" if known and i == 0 else "") for i, parts in enumerate(rows)
        ]
        if laid:
            cards = [tall_card(c) if tall else [card_face(c)] for c, _meld in self._laid_order(laid, v.trump)]
            laid_word = _("laid:")
            lines += [
                (f"[dim]{laid_word}[/] " if i == 0 else " " * (len(laid_word) + 1)) + " ".join(parts)
                for i, parts in enumerate(zip(*cards))
            ]
        if v.melds[opp]:
            lines.append(
                "[dim]"
                + escape(
                    _("declared: {combinations}").format(
                        combinations=", ".join(f"{meld_name(k)} {number(p)}" for k, _cards, p in v.melds[opp])
                    )
                )
                + "[/]"
            )
        set_text(w, "\n".join(lines))

    @staticmethod
    def _laid_order(laid: Any, trump: int) -> list[tuple[int, Any]]:
        order = {c: i for i, c in enumerate(in_hand_order([c for c, _meld in laid], trump))}
        return sorted(laid, key=lambda cm: order[cm[0]])

    def _draw_felt(self, v: BesigueView) -> None:
        """The stock with the turn-up, the trick (or the last one, with who won it), and what happens now.

        Cards are drawn tall (three lines) when the felt has the room, as on a real table.
        """
        s = self.session
        me, opp = s.seat, s.opponent
        felt = self.query_one("#b-felt", Static)
        tall = felt.size.height >= 5
        height = 3 if tall else 1

        def cards(*parts: list[str]) -> list[str]:
            return ["  ".join(p[i] for p in parts) for i in range(height)]

        def one(card: int | None, empty: str = "") -> list[str]:
            if card is None:
                return blank_card(tall, empty)
            return tall_card(card) if tall else [card_face(card)]

        trumps = _("trumps")
        you = _("you")
        if v.stock_size:
            back = card_back_tall() if tall else [card_back(1)]
            stock = (
                ["[b]" + escape(_("Stock {n}").format(n=number(v.stock_size))) + "[/]"]
                + cards(back, one(v.turn_up))
                + [f"[dim]{trumps}[/] {SUIT_SYMBOLS[v.trump]}"]
            )
        elif v.deal_no:
            duty = _("head the trick") if v.rules.endgame == "must_win" else _("follow suit")
            stock = [
                "[b]" + _("Stock empty") + "[/]",
                "[dim]" + _("the last tricks:") + "[/]",
                f"[dim]{duty}[/]",
                f"[dim]{trumps}[/] {SUIT_SYMBOLS[v.trump]}",
            ]
        else:
            stock = []
        played: dict[int, int] = {seat: c for seat, c in v.trick}
        title = _("Trick")
        if v.trick:
            title = _("Trick {n}").format(n=number(v.tricks + 1))
        elif v.played and len(v.played) % 2 == 0 and v.tricks:
            (s0, c0), (s1, c1) = v.played[-2:]
            played = {s0: c0, s1: c1}
            title = _("Trick {n} → {who}").format(n=number(v.tricks), who=you_or_computer(v.last_winner, me))
        turn = v.phase == "play"
        gap = " " * (4 if tall else 5)
        pair = [
            a + gap + b
            for a, b in zip(
                one(played.get(opp), "?" if turn and v.to_act == opp else ""),
                one(played.get(me), "?" if turn and v.to_act == me else ""),
            )
        ]
        them = _("computer")
        trick = (
            [f"[b]{escape(title)}[/]"]
            + pair
            + [f"{escape(them):<{max(len(them) + 1, len(gap) + (5 if tall else 4))}}{escape(you)}"]
        )
        info: list[str] = []
        if v.phase in ("declare", "last-declaration"):
            won = _("You won") if v.to_act == me else _("The computer won")
            info = [f"[b]{won}[/]", _("may declare (last)") if v.phase == "last-declaration" else _("may declare")]
        elif v.deal_no and v.phase == "play":
            info = ["[b]" + _("Your turn") + "[/]" if v.to_act == me else _("Computer to play")]
        grid = Table.grid(padding=(0, 3))
        grid.add_column(min_width=14)
        grid.add_column(min_width=16)
        grid.add_column()
        for row in zip_longest(stock, trick, info, fillvalue=""):
            grid.add_row(*(Text.from_markup(x) for x in row))
        felt.update(grid)

    def _draw_scores(self, v: BesigueView) -> None:
        s = self.session
        t = Table(box=None, padding=(0, 1), expand=True, pad_edge=False)
        names = [you_or_computer(seat, s.seat) for seat in (0, 1)]
        t.add_column("", no_wrap=True, min_width=max(len(n) for n in names) + 1)
        t.add_column(_("deal"), justify="right")
        t.add_column(_("total"), justify="right")
        won = [len(w) // 2 for w in v.won]
        for seat in (s.seat, s.opponent):
            name = you_or_computer(seat, s.seat)
            mark = "▶" if v.to_act == seat else " "
            t.add_row(f"{mark}{name}", number(v.scores[seat]), f"[b]{number(v.totals[seat])}[/]")
        lines: list[Any] = [t]
        if v.deal_no:
            lines.append(
                Text(
                    _("tricks: you {mine}, computer {theirs}").format(
                        mine=number(won[s.seat]), theirs=number(won[s.opponent])
                    )
                    + "\n"
                    + _("dealer: {who}").format(who=you_or_computer(v.dealer, s.seat)),
                    style="dim",
                )
            )
        if self.shadow is not None and self.shadow.score_lines():
            lines.append(Text("\n".join(self.shadow.score_lines()), style="dim"))
        self.query_one("#b-scores", Static).update(Group(*lines))

    def _draw_cards(self, v: BesigueView) -> None:
        """Your laid melds and your hand, the cursor and the playable cards marked when you are to play."""
        me = self.session.seat
        hand = [(c, False) for c in in_hand_order(v.hand, v.trump)]
        laid = [(c, True) for c, _meld in self._laid_order(v.table[me], v.trump)]
        old = self.slots[self.cursor] if 0 <= self.cursor < len(self.slots) else None
        self.slots = hand + laid
        playing = self.zone == "cards"
        legal = {(a.card, a.from_table) for a in v.legal if isinstance(a, Play)} if playing else set()
        if old in self.slots and (not legal or (type_of(old[0]), old[1]) in legal):
            self.cursor = self.slots.index(old)
        else:
            first = [i for i, (c, t) in enumerate(self.slots) if (type_of(c), t) in legal]
            self.cursor = first[0] if first else 0

        tall = self.tall

        shown = self._declaration_cards()

        def lines(i: int, slot: Slot) -> list[str]:
            c, laid_card = slot
            style = ""
            if (type_of(c), laid_card) in shown:
                style = "cursor"  # the cards of the declaration highlighted in the list
            elif playing:
                style = "cursor" if i == self.cursor else ("" if (type_of(c), laid_card) in legal else "dim")
            faces = tall_card(c, style) if tall else [card_face(c, style)]
            return [f"[@click=screen.slot_clicked({i})]{x}[/]" for x in faces]

        def row(start: int, slots: list[Slot]) -> str:
            out: list[list[str]] = []
            prev = None
            for i, slot in enumerate(slots, start=start):
                if prev is not None and suit_of(slot[0]) != prev:
                    out.append([" "] * len(out[-1]))
                out.append(lines(i, slot))
                prev = suit_of(slot[0])
            return "\n".join(" ".join(parts) for parts in zip(*out)) if out else ""

        mine = self.query_one("#b-mine", CardRow)
        mine.border_title = _("Your melds ({n} laid)").format(n=number(len(laid)))
        declared = ", ".join(f"{meld_name(k)} {number(p)}" for k, _cards, p in v.melds[me])
        if declared:
            declared = (
                ("\n" if tall and laid else "  ")
                + "[dim]· "
                + escape(_("declared: {combinations}").format(combinations=declared))
                + "[/]"
            )
        mine.show((row(len(hand), laid) if laid else "[dim]" + _("none laid") + "[/]") + declared)
        hand_w = self.query_one("#b-hand", CardRow)
        hand_w.border_title = ngettext("Your hand ({n} card)", "Your hand ({n} cards)", len(hand)).format(
            n=number(len(hand))
        )
        hand_w.show(row(0, hand) or "[dim]" + _("no cards") + "[/]")

    def _declaration_cards(self) -> set[Slot]:
        """The cards (type, laid) of the declaration under the list's cursor, to light them up in your hand."""
        if self.zone != "list":
            return set()
        index = self.query_one(ChoiceList).highlighted
        a = self.choices[index] if index is not None and index < len(self.choices) else None
        if isinstance(a, Declare):
            return set(a.cards)
        if isinstance(a, (Exchange, Show)):
            return {(a.card, False)}
        return set()

    @on(OptionList.OptionHighlighted, "#b-choices")
    def on_choice_highlighted(self) -> None:
        if self.zone == "list":
            self._draw_cards(self.session.view())

    def _draw_decision(self, v: BesigueView) -> None:
        choices = self.query_one(ChoiceList)
        box = self.query_one("#b-decision")
        prompt = self.query_one("#b-prompt", Static)
        s = self.session
        if not self.waiting_for_human:
            self.zone = None
            choices.display = False
            box.set_class(False, "active")
            set_text(
                prompt,
                _("The computer is playing…")
                if self.thinking is not None
                else _("The game is over.")
                if s.is_over
                else "…",
            )
            return
        box.set_class(True, "active")
        if self.decision_at == s.moves:
            return  # the same decision: keep the cursors where the person left them
        self.decision_at = s.moves
        if v.phase == "play":
            self.zone = "cards"
            self.choices = []
            choices.display = False
            if v.trick:
                card = face_text(v.trick[0][1])
                if v.stock_size:
                    text = _("Your turn: answer the computer's {card}.")
                elif v.rules.endgame == "must_win":
                    text = _("Your turn: answer the computer's {card} — you must head the trick if you can.")
                else:
                    text = _("Your turn: answer the computer's {card} — follow suit, else trump.")
                text = "[b]" + escape(text.format(card=card)) + "[/b]"
            else:
                text = (
                    "[b]"
                    + (
                        _("Your lead: play a card from your hand or your melds")
                        if v.table[s.seat]
                        else _("Your lead: play a card")
                    )
                    + "[/b]"
                )
            note = f"[i]{escape(self.note)}[/]\n" if self.note else ""
            set_text(prompt, note + text + "  [dim]" + escape(_("← → Enter, click, or type it (qs, 10d)")) + "[/]")
            return
        self.zone = "list"
        self.choices = by_value(v.legal)
        choices.display = True
        choices.set_choices([escape(action_label(a, v)) for a in self.choices], highlight=0)
        last = " " + _("This is the last declaration before the final tricks.") if v.phase == "last-declaration" else ""
        set_text(
            prompt, "[b]" + _("You won: declare one combination, or nothing.") + f"[/b]{escape(last)} [dim]↑ ↓ Enter[/]"
        )

    # ---------------------------------------------------------------- keys and clicks
    @on(CommandInput.Nav)
    def on_nav(self, event: CommandInput.Nav) -> None:
        if not self.waiting_for_human:
            return
        if self.zone == "cards" and event.key in ("left", "right") and self.slots:
            self.cursor = (self.cursor + (1 if event.key == "right" else -1)) % len(self.slots)
            self._draw_cards(self.session.view())
        elif self.zone == "list":
            choices = self.query_one(ChoiceList)
            if event.key in ("up", "left"):
                choices.action_cursor_up()
            else:
                choices.action_cursor_down()

    def busy_words(self) -> str:
        return _("The computer is playing; your turn will come.")

    def activate_zone(self) -> None:
        """Enter on the hand or the melds: play the card under the cursor."""
        if self.zone == "cards" and self.slots:
            c, laid = self.slots[self.cursor]
            self.submit(Play(type_of(c), laid))

    def action_slot_clicked(self, index: int) -> None:
        if 0 <= index < len(self.slots):
            c, laid = self.slots[index]
            self.submit(Play(type_of(c), laid))

    # ---------------------------------------------------------------- commands
    def help_page(self) -> tuple[str, str, Any]:
        return _("Help and the rules of Bésigue"), bindings.besigue_keys_help() + "\n", self.session.rules

    def think_hint(self, view: BesigueView) -> Any:
        return self.session.hint()

    def hint_words(self, view: BesigueView, answer: Any) -> tuple[str, str | None]:
        if isinstance(answer, Play):
            return _("The strongest computer player would play {card}.").format(card=face_text(answer.card)), None
        return _("The strongest computer player would choose: {choice}.").format(
            choice=action_label(answer, view)
        ), None

    def taken_back(self, undone: int) -> None:
        """The note and the decision's widgets are forgotten; the log says what was taken back."""
        self.note = ""
        self.decision_at = -1
        self.recent.append(
            ngettext("you took back {n} move", "you took back {n} moves", undone).format(n=number(undone))
        )

    def action_last_trick(self) -> None:
        v = self.session.view()
        me = self.session.seat
        pairs = [v.played[i : i + 2] for i in range(0, len(v.played) - len(v.played) % 2, 2)]
        if not pairs:
            body = _("No trick has been completed in this deal yet.")
        else:
            from ..besigue.game import beats

            rows = []
            for i, ((s0, c0), (s1, c1)) in enumerate(pairs, start=1):
                winner = s1 if beats(c1, c0, v.trump) else s0
                name = {me: _("you"), 1 - me: _("computer")}
                width = max(8, *(len(x) for x in name.values()))
                rows.append(
                    f"  {i:>2}. {name[s0]:>{width}} {card_face(c0)}  {name[s1]:>{width}} {card_face(c1)}"
                    f"   → {name[winner]}"
                )
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

    def action_scores(self) -> None:
        self.app.push_screen(InfoDialog(_("Scores"), self._deals_table(self.session.game.results)))

    def _deals_table(self, results: list[dict[str, Any]]) -> Table:
        me, opp = self.session.seat, self.session.opponent
        t = Table(
            title=_("{rules} — to {target}").format(
                rules=game_name(self.session.rules, words()), target=number(self.session.rules.target)
            )
        )
        t.add_column(_("deal"), justify="right")
        t.add_column(_("you"), justify="right")
        t.add_column(_("computer"), justify="right")
        t.add_column(_("totals"), justify="right")
        for r in results:
            t.add_row(
                number(r["deal"]),
                number(r["scores"][me]),
                number(r["scores"][opp]),
                f"{number(r['totals'][me])} – {number(r['totals'][opp])}",
            )
        return t

    # ---------------------------------------------------------------- deal and match ends
    def deal_summary(self, r: dict[str, Any]) -> Table:
        """One deal's points: combinations, the 7 of trumps, brisques, the last trick, the deal and the totals."""
        me, opp = self.session.seat, self.session.opponent
        t = Table(title=_("Deal {n}").format(n=number(r["deal"])), expand=False)
        t.add_column("")
        t.add_column(_("you"), justify="right")
        t.add_column(_("computer"), justify="right")
        melds = [sum(p for _kind, p in r["melds"][s]) for s in (0, 1)]
        last = [10 if r["last_trick"] == s else 0 for s in (0, 1)]
        sevens = [r["scores"][s] - melds[s] - r["brisques"][s] - last[s] for s in (0, 1)]
        names = [", ".join(f"{meld_name(k)} {number(p)}" for k, p in r["melds"][s]) or _("none") for s in (0, 1)]
        t.add_row(_("combinations"), number(melds[me]), number(melds[opp]))
        t.add_row("", Text(names[me], style="dim"), Text(names[opp], style="dim"))
        if any(sevens):
            t.add_row(_("7 of trumps"), number(sevens[me]), number(sevens[opp]))
        t.add_row(pgettext("besigue", "brisques"), number(r["brisques"][me]), number(r["brisques"][opp]))
        t.add_row(_("last trick"), number(last[me]), number(last[opp]))
        t.add_section()
        t.add_row(
            Text(_("this deal"), style="bold"),
            f"[b]{number(r['scores'][me])}[/b]",
            f"[b]{number(r['scores'][opp])}[/b]",
        )
        t.add_row(
            Text(_("total"), style="bold"), f"[b]{number(r['totals'][me])}[/b]", f"[b]{number(r['totals'][opp])}[/b]"
        )
        return t

    def _show_deal_over(self, results: list[dict[str, Any]]) -> None:
        self.paused = True
        me = self.session.seat
        parts: list[Any] = []
        for r in results:
            mine, theirs = r["scores"][me], r["scores"][1 - me]
            parts.append(
                Text.from_markup(
                    "[b]"
                    + escape(
                        _("You scored {mine}, the computer {theirs}.").format(mine=number(mine), theirs=number(theirs))
                    )
                    + "[/b] "
                    + escape(
                        _("Totals: you {mine}, the computer {theirs}.").format(
                            mine=number(r["totals"][me]), theirs=number(r["totals"][1 - me])
                        )
                    )
                )
            )
            parts.append(self.deal_summary(r))
        target = self.session.rules.target
        if not self.session.is_over:
            parts.append(Text(_("The game goes on to {target}.").format(target=number(target)), style="dim"))
        if self.session.save_path:
            parts.append(Text(_("Saved to {path}.").format(path=self.session.save_path)))

        def resume(_: Any = None) -> None:
            self.paused = False
            self.advance()

        self.app.push_screen(DealOverDialog(_("Deal over"), Group(*parts)), resume)

    def _show_match_over(self) -> None:
        self.paused = True
        self._save_quietly()
        g = self.session.game
        me = self.session.seat
        won = g.winner == me
        head = Text.from_markup(
            "[b]"
            + (_("You win") if won else _("The computer wins"))
            + "[/b], "
            + escape(
                ngettext(
                    "{mine} to {theirs}, after {n} deal.", "{mine} to {theirs}, after {n} deals.", len(g.results)
                ).format(mine=number(g.totals[me]), theirs=number(g.totals[1 - me]), n=number(len(g.results)))
            )
            + "\n"
        )
        body = Group(head, self._deals_table(g.results))
        if self.shadow is not None:
            self.shadow.update()
            self.app.push_screen(
                ShadowMatchOverDialog(_("Game over"), body, self.shadow, lambda _k: "Bésigue", None),
                lambda _result=None: self.app.exit(0),
            )
            return
        self.app.push_screen(MatchOverDialog(_("Game over"), body), lambda _result=None: self.app.exit(0))
