"""Small keyboard-first widgets of the scorekeeper's deal form: a one-line chooser and the doubles grid.

Both draw themselves as text with ``@click`` links, so a click and a key
make the same choice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from rich.markup import escape
from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Static

from ..core.words import N_
from ..i18n import _, ngettext, number, pgettext


def word_bindings(node: DOMNode) -> None:
    """Word the footer's descriptions of ``node``'s bindings (English msgids, marked N_) in the current language.

    Class attributes are made at import time, before the language is known: each screen calls this when
    it is built (the terminal game's tui.bindings.translate does the same for its screens)."""
    merged = type(node)._merged_bindings
    if merged is None:
        return
    node._bindings = BindingsMap.from_keys(
        {
            key: [replace(b, description=_(b.description)) if b.description else b for b in found]
            for key, found in merged.copy().key_to_bindings.items()
        }
    )
    if node.is_attached:
        node.refresh_bindings()


class Picker(Static, can_focus=True):
    """One choice out of a few on one line (a player, yes/no): ← → or the choice's number, or a click."""

    BINDINGS = [
        Binding("left", "step(-1)", N_("Previous"), show=False),
        Binding("right", "step(1)", N_("Next"), show=False),
        Binding("space", "step(1)", N_("Next"), show=False),
    ]

    class Changed(Message):
        """A choice was made; ``final`` when made by its number or a click (the form moves on)."""

        def __init__(self, picker: "Picker", final: bool) -> None:
            super().__init__()
            self.picker = picker
            self.final = final

    def __init__(self, choices: Sequence[str], value: int | None = None, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.choices = list(choices)
        self.value = value if value is not None and 0 <= value < len(self.choices) else None
        self._draw()

    def _draw(self) -> None:
        parts = []
        for i, c in enumerate(self.choices):
            label = f" {i + 1} {escape(c)} " if len(self.choices) <= 9 else f" {escape(c)} "
            style = "reverse bold" if i == self.value else ""
            parts.append(f"[@click=pick({i})][{style}]{label}[/][/]" if style else f"[@click=pick({i})]{label}[/]")
        if self.value is None:
            parts.append("[dim] ?[/]")
        self.update(" ".join(parts))

    def action_pick(self, i: int, final: bool = True) -> None:
        self.value = i
        self._draw()
        self.post_message(self.Changed(self, final))

    def action_step(self, step: int) -> None:
        start = (-1 if step > 0 else 0) if self.value is None else self.value
        self.action_pick((start + step) % len(self.choices), final=False)

    def on_key(self, event) -> None:
        if event.character and event.character.isdigit() and 1 <= int(event.character) <= len(self.choices):
            event.stop()
            self.action_pick(int(event.character) - 1)
        elif event.key == "enter" and self.value is not None:
            event.stop()
            self.post_message(self.Changed(self, True))


class DoublesGrid(Static, can_focus=True):
    """Who doubled whom: a row per doubler, a column per player; Space turns a cell double → redoubled → none.

    The last column shows the doubles each player still owes the declarer (the obligation).
    """

    BINDINGS = [
        Binding("left", "move(0,-1)", show=False),
        Binding("right", "move(0,1)", show=False),
        Binding("up", "move(-1,0)", show=False),
        Binding("down", "move(1,0)", show=False),
        Binding("space", "cycle", N_("Double/redouble"), show=True),
        Binding("x", "cycle", show=False),
    ]

    MARKS = {0: "·", 1: "✕", 2: "✕✕"}

    def __init__(
        self,
        names: Sequence[str],
        doublers: dict[int, tuple[int, ...]],
        owed: dict[int, int],
        doubles: Sequence[Sequence] = (),
        declarer: int | None = None,
        **kwargs,
    ) -> None:
        super().__init__("", **kwargs)
        word_bindings(self)
        self.names = list(names)
        self.declarer = declarer
        self.doublers = {s: tuple(t) for s, t in sorted(doublers.items())}
        self.owed = dict(owed)
        self.rows = list(self.doublers)
        self.cells: dict[tuple[int, int], int] = {}
        for d in doubles:
            a, b = d[0], d[1]
            if a in self.doublers and b in self.doublers[a]:
                self.cells[(a, b)] = 2 if len(d) > 2 and d[2] else 1
        self.r, self.c = 0, self._targets(0)[0] if self.rows and self._targets(0) else 0
        self._draw()

    def _targets(self, row: int) -> tuple[int, ...]:
        return self.doublers[self.rows[row]] if self.rows else ()

    def value(self) -> list[list]:
        """The answer for the entry: [doubler, doubled, redoubled] for each double marked."""
        return [[a, b, v == 2] for (a, b), v in sorted(self.cells.items()) if v]

    def action_move(self, dr: int, dc: int) -> None:
        if not self.rows:
            return
        if dr:
            self.r = (self.r + dr) % len(self.rows)
        targets = self._targets(self.r)
        if dc:
            self.c = (self.c + dc) % len(self.names)
            while self.c not in targets:
                self.c = (self.c + dc) % len(self.names)
        elif self.c not in targets:
            self.c = targets[0]
        self._draw()

    def action_cycle(self) -> None:
        if not self.rows:
            return
        key = (self.rows[self.r], self.c)
        if self.c not in self._targets(self.r):
            return
        # A pair has business once: marking B→A clears A→B.
        self.cells.pop((key[1], key[0]), None)
        self.cells[key] = (self.cells.get(key, 0) + 1) % 3
        self._draw()

    def action_cell(self, row: int, col: int) -> None:
        self.r, self.c = row, col
        self.focus()
        self.action_cycle()

    def _draw(self) -> None:
        short = [x[:5] for x in self.names]
        w = max(len(x) for x in short) + 2
        width = max(len(x) for x in self.names) + 1
        verb = pgettext("a player doubles another", "doubles")
        head = " " * (width + len(verb) + 2) + "".join(f"{escape(x):^{w}}" for x in short)
        if self.owed:
            head += "  " + (
                _("still owes {name}").format(name=escape(self.names[self.declarer]))
                if self.declarer is not None
                else _("still owes")
            )
        lines = [f"[b]{head}[/b]"]
        for i, a in enumerate(self.rows):
            line = f"{escape(self.names[a]):<{width}} {verb} "
            for b in range(len(self.names)):
                if b not in self.doublers[a]:
                    cell = f"{'':^{w}}"
                    line += cell
                    continue
                mark = self.MARKS[self.cells.get((a, b), 0)]
                cell = f"{mark:^{w}}"
                here = self.has_focus and i == self.r and b == self.c
                style = "reverse" if here else ("bold yellow" if self.cells.get((a, b)) else "")
                body = f"[{style}]{cell}[/]" if style else cell
                line += f"[@click=cell({i},{b})]{body}[/]"
            owed = self.owed.get(a)
            if owed:
                line += "  [yellow]" + ngettext("{n} double(s)", "{n} double(s)", owed).format(n=number(owed)) + "[/]"
            lines.append(line)
        made = self.value()
        said = "; ".join(
            (_("{a} doubles {b}, redoubled") if r else _("{a} doubles {b}")).format(a=self.names[a], b=self.names[b])
            for a, b, r in made
        )
        lines.append("")
        lines.append("[dim]" + escape(said or _("No double.")) + "[/]")  # not in an f-string: Babel reads it
        self.update("\n".join(lines))

    def on_focus(self) -> None:
        self._draw()

    def on_blur(self) -> None:
        self._draw()
