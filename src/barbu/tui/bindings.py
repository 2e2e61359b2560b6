"""Key bindings, kept in one place so the help screen and the footer agree.

Letters are never bound on the table: they are typed (``qh``, ``double 1 3``).
The table's commands sit on function keys and Ctrl keys instead, and can also be
typed as words (``help``, ``last``, ``scores``, ``save``, ``quit``).

The descriptions are English msgids (class attributes are made at import time):
`translate` gives a screen its footer in the current language when it is built.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding, BindingsMap, BindingType
from textual.dom import DOMNode

from ..core.words import N_
from ..i18n import _

TABLE: list[BindingType] = [
    Binding("f1", "help", N_("Help")),
    Binding("f2", "last_trick", N_("Tricks")),  # short: the footer holds every label at 80 columns, in French too
    Binding("f3", "scoresheet", N_("Scoresheet")),
    Binding("f4", "hint", N_("Hint")),
    Binding("ctrl+z", "take_back", N_("Take back")),
    Binding("ctrl+s", "save", N_("Save")),
    Binding("escape", "clear", N_("Clear"), show=False),
]

APP: list[BindingType] = [
    Binding("ctrl+q", "quit", N_("Quit"), priority=True),  # it saves first: the Keys help says so
]

MODAL: list[BindingType] = [
    Binding("escape", "close", N_("Close")),
    Binding("enter", "close", N_("Close"), show=False),
    Binding("f1,f2,f3", "close", N_("Close"), show=False),
]

DEAL_OVER: list[BindingType] = MODAL + [
    Binding("f4,r", "review", N_("Review your play")),
]

SETUP: list[BindingType] = [
    Binding("ctrl+s", "start", N_("Start")),
    Binding("ctrl+l", "learn", N_("Learn to play")),
]

BESIGUE_TABLE: list[BindingType] = [
    Binding("f1", "help", N_("Rules")),
    Binding("f2", "last_trick", N_("Tricks")),
    Binding("f3", "scores", N_("Scores")),
    Binding("f4", "hint", N_("Hint")),
    Binding("ctrl+z", "take_back", N_("Undo")),
    Binding("ctrl+s", "save", N_("Save")),
    Binding("escape", "clear", N_("Clear"), show=False),
]


def translate(node: DOMNode) -> None:
    """Word the descriptions of ``node``'s own bindings (its class's BINDINGS) in the current language."""
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


def keys_help() -> str:
    """The keys of the Barbu table, for the help screen."""
    return _("""\
[b]Keys[/b]
  ← →            move along your hand (or along a row of Chinese poker)
  ↑ ↓            move in the list of choices (or between suits / rows)
  Enter          play or choose what the cursor is on (on an empty command line)
  type + Enter   a card (qh, 10s, A♠), a contract (no-queens), trump h, rank 7,
                 pass, double west north, family, maximum, arrange <back> <middle> <front>
  mouse          click a card or a choice
  F1 help   F2 last trick   F3 scoresheet   F4 hint   Ctrl+Z take back your last move
  Ctrl+S save   Ctrl+Q save and quit
  Typed words work too: help, last, scores, hint, undo, save, quit.""")


def besigue_keys_help() -> str:
    """The keys of the Bésigue table, for the help screen."""
    return _("""\
[b]Keys[/b]
  ← → Enter     choose a card of your hand or melds, and play it
  ↑ ↓ Enter     choose a declaration after you win a trick
  type + Enter  qs, 10d, Q♠ (qs* a laid card), pass,
                declare bezique QS JD, exchange 7H, show 7H
  mouse         click a card or a declaration
  F1 rules  F2 tricks  F3 scores  F4 hint  Ctrl+Z take back
  Ctrl+S save  Ctrl+Q save & quit
  Typed words work too: help, last, scores, hint, undo, save, quit.""")
