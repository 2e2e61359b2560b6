"""One name for each computer player, wherever a person reads it: its place at the table and its strength in
words ("West, good player"), never its engine's name ("rule (computer)").

The words are English keys, marked for translation (`N_`); a front end words them in its reader's language.
A record keeps the English name, so `computer_kind` can tell a computer's seat in records old and new.
"""

from __future__ import annotations

import re
from typing import Callable

from ..core.words import N_

#: A built-in computer player's strength as players say it (the lobby's and the table's words).
STRENGTH_WORDS = {"random": N_("random"), "rule": N_("good player"), "search": N_("strong"), "expert": N_("expert")}

#: Where the other players sit, seen from your chair at the bottom (South), by how many seats after you they
#: play: the next to play sits on your left (West), the last on your right (East).
PLACES = {
    3: {1: "West", 2: "East"},
    4: {1: "West", 2: "North", 3: "East"},
    5: {1: "West", 2: "North-west", 3: "North-east", 4: "East"},
    6: {1: "West", 2: "North-west", 3: "North", 4: "North-east", 5: "East"},
}

#: A computer player's name: its place, then its strength.
NAME = N_("{place}, {strength}")

# Names records have given computer players: "rule (computer)" (daily deals), "Computer, seat 2" (web
# tables), "West, computer (good player)" (the terminal), and the names this module makes ("West, good player").
_ENGINE = re.compile(r"^(?P<kind>[\w:./-]+) \(computer\)$")
_NUMBERED = re.compile(r"^Computer, seat \d+$")
_TERMINAL = re.compile(r"^computer \((?P<word>[\w ]+)\)$")


def _identity(text: str) -> str:
    return text


def strength_word(kind: str, gettext: Callable[[str], str] = _identity) -> str:
    """A strength in words ("good player"); an operator's own player keeps its name."""
    return gettext(STRENGTH_WORDS[kind]) if kind in STRENGTH_WORDS else kind


def place(seat: int, me: int, players: int) -> str | None:
    """Another seat's place from ``me``'s chair (an English key: "West"), None for ``me`` or an unusual size."""
    return PLACES.get(players, {}).get((seat - me) % players)


def computer_name(seat: int, me: int, players: int, kind: str, gettext: Callable[[str], str] = _identity) -> str:
    """ "West, good player": the computer at ``seat`` seen from ``me``'s chair (English unless ``gettext``)."""
    where = place(seat, me, players)
    word = strength_word(kind, gettext)
    if where is None:
        return word
    return gettext(NAME).format(place=gettext(where), strength=word)


def computer_kind(name: str) -> str | None:
    """The strength a record's name gives a computer player ("" when it names none), None for a person."""
    m = _ENGINE.match(name)
    if m:
        return m.group("kind")
    if _NUMBERED.match(name):
        return ""
    where, comma, word = name.partition(", ")
    if comma and any(where in row.values() for row in PLACES.values()):
        old = _TERMINAL.match(word)  # "West, computer (good player)", as the terminal wrote it
        word = old.group("word") if old else word
        for kind, english in STRENGTH_WORDS.items():
            if word == english:
                return kind
    return None
