"""The declarer's choices: a contract he has not played yet, then the trump suit or the starting rank.

Cards set aside (French rules with 3, 5 or 6 players) can rule a contract out:
a contract that needs them in play is not offered.  After the choices comes
the doubling round.
"""

from __future__ import annotations

from ...core.actions import Declare, NameRank, NameTrump
from ...core.cards import cards_of
from ...core.errors import IllegalAction, ParseError
from .. import refusals as R
from ..contracts import CONTRACT_ALIASES, DOMINO, Contract
from ..state import RANK, TRUMP
from .doubling import Doubling


class Declaring(Doubling):
    """The contract, then the trump suit (Trumps) or the starting rank (Domino)."""

    __slots__ = ()

    def _choosable(self) -> list[Contract]:
        """Contracts the declarer may still name in this deal."""
        left = self.contracts_left[self.declarer]
        return [c for c in self.contracts if c.key in left and not c.needs_in_play & self.set_aside]

    def _rank_in_deck(self, r: int) -> bool:
        return any(self.deck >> (s * 13 + r) & 1 for s in range(4))

    def _contract_actions(self) -> tuple[Declare, ...]:
        return tuple(Declare(c.key) for c in self._choosable())

    def _trump_actions(self) -> tuple[NameTrump, ...]:
        suits: list[int | None] = list(range(4))
        if self.rules.allow_no_trump:
            suits.append(None)
        return tuple(NameTrump(s) for s in suits)

    def _rank_actions(self) -> tuple[NameRank, ...]:
        return tuple(NameRank(r) for r in range(13) if self._rank_in_deck(r))

    def _parse_contract(self, t: str, text: str) -> Declare:
        """A contract typed by its key, an alias or its name (``t`` is ``text`` in lower case, spaces folded)."""
        key = t.removeprefix("contract ").replace(" ", "-")
        key = CONTRACT_ALIASES.get(key.replace("-", ""), CONTRACT_ALIASES.get(key, key))
        if key not in self.contract_by_key:
            names = {c.name.lower(): c.key for c in self.contracts}
            key = names.get(t.removeprefix("contract "), key)
        if key not in self.contract_by_key:
            raise ParseError.of(R.NOT_A_CONTRACT_TEXT, text=text, contracts=[(c.key, c.name) for c in self.contracts])
        return Declare(key)

    def _apply_declare(self, action: object) -> None:
        if not isinstance(action, Declare):
            raise IllegalAction.of(R.NAME_A_CONTRACT, action=str(action))
        c = self.contract_by_key.get(action.contract)
        if c is None:
            raise IllegalAction.of(
                R.UNKNOWN_CONTRACT, contract=action.contract, contracts=[(c.key, c.name) for c in self.contracts]
            )
        if action.contract not in self.contracts_left[self.declarer]:
            raise IllegalAction.of(R.CONTRACT_PLAYED, contract=c.key, name=c.name)
        if c.needs_in_play & self.set_aside:
            raise IllegalAction.of(
                R.CONTRACT_SET_ASIDE,
                contract=c.key,
                name=c.name,
                cards=[int(x) for x in cards_of(c.needs_in_play & self.set_aside)],
            )
        self.contracts_left[self.declarer].discard(action.contract)
        self.contract = c
        if c.trump:
            self.phase = TRUMP
        elif c.kind == DOMINO and not c.open_any:
            self.phase = RANK
        else:
            self._start_doubling()

    def _apply_trump(self, action: object) -> None:
        if not isinstance(action, NameTrump):
            raise IllegalAction.of(R.NAME_TRUMP, action=str(action))
        if action.suit is None and not self.rules.allow_no_trump:
            raise IllegalAction.of(R.NO_TRUMP_FORBIDDEN)
        if action.suit is not None and action.suit not in range(4):
            raise IllegalAction.of(R.BAD_TRUMP)
        self.trump = action.suit
        self._start_doubling()

    def _apply_rank(self, action: object) -> None:
        if not isinstance(action, NameRank):
            raise IllegalAction.of(R.NAME_RANK, action=str(action))
        if action.rank not in range(13) or not self._rank_in_deck(action.rank):
            raise IllegalAction.of(R.RANK_NOT_IN_DECK)
        self.rank = action.rank
        self._start_doubling()
