"""Duplicate against the computer: what the strongest computer player would have scored in your seat.

A person who plays a match against computer players learns little from one deal's score: the cards
decide most of it.  The arena's answer (`barbu.arena.duplicate`) is to replay the same cards with another
player in the seat; here that is done for one deal of a person's match.  Deal *k* is replayed from the
position where it started (the same running state: series, contracts left, doubles owed), with the same
chance events in the same order (the recorded deal, its redeals and cuts), the stronger player deciding
every one of the person's decisions (contract, trump, doubles, pass-ons, cards) and the other seats played
by the same computer strengths as at the table, seeded from the deal's number.  The score is what the
match adds for the deal in that seat (`DealResult.added`: the deal's points with any series points it
ends), so it stands beside the person's own.

Pure: no I/O.  Deterministic for the same inputs as long as the players are bounded by their samples
rather than by their clock (the expert stops at whichever comes first; tests give it a generous clock).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from ..agents import make_agent
from ..core.errors import BarbuError
from ..core.game import CHANCE

#: The player a person is compared with.
STRONGEST = "expert"


@dataclass(frozen=True)
class ShadowResult:
    """One deal of one person's match, beside what the stronger player scored on the same cards."""

    deal: int  # 0-based number of the deal in the match
    you: Any  # what the match added for the deal in the person's seat (an int, or an exact Fraction)
    expert: Any  # what the stronger player's replay added in the same seat
    sign: int  # +1 where more points are better, -1 where the lowest total wins

    @property
    def advantage(self) -> Any:
        """How much better the person did than the stronger player (negative: worse)."""
        return self.sign * (self.you - self.expert)


def _game_of(rules: str, seed: int | None = None) -> Any:
    from ..games import open_game  # the games module registers every family (the Scottish game)

    return open_game(rules, seed)


def _is_besigue(game: Any) -> bool:
    return type(game).__name__ == "BesigueGame"


def sign_of(rules: str) -> int:
    """+1 where the highest total wins (Bésigue, most Barbu families), -1 where the lowest does."""
    game = _game_of(rules)
    if _is_besigue(game):
        return 1
    return 1 if game.rules.family_spec.highest_wins else -1


def deal_added(game: Any, k: int) -> tuple:
    """What deal ``k`` added to each seat's total (any game of the house)."""
    res = game.results[k]
    if isinstance(res, dict):  # Bésigue: the deal's points (melds, brisques, last trick)
        return tuple(res["scores"])
    return tuple(res.added)


def history_texts(game: Any) -> list[str]:
    """A game's actions from its start as texts its ``apply`` reads back (to send to another process)."""
    if _is_besigue(game):
        return [text for _actor, text in game.history]
    return [str(a) for a in game.history]


def _apply(game: Any, action: Any, seat: int | None = None) -> None:
    if _is_besigue(game):
        game.apply(action)
    else:
        game.apply(action, seat=seat)


def deal_start(rules: str, actions: Sequence[Any], k: int) -> tuple[Any, int]:
    """The game at the start of deal ``k`` (``k`` deals finished, nothing of deal ``k`` played) and the index
    in ``actions`` where deal ``k`` begins.  ValueError (a caller's mistake, never a player's) when the actions
    do not reach deal ``k``."""
    game = _game_of(rules)
    i = 0
    while len(game.results) < k:
        if i >= len(actions):
            raise ValueError(f"the match has only {len(game.results)} finished deals, not {k + 1}")
        _apply(game, actions[i])
        i += 1
    return game, i


def deal_chances(rules: str, actions: Sequence[Any], k: int) -> tuple[Any, list[Any], tuple]:
    """The game at the start of deal ``k``, the chance events of that deal in order (the deal itself,
    redeals, cuts) and what the deal added to each seat at the table."""
    game, i = deal_start(rules, actions, k)
    start = game.clone()
    chances: list[Any] = []
    while len(game.results) == k:
        if i >= len(actions):
            raise ValueError(f"deal {k + 1} of the match is not finished")
        if game.to_act() == CHANCE:
            chances.append(actions[i])
        _apply(game, actions[i])
        i += 1
    return start, chances, deal_added(game, k)


def _make(spec: str, seed: int, besigue: bool) -> Any:
    if besigue:
        from ..agents.besigue import make_besigue_agent

        return make_besigue_agent(spec, seed)
    return make_agent(spec, seed)


def replay_deal(
    start: Any, chances: Iterable[Any], seat: int, strengths: Mapping[int, str], stronger: str = STRONGEST, key: int = 0
) -> tuple:
    """What the deal of ``start`` added by seat when played again (`replay_game`)."""
    game = replay_game(start, chances, seat, strengths, stronger, key)
    return deal_added(game, len(start.results))


def replay_game(
    start: Any, chances: Iterable[Any], seat: int, strengths: Mapping[int, str], stronger: str = STRONGEST, key: int = 0
) -> Any:
    """Play the deal of ``start`` (a game at the start of a deal) again: ``stronger`` in ``seat``, the other
    seats by ``strengths``, the chance events from ``chances`` in order (one that no longer fits, or one
    more than the table had, is drawn from a generator keyed by ``key``).  The game once the deal is over."""
    replay = DealReplay(start, chances, seat, strengths, stronger, key)
    while (turn := replay.next_turn()) is not None:
        actor, agent, view = turn
        replay.play(actor, agent.act(view))
    return replay.game


class DealReplay:
    """One deal played again, a decision at a time: `replay_game` runs it at once, a server thinks each
    decision in its own pool (`barbu.web.tables.shadow`).  The computer players see only their seat's view."""

    def __init__(
        self,
        start: Any,
        chances: Iterable[Any],
        seat: int,
        strengths: Mapping[int, str],
        stronger: str = STRONGEST,
        key: int = 0,
    ) -> None:
        self.game = start.clone()
        self.deal = len(self.game.results)
        self.seat = seat
        besigue = _is_besigue(self.game)
        self._base = (key * 1_000_003 + self.deal) * 7919
        self.agents = {
            s: _make(stronger if s == seat else strengths.get(s, "rule"), self._base + s, besigue)
            for s in range(self.game.n)
        }
        self._pending = list(chances)
        self._drawn = 0

    @property
    def over(self) -> bool:
        return len(self.game.results) > self.deal or self.game.is_over

    def next_turn(self) -> tuple[int, Any, Any] | None:
        """Play the chance events due, then the next decision as (seat, its agent, the seat's view); None once
        the deal is over."""
        game = self.game
        while not self.over:
            actor = game.to_act()
            if actor != CHANCE:
                assert actor is not None
                agent = self.agents[actor]
                if getattr(agent, "sees_all", False):
                    agent.match = game
                return actor, agent, game.view(actor)
            _apply(game, self._chance())
        return None

    def _chance(self) -> Any:
        """The next recorded chance event that fits, else one drawn from the replay's own key."""
        while self._pending:
            candidate = self._pending.pop(0)
            try:
                _apply(self.game.clone(), candidate)
            except BarbuError:
                continue
            return candidate
        action = self.game.sample_chance(random.Random(self._base * 101 + self._drawn))
        self._drawn += 1
        return action

    def play(self, seat: int, action: Any, agent: Any = None) -> None:
        """The seat's decision (``agent``: the player as it came back from a worker, its random state moved
        on); an illegal one is replaced by a legal action drawn from the replay's key."""
        if agent is not None:
            self.agents[seat] = agent
        try:
            _apply(self.game, action, seat=seat)
        except BarbuError:
            legal = list(self.game.legal_actions())
            _apply(self.game, random.Random(self._base + len(legal)).choice(legal), seat=seat)

    def added(self) -> tuple:
        """What the deal added by seat, once it is over."""
        return deal_added(self.game, self.deal)


def shadow_deal(
    rules: str,
    actions: Sequence[Any],
    k: int,
    seat: int,
    strengths: Mapping[int, str],
    stronger: str = STRONGEST,
    key: int = 0,
) -> ShadowResult:
    """Deal ``k`` of a match (``actions`` from its start, at least through the end of deal ``k``): the person
    in ``seat`` scored ``you``; ``stronger`` in that seat, on the same cards against the same computer
    strengths, scores ``expert``."""
    start, chances, table = deal_chances(rules, actions, k)
    added = replay_deal(start, chances, seat, strengths, stronger, key)
    return ShadowResult(k, table[seat], added[seat], sign_of(rules))


@dataclass(frozen=True)
class ShadowSummary:
    """The running comparison over a match: the sum of the advantages and the deals it covers."""

    advantage: Any
    deals: int
    worst: tuple[ShadowResult, ...]  # the deals where the person lost most to the stronger player, worst first


def summarize(results: Iterable[ShadowResult], worst: int = 3) -> ShadowSummary:
    """Add up the deals compared so far; the ``worst`` deals where the person did worse than the expert."""
    rows = sorted(results, key=lambda r: r.deal)
    losses = sorted((r for r in rows if r.advantage < 0), key=lambda r: (r.advantage, r.deal))
    return ShadowSummary(sum((r.advantage for r in rows), 0), len(rows), tuple(losses[:worst]))


__all__ = [
    "STRONGEST",
    "DealReplay",
    "ShadowResult",
    "ShadowSummary",
    "deal_added",
    "deal_chances",
    "deal_start",
    "history_texts",
    "replay_deal",
    "replay_game",
    "shadow_deal",
    "sign_of",
    "summarize",
]
