"""Rulesets: every option RULES.md names, as data.

A `Ruleset` is a frozen bundle of option values plus the name of the preset it
starts from.  Its one-line text form, ``classic(undoubled_negative=play)``,
names the preset and only the options that differ from it, and parses back to
an equal ruleset.  Families (classic, italian, french, …) register themselves
in the registry below (`barbu.classic.presets` holds the Barbu family's); the state machine only reads options and the family's
contract table, so new families plug in without touching it.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..core.errors import RulesetError
from ..core.words import ENGLISH, N_, Words
from . import refusals as R
from .state import Points

if TYPE_CHECKING:
    from .contracts import Contract


@dataclass(frozen=True)
class OptionSpec:
    """What one option means and which values it allows."""

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def allowed(self, words: Words = ENGLISH) -> str:
        """The values this option allows, in words (English unless a front end passes its language's)."""
        if self.kind is bool:
            return words.gettext(N_("true or false"))
        if self.choices is not None:
            return ", ".join(str(c) for c in self.choices)
        if self.minimum is not None and self.maximum is not None:
            return words.gettext(N_("a whole number from {low} to {high}")).format(
                low=words.number(self.minimum), high=words.number(self.maximum)
            )
        return words.gettext(N_("a whole number"))

    def refusal(self, value: Any) -> RulesetError:
        """The error for a value this option does not allow, saying which it does (`allowed` in words)."""
        if self.kind is bool:
            return RulesetError.of(R.OPTION_BOOL, name=self.name, value=value)
        if self.choices is not None:
            return RulesetError.of(R.OPTION_CHOICES, name=self.name, value=value, choices=list(self.choices))
        if self.minimum is not None and self.maximum is not None:
            return RulesetError.of(R.OPTION_RANGE, name=self.name, value=value, low=self.minimum, high=self.maximum)
        return RulesetError.of(R.OPTION_NUMBER, name=self.name, value=value)

    def parse(self, text: str) -> Any:
        t = text.strip().lower()
        if self.kind is bool:
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise self.refusal(text)
        if self.kind is int:
            try:
                value = int(t)
            except ValueError:
                raise self.refusal(text) from None
            return self.check(value)
        return self.check(t)

    def check(self, value: Any) -> Any:
        ok = isinstance(value, self.kind) and not (self.kind is int and isinstance(value, bool))
        if ok and self.choices is not None and value not in self.choices:
            ok = False
        if ok and self.kind is int:
            if self.minimum is not None and value < self.minimum:
                ok = False
            if self.maximum is not None and value > self.maximum:
                ok = False
        if not ok:
            raise self.refusal(value)
        return value

    def format(self, value: Any) -> str:
        if self.kind is bool:
            return "true" if value else "false"
        return str(value)


OPTIONS: dict[str, OptionSpec] = {}


def _opt(*args: Any, **kwargs: Any) -> Any:
    spec = OptionSpec(*args, **kwargs)
    OPTIONS[spec.name] = spec
    return field(default=spec.default, metadata={"spec": spec})


@dataclass(frozen=True)
class Ruleset:
    """One complete, immutable choice of rules.  Build it with `barbu.ruleset` (`ruleset` below)."""

    preset: str = "classic"
    family: str = "classic"
    players: int = _opt("players", int, 4, N_("number of players"), minimum=2, maximum=6)
    rotation: str = _opt(
        "rotation",
        str,
        "dealer",
        N_("dealer: the dealer declares a whole series in a row; quick: the deal and declaration pass left every deal"),
        choices=("dealer", "quick"),
    )
    doubling: str = _opt(
        "doubling",
        str,
        "classic",
        N_("classic: doubles and redoubles once round the table, dealer last; none: no doubling"),
        choices=("classic", "none"),
    )
    double_obligation: int = _opt(
        "double_obligation",
        int,
        2,
        N_("how many times each player must double each declarer over his series"),
        minimum=0,
        maximum=7,
    )
    undoubled_negative: str = _opt(
        "undoubled_negative",
        str,
        "split",
        N_(
            "split: a negative deal nobody doubles is not played, its points are "
            "shared by the non-dealers; play: it is played as usual"
        ),
        choices=("split", "play"),
    )
    heart_lead: str = _opt(
        "heart_lead",
        str,
        "never_unless_only_hearts",
        N_("when hearts may be led in the heart contracts"),
        choices=("never_unless_only_hearts", "first_trick", "until_broken", "none"),
    )
    trump_rules: str = _opt(
        "trump_rules",
        str,
        "classic",
        N_(
            "classic: must head the trick when trumps are led and overtrump when a plain "
            "suit is trumped; italian: must trump and overtrump, no duty to head trumps"
        ),
        choices=("classic", "italian"),
    )
    allow_no_trump: bool = _opt("allow_no_trump", bool, False, N_("the Trumps declarer may name no-trump"))
    domino_ace: str = _opt(
        "domino_ace",
        str,
        "high",
        N_("high: the ace only follows the king; low: the ace only goes below the two"),
        choices=("high", "low"),
    )
    stop_when_decided: bool = _opt(
        "stop_when_decided", bool, True, N_("a deal stops as soon as no card left in hand can change a score")
    )
    ravage_city: bool = _opt(
        "ravage_city", bool, False, N_("add Ravage City as an eighth contract (and the rebalanced values)")
    )
    ravage_value: int = _opt(
        "ravage_value", int, 24, N_("points Ravage City costs (24 keeps the game zero-sum)"), choices=(24, 36)
    )
    chinese_poker: bool = _opt(
        "chinese_poker",
        bool,
        False,
        N_("add Chinese poker as a further contract: arrange 13 cards into rows of 5, 5, 3"),
    )
    contracts_each: int = _opt(
        "contracts_each",
        int,
        0,
        N_(
            "how many contracts each player declares in the match: 0 for all of them (the full match); "
            "fewer makes a short match, each chosen from the player's whole list"
        ),
        minimum=0,
        maximum=8,
    )
    sets: int = _opt(
        "sets",
        int,
        1,
        N_("Scottish game: how many Sets are played (each is four Player Rounds and a Silly Round)"),
        minimum=1,
        maximum=20,
    )

    # -- derived facts -------------------------------------------------
    @property
    def family_spec(self) -> "Family":
        return family(self.family)

    def option_values(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if "spec" in f.metadata}

    def replace(self, **changes: Any) -> "Ruleset":
        """A copy with some options changed, checked like a parsed one."""
        for name, value in changes.items():
            spec = OPTIONS.get(name)
            if spec is None:
                raise RulesetError.of(R.UNKNOWN_OPTION, name=name, options=list(OPTIONS))
            if name == "players":
                check_players(self, value)
            spec.check(value)
        return validate(dataclasses.replace(self, **changes))

    def __str__(self) -> str:
        base = preset(self.preset).ruleset
        diffs = [
            f"{name}={OPTIONS[name].format(v)}" for name, v in self.option_values().items() if getattr(base, name) != v
        ]
        return f"{self.preset}({', '.join(diffs)})" if diffs else self.preset

    @classmethod
    def parse(cls, text: str) -> "Ruleset":
        return parse_ruleset(text)


_FORM = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def parse_ruleset(text: str) -> Ruleset:
    """Parse ``name`` or ``name(option=value, …)`` into a validated ruleset."""
    m = _FORM.match(text)
    if not m:
        raise RulesetError.of(R.NOT_A_RULESET, text=text)
    base = preset(m.group(1)).ruleset
    changes: dict[str, Any] = {}
    body = (m.group(2) or "").strip()
    if body:
        for item in body.split(","):
            if "=" not in item:
                raise RulesetError.of(R.NOT_OPTION_VALUE, item=item.strip(), text=text)
            key, _, value = item.partition("=")
            key = key.strip()
            spec = OPTIONS.get(key)
            if spec is None:
                raise RulesetError.of(R.UNKNOWN_OPTION, name=key, options=list(OPTIONS))
            changes[key] = spec.parse(value)
            if key == "players":
                check_players(base, changes[key])
    return validate(dataclasses.replace(base, **changes))


def check_players(rules: Ruleset, n: Any) -> None:
    """Refuse a player count the game does not allow, saying what it allows (not the option's widest range)."""
    allowed = rules.family_spec.players
    if n in allowed:
        return
    if len(allowed) == 1:
        raise RulesetError.of(R.PLAYED_BY, preset=rules.preset, n=allowed[0], players=n)
    raise RulesetError.of(R.PLAYED_BY_RANGE, preset=rules.preset, low=allowed[0], high=allowed[-1], players=n)


# -- the registry of families and presets ---------------------------------------


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
    fixed: tuple[tuple[str, Any], ...] = ()  # values of the options this family does not expose (any option's type)
    series_end: Callable[[list[int], int], list[Points]] | None = None  # (series scores, dealer) -> added points
    # The family's own Match subclass (the Scottish game's); typed loosely, the match standing above the ruleset.
    match_class: type[Any] | None = None

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


def register_preset(name: str, description: str, aliases: tuple[str, ...] = (), **options: Any) -> Preset:
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
        raise RulesetError.of(R.UNKNOWN_FAMILY, name=name, families=list(_FAMILIES)) from None


def preset(name: str) -> Preset:
    key = _ALIASES.get(name.strip().lower())
    if key is None:
        raise RulesetError.of(R.UNKNOWN_PRESET, name=name, presets=list(_PRESETS))
    return _PRESETS[key]


def presets() -> list[Preset]:
    return list(_PRESETS.values())


def ruleset(text: str = "classic", **options: object) -> Ruleset:
    """A ruleset from its text form, with optional further option overrides."""
    r = Ruleset.parse(text)
    return r.replace(**options) if options else r


#: How many contracts each player declares in a short match: 8 deals at four, some twenty minutes.
SHORT_CONTRACTS_EACH = 2


def short_form(r: Ruleset) -> Ruleset:
    """The short match of these rules: each player declares `SHORT_CONTRACTS_EACH` contracts, and owes no more
    doubles than his short series holds.  A family without the option (the Scottish game) is returned as it is."""
    if "contracts_each" not in r.family_spec.options or r.contracts_each:
        return r
    each = SHORT_CONTRACTS_EACH
    return r.replace(contracts_each=each, double_obligation=min(r.double_obligation, each // 2))


def validate(r: Ruleset) -> Ruleset:
    """Check a ruleset against its family; return it unchanged or raise `RulesetError`."""
    fam = family(r.family)
    if r.players not in fam.players:
        raise RulesetError.of(R.FAMILY_PLAYERS, family=r.family, allowed=list(fam.players), players=r.players)
    defaults = fam.base(r.preset)
    for name in OPTIONS:
        if name not in fam.options and name != "players" and getattr(r, name) != getattr(defaults, name):
            raise RulesetError.of(R.NOT_FOR_FAMILY, name=name, family=fam.name)
    if fam.check:
        fam.check(r)
    if r.contracts_each:
        contracts = len(fam.contracts(r))
        if r.contracts_each > contracts:
            raise RulesetError.of(R.CONTRACTS_EACH_TOO_MANY, contracts=contracts)
        if r.double_obligation > r.contracts_each:
            raise RulesetError.of(R.OBLIGATION_OVER_SERIES, obligation=r.double_obligation, series=r.contracts_each)
    return r
