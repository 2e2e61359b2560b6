"""The registry of rule families and named presets.

A `Family` says which options it reads, which player counts it allows, its
deck and its contract table.  A `Preset` is a named `Ruleset` with aliases.
Other families (Italian, French, Scottish, …) register here the same way;
the state machine never names a family.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

from ..core.cards import CLUBS, DIAMONDS, FULL_DECK, HEARTS, PIQUET_DECK, SPADES
from .contracts import (Contract, classic_contracts, french_contracts, italian_contracts, salad_contracts,
                        scottish_contracts)
from ..core.errors import RulesetError
from .ruleset import OPTIONS, Ruleset
from .series import italian_six_bonus


@dataclass(frozen=True)
class Family:
    """A rule family: what it reads from a ruleset and how it builds its deals."""

    name: str
    description: str
    players: tuple[int, ...]
    options: frozenset[str]
    contracts: Callable[[Ruleset], tuple[Contract, ...]]
    deck: Callable[[Ruleset], int]
    zero_sum: bool = True
    highest_wins: bool = True
    check: Callable[[Ruleset], None] | None = None
    fixed: tuple[tuple[str, object], ...] = ()  # values of the options this family does not expose
    series_end: Callable[[list[int], int], list] | None = None  # (series scores, dealer) -> added points
    match_class: Callable[[], type] | None = None  # the family's own Match subclass, imported when first needed

    def base(self, preset_name: str) -> Ruleset:
        """The family's defaults: the global defaults with its fixed values."""
        return dataclasses.replace(Ruleset(preset=preset_name, family=self.name), **dict(self.fixed))


@dataclass(frozen=True)
class Preset:
    name: str
    ruleset: Ruleset
    description: str
    aliases: tuple[str, ...] = ()


_FAMILIES: dict[str, Family] = {}
_PRESETS: dict[str, Preset] = {}
_ALIASES: dict[str, str] = {}


def register_family(fam: Family) -> Family:
    _FAMILIES[fam.name] = fam
    return fam


def register_preset(name: str, description: str, aliases: tuple[str, ...] = (), **options: object) -> Preset:
    """Register a preset built from its family's defaults and the given option values."""
    fam_name = str(options.pop("family", name))
    base = family(fam_name).base(name)
    p = Preset(name, validate(dataclasses.replace(base, **options)), description, aliases)
    _PRESETS[name] = p
    for a in (name, *aliases):
        _ALIASES[a.lower()] = name
    return p


def family(name: str) -> Family:
    try:
        return _FAMILIES[name]
    except KeyError:
        raise RulesetError(f"unknown rule family {name!r}; families are: {', '.join(_FAMILIES)}") from None


def preset(name: str) -> Preset:
    key = _ALIASES.get(name.strip().lower())
    if key is None:
        raise RulesetError(f"unknown preset {name!r}; presets are: {', '.join(_PRESETS)}")
    return _PRESETS[key]


def presets() -> list[Preset]:
    return list(_PRESETS.values())


def ruleset(text: str = "classic", **options: object) -> Ruleset:
    """A ruleset from its text form, with optional further option overrides."""
    r = Ruleset.parse(text)
    return r.replace(**options) if options else r


def validate(r: Ruleset) -> Ruleset:
    """Check a ruleset against its family; return it unchanged or raise `RulesetError`."""
    fam = family(r.family)
    if r.players not in fam.players:
        allowed = ", ".join(str(p) for p in fam.players)
        raise RulesetError(f"option players: {r.family} is played by {allowed} players, not {r.players}")
    defaults = fam.base(r.preset)
    for name in OPTIONS:
        if name not in fam.options and name != "players" and getattr(r, name) != getattr(defaults, name):
            raise RulesetError(f"option {name} does not apply to the {fam.name} family")
    if fam.check:
        fam.check(r)
    return r


# -- the classic family (seed 001) -------------------------------------------

def _classic_check(r: Ruleset) -> None:
    if r.ravage_value != 24 and not r.ravage_city:
        raise RulesetError("option ravage_value only matters with ravage_city=true")
    if r.doubling == "none" and r.undoubled_negative == "split":
        raise RulesetError("option undoubled_negative=split needs doubling: with doubling=none no negative "
                           "deal would ever be played; use undoubled_negative=play")


CLASSIC_OPTIONS = frozenset({
    "rotation", "doubling", "double_obligation", "undoubled_negative", "heart_lead", "trump_rules",
    "allow_no_trump", "domino_ace", "stop_when_decided", "ravage_city", "ravage_value", "chinese_poker",
})

register_family(Family(
    name="classic",
    description="The standard 4-player Barbu with doubling",
    players=(4,),
    options=CLASSIC_OPTIONS,
    contracts=lambda r: classic_contracts(r.ravage_city, r.ravage_value, r.chinese_poker),
    deck=lambda r: FULL_DECK,
    zero_sum=True,
    highest_wins=True,
    check=_classic_check,
))

register_preset("classic", "The standard game: 4 players, 28 deals, seven contracts, doubling",
                aliases=("standard", "barbu", "tafferan"))


# -- the Italian family (seed 002) --------------------------------------------

register_family(Family(
    name="italian",
    description="Barbù, the Italian game with contro and surcontro",
    players=(4,),
    options=CLASSIC_OPTIONS - {"ravage_city", "ravage_value", "chinese_poker"},
    contracts=lambda r: italian_contracts(),
    deck=lambda r: FULL_DECK,
    check=_classic_check,
))

register_preset("italian", "Barbù: Italian values, Atout with or without trumps, contro and surcontro",
                aliases=("barbù", "barbu-italiano", "italiano"),
                undoubled_negative="play", trump_rules="italian", allow_no_trump=True)

register_family(Family(
    name="italian-six",
    description="Barbù a sei colpi: six contracts, +110 and placement points after each dealer",
    players=(4,),
    options=frozenset({"double_obligation", "heart_lead", "domino_ace", "stop_when_decided"}),
    contracts=lambda r: italian_contracts(six=True),
    deck=lambda r: FULL_DECK,
    fixed=(("undoubled_negative", "play"),),
    series_end=italian_six_bonus,
))

register_preset("italian-six", "Barbù a sei colpi: six contracts per dealer, the dealer's small and large "
                "penalty", aliases=("sei-colpi", "barbu-a-sei-colpi"))


# -- Salad (seed 001's variant, 3 to 6 players) --------------------------------

STRIP_ORDER = tuple(s * 13 + r for r in (0, 1) for s in (CLUBS, SPADES, DIAMONDS, HEARTS))


def stripped_deck(players: int) -> int:
    """The 52 cards less enough low cards to deal evenly: 2♣, 2♠, 2♦, 2♥, then the 3s in that order."""
    deck = FULL_DECK
    for card in STRIP_ORDER[:52 % players]:
        deck &= ~(1 << card)
    return deck


register_family(Family(
    name="salad",
    description="Salad: five negative contracts and all five at once, 3 to 6 players",
    players=(3, 4, 5, 6),
    options=frozenset({"rotation", "doubling", "double_obligation", "undoubled_negative", "heart_lead",
                       "stop_when_decided"}),
    contracts=lambda r: salad_contracts(),
    deck=lambda r: stripped_deck(r.players),
    check=_classic_check,
))

register_preset("salad", "Salad: six negative contracts per declarer, the last one all five at once; 3-6 players",
                aliases=("salade", "barbu-salad"), double_obligation=0, undoubled_negative="play")


# -- the French family (seed 000, the Marie-Luce rules) ------------------------

register_family(Family(
    name="french",
    description="Le Barbu, the Marie-Luce rules: 3 to 6 players, penalty points, Salad and Success",
    players=(3, 4, 5, 6),
    options=frozenset({"rotation", "heart_lead", "stop_when_decided"}),
    contracts=lambda r: french_contracts(),
    deck=lambda r: FULL_DECK,
    zero_sum=False,
    highest_wins=False,
    fixed=(("doubling", "none"), ("undoubled_negative", "play"), ("double_obligation", 0)),
))

register_preset("french", "Le Barbu (Marie-Luce): 3-6 players, each chooses each of 7 challenges once; "
                "lowest total wins", aliases=("marie-luce", "le-barbu", "francais", "français"),
                rotation="quick", heart_lead="first_trick")


# -- the Scottish 32-card game (seed 004) -------------------------------------

def _scottish_match() -> type:
    from ..scottish.match import ScottishMatch
    return ScottishMatch


register_family(Family(
    name="scottish",
    description="The Scottish 32-card game: Sets of four Player Rounds and a Silly Round, combination calls, "
                "cuts of the Unused Pack, pass-ons and the scoresheet glyphs",
    players=(4,),
    options=frozenset({"sets", "stop_when_decided"}),
    contracts=lambda r: scottish_contracts(),
    deck=lambda r: PIQUET_DECK,
    zero_sum=False,
    highest_wins=True,
    fixed=(("doubling", "none"), ("undoubled_negative", "play"), ("double_obligation", 0), ("heart_lead", "none")),
    match_class=_scottish_match,
))

register_preset("scottish", "The Scottish 32-card game (Fife): Player Rounds with combination calls, the Silly "
                "Round's cuts and pass-ons, Patience; highest total wins",
                aliases=("scottish-barbu", "fife", "barbu-32"))
