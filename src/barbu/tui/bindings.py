"""Key bindings, kept in one place so the help screen and the footer agree.

Letters are never bound on the table: they are typed (``qh``, ``double 1 3``).
The table's commands sit on function keys and Ctrl keys instead, and can also be
typed as words (``help``, ``last``, ``scores``, ``save``, ``quit``).
"""

from __future__ import annotations

from textual.binding import Binding

TABLE = [
    Binding("f1", "help", "Help"),
    Binding("f2", "last_trick", "Last trick"),
    Binding("f3", "scoresheet", "Scoresheet"),
    Binding("f4", "hint", "Hint"),
    Binding("ctrl+z", "take_back", "Take back"),
    Binding("ctrl+s", "save", "Save"),
    Binding("escape", "clear", "Clear", show=False),
]

APP = [
    Binding("ctrl+q", "quit", "Save & quit", priority=True),
]

MODAL = [
    Binding("escape", "close", "Close"),
    Binding("enter", "close", "Close", show=False),
    Binding("f1,f2,f3", "close", "Close", show=False),
]

SETUP = [
    Binding("ctrl+s", "start", "Start"),
]

KEYS_HELP = """\
[b]Keys[/b]
  ← →            move along your hand (or along a row of Chinese poker)
  ↑ ↓            move in the list of choices (or between suits / rows)
  Enter          play or choose what the cursor is on (on an empty command line)
  type + Enter   a card (qh, 10s, A♠), a contract (no-queens), trump h, rank 7,
                 pass, double 1 3, family, maximum, arrange <back> <middle> <front>
  mouse          click a card or a choice
  F1 help   F2 last trick   F3 scoresheet   F4 hint   Ctrl+Z take back your last move
  Ctrl+S save   Ctrl+Q save and quit
  Typed words work too: help, last, scores, hint, undo, save, quit."""

BESIGUE_TABLE = [
    Binding("f1", "help", "Rules"),
    Binding("f2", "last_trick", "Tricks"),
    Binding("f3", "scores", "Scores"),
    Binding("f4", "hint", "Hint"),
    Binding("ctrl+z", "take_back", "Undo"),
    Binding("ctrl+s", "save", "Save"),
    Binding("escape", "clear", "Clear", show=False),
]

BESIGUE_KEYS_HELP = """\
[b]Keys[/b]
  ← → Enter     choose a card of your hand or melds, and play it
  ↑ ↓ Enter     choose a declaration after you win a trick
  type + Enter  qs, 10d, Q♠ (qs* a laid card), pass,
                declare bezique QS JD, exchange 7H, show 7H
  mouse         click a card or a declaration
  F1 rules  F2 tricks  F3 scores  F4 hint  Ctrl+Z take back
  Ctrl+S save  Ctrl+Q save & quit
  Typed words work too: help, last, scores, hint, undo, save, quit."""
