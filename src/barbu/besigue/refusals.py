"""Bésigue's refusals: stable codes and English msgids, and how its own parameters are worded.

Bésigue's card types (0..31, ``suit * 8 + rank`` over 7 8 9 J Q K 10 A) are the ``bcard``
kind; a combination is the ``meld`` kind, given by its English name (MELD_NAMES).
"""

from typing import Any

from ..core.words import N_, SUIT_SYMBOLS, Words, kind, message
from .cards import RANKS


@kind("bcard")
def _bcard(w: Words, t: int) -> str:
    return w.face(RANKS[t % 8], t // 8)


@kind("meld_keys")
def _meld_keys(w: Words, kinds: Any) -> str:
    """Combination keys as a player types them: the keys in English, the typed words elsewhere ("mariage")."""
    return ", ".join(k if w.lang == "en" else w.pgettext("typed", k).split("|")[0].strip() for k in kinds)


@kind("symbol")
def _symbol(w: Words, s: int) -> str:
    return SUIT_SYMBOLS[s]


@kind("meld")
def _meld(w: Words, name: Any) -> str:
    return w.pgettext("combination", name)


EMPTY_ACTION = message(
    "besigue-empty-action", N_("empty action; write e.g. play QS, declare bezique QS JD, no-declaration")
)
UNKNOWN_COMBINATION = message(
    "unknown-combination", N_("unknown combination {text!r}; combinations are: {kinds:meld_keys}")
)
SHUFFLE_NUMBERS = message("shuffle-numbers", N_("a shuffle lists the 64 card numbers 0..63"))
SHUFFLE_ONCE = message("shuffle-once", N_("a shuffle lists each card number 0..63 once"))
UNREADABLE_ACTION = message(
    "besigue-unreadable-action",
    N_(
        "cannot read the action {text!r}; write e.g. play QS, play QS* (from the table), "
        "declare bezique QS JD, no-declaration, exchange 7H, show 7H"
    ),
)

FIRST_DEALER_NOT_DUE = message("first-dealer-not-due", N_("a first-dealer chance event is not due now"))
SHUFFLE_NOT_DUE = message("shuffle-not-due", N_("a shuffle chance event is not due now"))
BEING_DEALT = message("being-dealt", N_("the cards are being dealt; no player acts now"))
MUST_DECLARE_NOT_PLAY = message(
    "must-declare-not-play", N_("the trick's winner must declare a combination or pass, not play")
)
TIME_TO_PLAY = message(
    "besigue-time-to-play", N_("it is time to play a card; combinations are declared after winning a trick")
)
SEVEN_NOT_EXCHANGED = message(
    "seven-not-exchanged",
    N_("in these rules the 7 of trumps scores when drawn from the stock; it is not exchanged or shown"),
)
NOT_TRUMP_SEVEN = message("not-trump-seven", N_("{card:bcard} is not the 7 of trumps"))
NO_UNSHOWN = message("no-unshown", N_("you hold no unshown {card:bcard}"))
TURN_UP_DRAWN = message("turn-up-drawn", N_("the turn-up has been drawn; there is nothing to exchange"))
TURN_UP_SEVEN = message("turn-up-seven", N_("the turn-up is itself a 7"))
NOT_DECLARED = message("not-declared", N_("you have no {card:bcard} among your declared cards"))
NOT_HELD = message("besigue-not-held", N_("you do not hold {card:bcard}"))
NOT_HELD_ON_TABLE = message(
    "not-held-on-table", N_("you do not hold {card:bcard} in hand (it lies on the table: play it as {slot}*)")
)
NOT_IN_HAND = message("not-in-hand", N_("you do not hold {card:bcard} in hand"))
HEAD_THE_TRICK = message(
    "head-the-trick", N_("the stock is empty: you must head the trick with a higher {suit:symbol}")
)
ENDGAME_FOLLOW = message("endgame-follow", N_("the stock is empty: you must follow suit ({card:bcard} was led)"))
ENDGAME_TRUMP = message("endgame-trump", N_("the stock is empty: you cannot follow suit, so you must trump"))
DECLARE_FROM_HAND = message("declare-from-hand", N_("a declaration must take at least one card from your hand"))
ALREADY_SERVED = message(
    "already-served",
    N_(
        "your declared {card:bcard} has already served in {name:meld}; "
        "a card may serve again only in a combination of another kind"
    ),
)

# The shape of a combination.
FOUR_OF_A_RANK = message("four-of-a-rank", N_("{name:meld} needs four cards of that rank"))
MARRIAGE_SHAPE = message("marriage-shape", N_("a marriage is a king and a queen of one suit"))
MARRIAGE_IN_TRUMPS = message("marriage-in-trumps", N_("a king and queen of trumps make a trump marriage"))
TRUMP_MARRIAGE_SHAPE = message("trump-marriage-shape", N_("a trump marriage is the king and queen of trumps"))
BESIGUE_SHAPE = message("besigue-shape", N_("a bésigue is the queen of spades and the jack of diamonds"))
DOUBLE_BESIGUE_SHAPE = message(
    "double-besigue-shape", N_("a double bésigue is both queens of spades and both jacks of diamonds")
)
QUINT_SHAPE = message("quint-shape", N_("a quint major is the ace, ten, king, queen and jack of trumps"))
SHAPES = {
    "trump-marriage": TRUMP_MARRIAGE_SHAPE,
    "bezique": BESIGUE_SHAPE,
    "double-bezique": DOUBLE_BESIGUE_SHAPE,
    "quint": QUINT_SHAPE,
}

# Rulesets (option names and values stay as typed).
NOT_A_BESIGUE_RULESET = message(
    "not-a-besigue-ruleset",
    N_(
        "cannot read the ruleset {text!r}; write a preset such as besigue, "
        "optionally with options: besigue(hand=8, target=1500)"
    ),
)
UNKNOWN_BESIGUE_PRESET = message(
    "unknown-besigue-preset", N_("unknown Bésigue preset {name!r}; choose from: {presets:list}")
)
UNKNOWN_BESIGUE_OPTION = message(
    "unknown-besigue-option", N_("unknown Bésigue option {text!r}; options are: {options:list}")
)
BESIGUE_POSITIVE = message("besigue-positive", N_("{name} must be a positive whole number, not {value!r}"))
BESIGUE_CHOICES = message("besigue-choices", N_("{name} cannot be {value!r}; choose from: {choices:list}"))
