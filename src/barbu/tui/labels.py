"""Words and markup for what a seat sees: cards, places at the table, contracts, actions, doubles.

Pure functions of a `View` and the public facts of its ruleset (`RulesInfo`),
so every word on the screen comes from what the person may know.  Markup is
Textual content markup; cards carry ``@click`` actions where they can be
chosen with the mouse.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from textual.markup import escape

from ..core.actions import Declare, Double, Lay, NameRank, NameTrump, Pass, PassOn
from ..core.cards import CARDS, RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SYMBOLS, cards_of
from ..classic.chinese import CATEGORY_NAMES, ROW_NAMES, Arrange, Arrangements, fouled, rank_of
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
    return (f"[{style}]{nb}{text:{nb}<5}[/]\n[{style}]{nb * 3}{suit}{nb * 2}[/]\n"
            f"[{style}]{text:{nb}>5}{nb}[/]")


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
# Where the other players sit, seen from your chair at the bottom of the table (South), by how many
# seats after you they play: the next to play sits on your left (West), the last on your right (East).
PLACES = {
    3: {1: "West", 2: "East"},
    4: {1: "West", 2: "North", 3: "East"},
    5: {1: "West", 2: "North-west", 3: "North-east", 4: "East"},
    6: {1: "West", 2: "North-west", 3: "North", 4: "North-east", 5: "East"},
}


def place(seat: int, me: int, players: int) -> str | None:
    """The compass place of another seat at the table (``West``…), None for your own or an unknown size."""
    return PLACES.get(players, {}).get((seat - me) % players)


def seat_name(seat: int, me: int, players: int | None = None) -> str:
    """``you``, the seat's place at the table (``West``) when the table size is given, else ``seat 2``."""
    if seat == me:
        return "you"
    where = place(seat, me, players) if players else None
    return where or f"seat {seat}"


def seat_title(seat: int, me: int, players: int | None = None) -> str:
    name = seat_name(seat, me, players)
    return name[0].upper() + name[1:]


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
            said = "" if "trump" in c.name.lower() else "trumps "  # "Trumps, ♥ hearts", "Salad, trumps ♥ hearts"
            label += ", no trump" if v.trump is None else f", {said}{suit_label(v.trump)}"
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
    if isinstance(action, PassOn):
        return "pass on " + " ".join(card_text(c) for c in sorted_cards(action.cards))
    if isinstance(action, Lay):
        return "lay " + " ".join(card_text(c) for c in sorted_cards(action.cards)) + " — all at once"
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
        role = ", dealer" if t == v.dealer else ""
        parts.append(("redouble " if redouble else "double ") + f"{seat_name(t, v.seat, v.players)} (seat {t}{role})")
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
        return "You declare this deal: choose a contract (↑ ↓ Enter, a click, or type it)."
    if ph == "trump":
        return "Name the trump suit (↑ ↓ and Enter, or type h, s, d, c)."
    if ph == "rank":
        return "Name the starting rank of the rows (↑ ↓ and Enter, or type a rank like 7)."
    if ph == "doubling":
        return "Double, redouble or pass (↑ ↓ Enter, or type: double 1 3, pass)."
    if ph == "play":
        if not v.trick:
            return "Your lead: play a card (← → Enter, a click, or type it like qh)."
        led = v.trick[0] // 13
        return f"Your turn: {seat_name(v.leader, v.seat, v.players)} led {suit_label(led)}; play a card."
    if ph == "domino":
        cards = [a for a in v.legal if isinstance(a, int) and not isinstance(a, bool)]
        if not cards:
            return "None of your cards fits the layout: you must pass (Enter, or type pass)."
        if any(isinstance(a, Pass) for a in v.legal):
            return "You laid an ace: you may lay one more card, or pass."
        return "Place a card on the layout (← → Enter, a click, or type it like 7h)."
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
    dealer = f"{seat_name(v.dealer, v.seat, v.players)}, seat {v.dealer}"
    if v.seat == v.dealer:
        notes.append("You are the dealer: you never double, you may only redouble doubles you received.")
    elif c is not None and c.positive:
        notes.append(f"{c.name} is a positive contract: only the dealer ({dealer}) may be doubled.")
    obligation = info.rules.double_obligation
    if obligation and v.seat != v.dealer and v.declarer >= 0:
        made = v.doubles_made[v.seat]
        owed = max(0, obligation - made)
        left = len(v.contracts_left[v.declarer]) + 1
        notes.append(f"Obligation: double the dealer {obligation} times in his series — you have made {made}, "
                     f"you owe {owed}; {left} deal(s) of the series left, this one included.")
    doubles = [a for a in legal if isinstance(a, Double)]
    if doubles and v.seat != v.dealer and all(v.dealer in d.targets for d in doubles):
        notes.append(f"You must double the dealer ({dealer}) now: you owe as many doubles as there "
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
            parts.append(("redouble " if redoubled else "double ") + seat_name(t, v.seat, v.players))
        return ", ".join(parts)
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Arrange):
        return "rows laid out"
    return escape(str(action))


def forced_choice(legal: Any) -> Any | None:
    """The one thing a player may do now, when there is only one (None when there is a real choice)."""
    if isinstance(legal, Arrangements) or len(legal) != 1:
        return None
    return legal[0]


def forced_note(action: Any, v: View, info: RulesInfo, places: bool = True) -> str:
    """Why a decision made itself, in words: "You pass: no card can be played", "No double possible: you pass".

    Other seats are named by their place at the table ("West"), or by number ("seat 1") without ``places``.
    """
    if isinstance(action, Pass):
        c = info.contract(v.contract)
        verb = "chap (pass)" if c is not None and c.fixed_rank is not None else "pass"
        return f"You {verb}: no card can be played."
    if isinstance(action, Double):
        if not action.targets:
            return "No double possible: you pass."
        whom = ", ".join(seat_name(t, v.seat, v.players if places else None) for t in sorted(action.targets))
        return f"You double {whom}: your only possible choice."
    if isinstance(action, int) and not isinstance(action, bool):
        return f"You play {card_text(action)}: your only legal card."
    if isinstance(action, Declare):
        return f"You declare {info.contract_name(action.contract)}: the only choice left."
    return f"Your only choice, made for you: {action_label(action, v, info)}."


def doubles_short(v: View, doubles: Iterable[Any] | None = None) -> str:
    """Doubles in force (or ``doubles``, those of a finished deal), in words from the viewer's seat:
    "West doubled you; you redoubled"."""
    doubles = tuple(v.doubles if doubles is None else doubles)
    if not doubles:
        return "none"

    def who(s: int, start: bool = False) -> str:
        return seat_title(s, v.seat, v.players) if start else seat_name(s, v.seat, v.players)
    parts = []
    for b in doubles:
        text = f"{who(b.doubler, True)} doubled {who(b.doubled)}"
        if b.redoubled:
            text += f"; {who(b.doubled)} redoubled"
        parts.append(text)
    return ". ".join(parts)
