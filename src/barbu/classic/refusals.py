"""The Barbu family's refusals: stable codes and English msgids (worded by barbu.core.words)."""

from typing import Any

from ..core.words import N_, NN_, Words, kind, message


@kind("contract_keys")
def _contract_keys(w: Words, contracts: Any) -> str:
    """The contracts one may name, as (key, English name) pairs: the keys typed in English, the names elsewhere."""
    return ", ".join(key if w.lang == "en" else w.contract(name) for key, name in contracts)


# Card play.
FOLLOW_SUIT = message("follow-suit", N_("you must follow suit: play a {suit:suit1}"))
MUST_TRUMP = message("must-trump", N_("you cannot follow {suit:suit}, so you must trump"))
MUST_OVERTRUMP_LED = message(
    "must-overtrump-led", N_("trumps were led: you must play a trump higher than every trump in the trick")
)
MUST_OVERTRUMP = message("must-overtrump", N_("the trick has been trumped: you must overtrump if you can"))
NO_HEART_LEAD = message("no-heart-lead", N_("hearts may not be led while you hold another suit"))
NO_HEART_LEAD_UNTIL_DISCARD = message(
    "no-heart-lead-until-discard",
    N_("hearts may not be led while you hold another suit until a heart has been discarded"),
)
NO_HEART_LEAD_FIRST_TRICK = message(
    "no-heart-lead-first-trick", N_("hearts may not be led while you hold another suit on the first trick")
)
DOMINO_ROW_NOT_STARTED = message(
    "domino-row-not-started",
    N_("{card:card} cannot be placed: the {suit:suit} row has not been started; it must open with the {rank:rank}"),
)
DOMINO_NOT_NEXT = message(
    "domino-not-next",
    N_(
        "{card:card} cannot be placed: a card must be next in rank to an end of its suit's row, or of the starting rank"
    ),
)
DOMINO_PASS_WITH_CARD = message(
    "domino-pass-with-card", N_("you may pass only when you cannot play: you have a card that fits")
)
TIME_TO_PLAY = message("time-to-play", N_("it is time to play a card, not {action}"))
TIME_TO_PLAY_DOMINO = message("time-to-play-domino", N_("it is time to play a card or pass in Domino, not {action}"))

# Chinese poker.
TIME_TO_ARRANGE = message(
    "time-to-arrange", N_("it is time to arrange your cards into rows of 5, 5 and 3, not {action}")
)
ROW_SIZES = message(
    "row-sizes", N_("the rows must hold 5, 5 and 3 cards, not {back:count}, {middle:count} and {front:count}")
)
ARRANGE_TEXT = message(
    "arrange-text",
    N_(
        "an arrangement is three rows: back (5 cards), middle (5) and front (3), "
        "like 'arrange AKQJT.-.-.- -.AKQJT.-.- -.-.AKQ.-'"
    ),
)
ROWS_NOT_HAND = message("rows-not-hand", N_("the three rows must hold exactly the 13 cards of your hand, each once"))

# Doubling.
NOT_A_DOUBLE = message("not-a-double", N_("it is the doubling round: {action} is not a doubling action"))
DOUBLE_SELF = message("double-self", N_("you cannot double yourself"))
NO_SUCH_SEAT = message("no-such-seat", N_("there is no {seat:seat}"))
DEALER_NEVER_DOUBLES = message(
    "dealer-never-doubles", N_("the dealer never doubles; he may only redouble doubles he received")
)
POSITIVE_ONLY_DEALER = message(
    "positive-only-dealer", N_("at {name:contract}, a positive contract, only the dealer may be doubled")
)
ONLY_REDOUBLE_NOW = message(
    "only-redouble-now", N_("after the round you may only redouble doubles you received after your turn")
)
ALREADY_BUSINESS = message("already-business", N_("you already have business with {seat:seat}"))
MUST_DOUBLE_DEALER = message(
    "must-double-dealer",
    NN_(
        "you must double the dealer ({seat:seat}) now: you owe {n:count} double(s) and only this many deals "
        "are left in the series",
        "you must double the dealer ({seat:seat}) now: you owe {n:count} double(s) and only this many deals "
        "are left in the series",
    ),
)
DOUBLE_NOT_ALLOWED = message("double-not-allowed", N_("{action} is not allowed now"))

# The first dealer and the deal.
NOT_A_DRAW = message("not-a-draw", N_("the first dealer is being drawn: {action} is not a draw"))
DRAW_SHAPE = message("draw-shape", N_("a draw is {n:count} different cards of the deck, one per seat"))
NOT_A_DEAL = message("not-a-deal", N_("the cards are being dealt: {action} is not a deal"))
DEAL_HANDS = message("deal-hands", N_("a deal has {n:count} hands"))
DEAL_HAND_SIZE = message("deal-hand-size", N_("each hand is {n:count} different cards"))
DEAL_OUTSIDE_DECK = message("deal-outside-deck", N_("a deal uses only cards of the deck"))
NO_DEAL_PLAYED = message("no-deal-played", N_("no deal is being played"))

# The declarer's choices.
NAME_A_CONTRACT = message("name-a-contract", N_("the declarer must name a contract, not {action}"))
UNKNOWN_CONTRACT = message(
    "unknown-contract", N_("{contract!r} is not a contract of this game; contracts are: {contracts:contract_keys}")
)
CONTRACT_PLAYED = message("contract-played", N_("{name:contract} has already been declared in this series"))
CONTRACT_SET_ASIDE = message(
    "contract-set-aside", N_("{name:contract} cannot be chosen this deal: {cards:cards} is set aside")
)
NAME_TRUMP = message("name-trump", N_("the declarer must name the trump suit, not {action}"))
NO_TRUMP_FORBIDDEN = message("no-trump-forbidden", N_("no-trump is not allowed in this game: name a suit"))
BAD_TRUMP = message("bad-trump", N_("a trump suit is one of S, H, D, C"))
NAME_RANK = message("name-rank", N_("the declarer must name the starting rank, not {action}"))
RANK_NOT_IN_DECK = message("rank-not-in-deck", N_("the starting rank must be a rank of the deck"))

# Typed actions.
NOT_A_CONTRACT_TEXT = message(
    "not-a-contract-text", N_("{text!r} is not a contract; contracts are: {contracts:contract_keys}")
)
NO_ACTION_EXPECTED = message("no-action-expected", N_("the match is over: no action is expected"))
NOT_A_DOUBLING_CALL = message(
    "not-a-doubling-call",
    N_("{text!r} is not a doubling call: write pass, double followed by the players you double, family or maximum"),
)
SAY_WHOM = message("say-whom", N_("{text!r}: say whom you double after the word double, or pass"))
#: A person names the players he doubles; seat numbers are the record's and the APIs' (they move with his seat).
PLACES_NOT_NUMBERS = message(
    "places-not-numbers", N_("{text!r}: name the players you double by their places or names, like {example}")
)

# Rulesets: a preset, an option or a value that is not allowed (option names and values stay as typed).
NOT_A_RULESET = message(
    "not-a-ruleset",
    N_(
        "{text!r} is not a ruleset; write a preset name, optionally followed by "
        "options in parentheses, like classic(rotation=quick)"
    ),
)
NOT_OPTION_VALUE = message("not-option-value", N_("{item!r} in {text!r} is not of the form option=value"))
UNKNOWN_OPTION = message("unknown-option", N_("unknown option {name!r}; options are: {options:list}"))
OPTION_CHOICES = message("option-choices", N_("option {name}: {value!r} is not allowed; use {choices:list}"))
OPTION_BOOL = message("option-bool", N_("option {name}: {value!r} is not allowed; use true or false"))
OPTION_RANGE = message(
    "option-range", N_("option {name}: {value!r} is not allowed; use a whole number from {low:count} to {high:count}")
)
OPTION_NUMBER = message("option-number", N_("option {name}: {value!r} is not allowed; use a whole number"))
PLAYED_BY = message("played-by", N_("{preset} is played by {n:count} players, not {players:count}"))
PLAYED_BY_RANGE = message(
    "played-by-range", N_("{preset} is played by {low:count} to {high:count} players, not {players:count}")
)
FAMILY_PLAYERS = message(
    "family-players", N_("option players: {family} is played by {allowed:list} players, not {players:count}")
)
NOT_FOR_FAMILY = message("not-for-family", N_("option {name} does not apply to the {family} family"))
UNKNOWN_FAMILY = message("unknown-family", N_("unknown rule family {name!r}; families are: {families:list}"))
UNKNOWN_PRESET = message("unknown-preset", N_("unknown preset {name!r}; presets are: {presets:list}"))
RAVAGE_VALUE_ALONE = message("ravage-value-alone", N_("option ravage_value only matters with ravage_city=true"))
SPLIT_NEEDS_DOUBLING = message(
    "split-needs-doubling",
    N_(
        "option undoubled_negative=split needs doubling: with doubling=none no negative "
        "deal would ever be played; use undoubled_negative=play"
    ),
)
CONTRACTS_EACH_TOO_MANY = message(
    "contracts-each-too-many",
    N_("option contracts_each: the game has {contracts:count} contracts, so each player declares at most that many"),
)
OBLIGATION_OVER_SERIES = message(
    "obligation-over-series",
    N_(
        "option double_obligation: {obligation:count} doubles cannot be owed over a series of "
        "{series:count} deals; lower it to {series:count} or fewer"
    ),
)
