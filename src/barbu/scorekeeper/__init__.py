"""The scorekeeper: scores of deals played with real cards, entered as people count them at the table.

Every number comes from the engine's own scoring code: an entered deal is fed
to a real match (contract, trumps or rank, doubles) and finished from the
counted outcome instead of from played cards.
"""

from __future__ import annotations

from typing import Any, Sequence, Union

from ..besigue.ruleset import is_besigue
from .besigue import BesigueKeeper
from .keeper import Keeper, KeeperError, Needs, saved_fields
from .questions import Question

AnyKeeper = Union[Keeper, BesigueKeeper]


def new_keeper(rules: str, names: Sequence[str], first: int = 0) -> AnyKeeper:
    """A new kept game of any game of the house, by its rules text (``classic``, ``french(players=5)``, ``besigue``)."""
    return (BesigueKeeper if is_besigue(rules) else Keeper)(rules, names, first)


def keeper_from_dict(data: Any) -> AnyKeeper:
    """A kept game from its JSON form (as saved, exported or stored), every deal checked again."""
    rules, names, first, entries = saved_fields(data)
    cls = BesigueKeeper if data.get("game") == "besigue" or is_besigue(rules) else Keeper
    return cls(rules, names, first, entries)


__all__ = ["AnyKeeper", "BesigueKeeper", "Keeper", "KeeperError", "Needs", "Question", "keeper_from_dict", "new_keeper"]
