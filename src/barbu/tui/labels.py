"""Markup for what a seat sees at the terminal table: cards as chips and faces, what a seat has taken, the
Chinese poker rows, the moves in the log, and what the person is asked to do with which keys.

The words themselves are `barbu.play.labels`', shared with the line-by-line game.  Markup is Textual
content markup; cards carry ``@click`` actions where they can be chosen with the mouse.  Every word is
looked up in the current language (`barbu.i18n.current()`) when it is drawn, never at import time.
"""

from __future__ import annotations

from typing import Any

from textual.markup import escape

from ..classic.chinese import Arrange, fouled
from ..classic.contracts import CHINESE, DOMINO
from ..classic.view import View
from ..core.actions import Declare, Double, NameRank, NameTrump, Pass
from ..core.cards import SUIT_SYMBOLS
from ..i18n import _, pgettext
from ..play.labels import (
    RANK_PLURALS,
    RulesInfo,
    card_text,
    ordinal,
    row_category,
    row_name,
    seat_name,
    sorted_cards,
    suit_label,
)

RED_SUITS = (1, 2)  # hearts and diamonds


# ---------------------------------------------------------------- cards
def card_markup(card: int, style: str = "") -> str:
    """A card in its suit colour, with an extra style (``reverse``, ``dim``, ``bold``…)."""
    colour = "red" if card // 13 in RED_SUITS else ""
    full = " ".join(x for x in (colour, style) if x)
    text = escape(card_text(card))
    return f"[{full}]{text}[/]" if full else text


# A card on the table is drawn as a small face-up card: a light face, the pip in the suit's colour.
FACE = {"": "#eeeeee", "dim": "#7a7a7a", "cursor": "#ffd75f", "won": "#b8e6b8", "old": "#a8a8a8"}
INK = {"red": "#c00000", "black": "#101010"}


def card_chip(card: int, state: str = "") -> str:
    """A card as a chip of the table (markup): ``state`` is "" (face up), "dim" (not playable now),
    "cursor" (under your cursor), "won" (the card that takes the trick) or "old" (a trick already taken)."""
    ink = INK["red"] if card // 13 in RED_SUITS else INK["black"]
    bold = " bold" if state in ("", "cursor", "won") else ""
    return f"[{ink} on {FACE[state]}{bold}] {escape(card_text(card))} [/]"


def card_face(card: int, state: str = "") -> str:
    """A card drawn three lines tall, as it lies on a roomy table: its rank and suit in two corners."""
    ink = INK["red"] if card // 13 in RED_SUITS else INK["black"]
    bold = " bold" if state in ("", "cursor", "won") else ""
    style = f"{ink} on {FACE[state]}{bold}"
    text = escape(card_text(card))
    suit = escape(SUIT_SYMBOLS[card // 13])
    nb = "\u00a0"  # no-break spaces: a centred or right-aligned cell keeps the card's full face
    return f"[{style}]{nb}{text:{nb}<5}[/]\n[{style}]{nb * 3}{suit}{nb * 2}[/]\n[{style}]{text:{nb}>5}{nb}[/]"


def cards_markup(mask: int, sep: str = " ") -> str:
    return sep.join(card_markup(c) for c in sorted_cards(mask)) or "—"


# ---------------------------------------------------------------- prompts
def prompt(v: View, info: RulesInfo) -> str:
    """What the person is asked to do now, and how."""
    ph = v.phase
    if ph == "declare":
        return _("You declare this deal: choose a contract (↑ ↓ Enter, a click, or type it).")
    if ph == "trump":
        return _("Name the trump suit (↑ ↓ and Enter, or type h, s, d, c).")
    if ph == "rank":
        return _("Name the starting rank of the rows (↑ ↓ and Enter, or type a rank like 7).")
    if ph == "doubling":
        return _("Double, redouble or pass (↑ ↓ Enter, or type: double west north, pass).")
    if ph == "play":
        if not v.trick:
            return _("Your lead: play a card (← → Enter, a click, or type it like qh).")
        led = v.trick[0] // 13
        return _("Your turn: {who} led {suit}; play a card.").format(
            who=seat_name(v.leader, v.seat, v.players), suit=suit_label(led)
        )
    if ph == "domino":
        cards = [a for a in v.legal if isinstance(a, int) and not isinstance(a, bool)]
        if not cards:
            return _("None of your cards fits the layout: you must pass (Enter, or type pass).")
        if any(isinstance(a, Pass) for a in v.legal):
            return _("You laid an ace: you may lay one more card, or pass.")
        return _("Place a card on the layout (← → Enter, a click, or type it like 7h).")
    if ph == "arrange":
        return _(
            "Arrange your 13 cards: back 5 ≥ middle 5 ≥ front 3. Enter picks a card, Enter on "
            "another swaps them; Enter on 'Lay out' confirms (or type 'arrange …')."
        )
    if ph == "pass-on":
        return _("Choose the cards you pass on (↑ ↓ and Enter in the list, or type them).")
    return _("Your decision ({phase}): choose below (↑ ↓ and Enter) or type it.").format(phase=ph)


# ---------------------------------------------------------------- what was taken
def taken_text(v: View, info: RulesInfo, seat: int) -> str:
    """What a seat has taken that counts in this contract (markup)."""
    c = info.contract(v.contract)
    if c is None or v.phase in ("declare", "trump", "rank", "doubling"):
        return ""
    if c.kind == DOMINO:
        if seat in v.finished:
            return _("out {place}").format(place=ordinal(v.finished.index(seat) + 1))
        return ""
    if c.kind == CHINESE:
        return ""
    parts = []
    if c.penalty_mask:
        cards = v.won[seat] & c.penalty_mask
        if cards:
            parts.append(cards_markup(cards))
    if c.ravage:
        counts = [(v.won[seat] >> (13 * s) & 0x1FFF).bit_count() for s in range(4)]
        parts.append(" ".join(f"{SUIT_SYMBOLS[s]}{n}" for s, n in enumerate(counts)))
    return "  ".join(parts)


def arrangement_text(a: Arrange) -> str:
    rows = [f"{row_name(i)} {cards_markup(m)} ({row_category(m)})" for i, m in enumerate(a.rows)]
    return "; ".join(rows) + (" — [b red]" + escape(_("fouled")) + "[/]" if fouled(a) else "")


def move_text(action: Any, actor: int, v: View, info: RulesInfo) -> str:
    """A move as the log tells it (markup), from the person's view ``v`` just after it: ``Q♥``, ``pass``…"""
    if isinstance(action, int) and not isinstance(action, bool):
        return card_markup(action)
    if isinstance(action, Declare):
        return escape(info.contract_name(action.contract))
    if isinstance(action, NameTrump):
        return _("no trump") if action.suit is None else _("trumps {suit}").format(suit=suit_label(action.suit))
    if isinstance(action, NameRank):
        return _("rows from the {ranks}").format(ranks=_(RANK_PLURALS[action.rank]))
    if isinstance(action, Double):
        if not action.targets:
            return pgettext("doubling", "pass")
        parts = []
        for t in sorted(action.targets):
            redoubled = any(b.doubler == t and b.doubled == actor and b.redoubled for b in v.doubles)
            who = seat_name(t, v.seat, v.players)
            parts.append((_("redouble {who}") if redoubled else _("double {who}")).format(who=who))
        return escape(", ".join(parts))
    if isinstance(action, Pass):
        return pgettext("doubling", "pass")
    if isinstance(action, Arrange):
        return _("rows laid out")
    return escape(str(action))
