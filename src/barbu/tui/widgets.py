"""The table's widgets: the hand, the choice list, the Chinese poker rows and the command line.

None of them knows the match: the table screen gives them what the person's
view holds, and they tell it what was chosen.  Cards carry ``@click`` actions
so that a click on a card is the same choice as Enter on it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Iterable

from rich.style import Style as RichStyle
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..classic.chinese import Arrange, fouled
from ..guide.ruleset_words import game_name
from ..i18n import _, current, ngettext, number, words
from ..i18n.formats import format_medium_date, format_short_time
from ..play.labels import row_category, row_name, sorted_cards
from ..records.savefiles import SavedMatch
from .labels import card_chip, card_face, card_markup


def set_text(widget: Static, content: str) -> None:
    """Give a widget this text unless it shows it already: Textual parses the markup and lays the screen out
    again at every update, and a table's redraw after each move gives most of its widgets what they held (in a
    match played by Enter, 1916 of 4863 updates)."""
    if not (isinstance(widget.content, str) and widget.content == content):
        widget.update(content)


def by_rank(mask: int) -> list[int]:
    """A poker row's cards, high ranks first, so pairs and runs sit together."""
    return sorted(sorted_cards(mask), key=lambda c: (-(c % 13), c // 13))


class SuitColouredLinks:
    """Clickable cards keep their suit colour: the link style adds only its underline or reverse,
    not Textual's link colour (which would paint hearts and diamonds like spades)."""

    @property
    def link_style(self) -> RichStyle:
        return self.styles.link_style  # type: ignore[attr-defined]

    @property
    def link_style_hover(self) -> RichStyle:
        return self.styles.link_style_hover + RichStyle(reverse=True)  # type: ignore[attr-defined]


class HandView(SuitColouredLinks, Static):
    """The person's hand sorted by suit, with a cursor; legal cards bright, the others dim."""

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.cards: list[int] = []
        self.cursor = 0
        self.legal: frozenset[int] = frozenset()
        self.active = False
        self.big = False  # cards drawn three lines tall, on a roomy screen

    def show(self, hand: int, legal: Iterable[int] = (), active: bool = False) -> None:
        """Show ``hand``; when ``active`` the cursor is on (and keeps to) a card the person may play."""
        old = self.current()
        self.cards = sorted_cards(hand)
        self.legal = frozenset(legal)
        self.active = active
        if old in self.cards and (not self.legal or old in self.legal):
            self.cursor = self.cards.index(old)
        else:
            first = [i for i, c in enumerate(self.cards) if c in self.legal]
            self.cursor = first[0] if first else 0
        self.border_title = ngettext("Your hand ({n} card)", "Your hand ({n} cards)", len(self.cards)).format(
            n=number(len(self.cards))
        )
        self._draw()

    def current(self) -> int | None:
        return self.cards[self.cursor] if self.cards and 0 <= self.cursor < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self._draw()

    def jump_suit(self, step: int) -> None:
        """Move to the first card of the next (or previous) suit held."""
        if not self.cards:
            return
        suit = self.cards[self.cursor] // 13
        suits = sorted({c // 13 for c in self.cards})
        target = suits[(suits.index(suit) + step) % len(suits)]
        self.cursor = next(i for i, c in enumerate(self.cards) if c // 13 == target)
        self._draw()

    def _draw(self) -> None:
        groups: dict[int, list[list[str]]] = {}
        for i, c in enumerate(self.cards):
            state = ""
            if self.active:
                state = "cursor" if i == self.cursor else ("" if c in self.legal else "dim")
            drawn = card_face(c, state) if self.big else card_chip(c, state)
            # Each line of a card is a link to it: a click anywhere on the card plays it.
            groups.setdefault(c // 13, []).append(
                [f"[@click=screen.card_clicked({int(c)})]{line}[/]" for line in drawn.split("\n")]
            )
        if not groups:
            set_text(self, "[dim]" + _("no cards in your hand") + "[/]")
            return
        rows = len(next(iter(groups.values()))[0])
        set_text(
            self, "\n".join("   ".join(" ".join(card[r] for card in g) for g in groups.values()) for r in range(rows))
        )


class SeatBox(Static):
    """Another player at the table: the place and who plays it in the title, then cards, tricks,
    what was taken and the score; the border lights up when it is this player's turn."""

    def show(self, title: str, lines: list[str], to_play: bool, dealer: bool) -> None:
        # TRANSLATORS: the dealer's mark on a seat's box: the first letter of the word for the dealer.
        self.border_title = ("▶ " if to_play else "") + title + (" · " + _("D") if dealer else "")
        self.set_class(to_play, "to-play")
        set_text(self, "\n".join(lines))


class ChoiceList(OptionList, can_focus=False):
    """The actions of a decision that is not a card: contracts, trumps, ranks, doubles, pass…

    It never takes the focus: the command line keeps it, and ↑ ↓ Enter there move and choose here.
    """

    def set_choices(self, labels: list[str], highlight: int = 0) -> None:
        self.clear_options()
        self.add_options([Option(label) for label in labels])
        if labels:
            self.highlighted = max(0, min(highlight, len(labels) - 1))


class ArrangeChooser(SuitColouredLinks, Static):
    """Chinese poker: three rows (back 5, middle 5, front 3) and a 'Lay out' line.

    Rows always hold 5, 5 and 3 cards: Enter (or a click) picks a card up, and on a card of
    another row swaps the two.  The category of each row and a foul show as you go.
    """

    LAYOUT_ROW = 3

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.rows: list[list[int]] = [[], [], []]
        self.cursor = (0, 0)
        self.picked: tuple[int, int] | None = None

    def load(self, a: Arrange) -> None:
        self.rows = [by_rank(m) for m in a.rows]
        self.cursor = (self.LAYOUT_ROW, 0)
        self.picked = None
        self._draw()

    def arrangement(self) -> Arrange:
        masks = [sum(1 << c for c in row) for row in self.rows]
        return Arrange(*masks)

    def move(self, drow: int, dcol: int) -> None:
        r, c = self.cursor
        if drow:
            r = (r + drow) % (self.LAYOUT_ROW + 1)
        if r == self.LAYOUT_ROW:
            c = 0
        else:
            size = len(self.rows[r])
            c = (c + dcol) % size if dcol else min(c, size - 1)
        self.cursor = (r, c)
        self._draw()

    def press(self) -> Arrange | None:
        """Enter at the cursor: the arrangement when on 'Lay out', else pick or swap (None)."""
        r, c = self.cursor
        if r == self.LAYOUT_ROW:
            return self.arrangement()
        if self.picked is None:
            self.picked = (r, c)
        elif self.picked == (r, c):
            self.picked = None
        else:
            pr, pc = self.picked
            self.rows[pr][pc], self.rows[r][c] = self.rows[r][c], self.rows[pr][pc]
            self.rows = [by_rank(sum(1 << x for x in row)) for row in self.rows]
            self.picked = None
        self._draw()
        return None

    def click(self, r: int, c: int) -> Arrange | None:
        self.cursor = (r, c)
        return self.press()

    def _draw(self) -> None:
        lines = []
        names = [row_name(r) for r in range(3)]
        width = max(len(n) for n in names)
        for r, (name, row) in enumerate(zip(names, self.rows)):
            cells = []
            for c, card in enumerate(row):
                style = ""
                if self.picked == (r, c):
                    style = "underline bold"
                if self.cursor == (r, c):
                    style = (style + " reverse").strip()
                cells.append(f"[@click=screen.arrange_clicked({r},{c})]{card_markup(card, style)}[/]")
            mask = sum(1 << x for x in row)
            lines.append(f"{name:>{width}}  " + " ".join(cells) + f"   [dim]{row_category(mask)}[/]")
        a = self.arrangement()
        warn = (
            "  [b red]" + _("fouled: back ≥ middle ≥ front is broken, every row would lose") + "[/]"
            if fouled(a)
            else ""
        )
        label = _("Lay out these rows")
        button = f"[reverse bold] ✔ {label} [/]" if self.cursor[0] == self.LAYOUT_ROW else f"[bold] ✔ {label} [/]"
        lines.append(" " * (width + 2) + f"[@click=screen.arrange_confirm()]{button}[/]{warn}")
        if self.picked is not None:
            lines.append("[dim]" + _("picked a card: Enter on a card of another row swaps them") + "[/]")
        set_text(self, "\n".join(lines))


class CommandInput(Input):
    """The command line, which keeps the focus: type a card or an action, or steer with the arrows.

    While it is empty, ← → ↑ ↓ move the cursor of the hand, the list or the rows, and
    Enter chooses what the cursor is on.
    """

    BINDINGS = [
        Binding("up", "nav('up')", "Up", show=False),
        Binding("down", "nav('down')", "Down", show=False),
    ]

    class Nav(Message):
        """An arrow key pressed on the empty command line."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.enter_pressed_at = 0.0  # when the last Enter was pressed (its key event's stamp), not when it is read

    def on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            self.enter_pressed_at = event.time

    def action_nav(self, key: str) -> None:
        self.post_message(self.Nav(key))

    def action_cursor_left(self, select: bool = False) -> None:
        if not self.value:
            self.post_message(self.Nav("left"))
        else:
            super().action_cursor_left(select)

    def action_cursor_right(self, select: bool = False) -> None:
        if not self.value:
            self.post_message(self.Nav("right"))
        else:
            super().action_cursor_right(select)


def saved_when(stamp: float, today: date | None = None) -> str:
    """When a match was saved, as a player says it: "today 14:02", "yesterday 21:40", "12 Nov 2026 18:05"."""
    moment = datetime.fromtimestamp(stamp)
    today = today or date.today()
    clock = format_short_time(moment, current())
    if moment.date() == today:
        return _("today {time}").format(time=clock)
    if (today - moment.date()).days == 1:
        return _("yesterday {time}").format(time=clock)
    return f"{format_medium_date(moment.date(), current())} {clock}"


class SavedList(OptionList):
    """The saved matches waiting to be resumed, newest first: Enter resumes one, Delete asks to remove it."""

    BINDINGS = [Binding("delete", "delete", "Delete", show=False), Binding("backspace", "delete", "Delete", show=False)]

    class DeleteAsked(Message):
        """The person asked to delete the saved match at ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, saved: list[SavedMatch], **kwargs) -> None:
        super().__init__(*[Option(self.line(s)) for s in saved], **kwargs)

    @staticmethod
    def line(s: SavedMatch) -> str:
        return _("{when} · {rules}, {state} · {file}").format(
            when=saved_when(s.modified), rules=game_name(s.rules, words()), state=s.progress(), file=s.path.name
        )

    def action_delete(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.DeleteAsked(self.highlighted))
