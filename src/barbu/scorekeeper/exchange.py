"""Kept games in and out: the JSON form, a CSV a spreadsheet opens, and played records taken in.

The CSV has one row per deal in words and numbers (dealer, contract, doubles,
points and running totals per player), so a spreadsheet shows the game; its
first row names the rules and players and its last column holds each deal's
entry, so the file reads back into the same game.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from typing import Any

from ..besigue.actions import BRISQUE_POINTS, LAST_TRICK_POINTS, SEVEN_POINTS
from ..classic.state import DealResult, Points
from ..core import safejson
from ..core.cards import SUITS
from ..core.errors import BarbuError
from ..records import barbu as records
from ..records import besigue as besigue_records
from . import AnyKeeper, BesigueKeeper, KeeperError, keeper_from_dict
from . import refusals as K
from .fromplay import entries_from_actions
from .keeper import Keeper

MAX_IMPORT = 2_000_000  # characters: a kept game is a few kilobytes


def to_json(keeper: AnyKeeper) -> str:
    return json.dumps(keeper.to_dict(), ensure_ascii=False, indent=1)


def from_json(text: str) -> AnyKeeper:
    """A kept game from its JSON form; every deal is checked again (`KeeperError` says what is wrong)."""
    if len(text) > MAX_IMPORT:
        raise KeeperError.of(K.TOO_LARGE)
    try:
        data = safejson.loads(text)
    except safejson.JsonError as e:  # worded anew in each reader's language
        raise KeeperError.wrap(e, template=K.NOT_JSON) from None
    return keeper_from_dict(data)


def _doubles_text(r: DealResult, names: list[str]) -> str:
    return "; ".join(
        f"{names[b.doubler]} doubles {names[b.doubled]}" + (", redoubled" if b.redoubled else "") for b in r.doubles
    )


def rows(keeper: AnyKeeper) -> list[list[Any]]:
    """The CSV's rows: the game line, the header, one row per deal."""
    names = list(keeper.names)
    first = [
        "barbu-scorekeeper",
        "game",
        keeper.game,
        "rules",
        str(keeper.rules),
        "first dealer",
        names[keeper.first],
        "players",
        *names,
    ]
    head = [
        "deal",
        "dealer",
        "declarer",
        "contract",
        "trumps or rank",
        "doubles",
        *[f"{x} points" for x in names],
        *[f"{x} total" for x in names],
        "notes",
        "entry",
    ]
    out: list[list[Any]] = [first, head]
    if isinstance(keeper, BesigueKeeper):
        for res, e in zip(keeper.results, keeper.entries):
            out.append(
                [
                    res["deal"],
                    names[res["dealer"]],
                    "",
                    "",
                    "",
                    "",
                    *res["scores"],
                    *res["totals"],
                    "",
                    json.dumps(e, ensure_ascii=False),
                ]
            )
        return out
    assert isinstance(keeper, Keeper)
    totals: list[Points] = [0] * keeper.n
    for r, e in zip(keeper.results, keeper.entries):
        c = keeper.match.contract_by_key[r.contract]
        extra = (
            ("trumps " + ("none" if r.trump is None else SUITS[r.trump]))
            if c.trump
            else ("rank " + "23456789TJQKA"[r.rank] if r.rank is not None else "")
        )
        totals = [t + x for t, x in zip(totals, r.added)]
        notes = " / ".join(keeper.flags.get(r.number, []))
        out.append(
            [
                r.number,
                names[r.dealer],
                names[r.declarer],
                c.name,
                extra,
                _doubles_text(r, names),
                *[str(x) for x in r.added],
                *[str(t) for t in totals],
                notes,
                json.dumps(e, ensure_ascii=False),
            ]
        )
    return out


def to_csv(keeper: AnyKeeper) -> str:
    buf = io.StringIO()
    csv.writer(buf).writerows(rows(keeper))
    return buf.getvalue()


def from_csv(text: str) -> AnyKeeper:
    """A kept game from a CSV written by `to_csv` (the points columns are recomputed, not trusted)."""
    if len(text) > MAX_IMPORT:
        raise KeeperError.of(K.TOO_LARGE)
    try:
        table = list(csv.reader(io.StringIO(text)))
    except csv.Error as e:
        raise KeeperError.of(K.NOT_CSV, error=str(e)) from None
    if len(table) < 2 or not table[0] or table[0][0] != "barbu-scorekeeper" or len(table[0]) < 9:
        raise KeeperError.of(K.NOT_OUR_CSV)
    meta = table[0]
    game, rules, first_name, names = meta[2], meta[4], meta[6], meta[8:]
    names = [x for x in names if x]
    if first_name not in names:
        raise KeeperError.of(K.CSV_DEALER, name=repr(first_name))
    entries = []
    for i, row in enumerate(table[2:], start=3):
        if not row:
            continue
        try:
            entries.append(safejson.loads(row[-1]))
        except safejson.JsonError:
            raise KeeperError.of(K.CSV_ROW, row=i) from None
    return keeper_from_dict(
        {
            "format": "barbu-scorekeeper",
            "version": 1,
            "game": game,
            "rules": rules,
            "names": names,
            "first": names.index(first_name),
            "entries": entries,
        }
    )


def from_match(match: Any, names: list[str] | None = None) -> Keeper:
    """A kept game made from a played match (a replayed record's `Match`), deal by deal, as its players
    would have counted each deal."""
    first, entries = entries_from_actions(match.rules, match.history)
    names = names or [f"Player {s + 1}" for s in range(match.n)]
    return Keeper(match.rules, names, first, entries)


def is_record(text: str) -> bool:
    """Whether ``text`` is a played match record (JSON Lines whose first line is a record's header), as
    ``barbu selfplay --out`` and the arena write them, rather than a kept game."""
    first = text.lstrip().split("\n", 1)[0]
    try:
        head = safejson.loads(first)
    except safejson.JsonError:
        return False
    return (
        isinstance(head, dict)
        and head.get("type") == "header"
        and (head.get("format") == records.FORMAT or head.get("game") == "besigue")
    )


def from_record(text: str) -> AnyKeeper:
    """A kept game made from a played match record: every finished deal as its players would have counted
    it, so the game can be corrected, shared and printed like any kept game.  A record that cannot be
    replayed, or whose stated scores its own play contradicts, is refused (`KeeperError`).  Bésigue records
    too."""
    if len(text) > MAX_IMPORT:
        raise KeeperError.of(K.TOO_LARGE)
    try:
        head = safejson.loads(text.lstrip().split("\n", 1)[0])
    except safejson.JsonError:
        head = None
    if isinstance(head, dict) and head.get("game") == "besigue":
        try:
            played = besigue_records.replay_lines(text.splitlines())
        except BarbuError as e:
            raise KeeperError.wrap(e) from None
        if played.inconsistencies:
            raise KeeperError.of(K.RECORD_INCONSISTENT, problem=played.inconsistencies[0])
        return from_besigue_game(played.game, record_names(played.header, 2))
    try:
        record = records.read_record(text.splitlines())
        rp = records.replay(record)
    except BarbuError as e:
        raise KeeperError.wrap(e) from None
    if rp.inconsistencies:
        raise KeeperError.of(K.RECORD_INCONSISTENT, problem=rp.inconsistencies[0])
    return from_match(rp.match, record_names(record.header, rp.match.n))


def from_besigue_game(game: Any, names: list[str] | None = None) -> BesigueKeeper:
    """A kept Bésigue game made from a played one: each deal's declarations, sevens, brisques and last
    trick as the players would have counted them (a deal's sevens are what its score has beyond the rest)."""
    entries = []
    for r in game.results:
        melds = [dict(Counter(kind for kind, _ in r["melds"][s])) for s in (0, 1)]
        beyond = [
            r["scores"][s]
            - sum(v for _, v in r["melds"][s])
            - r["brisques"][s]
            - (LAST_TRICK_POINTS if r["last_trick"] == s else 0)
            for s in (0, 1)
        ]
        entries.append(
            {
                "outcome": {
                    "melds": melds,
                    "sevens": [x // SEVEN_POINTS for x in beyond],
                    "brisques": [b // BRISQUE_POINTS for b in r["brisques"]],
                    "last": [r["last_trick"]],
                }
            }
        )
    first = game.results[0]["dealer"] if game.results else game.dealer
    return BesigueKeeper(game.rules, names or ["Player 1", "Player 2"], first, entries)


def record_names(header: dict[str, Any], n: int) -> list[str] | None:
    """The players' names a record's header gives (``names``, else ``players_names``), when they are
    ``n`` different names; None (Player 1, Player 2…) otherwise."""
    for key in ("names", "players_names"):
        given = header.get(key)
        if isinstance(given, list) and len(given) == n and all(isinstance(x, str) and x.strip() for x in given):
            names = [x.strip()[:40] for x in given]
            if len({x.lower() for x in names}) == n:
                return names
    return None
