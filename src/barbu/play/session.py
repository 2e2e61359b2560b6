"""One person at a table of computer players: the match, the seats and the record file.

The session holds no Textual code, so the game flow can be tested without a
screen.  The person and the bots see the match only through
``match.view(seat)``; the session applies their choices, plays the chance
events and saves the record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import AGENT_KINDS, make_agent
from ..agents.base import is_computer_player, parse_agent_spec
from ..besigue import BesigueRules
from ..classic.match import CHANCE, DealResult, Match
from ..classic.ruleset import Ruleset
from ..classic.view import View
from ..core.errors import BarbuError, RulesetError
from ..duplicate.shadow import STRONGEST
from ..i18n import _
from ..records.barbu import number_in, number_out, read_record, replay, write_record
from ..records.savefiles import DEFAULT_SAVE, reserve
from .labels import computer_name, place, player_word, seat_name, typed_action

DEFAULT_DELAY = 0.6


def default_strength() -> str:
    """The strength offered first: the rule-based player when there is one (strong and quick), else the strongest."""
    return "rule" if "rule" in AGENT_KINDS else AGENT_KINDS[-1]


@dataclass
class Settings:
    """Everything the setup screen chooses; the CLI fills it from its flags."""

    rules: Ruleset | BesigueRules = field(default_factory=lambda: Ruleset.parse("classic"))  # a Bésigue game's own
    seat: int = 0
    opponents: dict[int, str] = field(default_factory=dict)  # seat -> agent kind; missing seats get the default
    seed: int | None = None
    delay: float = DEFAULT_DELAY
    save: Path | None = Path(DEFAULT_SAVE)  # None: never saved
    save_exact: bool = False  # the player named the file: refuse it if it exists (else the next free name)
    confirm_forced: bool = False  # wait for the person even when only one choice is possible
    compare: str | None = STRONGEST  # who replays each deal in your seat to compare with you (None: nobody)

    def strengths(self) -> dict[int, str]:
        """The agent kind of every computer seat, defaults filled in."""
        out = {}
        for s in range(self.rules.players):
            if s != self.seat:
                out[s] = self.opponents.get(s, default_strength())
        return out

    def check(self) -> None:
        """Refuse impossible settings in plain words."""
        n = self.rules.players
        if not 0 <= self.seat < n:
            raise RulesetError(_("there is no seat {seat}: seats are 0 to {last}").format(seat=self.seat, last=n - 1))
        for s, kind in self.opponents.items():
            if not is_computer_player(kind):
                raise RulesetError(
                    _("unknown computer player {kind!r}; choose from: {kinds}").format(
                        kind=kind, kinds=", ".join(AGENT_KINDS)
                    )
                )
            if kind not in AGENT_KINDS:
                make_agent(kind)  # a kind:argument player reads its file now: AgentError says what is wrong
            if not 0 <= s < n:
                raise RulesetError(_("there is no seat {seat}: seats are 0 to {last}").format(seat=s, last=n - 1))
        if self.delay < 0:
            raise RulesetError(_("the delay between computer moves cannot be negative"))
        if self.compare:
            parse_agent_spec(self.compare)  # AgentError says what is wrong with the player to compare with


class Session:
    """A match in progress with one human seat; the other seats are agents."""

    def __init__(self, match: Match, seat: int, strengths: dict[int, str], save: Path | None) -> None:
        self.match = match
        self.seat = seat
        self.strengths = dict(strengths)
        self.save_path = save
        seed = match.seed
        self.agents = {
            s: make_agent(kind, None if seed is None else seed * 1000 + s) for s, kind in self.strengths.items()
        }
        self._reported = len(match.results)
        self.compare: str | None = STRONGEST  # who replays each finished deal in your seat (None: nobody)
        self.shadow_known: dict[int, Any] = {}  # deal (0-based) -> what `compare` scored in your seat
        self.started_here = False  # a new match (its file reserved by `new`), not one resumed from a record

    # ---------------------------------------------------------------- making one
    @classmethod
    def new(cls, settings: Settings) -> "Session":
        settings.check()
        assert isinstance(settings.rules, Ruleset)  # a Bésigue game's settings make a `BesigueSession`
        seed = settings.seed if settings.seed is not None else random.randrange(1_000_000)
        # A file of its own, reserved now: a saved match is never overwritten, even by a second
        # `barbu play` started in the same folder at the same time.
        save = reserve(settings.save, settings.save_exact) if settings.save is not None else None
        session = cls(Match(settings.rules, seed), settings.seat, settings.strengths(), save)
        session.compare = settings.compare
        session.started_here = True
        session.save()
        return session

    @classmethod
    def resume(cls, path: str | Path, seat: int | None = None, opponents: dict[int, str] | None = None) -> "Session":
        """Continue the match of a record file; the seats come from the record unless given."""
        record = read_record(path)
        match = replay(record).match
        saved = record.header.get("tui") or {}
        if seat is None:
            seat = int(saved.get("seat", 0))
        # A strength this installation lacks (a record from a newer version) falls back to the default.
        kinds = {int(k): str(v) for k, v in (saved.get("opponents") or {}).items() if is_computer_player(str(v))}
        kinds.update(opponents or {})
        settings = Settings(rules=match.rules, seat=seat, opponents=kinds, save=Path(path))
        settings.check()
        session = cls(match, seat, settings.strengths(), Path(path))
        session.shadow_known = known_shadow(saved.get("shadow"), session.compare)
        return session

    # ---------------------------------------------------------------- state
    @property
    def players(self) -> int:
        return self.match.n

    def view(self) -> View:
        """The person's view: all that is ever shown on the screen."""
        return self.match.view(self.seat)

    @property
    def moves(self) -> int:
        """How many actions the match has seen: a counter that tells when something happened."""
        return len(self.match.history)

    def to_act(self) -> int | None:
        return self.match.to_act()

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    def human_to_act(self) -> bool:
        return self.match.to_act() == self.seat

    def seat_label(self, s: int) -> str:
        return seat_name(s, self.seat, self.match.n)

    def who(self, s: int, english: bool = False) -> str:
        """Who sits at a seat: you, or a computer player by where it sits and its strength, "West, good
        player" (in the current language; in English for the record, which is language-neutral)."""
        if s == self.seat:
            return "you" if english else _("you")
        return computer_name(place(s, self.seat, self.match.n), self.strengths.get(s, "?"), english)

    def player_kind(self, s: int, english: bool = False) -> str:
        """``you``, or ``computer (rule)``: what plays at a seat."""
        if s == self.seat:
            return "you" if english else _("you")
        kind = self.strengths.get(s, "?")
        if ":" not in kind:  # search(samples=20) is a search player; policy:FILE keeps its file
            kind = kind.split("(")[0]
        return (
            f"computer ({player_word(kind, True)})"
            if english
            else _("computer ({kind})").format(kind=player_word(kind))
        )

    # ---------------------------------------------------------------- help at the table
    def take_back(self, skip_forced: bool = False) -> int:
        """Undo back to your previous decision in this deal (every other seat is a computer player here).

        With ``skip_forced``, moves where you had only one choice (played for you) are not decisions:
        the undo goes back past them to a real one.  Returns how many actions were taken back; refuses,
        changing nothing, when you have not yet decided anything in this deal.
        """
        m = self.match
        history = m.history
        start = m.deal_start
        actors, choices = self._actors()
        mine = [
            i
            for i in range(max(start, 0), len(history))
            if actors[i] == self.seat and not (skip_forced and choices[i] == 1)
        ]
        if not mine:
            raise BarbuError(_("there is no move of yours in this deal to take back"))
        target = mine[-1]
        undone = 0
        while len(m.history) > target:
            m.undo()
            undone += 1
        return undone

    def _actors(self) -> tuple[list[int | None], list[int]]:
        """Who took each action of the history, and among how many choices (one replay: the match
        keeps no list of actors); chance events count as many choices."""
        probe = Match(self.match.rules, self.match.seed)
        actors: list[int | None] = []
        choices: list[int] = []
        for a in self.match.history:
            actor = probe.to_act()
            actors.append(actor)
            choices.append(len(probe.legal_actions()) if actor == self.seat else 2)
            probe.apply(a)
        return actors, choices

    # ---------------------------------------------------------------- acting
    def apply_human(self, choice: Any) -> Any:
        """Apply the person's choice (an action, or text typed in the current language: "dk", "pas de dames");
        a bad one raises `BarbuError`, changing nothing."""
        if isinstance(choice, str):  # "double west north": the players by their places
            choice = typed_action(self.match, choice, self.seat, self.match.n)
        self.match.apply(choice, seat=self.seat)
        action = choice
        return action

    def bot_seat(self) -> int | None:
        """The computer seat to act now, if any."""
        actor = self.match.to_act()
        return actor if actor is not None and actor != CHANCE and actor != self.seat else None

    def bot_view(self, seat: int) -> View:
        """What a computer seat may know: its agent decides from this alone (front ends may do so off the UI thread)."""
        return self.match.view(seat)

    def apply_bot(self, seat: int, action: Any) -> None:
        self.match.apply(action, seat=seat)

    def play_chance(self) -> Any:
        return self.match.play_chance()

    def finished_deals(self) -> list[DealResult]:
        """Deals finished since the last call (each reported once), as the public results."""
        new = [r.public() for r in self.match.results[self._reported :]]
        self._reported = len(self.match.results)
        return new

    # ---------------------------------------------------------------- saving
    def header(self) -> dict[str, Any]:
        names = [self.who(s, True) for s in range(self.players)]  # "you", "West, good player"…
        return {
            "players_names": names,
            "tui": {
                "seat": self.seat,
                "opponents": {str(s): k for s, k in self.strengths.items()},
                "shadow": {
                    "with": self.compare,
                    "deals": {str(k): number_out(v) for k, v in sorted(self.shadow_known.items())},
                },
            },
        }

    def save(self) -> Path | None:
        """Write the record (atomically); returns where, or None when saving is off."""
        if self.save_path is None:
            return None
        write_record(self.match, self.save_path, self.header())
        return self.save_path

    @property
    def untouched(self) -> bool:
        """Nothing played: no deal finished and no decision of the person's yet."""
        return not self.match.results and self.seat not in self._actors()[0]

    def leave(self) -> Path | None:
        """Save when the person leaves; returns where, or None when nothing was kept.

        A match started here and left untouched is not kept (its reserved file goes): it would only add a
        "0 of 28 deals played" to the saved matches.  A resumed match's record is never removed."""
        return None if forget_untouched(self) else self.save()


def forget_untouched(session: Any) -> bool:
    """Remove the record of a ``session`` started here (``started_here``) that is still ``untouched``; True if
    removed.  Shared by the Barbu and Bésigue sessions."""
    if session.save_path is None or not session.started_here or not session.untouched:
        return False
    session.save_path.unlink(missing_ok=True)
    return True


def known_shadow(saved: Any, compare: str | None) -> dict[int, Any]:
    """The comparisons a record kept (``tui.shadow``), when made by the same player; a damaged entry is dropped
    (it is replayed again)."""
    out: dict[int, Any] = {}
    if not isinstance(saved, dict) or saved.get("with") != compare or not isinstance(saved.get("deals"), dict):
        return out
    for k, v in saved["deals"].items():
        try:
            out[int(k)] = number_in(v)
        except (TypeError, ValueError, BarbuError):
            continue
    return out


__all__ = ["BarbuError", "DEFAULT_DELAY", "DEFAULT_SAVE", "Session", "Settings", "default_strength"]
