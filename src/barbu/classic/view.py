"""What one seat may know (`barbu.classic.sampler` deals the unseen cards consistently with it).

`make_view` is the only door through which information leaves the engine
toward a player: bots, the network and the terminal all go through it.  The
`cant_hold` masks are public inferences from play (a seat that did not follow
suit is void; one that did not overtrump holds no higher trump; one that
passed in Domino holds none of the cards that fitted), which the sampler
respects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core.cards import HEARTS, SUIT_MASK
from .chinese import Arrange
from .state import DEAL, DRAW, OVER, PHASE_NAMES, Business, DealResult

if TYPE_CHECKING:
    from .phases.turns import Turns

HEARTS_MASK = SUIT_MASK[HEARTS]


@dataclass(frozen=True)
class View:
    """Everything ``seat`` may know now, and nothing more."""

    seat: int
    rules: str
    players: int
    phase: str
    to_act: int | None
    deal_number: int  # 1-based number of the current (or next) deal
    dealer: int
    declarer: int
    hand: int
    hand_sizes: tuple[int, ...]
    contract: str | None
    trump: int | None
    rank: int | None
    doubles: tuple[Business, ...]
    contracts_left: tuple[frozenset[str], ...]  # contracts each seat may still choose from
    series_left: tuple[int, ...]  # deals each seat has still to declare (fewer than contracts_left in a short match)
    doubles_matrix: tuple[tuple[int, ...], ...]  # [declarer][seat]: doubles seat made on declarer in his series
    leader: int
    trick: tuple[int, ...]  # cards of the current trick, the leader's first
    tricks: tuple[tuple[int, tuple[int, ...]], ...]  # finished tricks (or Domino plays) of this deal
    won: tuple[int, ...]
    tricks_won: tuple[int, ...]
    layout: tuple[tuple[int, int] | None, ...]
    finished: tuple[int, ...]
    played: int  # every card played this deal
    out_of_play: int  # cards known not to be in any hand (played, set aside)
    set_aside: int  # cards dealt to nobody, face up for everyone
    known: tuple[int, ...]  # cards known to be in each seat's hand (own hand included)
    cant_hold: tuple[int, ...]  # cards each seat is known not to hold
    totals: tuple[int, ...]
    results: tuple[DealResult, ...]
    deal_actions: tuple[Any, ...]  # public actions of this deal after the deal itself
    deck: int
    legal: tuple[Any, ...] = field(default=())
    # The Scottish game: the public round state (a `barbu.scottish.ScottishView`), this seat's own
    # pass-ons this deal (`barbu.passons.PassSeen`), and what they tell this seat alone: per seat, the
    # cards it cannot hold (it was never passed them and could not have been).
    scottish: Any = None
    passes: tuple[Any, ...] = ()
    private_cant_hold: tuple[int, ...] = ()

    @property
    def doubles_made(self) -> tuple[int, ...]:
        """Doubles each seat has made on the current declarer in his series."""
        return self.doubles_matrix[self.declarer] if self.declarer >= 0 else (0,) * self.players

    @property
    def unseen(self) -> int:
        """Cards in other seats' hands whose place this seat does not know."""
        m = self.deck & ~self.out_of_play & ~self.hand
        for k in self.known:
            m &= ~k
        return m


def make_view(m: Turns, seat: int) -> View:
    if not 0 <= seat < m.n:
        raise ValueError(f"there is no seat {seat}")
    return _seat_view(m, seat, _public_fields(m))


def make_views(m: Turns) -> list[View]:
    """Every seat's view at once: ``make_view(m, s)`` for each seat, sharing the public work.

    The server sends each seat its own view after every move; the public part
    (cards played, inferences, scores) is the same for all and is built once.
    """
    shared = _public_fields(m)
    return [_seat_view(m, seat, shared) for seat in range(m.n)]


@lru_cache(maxsize=64)
def _rules_text(rules: Any) -> str:
    return str(rules)


def _public_fields(m: Turns) -> dict[str, Any]:
    """The view fields every seat sees alike."""
    n = m.n
    in_deal = m.phase not in (DRAW, DEAL, OVER)  # between deals and at the end there is no current deal
    played = 0
    if in_deal:
        for _, cards in m.trick_log:
            for c in cards:
                played |= 1 << c
        for c in m.trick:
            played |= 1 << c
    deal_actions: tuple[Any, ...] = ()
    if in_deal and m.deal_start >= 0:
        deal_actions = tuple(m.history[m.deal_start + 1 :])
    return dict(
        rules=_rules_text(m.rules),
        players=n,
        phase=PHASE_NAMES[m.phase],
        to_act=m.to_act(),
        deal_number=m.deal_no + 1,
        dealer=m.dealer,
        declarer=m.declarer,
        hand_sizes=tuple(map(int.bit_count, m.hands)) if in_deal else (0,) * n,
        contract=m.contract.key if m.contract and in_deal else None,
        trump=m.trump if in_deal else None,
        rank=m.rank if in_deal else None,
        doubles=tuple(sorted(m.business.values())) if in_deal else (),
        contracts_left=tuple(map(frozenset, m.contracts_left)),
        series_left=tuple(m.series_left(s) for s in range(n)),
        doubles_matrix=tuple(map(tuple, m.dbl_count)),
        leader=m.leader if in_deal else -1,
        trick=tuple(m.trick) if in_deal else (),
        tricks=tuple(m.trick_log) if in_deal else (),
        won=tuple(m.won) if in_deal else (0,) * n,
        tricks_won=tuple(m.tricks_won) if in_deal else (0,) * n,
        layout=tuple(m.layout) if in_deal else (None,) * 4,
        finished=tuple(m.finished) if in_deal else (),
        # Outside a deal no card is in any hand: everything is out of play.
        played=played,
        out_of_play=played | m.set_aside | (m.deck ^ ((1 << 52) - 1)) if in_deal else (1 << 52) - 1,
        set_aside=m.set_aside if in_deal else 0,
        cant_hold=tuple(infer_cant_hold(m)) if in_deal else (0,) * n,
        totals=tuple(m.totals),
        results=tuple(map(DealResult.public, m.results)),
        deal_actions=deal_actions,
        deck=m.deck,
    )


def _seat_view(m: Turns, seat: int, shared: dict[str, Any]) -> View:
    """``shared`` completed with what only ``seat`` may know."""
    in_deal = m.phase not in (DRAW, DEAL, OVER)
    known = [0] * m.n
    hand = 0
    if in_deal:
        hand = known[seat] = m.hands[seat]
    fields = dict(
        shared, seat=seat, hand=hand, known=tuple(known), legal=m.legal_actions() if shared["to_act"] == seat else ()
    )
    deal_actions = shared["deal_actions"]
    if deal_actions and m.arranged:  # Chinese poker rows stay face down until everyone has arranged
        k = -1
        hidden = []
        for a in deal_actions:
            if isinstance(a, Arrange):
                k += 1
                if (m.declarer + k) % m.n != seat:
                    a = HIDDEN
            hidden.append(a)
        fields["deal_actions"] = tuple(hidden)
    fields.update(m._view_extras(seat, in_deal))
    return _new_view(fields)


def _new_view(values: dict[str, Any]) -> View:
    """A View from a dict naming each of its fields (those with defaults may be left out).

    It skips the frozen dataclass's field-by-field ``__init__``, which took most of
    the time of a view (the server makes one per seat after every move).
    """
    v = object.__new__(View)
    object.__setattr__(v, "__dict__", values)
    return v


def infer_cant_hold(m: Turns) -> list[int]:
    """Public inferences: for each seat, cards it cannot hold, read from the play of this deal."""
    n = m.n
    cant = [0] * n
    contract = m.contract
    if contract is None:
        return cant
    if contract.kind == "domino":
        for seat, playable in m.domino_passes:
            cant[seat] |= playable
        return cant
    trump_mask = SUIT_MASK[m.trump] if contract.trump and m.trump is not None else 0
    heart_mode = m.heart_mode
    tricks = list(m.trick_log)
    if m.trick:
        tricks.append((m.leader, tuple(m.trick)))
    broken = False
    for t, (leader, cards) in enumerate(tricks):
        led = SUIT_MASK[cards[0] // 13]
        if (
            heart_mode
            and cards[0] // 13 == HEARTS
            and (heart_mode == 1 or (heart_mode == 2 and t == 0) or (heart_mode == 3 and not broken))
        ):
            cant[leader] |= ~HEARTS_MASK & ((1 << 52) - 1)  # led a heart: held nothing else
        tmask = 1 << cards[0]
        for i in range(1, len(cards)):
            s = (leader + i) % n
            c = cards[i]
            bit = 1 << c
            if not bit & led:
                cant[s] |= led
                if trump_mask and led != trump_mask and not bit & trump_mask:
                    tricked = tmask & trump_mask
                    if not tricked:
                        cant[s] |= trump_mask
                    else:
                        top = tricked.bit_length()
                        cant[s] |= trump_mask >> top << top
                elif trump_mask and led != trump_mask and bit & trump_mask:
                    tricked = tmask & trump_mask
                    if tricked and c < tricked.bit_length() - 1:  # under-trumped: cannot overtrump
                        top = tricked.bit_length()
                        cant[s] |= trump_mask >> top << top
            elif trump_mask and led == trump_mask and m.rules.trump_rules == "classic":
                top_played = (tmask & trump_mask).bit_length()
                if c < top_played - 1:  # did not head: no higher trump
                    cant[s] |= trump_mask >> top_played << top_played
            tmask |= bit
        if tmask & HEARTS_MASK:
            broken = True
    return cant


class Hidden:
    """Stands in a view for another seat's secret decision (a Chinese poker arrangement)."""

    def __repr__(self) -> str:
        return "HIDDEN"

    __str__ = __repr__


HIDDEN = Hidden()


class NoConsistentDeal(Exception):
    """The view's constraints leave no possible deal (should not happen for a real view)."""
