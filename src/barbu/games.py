"""The games of the house: recognise a rules text or a record file, open the game, write its records.

Importing this module registers every family (the Scottish game adds itself to
the Barbu family's presets when `barbu.scottish` is imported), so a front end
that opens games through `open_game` sees them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import scottish  # noqa: F401  (registers the Scottish family)
from .besigue import BesigueGame, is_besigue
from .besigue.ruleset import BesigueRules
from .besigue.ruleset import short_form as besigue_short
from .besigue.text import text_form as besigue_text
from .classic.match import Match
from .classic.ruleset import Ruleset
from .classic.ruleset import short_form as barbu_short
from .core.game import AnyGame
from .records.barbu import record_lines as barbu_lines
from .records.barbu import text_form as barbu_text
from .records.barbu import write_record as write_barbu_record
from .records.besigue import is_besigue_record
from .records.besigue import record_lines as besigue_lines
from .records.besigue import write_record as write_besigue_record


@dataclass(frozen=True)
class GameKind:
    """One game of the house: how to recognise its rules text, open it, and write/replay its records."""

    name: str
    accepts: Callable[[str], bool]
    open: Callable[[str, "int | None"], AnyGame]
    write_record: Callable[[Any, "str | Path", "dict[str, Any] | None"], None]
    is_record: Callable[["str | Path"], bool]
    text_form: Callable[..., str]  # (game, deal=None, names=...)
    record_lines: Callable[[Any, "dict[str, Any] | None"], list[dict[str, Any]]]  # the record as JSON lines, to publish
    short: Callable[[str], str]  # the rules text of the short game (some twenty minutes) of a rules text


BESIGUE = GameKind(
    "besigue",
    is_besigue,
    lambda text, seed: BesigueGame(text, seed),
    write_besigue_record,
    is_besigue_record,
    besigue_text,
    besigue_lines,
    lambda text: str(besigue_short(BesigueRules.parse(text))),
)
BARBU = GameKind(
    "barbu",
    lambda text: True,
    lambda text, seed: Match(text, seed),
    write_barbu_record,
    lambda path: True,
    barbu_text,
    barbu_lines,
    lambda text: str(barbu_short(Ruleset.parse(text))),
)


def game_kinds() -> list[GameKind]:
    """Every game, the catch-all Barbu family last."""
    return [BESIGUE, BARBU]


def game_kind(rules_text: str) -> GameKind:
    """The game a rules text names (unknown presets fall to the Barbu family, which says so)."""
    return next(k for k in game_kinds() if k.accepts(rules_text))


def record_kind(path: "str | Path") -> GameKind:
    """The game a record file holds, from its header."""
    return next(k for k in game_kinds() if k.is_record(path))


def short_rules(rules_text: str) -> str:
    """``short_rules("classic")`` → ``"classic(double_obligation=1, contracts_each=2)"``: the game's short form,
    the same text where the game has none (the Scottish game, whose Set is its shortest match)."""
    return game_kind(rules_text).short(rules_text)


def open_game(rules_text: str, seed: int | None = None) -> AnyGame:
    """``open_game("besigue")``, ``open_game("classic(rotation=quick)")``: a new game at its start."""
    return game_kind(rules_text).open(rules_text, seed)
