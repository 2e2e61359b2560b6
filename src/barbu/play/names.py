"""The players of a record as a person reads them: names where the record has them, computer players by
their place and strength ("West, good player"), never a seat number nor an engine's name.

A record's ``players_names`` were written by several hands over time: the terminal game ("you",
"West, good player"; before, "West, computer (good player)"), the daily deals ("Alice", "rule (computer)"),
the arena ("rule (seat 2)") and self-play ("rule 2").  The engine's spec stays in the record for machines;
`record_names` reads each kind back and words it in the current language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..agents.base import is_computer_player
from ..i18n import _
from .labels import PLACE_WORDS, PLAYER_WORDS, computer_name, seat_place, table_place

_PLACE = "|".join(sorted(PLACE_WORDS, key=len, reverse=True))
#: English strength words back to the computer player they name ("good player" -> "rule").
_KIND_OF_WORDS = {words: kind for kind, words in PLAYER_WORDS.items()}
_COMPUTER_WORDS = re.compile(rf"^(?:(?:{_PLACE}), )?computer \((?P<words>.+)\)$")  # "West, computer (good player)"
_PLACE_WORDS = re.compile(rf"^(?:{_PLACE}), (?P<words>.+)$")  # "West, good player"
_ENGINE = re.compile(r"^(?P<kind>\S+) (?:\(computer\)|\(seat \d+\)|\d+)$")  # "rule (computer)", "rule (seat 2)"


def computer_kind(name: str) -> str | None:
    """The computer player a stored name stands for (``rule``, or its words when they name no known
    kind: "trained policy x.npz"), None for a person's name."""
    if m := _COMPUTER_WORDS.match(name):
        return _KIND_OF_WORDS.get(m["words"], m["words"])
    if (m := _PLACE_WORDS.match(name)) and (m["words"] in _KIND_OF_WORDS or m["words"].startswith("trained policy")):
        return _KIND_OF_WORDS.get(m["words"], m["words"])
    if (m := _ENGINE.match(name)) and is_computer_player(m["kind"]):
        return m["kind"]
    return None


def reader_seat(header: Mapping[str, Any], names: Sequence[str]) -> int:
    """Whose chair the table is seen from: the terminal player's seat, else the first person named,
    else seat 0."""
    tui = header.get("tui")
    if isinstance(tui, Mapping) and isinstance(tui.get("seat"), int) and 0 <= tui["seat"] < max(len(names), 1):
        return int(tui["seat"])
    for s, name in enumerate(names):
        if name and computer_kind(name) is None:
            return s
    return 0


def record_names(header: Mapping[str, Any], players: int) -> list[str]:
    """Each seat of a record as a person reads it, in the current language: "you", "Alice",
    "West, good player", or the seat's place ("North") when the record names nobody there."""
    stored = header.get("players_names")
    names = [str(x) if x else "" for x in stored] if isinstance(stored, list) else []
    names += [""] * (players - len(names))
    me = reader_seat(header, names)
    out = []
    for s in range(players):
        name = names[s].strip()
        kind = computer_kind(name) if name else None
        if kind is not None:
            out.append(computer_name(table_place(s, me, players), kind))
        elif name == "you":
            out.append(_("you"))
        else:
            out.append(name or seat_place(s, players, me))
    return out
