"""The scorekeeper's refusals and flags as coded messages, so every front end words them in its player's language.

A `KeeperError` made with `KeeperError.of(MESSAGE, **params)` carries ``code`` and raw ``params`` like the
engine's refusals (docs/i18n.md); its ``str`` is the English sentence it always was.  A refusal of the
engine met while replaying an entry rides along as ``cause`` and is worded anew in the reader's language.
Flags on deals are `Note` strings: English as text, worded anew with `Note.worded`.
``word_keeper_error(e, lang)`` (and ``barbu.i18n.word_error``) give a front end the sentence in a language.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..core.errors import BarbuError
from ..core.words import ENGLISH, N_, NN_, Message, Words, kind
from ..i18n import word_error


@kind("name")
def _name(w: Words, text: str) -> str:
    """An English msgid carried as a parameter (a question's label), worded in the reader's language."""
    return w.gettext(text)


@kind("lname")
def _lname(w: Words, text: str) -> str:
    """The same, in lower case, inside a sentence."""
    return w.gettext(text).lower()


class KeeperError(ValueError):
    """An entry the rules or the deck refuse.  ``deal`` is the 1-based deal it concerns (None: the game)."""

    code: str | None = None
    template: Message | None = None
    params: dict[str, Any] = {}
    cause: BaseException | None = None  # the engine's own refusal, worded anew in each language
    names: tuple[str, ...] = ()  # the players, who replace the engine's seat numbers

    def __init__(self, message: str, deal: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.deal = deal

    @classmethod
    def of(cls, template: Message, deal: int | None = None, **params: Any) -> "KeeperError":
        """The refusal ``template`` with raw ``params``; its message is the English wording."""
        e = cls(ENGLISH.render(template, params), deal)
        e.code, e.template, e.params = template.code, template, params
        return e

    @classmethod
    def wrap(
        cls, cause: BaseException, names: Sequence[str] = (), template: "Message | None" = None, **params: Any
    ) -> "KeeperError":
        """The engine's refusal ``cause``, met feeding an entry, inside ``template`` (its field ``{error}``)."""
        e = cls.of(template or ENGINE, error=seats_named(str(cause), names, ENGLISH), **params)
        e.cause, e.names = cause, tuple(names)
        return e

    def worded(self, words: Words, deal: bool = True) -> str:
        """The refusal in the language of ``words``, with its deal as ``str`` gives it in English (``deal``
        False: without, as ``message`` is)."""
        if self.template is None:
            text = self.message
        else:
            params = dict(self.params)
            if self.cause is not None:
                params["error"] = seats_named(_engine_words(self.cause, words), self.names, words)
            text = words.render(self.template, params)
        return words.render(IN_DEAL, {"deal": self.deal, "text": text}) if self.deal and deal else text

    def __str__(self) -> str:
        return f"deal {self.deal}: {self.message}" if self.deal else self.message


class OutcomeError(KeeperError):
    """Answers that cannot describe a real deal; the message says why in plain words."""


class Note(str):
    """A flag on a deal: its English text, and its code and parameters to word it in another language."""

    template: Message | None = None
    params: dict[str, Any] = {}

    @classmethod
    def of(cls, template: Message, **params: Any) -> "Note":
        note = cls(ENGLISH.render(template, params))
        note.template, note.params = template, params
        return note

    def worded(self, words: Words) -> str:
        return words.render(self.template, self.params) if self.template else str(self)


def warning_notes(notes: "Sequence[str]") -> list[str]:
    """The notes on a deal that warn (a missed doubling obligation…): a deal nobody doubled is not played,
    which its row already says, so that note is no warning."""
    return [x for x in notes if getattr(x, "template", None) is not NOT_PLAYED]


def word_note(note: str, words: Words) -> str:
    """A flag in the language of ``words`` (a plain string, read back from a file, stays as it is)."""
    return note.worded(words) if isinstance(note, Note) else note


def word_keeper_error(e: BaseException, lang: str | None = "en") -> str:
    """Any error a front end meets keeping scores, in ``lang``: the keeper's, the engine's, or its English."""
    return word_error(e, lang)


def _engine_words(e: BaseException, words: Words) -> str:
    if isinstance(e, BarbuError) and e.message is not None:
        return words.render(e.message, e.params)
    return str(e)


def seats_named(text: str, names: Sequence[str], words: Words) -> str:
    """The engine names seats by number ("seat 2"); the keeper names the players."""
    if not names:
        return text
    # TRANSLATORS: the words before a seat number in the engine's refusals ("la place 2", "il posto 2"),
    # article included: the scorekeeper replaces them and the number with the player's name
    seat = re.escape(words.pgettext("keeper", "seat"))
    return re.sub(
        rf"\b{seat} (\d)\b", lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text
    )


# ---------------------------------------------------------------- the messages
#: The keeper's messages by code (kept apart from the engine's `barbu.core.words.MESSAGES`: they live in the
#: keeper's catalog, not the engine's).
MESSAGES: dict[str, Message] = {}


def message(code: str, text: "str | tuple[str, str]", count: str = "n") -> Message:
    """Define (once) the keeper's message ``code``: a template, or an NN_ pair for a count."""
    singular, plural = (text, None) if isinstance(text, str) else text
    m = Message(code, singular, plural, count)
    if MESSAGES.setdefault(code, m) != m:
        raise ValueError(f"message code {code!r} defined twice with different texts")
    return m


IN_DEAL = message("keeper-in-deal", N_("deal {deal:count}: {text}"))
ENGINE = message("keeper-engine", N_("{error}"))
BY_PLAYER = message("keeper-by-player", N_("{who}: {error}"))
ABOUT = message("keeper-about", N_("{what:name}: {error}"))
CUT_ERROR = message("keeper-cut-error", N_("cut {text}: {error}"))
ROWS_ERROR = message("keeper-rows-error", N_("{name}'s rows: {error}"))

# The game
PLAYERS_NAMES = message(
    "keeper-players-names",
    N_("{preset} is played by {players:count} players: give {players:count} names, not {given:count}"),
)
OWN_NAMES = message("keeper-own-names", N_("each player needs a name of his own"))
FIRST_DEALER = message("keeper-first-dealer", N_("the first dealer is one of the {n:count} players"))
BESIGUE_PLAYERS = message("keeper-besigue-players", N_("Bésigue is played by two players, each with a name of his own"))
BESIGUE_FIRST = message("keeper-besigue-first", N_("the first dealer is one of the two players"))
NOTHING_TO_UNDO = message("keeper-nothing-to-undo", N_("there is nothing to undo"))
NO_SUCH_DEAL = message(
    "keeper-no-such-deal",
    NN_("there is no deal {number}: {n:count} deal(s) entered", "there is no deal {number}: {n:count} deal(s) entered"),
)
GAME_OVER = message("keeper-game-over", N_("the game is over after {n:count} deals: there is no deal {next:count}"))
INCOMPLETE = message("keeper-incomplete", N_("the deal is not complete: {ask} is missing"))
NOT_SAVED = message("keeper-not-saved", N_("this is not a game saved by the barbu scorekeeper"))
NEWER = message("keeper-newer", N_("this game was saved by a newer scorekeeper (version {version})"))
NOT_LISTS = message("keeper-not-lists", N_("the saved game's players or deals are not lists"))
TOO_LARGE = message("keeper-too-large", N_("this file is too large to be a kept game"))
NOT_JSON = message("keeper-not-json", N_("cannot read this game: {error}"))
NOT_CSV = message("keeper-not-csv", N_("this is not a CSV file: {error}"))
NOT_OUR_CSV = message(
    "keeper-not-our-csv", N_("this CSV was not written by the barbu scorekeeper: its first row names the game")
)
CSV_DEALER = message("keeper-csv-dealer", N_("the first dealer {name} is not one of the players"))
CSV_ROW = message("keeper-csv-row", N_("row {row:count}: its last column is not the deal's entry"))
RECORD_INCONSISTENT = message(
    "keeper-record-inconsistent", N_("this match record contradicts its own play, so it is not kept: {problem}")
)

# An entry's shape
NAMED_ANSWERS = message("keeper-named-answers", N_("a deal is entered as a set of named answers"))
UNKNOWN_FIELD = message("keeper-unknown-field", N_("unknown field {field}"))
UNKNOWN_FIELDS = message("keeper-unknown-fields", N_("unknown field(s) {fields}"))
NOT_A = message("keeper-not-a", N_("{field}: {value} is not {what:name}"))
SHAPES = {
    "contract": N_("a contract's name"),
    "trump": N_("a suit (S, H, D, C) or none"),
    "rank": N_("a rank such as 7 or J"),
    "doubles": N_("a list of doubles"),
    "set_aside": N_("the cards set aside, like 7C 2D"),
    "dealer": N_("a player"),
    "cuts": N_("a list of the cards cut, like 5S or Joker"),
    "outcome": N_("the answers"),
    "note": N_("a text"),
}
NOT_A_CUT = message("keeper-not-a-cut", N_("cuts: {value} is not a card of the Unused Pack"))

# Dealer, cards set aside, the Silly Round's cuts
DEALER_PLAYER = message("keeper-dealer-player", N_("the dealer is one of the players, not {value}"))
WRONG_DEALER = message("keeper-wrong-dealer", N_("{dealer} deals this one, not {name}"))
CARDS_SET_ASIDE = N_("the cards set aside")
NAMED_TWICE = message("keeper-named-twice", N_("{what:name}: {card:card} is named twice"))
SET_ASIDE_COUNT = message(
    "keeper-set-aside-count",
    NN_(
        "with {n:count} players {k:count} card(s) are set aside face up: name {k:count} card(s) of the deck",
        "with {n:count} players {k:count} card(s) are set aside face up: name {k:count} card(s) of the deck",
    ),
    "k",
)
NONE_SET_ASIDE = message("keeper-none-set-aside", N_("with {n:count} players no card is set aside"))
NO_CHOICE = message(
    "keeper-no-choice",
    N_(
        "{name} can choose no contract with {cards:cards} set aside: the cards are dealt again "
        "(enter the new deal's set-aside cards)"
    ),
)
CUTS_MISSING = message("keeper-cuts-missing", N_("the cuts of the Unused Pack are missing"))
TOO_MANY_CUTS = message(
    "keeper-too-many-cuts",
    NN_(
        "{n:count} cut(s) more than the Silly Round needed for this deal",
        "{n:count} cut(s) more than the Silly Round needed for this deal",
    ),
)

# Contract, trumps, rank, doubles
SETTLED = message("keeper-settled", N_("the contract is already settled"))
NO_TRUMPS = message("keeper-no-trumps", N_("{contract:contract} has no trumps to name"))
NO_TRUMPS_DEAL = message("keeper-no-trumps-deal", N_("this deal has no trumps to name"))
NO_RANK = message("keeper-no-rank", N_("{contract:contract} has no starting rank to name"))
NO_RANK_DEAL = message("keeper-no-rank-deal", N_("this deal has no starting rank to name"))
NO_DOUBLING = message("keeper-no-doubling", N_("there is no doubling in this game"))
DOUBLES_AFTER = message("keeper-doubles-after", N_("the doubles come after the contract"))
NOT_PLAYED_OUTCOME = message(
    "keeper-not-played-outcome",
    N_("this deal is not played (nobody doubled a negative contract), so it has no outcome to enter"),
)
DOUBLES_LIST = message("keeper-doubles-list", N_("the doubles are a list of [doubler, doubled, redoubled]"))
NOT_A_DOUBLE = message(
    "keeper-not-a-double", N_("{value} is not a double: write [doubler, doubled] or [doubler, doubled, redoubled]")
)
NOT_A_PLAYER = message("keeper-not-a-player", N_("{value} is not one of the players"))
DOUBLE_HIMSELF = message("keeper-double-himself", N_("{name} cannot double himself"))
ONCE_ONLY = message("keeper-once-only", N_("{a} and {b} have business once only: a double, perhaps redoubled"))
NOT_MADE = message("keeper-not-made", N_("{a}'s double on {b} could not be made"))
NO_REDOUBLE = message("keeper-no-redouble", N_("{b} could not redouble {a}"))

# The outcome
OUTCOME_MISSING = message("keeper-outcome-missing", N_("the outcome of the deal is missing"))
NOT_NEEDED = message("keeper-not-needed", N_("{contract:contract} does not need {extra}; it asks for: {keys}"))
MISSING = message("keeper-missing", N_("missing: {label:name}"))
MISSING_LAST = message(
    "keeper-missing-last", N_("missing: Who took each of the last {n:count} tricks (the last one last)?")
)
MISSING_CARD = message("keeper-missing-card", N_("missing: Who took the {card:card}?"))
NOT_ONE_OF = message("keeper-not-one-of", N_("{what:name}: {value} is not one of the players ({names:list})"))
CARD_NOT_ONE_OF = message(
    "keeper-card-not-one-of", N_("Who took the {card:card}: {value} is not one of the players ({names:list})")
)
FINISHING_ORDER = N_("finishing order")
LAST_TRICKS = N_("last tricks")
ONE_EACH = message("keeper-one-each", N_("{label:name}: give one number for each of the {n:count} players"))
NOT_WHOLE = message("keeper-not-whole", N_("{label:name}: {name}'s {value} is not a whole number of 0 or more"))
AT_MOST = message("keeper-at-most", N_("{label:name}: {name} cannot have {value:count}; at most {most:count}"))
ADD_UP = message(
    "keeper-add-up",
    N_("{label:name} add up to {sum:count}, not {total:count}: {label:lname} must account for all {total:count}"),
)
ORDER_LIST = message("keeper-order-list", N_("the finishing order is a list of players"))
ORDER_TWICE = message("keeper-order-twice", N_("the finishing order names a player twice"))
ORDER_NEEDS = message("keeper-order-needs", N_("the finishing order needs the first {n:count} players out"))
ROWS_EACH = message("keeper-rows-each", N_("give the rows of each of the {n:count} players"))
ROWS_SIZES = message(
    "keeper-rows-sizes",
    N_(
        "{name}'s rows have {back:count}, {middle:count} and {front:count} cards: "
        "the back and middle rows have 5, the front row 3"
    ),
)
ROWS_TWICE = message("keeper-rows-twice", N_("{name}'s rows name a card twice"))
ROWS_SHARED = message("keeper-rows-shared", N_("{card:card} is in two players' rows"))
HEARTS_SHORT = message(
    "keeper-hearts-short",
    NN_(
        "{name} took {cards:cards} but has only {n:count} heart(s) counted: the hearts count includes every "
        "heart taken",
        "{name} took {cards:cards} but has only {n:count} heart(s) counted: the hearts count includes every "
        "heart taken",
    ),
)
HEARTS_MISMATCH = message(
    "keeper-hearts-mismatch", N_("the hearts counted do not match the hearts named: recount them")
)
NAME_LAST_PLAYERS = message(
    "keeper-name-last-players",
    NN_(
        "Who took the last trick? name {n:count} player(s)",
        "Who took each of the last {n:count} tricks (the last one last) name {n:count} player(s)",
    ),
)
LONGEST = message(
    "keeper-longest",
    N_(
        "the longest suits add up to {sum:count}: with {cards:count} cards taken in all, "
        "they add up to at least {least:count}"
    ),
)
PIRANHA = message("keeper-piranha", N_("a Piranha needs the King of hearts taken"))
NO_TRICK = message("keeper-no-trick", N_("{name} took no trick, so took no card"))
TRICKS_HOLD = message(
    "keeper-tricks-hold",
    NN_(
        "{name} took {n:count} trick(s), which hold {cards:count} cards, not the {taken:count} penalty cards counted",
        "{name} took {n:count} trick(s), which hold {cards:count} cards, not the {taken:count} penalty cards counted",
    ),
)
TRICKS_LAST = message(
    "keeper-tricks-last",
    NN_(
        "{name} took {n:count} trick(s), not the {lasts:count} last one(s) named",
        "{name} took {n:count} trick(s), not the {lasts:count} last one(s) named",
    ),
)

# Bésigue
MELDS_EACH = message("keeper-melds-each", N_("give each player's declarations, as how many of each kind"))
NOT_A_MELD = message("keeper-not-a-meld", N_("{kind} is not a declaration; declarations are: {kinds:list}"))
MELD_COUNT = message("keeper-meld-count", N_("{name}: {value} {meld:meld} is not a count from 0 to {most:count}"))
TWO_SEVENS = message("keeper-two-sevens", N_("there are only two sevens of trumps"))
BRISQUES_SUM = message(
    "keeper-brisques-sum", N_("the brisques add up to {sum:count}, not {total:count}: every one is won in some trick")
)
LAST_ONE_OF = message("keeper-last-one-of", N_("who took the last trick: one of {a} and {b}"))
ALTERNATES = message("keeper-alternates", N_("{name} deals this one: the deal alternates"))
ONE_NUMBER_EACH = message("keeper-one-number-each", N_("{label:name}: one number for each player"))
COUNT_FROM = message("keeper-count-from", N_("{label:name}: {name}'s {value} is not a count from 0 to {most}"))

# Where a Scottish deal stands
SILLY_ROUND = message("keeper-where-silly", N_("Set {set:count}, Silly Round"))
PLAYER_ROUND = message("keeper-where-round", N_("Set {set:count}, Player Round {round:count}"))

# Flags on deals
NOT_PLAYED = message("keeper-flag-not-played", N_("not played: nobody doubled, the points are shared"))
DID_NOT_DOUBLE = message(
    "keeper-flag-did-not-double",
    NN_(
        "{name} did not double {dealer} although the obligation required it "
        "({owed:count} double(s) still owed with {left:count} deal(s) left)",
        "{name} did not double {dealer} although the obligation required it "
        "({owed:count} double(s) still owed with {left:count} deal(s) left)",
    ),
    "owed",
)
FOULED = message(
    "keeper-flag-fouled", N_("{name}'s rows are fouled (back ≥ middle ≥ front is broken): they lose every row")
)
