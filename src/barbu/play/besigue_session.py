"""One person against a computer player at Bésigue: the game, the two seats and the record file.

The Bésigue counterpart of `Session`, with no Textual code so the flow can be
tested without a screen.  The person and the computer player see the game only
through ``game.view(seat)``; the session applies their choices, plays the
chance events (the first dealer, the shuffles) and saves the record.  A new
game reserves a file of its own (`savefiles.reserve`): a saved game is never
overwritten.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..agents.base import is_computer_player
from ..agents.besigue import make_besigue_agent
from ..besigue import CHANCE, BesigueGame, BesigueRules, is_besigue
from ..besigue.view import BesigueView
from ..core.errors import IllegalAction, RulesetError
from ..duplicate.shadow import STRONGEST
from ..i18n import _, current
from ..i18n.typed import parse_typed
from ..records.besigue import is_besigue_record, read_record, write_record
from ..records.savefiles import DEFAULT_SAVE, SaveError, reserve
from .labels import player_word
from .session import Settings, default_strength, forget_untouched

BESIGUE_STRENGTHS = ("random", "rule", "search", "expert")


def is_besigue_settings(settings: Settings) -> bool:
    return isinstance(settings.rules, BesigueRules)


def besigue_settings(
    rules_text: str,
    seat: int,
    opponent: str | None,
    seed: int | None,
    delay: float,
    save: Path | None,
    save_exact: bool,
) -> Settings:
    """Settings for a Bésigue game (the rules are a `BesigueRules`; seat 0 or 1; one computer player)."""
    rules = BesigueRules.parse(rules_text)
    settings = Settings(
        rules=rules,
        seat=seat,
        opponents={1 - seat: opponent} if opponent and seat in (0, 1) else {},
        seed=seed,
        delay=delay,
        save=save,
        save_exact=save_exact,
    )
    check_settings(settings)
    return settings


def settings_from_args(args: Any) -> Settings:
    """`barbu play --rules besigue …`: the settings from the command-line flags (Barbu-only flags refused)."""
    if getattr(args, "players", None) not in (None, 2):
        raise RulesetError(_("Bésigue is played by 2 players, not {n}").format(n=args.players))
    if getattr(args, "sets", None) is not None:
        raise RulesetError(_("--sets is for the Scottish game; Bésigue has no Sets"))
    save = Path(args.save) if args.save else Path(DEFAULT_SAVE)
    if args.save and save.exists():  # said before the game opens; never overwritten
        raise SaveError(
            _(
                "{file} already exists: resume it with barbu play --resume {file}, or choose another file with --save"
            ).format(file=save)
        )
    settings = besigue_settings(
        args.rules, 0 if args.seat is None else args.seat, args.opponents, args.seed, args.delay, save, bool(args.save)
    )
    settings.confirm_forced = bool(getattr(args, "confirm_forced", False))
    return settings


def resume_from_args(args: Any) -> BesigueSession:
    """`barbu play --resume FILE` for a Bésigue record: the seat and strength from the flags, else the record."""
    return BesigueSession.resume(args.resume, seat=args.seat, strength=args.opponents or None)


def check_settings(settings: Settings) -> None:
    """Refuse impossible Bésigue settings in plain words."""
    if settings.seat not in (0, 1):
        raise RulesetError(_("there is no seat {seat}: Bésigue is played by seats 0 and 1").format(seat=settings.seat))
    for s, kind in settings.opponents.items():
        if s != 1 - settings.seat:
            raise RulesetError(
                _("there is no computer seat {seat}: the computer player sits at seat {other}").format(
                    seat=s, other=1 - settings.seat
                )
            )
        make_besigue_agent(kind)  # AgentError names an unknown player
    if settings.delay < 0:
        raise RulesetError(_("the delay between computer moves cannot be negative"))


class BesigueSession:
    """A Bésigue game in progress: the person at ``seat``, a computer player at the other seat."""

    players = 2

    def __init__(self, game: BesigueGame, seat: int, strength: str, save: Path | None) -> None:
        self.game = game
        self.seat = seat
        self.strength = strength
        self.save_path = save
        seed = game.seed
        self.agent = make_besigue_agent(strength, None if seed is None else seed * 1000 + 1 - seat)
        self._reported = len(game.results)
        self.compare: str | None = STRONGEST  # who replays each finished deal in your seat (None: nobody)
        self.started_here = False  # a new game (its file reserved by `new`), not one resumed from a record

    # ---------------------------------------------------------------- making one
    @classmethod
    def new(cls, settings: Settings) -> BesigueSession:
        check_settings(settings)
        assert isinstance(settings.rules, BesigueRules)  # `is_besigue_settings`: the other games make a `Session`
        seed = settings.seed if settings.seed is not None else random.randrange(1_000_000)
        save = reserve(settings.save, settings.save_exact) if settings.save is not None else None
        strength = settings.opponents.get(1 - settings.seat) or default_strength()
        session = cls(BesigueGame(settings.rules, seed), settings.seat, strength, save)
        session.compare = settings.compare
        session.started_here = True
        session.save()
        return session

    @classmethod
    def resume(cls, path: str | Path, seat: int | None = None, strength: str | None = None) -> BesigueSession:
        """Continue the game of a record file; the seat and the computer player come from the record unless given."""
        replay = read_record(path)
        saved = replay.header.get("tui") or {}
        if seat is None:
            seat = int(saved.get("seat", 0))
        if seat not in (0, 1):
            raise RulesetError(_("there is no seat {seat}: Bésigue is played by seats 0 and 1").format(seat=seat))
        if strength is None:
            kind = str((saved.get("opponents") or {}).get(str(1 - seat), ""))
            # a strength this installation lacks falls back to the default; a trained policy stays
            known = kind.split("(")[0] in BESIGUE_STRENGTHS or (":" in kind and is_computer_player(kind))
            strength = kind if known else default_strength()
        make_besigue_agent(strength)
        return cls(replay.game, seat, strength, Path(path))

    # ---------------------------------------------------------------- state
    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def rules(self) -> BesigueRules:
        return self.game.rules

    def view(self) -> BesigueView:
        """The person's view: all that is ever shown on the screen."""
        return self.game.view(self.seat)

    @property
    def moves(self) -> int:
        """How many actions the game has seen: a counter that tells when something happened."""
        return len(self.game.log)

    def to_act(self) -> int | None:
        return self.game.to_act()

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def human_to_act(self) -> bool:
        return self.game.to_act() == self.seat

    def who(self, s: int, english: bool = False) -> str:
        """``you`` or ``computer (rule)``: in the current language, or in English for the record."""
        kind = self.strength if ":" in self.strength else self.strength.split("(")[0]
        if english:
            return "you" if s == self.seat else f"computer ({player_word(kind, True)})"
        return _("you") if s == self.seat else _("computer ({kind})").format(kind=player_word(kind))

    # ---------------------------------------------------------------- help at the table
    def take_back(self) -> int:
        """Undo back to your previous decision in this deal (the other seat is a computer player).

        Returns how many actions were taken back; refuses, changing nothing, when you have
        not decided anything yet in this deal.
        """
        log = self.game.log
        start = max((i for i, (_, text) in enumerate(log) if text.startswith("shuffle")), default=-1)
        mine = [i for i in range(start + 1, len(log)) if log[i][0] == self.seat and self._had_choice(i)]
        if not mine:
            raise IllegalAction(_("there is no move of yours in this deal to take back"))
        undone = 0
        while len(self.game.log) > mine[-1]:
            self.game.undo()
            undone += 1
        return undone

    def _had_choice(self, index: int) -> bool:
        """Whether your action at ``index`` of the log was a real choice (forced ones are made for you)."""
        probe = BesigueGame(self.game.rules, self.game.seed)
        probe.keep_undo = False
        for _seat, text in self.game.log[:index]:
            probe.apply(text)
        return len(probe.legal_actions()) > 1

    def hint(self) -> Any:
        """What the strongest computer player would do from your seat, seeing only your view."""
        return make_besigue_agent("search(samples=12, seconds=1.0)", len(self.game.log)).act(self.view())

    # ---------------------------------------------------------------- acting
    def apply_human(self, choice: Any) -> Any:
        """Apply the person's action or typed text; ParseError or IllegalAction (changing nothing) if refused."""
        action = parse_typed(self.game, choice, current()) if isinstance(choice, str) else choice
        if self.game.to_act() != self.seat:
            raise RulesetError(_("it is not your turn"))
        self.game.apply(action)
        return action

    @property
    def agents(self) -> dict[int, Any]:
        """The computer player by seat, as the Barbu session has them (one here: the opponent)."""
        return {self.opponent: self.agent}

    def bot_view(self, seat: int | None = None) -> BesigueView:
        """What the computer player may know: it decides from this alone."""
        return self.game.view(self.opponent)

    def apply_bot(self, seat: int, action: Any) -> None:
        """The computer player's action (``seat`` is the opponent's: the same call as the Barbu session's)."""
        self.game.apply(action)

    def play_chance(self) -> None:
        self.game.play_chance()

    def finished_deals(self) -> list[dict[str, Any]]:
        """Deals finished since the last call (each reported once): the game's public results."""
        new = self.game.results[self._reported :]
        self._reported = len(self.game.results)
        return list(new)

    # ---------------------------------------------------------------- saving
    def header(self) -> dict[str, Any]:
        names = [self.who(s, True) for s in (0, 1)]  # "you", "computer (good player)"
        return {"players_names": names, "tui": {"seat": self.seat, "opponents": {str(self.opponent): self.strength}}}

    def save(self) -> Path | None:
        """Write the record; returns where, or None when saving is off."""
        if self.save_path is None:
            return None
        tmp = self.save_path.with_name(self.save_path.name + ".tmp")
        write_record(self.game, tmp, self.header())
        tmp.replace(self.save_path)  # atomic: a crash mid-save never leaves half a record
        return self.save_path

    @property
    def untouched(self) -> bool:
        """Nothing played: no deal finished and no move of the person's yet."""
        return not self.game.results and all(actor != self.seat for actor, _action in self.game.log)

    def leave(self) -> Path | None:
        """Save when the person leaves; a game started here and left untouched is not kept (`Session.leave`)."""
        return None if forget_untouched(self) else self.save()


__all__ = [
    "BESIGUE_STRENGTHS",
    "CHANCE",
    "BesigueSession",
    "besigue_settings",
    "check_settings",
    "is_besigue",
    "is_besigue_record",
    "is_besigue_settings",
    "resume_from_args",
    "settings_from_args",
]
