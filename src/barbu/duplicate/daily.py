"""The daily deals: each day, for each game, one short set of boards everyone plays against the same computer.

A board is one deal of a fresh match, dealt by `BoardChance` from the board's key (`barbu.core.daily_keys`),
so its cards are the same for everyone.  The contract is fixed per board (one of each contract of the preset,
in its order) and declared for the declarer automatically; the person holds one seat of each board, the
same seat for everyone, turning round the table from board to board so that he is the declarer on some and
not on others.  The other seats are played by one fixed strength with no time budget; every decision gets a
fresh player seeded by HMAC(the game's key, board, seat, the actions so far), so the same moves get the same
answers and only the person's own decisions make a difference.  The Scottish game's set is one board per single
call of a Player Round (its first Caller drawn from the board's key too); Bésigue's is a few first deals of fresh
games (`barbu.duplicate.daily_besigue`).  Nothing here does I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..agents import make_agent
from ..classic.match import CHANCE, DECLARE, Match
from ..classic.ruleset import Ruleset
from ..core.actions import Declare
from ..core.daily_keys import day_key, game_key, seed_of
from ..core.errors import BarbuError
from ..scottish.match import RoundState, call_choices
from . import daily_besigue
from .daily_base import Board, DailyError

# the games with daily deals (docs/daily.md); Bésigue's boards are `barbu.duplicate.daily_besigue`'s
GAMES = ("classic", "italian", "italian-six", "salad", "french", "scottish", "besigue")
BESIGUE = "besigue"
STRENGTHS = ("rule", "random")  # deterministic players with no time budget
DEFAULT_STRENGTH = "rule"


@dataclass(frozen=True)
class DailySet:
    """One game's daily set on one day: everything needed to deal and play its boards."""

    day: str
    game: str
    rules: Any  # a `Ruleset`, or Bésigue's `BesigueRules`
    strength: str
    key: bytes  # the game's key on that day
    size: int  # boards in the set

    @property
    def highest_wins(self) -> bool:
        return True if self.game == BESIGUE else self.rules.family_spec.highest_wins

    @property
    def family(self) -> str:
        """The game's family ("classic", "scottish", …, or "besigue")."""
        return BESIGUE if self.game == BESIGUE else self.rules.family

    def contract_order(self) -> list[str]:
        return [""] * self.size if self.game == BESIGUE else contract_order(self.rules)


def contract_order(rules: Ruleset) -> list[str]:
    """The set's contracts, one board each, in order: the preset's contracts; for the Scottish game, whose 33
    contracts are groups of calls, each single call a Caller may name at a round's first deal (Aces, King,
    Queens, Hearts, Tricks, Patience) and Double Patience, as `call_choices` offers them."""
    if rules.family == "scottish":
        return [k for k in call_choices(RoundState()) if "+" not in k]
    return [c.key for c in Match(rules).contracts]


def daily_set(secret: bytes, day: str, game: str, strength: str = DEFAULT_STRENGTH, limit: int = 0) -> DailySet:
    """The set of ``game`` on ``day``; ``limit`` (> 0) keeps only its first boards (a short set for tests)."""
    if game not in GAMES:
        raise DailyError(f"no daily deals for {game!r}: the games are {', '.join(GAMES)}")
    if strength not in STRENGTHS:
        raise DailyError(f"the daily computer players must not think against a clock: choose {', '.join(STRENGTHS)}")
    return set_from_day_key(day_key(secret, day), day, game, strength, limit)


def set_from_day_key(key: bytes, day: str, game: str, strength: str = DEFAULT_STRENGTH, limit: int = 0) -> DailySet:
    """The same set from the day's published key (the check anyone can make once the day is over)."""
    if game == BESIGUE:
        rules: Any = daily_besigue.besigue_rules()
        size = daily_besigue.BOARDS
    else:
        rules = Ruleset.parse(game)
        size = len(contract_order(rules))
    if limit > 0:
        size = min(size, limit)
    return DailySet(day, game, rules, strength, game_key(key, game), size)


class BoardPlay(Board):
    """One board of the Barbu family being played by a person: the match, his seat, the board's fixed contract
    (declared for the declarer as soon as it is his to choose).  A Bésigue set's board is a
    `barbu.duplicate.daily_besigue.BesigueBoard`, made here alike."""

    def __new__(cls, dset: DailySet, *args: Any, **kwargs: Any) -> Any:
        if cls is BoardPlay and dset.game == BESIGUE:  # made whole here: it is no BoardPlay, so __init__ is skipped
            return daily_besigue.BesigueBoard(dset, *args, **kwargs)
        return object.__new__(cls)

    def __init__(
        self, dset: DailySet, board: int, moves: Iterable[str] = (), computer: bool = False, paced: bool = False
    ) -> None:
        self.contract = ""
        super().__init__(dset, board, moves, computer, paced)

    def _new_game(self) -> Match:
        return Match(self.dset.rules)

    def _apply(self, action: Any, seat: int) -> None:
        self.match.apply(action, seat=seat)

    # -- what the board is
    @property
    def n(self) -> int:
        return self.match.n

    @property
    def result(self) -> Any:
        """The finished deal's `DealResult` (None while it is played)."""
        return self.match.results[0] if self.match.results else None

    @property
    def scores(self) -> list[int] | None:
        """Every seat's score on the board (doubles settled)."""
        r = self.result
        return None if r is None else list(r.scores)

    @property
    def score(self) -> int | None:
        """What the person's seat scored on the board (its doubles settled)."""
        r = self.result
        return None if r is None else r.scores[self.seat]

    def note(self) -> str:
        """A traveller's line beside the score: the board's doubles ("1×0 2×0xx")."""
        return "" if self.result is None else doubles_text(self.result)

    # -- playing
    def _advance(self) -> None:
        """Deal, declare the board's contract and let the computer players act until the person must."""
        m = self.match
        while not m.results:
            actor = m.to_act()
            if actor is None:
                return
            if actor == CHANCE:
                m.apply(self._chance(m))
                self.actors.append(CHANCE)
                continue
            if m.phase == DECLARE and self.seat < 0:
                self._seat_board()
            if m.phase == DECLARE:
                m.apply(Declare(self.contract), seat=actor)
                self.actors.append(actor)
                continue
            if (actor == self.seat and not self.computer) or self.paced:
                return
            self._apply_computer(actor, self.computer_move(actor))

    def computer_move(self, seat: int) -> Any:
        """What the fixed strength plays now at ``seat`` (a fresh player seeded by everything so far)."""
        return self._computer(seat).act(self.match.view(seat))

    def _seat_board(self) -> None:
        """The person's seat (turning round the dealer from board to board) and the fixed contract."""
        m = self.match
        self.seat = (m.declarer + self.board) % m.n
        order = self.dset.contract_order()
        choosable = {a.contract for a in m.legal_actions() if isinstance(a, Declare)}
        start = self.board % len(order)
        self.contract = next(
            order[(start + i) % len(order)] for i in range(len(order)) if order[(start + i) % len(order)] in choosable
        )

    def _computer(self, seat: int) -> Any:
        """A fresh computer player for this decision, seeded by the board, the seat and every action so far."""
        text = f"{self.board}|{seat}|" + " ".join(str(a) for a in self.match.history)
        return make_agent(self.dset.strength, seed_of(self.dset.key, text))


def computer_scores(dset: DailySet) -> list[int]:
    """The fixed strength's own score in the person's seat on each board (the terminal compares with these)."""
    out: list[int] = []
    for k in range(dset.size):
        b = BoardPlay(dset, k, computer=True)
        score = b.score
        assert score is not None  # the computer plays its board to the end
        out.append(score)
    return out


def replay_moves(dset: DailySet, board: int, moves: Sequence[str]) -> BoardPlay:
    """A board rebuilt from stored moves; a stored move the rules refuse is an error, never a silent skip."""
    try:
        return BoardPlay(dset, board, moves)
    except BarbuError as e:
        raise DailyError(f"board {board + 1} cannot be rebuilt: {e}") from None


SYMBOLS = {"top": "\U0001f7e9", "middle": "\U0001f7e8", "bottom": "\U0001f7e5", "alone": "\u2b1c"}


def share_line(
    day: str, game: str, percent: float | None, fractions: Sequence[float | None], label: str = "Barbu daily"
) -> str:
    """A result to share that shows nothing of the cards: the day, the game, the percentage, one square per board
    (green: the top third of the field on that board, yellow the middle, red the bottom; white: nobody to compare)."""
    squares = "".join(
        SYMBOLS["alone"]
        if f is None
        else SYMBOLS["top"]
        if f >= 2 / 3
        else SYMBOLS["middle"]
        if f >= 1 / 3
        else SYMBOLS["bottom"]
        for f in fractions
    )
    pct = "–" if percent is None else f"{percent:.0f}%"
    return f"{label} {day} {game} {pct} {squares}"


def doubles_text(result: Any) -> str:
    """The board's doubles, as a traveller shows them: "1×0 2×0xx" (doubler × doubled, xx when redoubled)."""
    return " ".join(f"{b.doubler}×{b.doubled}" + ("xx" if b.redoubled else "") for b in result.doubles)
