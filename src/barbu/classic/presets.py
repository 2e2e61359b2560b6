"""The rule families and named presets of the Barbu family: classic, Italian, Salad, French.

Each registers itself in the registry of `barbu.classic.ruleset`; the Scottish
game registers its own family from `barbu.scottish`.  The state machine never
names a family.
"""

from __future__ import annotations

from ..core.cards import CLUBS, DIAMONDS, FULL_DECK, HEARTS, SPADES
from ..core.errors import RulesetError
from ..core.words import N_
from . import refusals as R
from .contracts import classic_contracts, french_contracts, italian_contracts, salad_contracts
from .ruleset import Family, Ruleset, register_family, register_preset
from .series import italian_six_bonus

# -- the classic family (seed 001) -------------------------------------------


def _classic_check(r: Ruleset) -> None:
    if r.ravage_value != 24 and not r.ravage_city:
        raise RulesetError.of(R.RAVAGE_VALUE_ALONE)
    if r.doubling == "none" and r.undoubled_negative == "split":
        raise RulesetError.of(R.SPLIT_NEEDS_DOUBLING)


CLASSIC_OPTIONS = frozenset(
    {
        "rotation",
        "doubling",
        "double_obligation",
        "undoubled_negative",
        "heart_lead",
        "trump_rules",
        "allow_no_trump",
        "domino_ace",
        "stop_when_decided",
        "ravage_city",
        "ravage_value",
        "chinese_poker",
        "contracts_each",
    }
)

register_family(
    Family(
        name="classic",
        description=N_("The standard 4-player Barbu with doubling"),
        players=(4,),
        options=CLASSIC_OPTIONS,
        contracts=lambda r: classic_contracts(r.ravage_city, r.ravage_value, r.chinese_poker),
        deck=lambda r: FULL_DECK,
        zero_sum=True,
        highest_wins=True,
        check=_classic_check,
    )
)

register_preset(
    "classic",
    N_("The standard game: 4 players, 28 deals, seven contracts, doubling"),
    aliases=("standard", "barbu", "tafferan"),
)


# -- the Italian family (seed 002) --------------------------------------------

register_family(
    Family(
        name="italian",
        description=N_("Barbù, the Italian game with contro and surcontro"),
        players=(4,),
        options=CLASSIC_OPTIONS - {"ravage_city", "ravage_value", "chinese_poker"},
        contracts=lambda r: italian_contracts(),
        deck=lambda r: FULL_DECK,
        check=_classic_check,
    )
)

register_preset(
    "italian",
    N_("Barbù: Italian values, Atout with or without trumps, contro and surcontro"),
    aliases=("barbù", "barbu-italiano", "italiano"),
    undoubled_negative="play",
    trump_rules="italian",
    allow_no_trump=True,
)

register_family(
    Family(
        name="italian-six",
        description=N_("Barbù a sei colpi: six contracts, +110 and placement points after each dealer"),
        players=(4,),
        options=frozenset({"double_obligation", "heart_lead", "domino_ace", "stop_when_decided", "contracts_each"}),
        contracts=lambda r: italian_contracts(six=True),
        deck=lambda r: FULL_DECK,
        fixed=(("undoubled_negative", "play"),),
        series_end=italian_six_bonus,
    )
)

register_preset(
    "italian-six",
    N_("Barbù a sei colpi: six contracts per dealer, the dealer's small and large penalty"),
    aliases=("sei-colpi", "barbu-a-sei-colpi"),
)


# -- Salad (seed 001's variant, 3 to 6 players) --------------------------------

STRIP_ORDER = tuple(s * 13 + r for r in (0, 1) for s in (CLUBS, SPADES, DIAMONDS, HEARTS))


def stripped_deck(players: int) -> int:
    """The 52 cards less enough low cards to deal evenly: 2♣, 2♠, 2♦, 2♥, then the 3s in that order."""
    deck = FULL_DECK
    for card in STRIP_ORDER[: 52 % players]:
        deck &= ~(1 << card)
    return deck


register_family(
    Family(
        name="salad",
        description=N_("Salad: five negative contracts and all five at once, 3 to 6 players"),
        players=(3, 4, 5, 6),
        options=frozenset(
            {
                "rotation",
                "doubling",
                "double_obligation",
                "undoubled_negative",
                "heart_lead",
                "stop_when_decided",
                "contracts_each",
            }
        ),
        contracts=lambda r: salad_contracts(),
        deck=lambda r: stripped_deck(r.players),
        check=_classic_check,
    )
)

register_preset(
    "salad",
    N_("Salad: six negative contracts per declarer, the last one all five at once; 3-6 players"),
    aliases=("salade", "barbu-salad"),
    double_obligation=0,
    undoubled_negative="play",
)


# -- the French family (seed 000, the Marie-Luce rules) ------------------------

register_family(
    Family(
        name="french",
        description=N_("Le Barbu, the Marie-Luce rules: 3 to 6 players, penalty points, Salad and Success"),
        players=(3, 4, 5, 6),
        options=frozenset({"rotation", "heart_lead", "stop_when_decided", "contracts_each"}),
        contracts=lambda r: french_contracts(),
        deck=lambda r: FULL_DECK,
        zero_sum=False,
        highest_wins=False,
        fixed=(("doubling", "none"), ("undoubled_negative", "play"), ("double_obligation", 0)),
    )
)

register_preset(
    "french",
    N_("Le Barbu (Marie-Luce): 3-6 players, each chooses each of 7 challenges once; lowest total wins"),
    aliases=("marie-luce", "le-barbu", "francais", "français"),
    rotation="quick",
    heart_lead="first_trick",
)
