"""Words for what a seat sees at a table of computer players: cards, places at the table, contracts, actions,
doubles, the moves made for the person and how a deal's doubles were settled.

Pure functions of a `View` and the public facts of its ruleset (`RulesInfo`), in plain text (no markup),
so that both front ends say the same: the full-screen terminal game (`barbu.tui.labels` adds its markup
and its prompts) and the line-by-line one (`barbu.cli.textplay`).  Every word is looked up in the current
language (`barbu.i18n.current()`) when it is said, never at import time.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Sequence

from ..classic.chinese import CATEGORY_NAMES, Arrangements, rank_of
from ..classic.contracts import DOMINO, Contract
from ..classic.match import DealResult, Match
from ..classic.refusals import PLACES_NOT_NUMBERS
from ..classic.ruleset import Ruleset
from ..classic.view import View
from ..core.actions import Declare, Double, Lay, NameRank, NameTrump, Pass, PassOn
from ..core.cards import RANK_NAMES, RANKS, SUIT_SYMBOLS, cards_of
from ..core.errors import BarbuError, ParseError
from ..core.places import place as place  # re-exported: the front ends import it from here
from ..core.places import table_place as table_place
from ..core.words import ENGLISH, N_
from ..guide import option_label, settlements, value_word
from ..guide.ruleset_words import OPTION_NAMES
from ..i18n import _, current, ngettext, number, pgettext, words
from ..i18n.rules import contract_help
from ..i18n.typed import fold, parse_typed


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
        """A contract's name in the current language ("Pas de dames"), its key when unknown."""
        c = self.contracts.get(key)
        return words().contract(c.name) if c else key

    def contract_help(self, c: Contract) -> str:
        """A contract's one-line help in the current language."""
        return contract_help(c, words())


@lru_cache(maxsize=8)
def rules_info(rules: str) -> RulesInfo:
    return RulesInfo(rules)


# ---------------------------------------------------------------- cards
def card_text(card: int) -> str:
    """A card's face as the player's language writes it: ``Q♥`` (``D♥`` in French and Italian)."""
    return words().card(card)


#: A card's full name, by suit (the suit word agrees differently in each language).
CARD_NAMES = (N_("{rank} of spades"), N_("{rank} of hearts"), N_("{rank} of diamonds"), N_("{rank} of clubs"))


def card_name(card: int) -> str:
    """``queen of hearts`` (``dame de cœur``, ``donna di cuori``)."""
    rank = pgettext("rank", RANK_NAMES[card % 13])
    return _(CARD_NAMES[card // 13]).format(rank=rank)


def sorted_cards(mask: int) -> list[int]:
    """Cards by suit (♠ ♥ ♦ ♣), high to low within each suit: the order of a hand held in play."""
    return sorted(cards_of(mask), key=lambda c: (c // 13, -(c % 13)))


def suit_label(suit: int | None) -> str:
    """A suit named as trumps or as the suit led: ``♠ spades`` (``♠ pique``: French names it in the singular)."""
    if suit is None:
        return _("no trump")
    return f"{SUIT_SYMBOLS[suit]} {words().named_suit(suit)}"


def rank_label(rank: int) -> str:
    return words().rank_letter(RANKS[rank].replace("T", "10"))


#: The ranks in the plural, as a player says where the rows start: "the sixes", "les valets", "i fanti".
RANK_PLURALS = (
    N_("twos"),
    N_("threes"),
    N_("fours"),
    N_("fives"),
    N_("sixes"),
    N_("sevens"),
    N_("eights"),
    N_("nines"),
    N_("tens"),
    N_("jacks"),
    N_("queens"),
    N_("kings"),
    N_("aces"),
)


def points(x: Any) -> str:
    """A score as the language writes numbers (``-1 250``); an exact fraction (shared points) as it is."""
    return number(x) if isinstance(x, int) else str(x)


def signed(x: Any) -> str:
    """A score with its sign: ``+5``, ``-20``, ``+75/2`` (shared placement points stay exact fractions)."""
    return ("+" if x > 0 else "") + points(x)


#: The computer players, by strength: the CLI's ids, worded as a player would say them.
PLAYER_WORDS = {"random": N_("random"), "rule": N_("good player"), "search": N_("strong"), "expert": N_("expert")}


def option_word(identifier: str, english: bool = False) -> str:
    """An option, a value or a computer player as a player reads it: ``heart_lead`` -> "leading hearts",
    ``first_trick`` -> "not on the first trick" (`barbu.guide.ruleset_words`, the rules guide's own words;
    in English with ``english``: a record's words are language-neutral)."""
    w = ENGLISH if english else words()
    if identifier in PLAYER_WORDS:
        return w.gettext(PLAYER_WORDS[identifier])
    return option_label(identifier, w) if identifier in OPTION_NAMES else value_word(identifier, w)


def player_word(kind: str, english: bool = False) -> str:
    """A computer player as a player reads it: ``rule`` in the language, ``policy:runs/classic.npz`` as
    ``trained policy classic.npz`` (the file's name, not its folder), anything else as written."""
    name, colon, argument = kind.partition(":")
    if colon and name == "policy":
        template = "trained policy {file}" if english else _("trained policy {file}")
        return template.format(file=argument.replace("\\", "/").rsplit("/", 1)[-1])
    return option_word(kind, english)


# ---------------------------------------------------------------- seats
# Where the players sit: `barbu.core.places` (place, table_place, re-exported here); their words here.
PLACE_WORDS = {
    "South": N_("South"),
    "West": N_("West"),
    "North-west": N_("North-west"),
    "North": N_("North"),
    "North-east": N_("North-east"),
    "East": N_("East"),
}


def place_name(where: str) -> str:
    """A place at the table in the current language (``Ouest``)."""
    return _(PLACE_WORDS[where])


def seat_place(seat: int, players: int, me: int = 0) -> str:
    """A seat named by its place, from the chair of ``me`` (seat 0 by default): ``South``, ``West``…"""
    return place_name(table_place(seat, me, players))


def seat_name(seat: int, me: int, players: int) -> str:
    """``you``, or the seat's place at the table (``West``)."""
    if seat == me:
        # TRANSLATORS: the person at the table, as a name in lists and columns ("Dealer: you").
        return _("you")
    return seat_place(seat, players, me)


def computer_name(where: str | None, kind: str, english: bool = False) -> str:
    """The one name of a computer player wherever a person reads it: its place and its strength in
    words, ``West, good player`` (``Ouest, bon joueur``); its strength alone without a place.  In
    English with ``english`` (a record's words are language-neutral; its header keeps the engine spec)."""
    if ":" not in kind:  # search(samples=20) is a search player; policy:FILE keeps its file
        kind = kind.split("(")[0].strip()
    strength = player_word(kind, english)
    if not where:
        return strength
    if english:
        return f"{where}, {strength}"
    # TRANSLATORS: a computer player named by its place and its strength: "West, good player".
    return _("{place}, {player}").format(place=place_name(where), player=strength)


def seat_title(seat: int, me: int, players: int) -> str:
    name = seat_name(seat, me, players)
    return name[0].upper() + name[1:]


def typed_seats(text: str, me: int, players: int, names: Sequence[str] = ()) -> str:
    """A typed command whose players are named by place or by name ("double west north", "contre Ouest",
    "double Alice") read into the seat numbers of the engine's notation ("double 1 2"); the numbers
    themselves still read as they are (`typed_action` refuses them to a person: they move with his seat).  Places
    are understood in the player's language and in English."""
    seats: dict[str, int] = {}
    for s in range(players):
        where = table_place(s, me, players)
        seats[fold(where)] = seats[fold(place_name(where))] = s
    for s, name in enumerate(names):
        if name and len(name.split()) == 1:
            seats.setdefault(fold(name), s)
    first, *rest = text.split() or [""]
    if not rest:
        return text
    return " ".join([first, *(str(seats.get(fold(w.strip(",")), w)) for w in rest)])


def typed_action(game: Any, text: str, me: int, players: int, names: Sequence[str] = ()) -> Any:
    """The action a person typed in the current language, its players named by place or name (`typed_seats`).
    A refusal quotes his own words ("'double east' is not a card"), never the seat numbers they were read into."""
    read = typed_seats(text, me, players, names)
    try:
        action = parse_typed(game, read, current())
    except BarbuError as e:
        if read != text and e.message is not None and e.params.get("text") == read:
            raise type(e).of(e.message, **{**e.params, "text": " ".join(text.split())}) from None
        raise
    words_typed = text.split()
    if isinstance(action, Double) and any(w.strip(",").isdigit() for w in words_typed[1:]):
        example = f"{words_typed[0]} {place_name('West').lower()}"  # his own verb: "contre ouest"
        raise ParseError.of(PLACES_NOT_NUMBERS, text=" ".join(words_typed), example=example)
    return action


# ---------------------------------------------------------------- contract
def contract_label(info: RulesInfo, v: View) -> str:
    """``Trumps, ♥ hearts`` / ``Domino from the 7s`` / ``No queens``."""
    c = info.contract(v.contract)
    if c is None:
        return _("not chosen yet")
    name = words().contract(c.name)
    if c.trump:
        if v.phase == "trump":
            name = _("{contract} (trumps not named yet)").format(contract=name)
        elif v.trump is None:
            name = _("{contract}, no trump").format(contract=name)
        elif "trump" in c.name.lower() or "atout" in c.name.lower():  # "Trumps, ♥ hearts"
            name = _("{contract}, {suit}").format(contract=name, suit=suit_label(v.trump))
        else:  # "Salad, trumps ♥ hearts"
            name = _("{contract}, trumps {suit}").format(contract=name, suit=suit_label(v.trump))
    if c.kind == DOMINO:
        if v.rank is not None:
            name = _("{contract}, rows from the {ranks}").format(contract=name, ranks=_(RANK_PLURALS[v.rank]))
        elif c.open_any:
            name = _("{contract}, the first card sets the rank").format(contract=name)
    return name


def result_label(info: RulesInfo, r: DealResult) -> str:
    c = info.contract(r.contract)
    label = words().contract(c.name) if c else r.contract
    if c and c.trump:
        label = _("{contract}, {suit}").format(contract=label, suit=suit_label(r.trump))
    if c and c.kind == DOMINO and r.rank is not None:
        label = _("{contract} from the {ranks}").format(contract=label, ranks=_(RANK_PLURALS[r.rank]))
    return label


# ---------------------------------------------------------------- actions
def action_label(action: Any, v: View, info: RulesInfo) -> str:
    """What choosing ``action`` means, in words, for the seat of ``v``."""
    if isinstance(action, int) and not isinstance(action, bool):
        return f"{card_text(action)} — {card_name(action)}"
    if isinstance(action, Declare):
        c = info.contract(action.contract)
        if c is None:
            return str(action)
        name = words().contract(c.name)
        return f"{name} — {info.contract_help(c)}" if c.help else name
    if isinstance(action, NameTrump):
        if action.suit is None:
            return _("no trump (no suit is trumps)")
        return suit_label(action.suit)
    if isinstance(action, NameRank):
        # TRANSLATORS: {ranks} is a rank in the plural: "6 — rows start from the sixes".
        return _("{rank} — rows start from the {ranks}").format(
            rank=rank_label(action.rank), ranks=_(RANK_PLURALS[action.rank])
        )
    if isinstance(action, Double):
        return double_label(action, v)
    if isinstance(action, PassOn):
        return _("pass on {cards}").format(cards=" ".join(card_text(c) for c in sorted_cards(action.cards)))
    if isinstance(action, Lay):
        return _("lay {cards} — all at once").format(cards=" ".join(card_text(c) for c in sorted_cards(action.cards)))
    if isinstance(action, Pass):
        if any(isinstance(a, int) and not isinstance(a, bool) for a in v.legal):
            return _("pass — play no further card now")
        return _("pass — none of your cards fits the layout")
    return str(action)


def double_label(action: Double, v: View) -> str:
    if not action.targets:
        return _("pass — no double")
    # The verb once for the players it applies to in a row: "double West, North, East (dealer)", short enough
    # for the list of choices at 80 columns.
    parts = []
    last = None
    for t in sorted(action.targets):
        redouble = any(b.doubler == t and b.doubled == v.seat for b in v.doubles)
        who = seat_name(t, v.seat, v.players)
        if redouble == last:
            # TRANSLATORS: a further player doubled (or redoubled) in a list: "double West, North, East (dealer)".
            text = _("{who} (dealer)") if t == v.dealer else "{who}"
        elif t == v.dealer:
            text = _("redouble {who} (dealer)") if redouble else _("double {who} (dealer)")
        else:
            text = _("redouble {who}") if redouble else _("double {who}")
        parts.append(text.format(who=who))
        last = redouble
    return ", ".join(parts)


def action_short(action: Any) -> str:
    """A short form for the log line: ``Q♥``, ``contract no-queens``, ``double 1 3``."""
    if isinstance(action, int) and not isinstance(action, bool):
        return card_text(action)
    return str(action)


def doubling_notes(v: View, info: RulesInfo, legal: Iterable[Any]) -> list[str]:
    """The obligations and limits that bear on the person's doubling turn."""
    notes = []
    c = info.contract(v.contract)
    dealer = seat_name(v.dealer, v.seat, v.players)
    if v.seat == v.dealer:
        notes.append(_("You are the dealer: you never double, you may only redouble doubles you received."))
    elif c is not None and c.positive:
        notes.append(
            _("{contract} is a positive contract: only the dealer ({dealer}) may be doubled.").format(
                contract=words().contract(c.name), dealer=dealer
            )
        )
    obligation = info.rules.double_obligation
    if obligation and v.seat != v.dealer and v.declarer >= 0:
        made = v.doubles_made[v.seat]
        owed = max(0, obligation - made)
        left = v.series_left[v.declarer] + 1
        notes.append(
            " ".join(
                (
                    ngettext(
                        "Obligation: double the dealer {n} time in his series —",
                        "Obligation: double the dealer {n} times in his series —",
                        obligation,
                    ).format(n=number(obligation)),
                    _("you have made {made}, you owe {owed};").format(made=number(made), owed=number(owed)),
                    ngettext(
                        "{n} deal of the series left, this one included.",
                        "{n} deals of the series left, this one included.",
                        left,
                    ).format(n=number(left)),
                )
            )
        )
    doubles = [a for a in legal if isinstance(a, Double)]
    if doubles and v.seat != v.dealer and all(v.dealer in d.targets for d in doubles):
        notes.append(
            _(
                "You must double the dealer ({dealer}) now: you owe as many doubles as there "
                "are deals left in his series."
            ).format(dealer=dealer)
        )
    return notes


def ordinal(n: int) -> str:
    """``1st``, ``2nd`` (``1er``, ``2e``; ``1º``)."""
    if n == 1:
        return _("{n}st").format(n=n)
    if n == 2:
        return _("{n}nd").format(n=n)
    if n == 3:
        return _("{n}rd").format(n=n)
    return _("{n}th").format(n=n)


# ---------------------------------------------------------------- Chinese poker
ROW_WORDS = (N_("back"), N_("middle"), N_("front"))
CATEGORY_WORDS = {
    "high card": N_("high card"),
    "pair": N_("pair"),
    "two pair": N_("two pair"),
    "three of a kind": N_("three of a kind"),
    "straight": N_("straight"),
    "flush": N_("flush"),
    "full house": N_("full house"),
    "four of a kind": N_("four of a kind"),
    "straight flush": N_("straight flush"),
}


def row_name(row: int) -> str:
    """A Chinese poker row: back, middle, front."""
    return _(ROW_WORDS[row])


def row_category(mask: int) -> str:
    if not mask:
        return ""
    name = CATEGORY_NAMES[rank_of(mask)[0]]
    return _(CATEGORY_WORDS[name]) if name in CATEGORY_WORDS else name


def forced_choice(legal: Any) -> Any | None:
    """The one thing a player may do now, when there is only one (None when there is a real choice)."""
    if isinstance(legal, Arrangements) or len(legal) != 1:
        return None
    return legal[0]


def forced_note(action: Any, v: View, info: RulesInfo) -> str:
    """Why a decision made itself, in words: "You pass: no card can be played", "No double possible: you pass".

    Other seats are named by their place at the table ("West").
    """
    if isinstance(action, Pass):
        c = info.contract(v.contract)
        if c is not None and c.fixed_rank is not None:
            return _("You chap (pass): no card can be played.")
        return _("You pass: no card can be played.")
    if isinstance(action, Double):
        if not action.targets:
            return _("No double possible: you pass.")
        whom = ", ".join(seat_name(t, v.seat, v.players) for t in sorted(action.targets))
        return _("You double {whom}: your only possible choice.").format(whom=whom)
    if isinstance(action, int) and not isinstance(action, bool):
        return _("You play {card}: your only legal card.").format(card=card_text(action))
    if isinstance(action, Declare):
        return _("You declare {contract}: the only choice left.").format(contract=info.contract_name(action.contract))
    return _("Your only choice, made for you: {choice}.").format(choice=action_label(action, v, info))


def doubles_short(v: View, doubles: Iterable[Any] | None = None) -> str:
    """Doubles in force (or ``doubles``, those of a finished deal), in words from the viewer's seat:
    "West doubled you; you redoubled"."""
    doubles = tuple(v.doubles if doubles is None else doubles)
    if not doubles:
        return _("none")

    return ". ".join(double_words(v, b) for b in doubles)


def doubles_arrows(v: View, doubles: Iterable[Any] | None = None) -> str:
    """Doubles in few words, for a short screen: "West→North ×2 · West→you" (×2: redoubled)."""
    doubles = tuple(v.doubles if doubles is None else doubles)
    if not doubles:
        return _("none")

    def who(s: int) -> str:
        return seat_name(s, v.seat, v.players)

    return " · ".join(f"{who(b.doubler)}→{who(b.doubled)}" + (" ×2" if b.redoubled else "") for b in doubles)


def double_words(v: View, b: Any) -> str:
    """One double (and its redouble) from the viewer's seat: "West doubled you; you redoubled"."""

    def who(s: int) -> str:
        return seat_name(s, v.seat, v.players)

    if b.doubler == v.seat:
        text = _("You doubled {target}").format(target=who(b.doubled))
    elif b.doubled == v.seat:
        text = _("{who} doubled you").format(who=who(b.doubler))
    else:
        text = _("{who} doubled {target}").format(who=who(b.doubler), target=who(b.doubled))
    if b.redoubled:
        text += "; " + (_("you redoubled") if b.doubled == v.seat else _("{who} redoubled").format(who=who(b.doubled)))
    return text


def settlement_lines(v: View, base: Any, doubles: Any) -> list[str]:
    """How each double of a finished deal was settled, one line each: "West doubled you: you pay 24 to West"."""
    lines = []
    for b, (payer, receiver, amount, _redoubled) in zip(doubles, settlements(base, doubles)):
        what = double_words(v, b)
        if amount == 0:
            lines.append(_("{double}: level, nothing changes hands").format(double=what))
        elif payer == v.seat:
            lines.append(
                _("{double}: you pay {n} to {who}").format(
                    double=what, n=points(amount), who=seat_name(receiver, v.seat, v.players)
                )
            )
        elif receiver == v.seat:
            lines.append(
                _("{double}: {payer} pays {n} to you").format(
                    double=what, payer=seat_name(payer, v.seat, v.players), n=points(amount)
                )
            )
        else:
            lines.append(
                _("{double}: {payer} pays {n} to {who}").format(
                    double=what,
                    payer=seat_name(payer, v.seat, v.players),
                    n=points(amount),
                    who=seat_name(receiver, v.seat, v.players),
                )
            )
    return lines
