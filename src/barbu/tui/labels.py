"""Words and markup for what a seat sees: cards, contracts, actions, doubles, the Domino layout.

Pure functions of a `View` and the public facts of its ruleset (`RulesInfo`),
so every word on the screen comes from what the person may know.  Markup is
Textual content markup; cards carry ``@click`` actions where they can be
chosen with the mouse.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from textual.markup import escape

from ..core.actions import Declare, Double, NameRank, NameTrump, Pass
from ..core.cards import CARDS, RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, cards_of
from ..classic.chinese import CATEGORY_NAMES, ROW_NAMES, Arrange, fouled, rank_of
from ..classic.contracts import CHINESE, DOMINO, Contract
from ..classic.match import DealResult, Match
from ..classic.ruleset import Ruleset
from ..classic.view import View

RED_SUITS = (1, 2)  # hearts and diamonds


class RulesInfo:
    """Public facts of a ruleset that the screen needs: contracts, number of deals, who wins."""

    def __init__(self, rules: Ruleset | str) -> None:
        self.rules = Ruleset.parse(rules) if isinstance(rules, str) else rules
        blank = Match(self.rules)  # no deal, no seed: only the ruleset's tables
        self.contracts: dict[str, Contract] = dict(blank.contract_by_key)
        self.total_deals = blank.total_deals
        self.players = blank.n
        self.highest_wins = self.rules.family_spec.highest_wins

    def contract(self, key: str | None) -> Contract | None:
        return self.contracts.get(key) if key else None

    def contract_name(self, key: str) -> str:
        c = self.contracts.get(key)
        return c.name if c else key


@lru_cache(maxsize=8)
def rules_info(rules: str) -> RulesInfo:
    return RulesInfo(rules)


# ---------------------------------------------------------------- cards
def card_text(card: int) -> str:
    return CARDS[card].display()


def card_markup(card: int, style: str = "") -> str:
    """A card in its suit colour, with an extra style (``reverse``, ``dim``, ``bold``…)."""
    colour = "red" if card // 13 in RED_SUITS else ""
    full = " ".join(x for x in (colour, style) if x)
    text = escape(card_text(card))
    return f"[{full}]{text}[/]" if full else text


def cards_markup(mask: int, sep: str = " ") -> str:
    return sep.join(card_markup(c) for c in sorted_cards(mask)) or "—"


def sorted_cards(mask: int) -> list[int]:
    """Cards by suit (♠ ♥ ♦ ♣), high to low within each suit: the order of a hand held in play."""
    return sorted(cards_of(mask), key=lambda c: (c // 13, -(c % 13)))


def suit_label(suit: int | None) -> str:
    if suit is None:
        return "no trump"
    return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"


def rank_label(rank: int) -> str:
    return RANKS[rank].replace("T", "10")


def signed(x: Any) -> str:
    """A score with its sign: ``+5``, ``-20``, ``+75/2`` (shared placement points stay exact fractions)."""
    return ("+" if x > 0 else "") + str(x)


# ---------------------------------------------------------------- seats
def seat_name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def seat_title(seat: int, me: int) -> str:
    return "You" if seat == me else f"Seat {seat}"


# ---------------------------------------------------------------- contract
def contract_label(info: RulesInfo, v: View) -> str:
    """``Trumps, ♥ hearts`` / ``Domino from the 7s`` / ``No queens``."""
    c = info.contract(v.contract)
    if c is None:
        return "not chosen yet"
    label = c.name
    if c.trump:
        if v.phase == "trump":
            label += " (trumps not named yet)"
        else:
            label += ", no trump" if v.trump is None else f", trumps {suit_label(v.trump)}"
    if c.kind == DOMINO:
        if v.rank is not None:
            label += f", rows from the {rank_label(v.rank)}s"
        elif c.open_any:
            label += ", the first card sets the rank"
    return label


def result_label(info: RulesInfo, r: DealResult) -> str:
    c = info.contract(r.contract)
    label = c.name if c else r.contract
    if c and c.trump:
        label += ", " + suit_label(r.trump)
    if c and c.kind == DOMINO and r.rank is not None:
        label += f" from the {rank_label(r.rank)}s"
    return label


def doubles_text(v: View) -> str:
    if not v.doubles:
        return "none"
    return ", ".join(f"{seat_name(b.doubler, v.seat)} doubled {seat_name(b.doubled, v.seat)}"
                     + (" (redoubled)" if b.redoubled else "") for b in v.doubles)


# ---------------------------------------------------------------- actions
def action_label(action: Any, v: View, info: RulesInfo) -> str:
    """What choosing ``action`` means, in words, for the seat of ``v``."""
    if isinstance(action, int) and not isinstance(action, bool):
        return f"{card_text(action)} — the {CARDS[action].name()}"
    if isinstance(action, Declare):
        c = info.contract(action.contract)
        if c is None:
            return str(action)
        return f"{c.name} — {c.help}" if c.help else c.name
    if isinstance(action, NameTrump):
        return suit_label(action.suit) + ("" if action.suit is not None else " (no suit is trumps)")
    if isinstance(action, NameRank):
        return f"{rank_label(action.rank)} — rows start from the {RANK_NAMES[action.rank]}s"
    if isinstance(action, Double):
        return double_label(action, v)
    if isinstance(action, Pass):
        if any(isinstance(a, int) and not isinstance(a, bool) for a in v.legal):
            return "pass — play no further card now"
        return "pass — none of your cards fits the layout"
    return str(action)


def double_label(action: Double, v: View) -> str:
    if not action.targets:
        return "pass — no double"
    parts = []
    for t in sorted(action.targets):
        redouble = any(b.doubler == t and b.doubled == v.seat for b in v.doubles)
        role = " (dealer)" if t == v.dealer else ""
        parts.append(("redouble " if redouble else "double ") + f"seat {t}{role}")
    return ", ".join(parts)


def action_short(action: Any) -> str:
    """A short form for the log line: ``Q♥``, ``contract no-queens``, ``double 1 3``."""
    if isinstance(action, int) and not isinstance(action, bool):
        return card_text(action)
    return str(action)


# ---------------------------------------------------------------- prompts
def prompt(v: View, info: RulesInfo) -> str:
    """What the person is asked to do now, and how."""
    ph = v.phase
    if ph == "declare":
        return "You declare this deal: choose a contract (↑ ↓ and Enter, a click, or type its name)."
    if ph == "trump":
        return "Name the trump suit (↑ ↓ and Enter, or type h, s, d, c)."
    if ph == "rank":
        return "Name the starting rank of the rows (↑ ↓ and Enter, or type a rank like 7)."
    if ph == "doubling":
        return "Doubling: choose whom to double or redouble, or pass (↑ ↓ and Enter, or type 'double 1 3')."
    if ph == "play":
        if not v.trick:
            return "Your lead: play a card (← → and Enter, a click, or type it like qh)."
        led = v.trick[0] // 13
        return f"Your turn: {seat_name(v.leader, v.seat)} led {suit_label(led)}; play a card."
    if ph == "domino":
        cards = [a for a in v.legal if isinstance(a, int) and not isinstance(a, bool)]
        if not cards:
            return "None of your cards fits the layout: you must pass (Enter, or type pass)."
        if any(isinstance(a, Pass) for a in v.legal):
            return "You laid an ace: you may lay one more card, or pass."
        return "Place a card on the layout (← → and Enter, a click, or type it like 7h)."
    if ph == "arrange":
        return ("Arrange your 13 cards: back 5 ≥ middle 5 ≥ front 3. Enter picks a card, Enter on "
                "another swaps them; Enter on 'Lay out' confirms (or type 'arrange …').")
    if ph == "pass-on":
        return "Choose the cards you pass on (↑ ↓ and Enter in the list, or type them)."
    return f"Your decision ({ph}): choose below (↑ ↓ and Enter) or type it."


def doubling_notes(v: View, info: RulesInfo, legal: Iterable[Any]) -> list[str]:
    """The obligations and limits that bear on the person's doubling turn."""
    notes = []
    c = info.contract(v.contract)
    if v.seat == v.dealer:
        notes.append("You are the dealer: you never double, you may only redouble doubles you received.")
    elif c is not None and c.positive:
        notes.append(f"{c.name} is a positive contract: only the dealer (seat {v.dealer}) may be doubled.")
    obligation = info.rules.double_obligation
    if obligation and v.seat != v.dealer and v.declarer >= 0:
        made = v.doubles_made[v.seat]
        owed = max(0, obligation - made)
        left = len(v.contracts_left[v.declarer]) + 1
        notes.append(f"Obligation: double the dealer {obligation} times in his series — you have made {made}, "
                     f"you owe {owed}; {left} deal(s) of the series left, this one included.")
    doubles = [a for a in legal if isinstance(a, Double)]
    if doubles and v.seat != v.dealer and all(v.dealer in d.targets for d in doubles):
        notes.append(f"You must double the dealer (seat {v.dealer}) now: you owe as many doubles as there "
                     f"are deals left in his series.")
    return notes


# ---------------------------------------------------------------- what was taken
def taken_text(v: View, info: RulesInfo, seat: int) -> str:
    """What a seat has taken that counts in this contract (markup)."""
    c = info.contract(v.contract)
    if c is None or v.phase in ("declare", "trump", "rank", "doubling"):
        return ""
    if c.kind == DOMINO:
        if seat in v.finished:
            return f"out {ordinal(v.finished.index(seat) + 1)}"
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


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


# ---------------------------------------------------------------- Domino layout
def layout_lines(v: View, info: RulesInfo) -> list[str]:
    """The Domino / Success rows, one line per suit, as markup."""
    high_ace = info.rules.domino_ace == "high"
    lines = []
    for s in range(4):
        span = v.layout[s]
        head = f"[{'red' if s in RED_SUITS else 'bold'}]{SUIT_SYMBOLS[s]}[/]"
        if span is None:
            lines.append(f"{head}  [dim]not started[/]")
            continue
        cards = []
        for pos in range(span[0], span[1] + 1):
            rank = pos if high_ace else (12 if pos == 0 else pos - 1)
            card = s * 13 + rank
            if v.deck >> card & 1:
                cards.append(card_markup(card))
        lines.append(f"{head}  " + " ".join(cards))
    return lines


# ---------------------------------------------------------------- Chinese poker
def row_category(mask: int) -> str:
    return CATEGORY_NAMES[rank_of(mask)[0]] if mask else ""


def arrangement_text(a: Arrange) -> str:
    rows = [f"{name} {cards_markup(m)} ({row_category(m)})" for name, m in zip(ROW_NAMES, a.rows)]
    return "; ".join(rows) + (" — [b red]fouled[/]" if fouled(a) else "")


def move_text(action: Any, actor: int, v: View, info: RulesInfo) -> str:
    """A move as the log tells it (markup), from the person's view ``v`` just after it: ``Q♥``, ``pass``…"""
    if isinstance(action, int) and not isinstance(action, bool):
        return card_markup(action)
    if isinstance(action, Declare):
        return escape(info.contract_name(action.contract))
    if isinstance(action, NameTrump):
        return "no trump" if action.suit is None else f"trumps {suit_label(action.suit)}"
    if isinstance(action, NameRank):
        return f"rows from the {rank_label(action.rank)}s"
    if isinstance(action, Double):
        if not action.targets:
            return "pass"
        parts = []
        for t in sorted(action.targets):
            redoubled = any(b.doubler == t and b.doubled == actor and b.redoubled for b in v.doubles)
            parts.append(("redouble " if redoubled else "double ") + seat_name(t, v.seat))
        return ", ".join(parts)
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Arrange):
        return "rows laid out"
    return escape(str(action))


def doubles_short(v: View) -> str:
    """Doubles in force, in words from the viewer's seat: "seat 1 doubled you; you redoubled"."""
    if not v.doubles:
        return "none"

    def who(s: int, start: bool = False) -> str:
        if s == v.seat:
            return "You" if start else "you"
        return f"{'Seat' if start else 'seat'} {s}"
    parts = []
    for b in v.doubles:
        text = f"{who(b.doubler, True)} doubled {who(b.doubled)}"
        if b.redoubled:
            text += f"; {who(b.doubled)} redoubled"
        parts.append(text)
    return ". ".join(parts)
