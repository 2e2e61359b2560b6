"""Bésigue records: the same JSON Lines format as the Barbu games.

* ``{"type": "header", "format": "barbu-record", "version": 1, "game": "besigue", "rules": "besigue", "seed": 7, ...}``
* ``{"type": "action", "actor": 0, "action": "play QS"}`` (``"chance"`` for the dealer draw and the shuffles)
* ``{"type": "deal", "number": 1, "dealer": 0, "melds": [...], "brisques": [...], "last_trick": 1,
  "scores": [...], "totals": [...]}`` after each deal, checked on replay
* ``{"type": "result", "totals": [...]}`` once the game is over

Records are built in memory (`record_lines`, `parse_record`); only
`write_record` and `read_record` touch files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from ..besigue.game import CHANCE, BesigueGame
from ..besigue.ruleset import BesigueRules
from ..core import safejson
from ..core.chance import verify_board_chance, verify_chance
from ..core.errors import BarbuError
from ..i18n import _
from . import refusals as R
from .barbu import daily_board_key
from .lines import published_key, read_lines, record_objects, write_lines
from .refusals import refuse

FORMAT = "barbu-record"
VERSION = 1


def record_lines(game: BesigueGame, header: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    head = {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "game": "besigue",
        "rules": str(game.rules),
        "seed": game.seed,
        "players": 2,
    }
    if header:
        head.update({k: v for k, v in header.items() if k not in ("type", "format", "version", "game")})
    out: list[dict[str, Any]] = [head]
    replayer = BesigueGame(game.rules, game.seed)
    replayer.keep_undo = False
    done = 0
    for actor, text in game.log:
        out.append({"type": "action", "actor": "chance" if actor == CHANCE else actor, "action": text})
        replayer.apply(text)
        while done < len(replayer.results):
            out.append(deal_line(replayer.results[done]))
            done += 1
    if game.is_over:
        out.append({"type": "result", "totals": list(game.totals), "winner": game.winner})
    return out


def deal_line(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "deal",
        "number": r["deal"],
        "dealer": r["dealer"],
        "melds": [[list(m) for m in side] for side in r["melds"]],
        "brisques": r["brisques"],
        "last_trick": r["last_trick"],
        "scores": r["scores"],
        "totals": r["totals"],
    }


def write_record(game: BesigueGame, path: "str | Path", header: dict[str, Any] | None = None) -> None:
    write_lines(record_lines(game, header), path)


@dataclass
class BesigueReplay:
    game: BesigueGame
    header: dict[str, Any]
    inconsistencies: list[str] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        return not self.inconsistencies


def replay_lines(lines: Iterable[str]) -> BesigueReplay:
    """Replay a record's lines; RecordError names the line of anything malformed or illegal."""
    game: BesigueGame | None = None
    header: dict[str, Any] = {}
    problems: list[str] = []
    for no, obj in record_objects(lines):
        kind = obj["type"]
        if game is None:
            if kind != "header" or obj.get("format") != FORMAT:
                raise refuse(R.FIRST_LINE_HEADER, no)
            try:
                rules = BesigueRules.parse(str(obj.get("rules", "")))
            except BarbuError as e:
                raise refuse(R.BAD_RULESET, no, error=e) from None
            seed = obj.get("seed")
            game = BesigueGame(rules, seed if isinstance(seed, int) else None)
            header = obj
            continue
        if kind == "action":
            text, actor = obj.get("action"), obj.get("actor")
            if not isinstance(text, str):
                raise refuse(R.ACTION_NEEDS_TEXT, no)
            want = "chance" if game.to_act() == CHANCE else game.to_act()
            if actor != want:
                raise refuse(R.WRONG_ACTOR, no, actor=actor, want=want)
            try:
                game.apply(text)
            except BarbuError as e:
                raise refuse(R.ACTION_REFUSED, no, text=text, error=e) from None
        elif kind == "deal":
            n = obj.get("number")
            if not isinstance(n, int) or not 1 <= n <= len(game.results):
                raise refuse(R.DEAL_NOT_PLAYED, no, n=n)
            r = game.results[n - 1]
            for key in ("scores", "totals"):
                if obj.get(key) != r[key]:
                    problems.append(
                        (
                            _("deal {deal}: the record says scores {stated}, the replay gives {played}")
                            if key == "scores"
                            else _("deal {deal}: the record says totals {stated}, the replay gives {played}")
                        ).format(deal=n, stated=obj.get(key), played=r[key])
                    )
        elif kind == "result":
            if obj.get("totals") != game.totals:
                problems.append(
                    _("final totals: the record says {stated}, the replay gives {played}").format(
                        stated=obj.get("totals"), played=game.totals
                    )
                )
        else:
            raise refuse(R.UNKNOWN_LINE, no, kind=kind)
    if game is None:
        raise refuse(R.EMPTY)
    return BesigueReplay(game, header, problems)


def verify_deals(rep: BesigueReplay) -> list[int] | None:
    """Check a record's dealer draw and shuffles against the key its header publishes (`barbu.chance`).

    None when the record carries no key; otherwise the indices (0-based, in
    the order of the action lines) of the chance events the key does not
    give: empty means nobody chose the cards.
    """
    secret = published_key(rep.header)
    board = daily_board_key(rep.header)  # a daily deal's: dealt by its board's key, derived from the day's
    if secret is None and board is None:
        return None
    g = rep.game
    actions = [g.parse_action(text) for _, text in g.log]
    if board is not None:
        return verify_board_chance(lambda: BesigueGame(g.rules, g.seed), actions, board)
    assert secret is not None
    if rep.header.get("chance", {}).get("dealing") == "boards":  # a duplicate event's table: dealt by deal number
        return verify_board_chance(lambda: BesigueGame(g.rules, g.seed), actions, secret)
    return verify_chance(lambda: BesigueGame(g.rules, g.seed), actions, secret)


def read_record(path: "str | Path") -> BesigueReplay:
    return replay_lines(read_lines(path))


def is_besigue_record(path: "str | Path") -> bool:
    """Whether a record file's header names the Bésigue game (so the CLI replays it here)."""
    try:
        with open(path, encoding="utf-8") as f:
            head = safejson.loads(f.readline(100_000))
    except (OSError, ValueError):
        return False
    return isinstance(head, dict) and head.get("game") == "besigue"
