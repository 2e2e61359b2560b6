"""An event's results: its tables' finished deals, the boards every table has played, the standings and travellers.

**Hidden information.**  A board's results (its traveller, and its part of the standings) are shown to nobody
until every table of its round has finished that deal (`shown_boards`): a player never learns what another
table did with cards he has still to play.  Scored by matchpoints (`barbu.duplicate.matchpoints`).

**Short boards.**  Once a round is over (every table of it over, or the event), a board some table never played
(a table ended before its last deal) is shown too, with fewer results than its round has tables: its
matchpoints are raised to a full board's scale by Neuberg's formula (`matchpoints.neuberg`), so it weighs in
the standings as much as the others, and the page says where it was applied.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ...duplicate.matchpoints import Entry, score_boards, standings
from . import store as db
from .formats import board_key


@dataclass
class Played:
    """One finished deal of one table: the round, the table, the deal, and what it was."""

    round: int
    number: int
    table_id: str
    deal: int  # from 1
    scores: list[float]
    contract: str | None
    declarer: int | None
    doubles: int
    stand_in: list[bool]
    over: bool  # the table's match is over: its replay may be opened


def deal_rows(t: Any, round_no: int, number: int, stand_in_from: dict[int, int] | None = None) -> list[Played]:
    """The finished deals of a table (`barbu.web.tables.actor.Table`) as `Played` rows.

    ``stand_in_from``: seat → the first deal (from 0) the stand-in played for a player who left, known from
    the deals his table had finished when he left (`stand_in_starts`).  A seat marked left without it (an
    older event) counts every deal as the stand-in's."""
    out = []
    starts = stand_in_from or {}
    left_seats = [bool(s.left) for s in t.seats]
    named = {c.key: c.name for c in getattr(t.match, "contracts", ())}  # the English name the pages translate
    for k, res in enumerate(t.match.results):
        if isinstance(res, dict):
            scores, contract, declarer, doubles = res.get("scores", []), None, None, 0
        else:
            scores = list(getattr(res, "added", res.scores))
            contract, declarer = getattr(res, "contract", None), getattr(res, "declarer", None)
            contract = named.get(contract, contract)
            doubles = len(getattr(res, "doubles", ()) or ())
        left = [was_left and k >= starts.get(seat, 0) for seat, was_left in enumerate(left_seats)]
        out.append(
            Played(
                round_no,
                number,
                t.id,
                k + 1,
                [float(x) for x in scores],
                contract,
                declarer,
                doubles,
                left,
                t.status == "over",
            )
        )
    return out


def stand_in_starts(
    plan: list[list[list[int | None]]] | None, people: list[db.Player], round_no: int, number: int
) -> dict[int, int]:
    """Seat → the first deal (from 0) played by the stand-in at table ``number`` of round ``round_no``, for
    the players who left during that round: the deals his table had finished when he left stay his.  A player
    who left in an earlier round is not here (his later seats are the stand-in's from their first deal)."""
    try:
        seats = plan[round_no - 1][number - 1] if plan else []
    except IndexError:
        seats = []
    by_position = {p.position: p for p in people if p.position is not None}
    out = {}
    for seat, position in enumerate(seats):
        p = by_position.get(position) if position is not None else None
        if p is not None and p.left and p.left_round == round_no and p.left_deal is not None:
            out[seat] = p.left_deal
    return out


def shown_boards(rows: list[Played], tables_per_round: dict[int, int], rounds_over: int = 0) -> set[tuple[int, int]]:
    """The boards (round, deal) every table of their round has finished, and every board of the rounds over
    (``rounds_over``: the rounds up to it, whose tables all are over): only those are shown to anyone."""
    done: dict[tuple[int, int], int] = {}
    for r in rows:
        done[(r.round, r.deal)] = done.get((r.round, r.deal), 0) + 1
    return {b for b, n in done.items() if n >= tables_per_round.get(b[0], 0) > 0 or b[0] <= rounds_over}


def rounds_over(ev: db.Event) -> int:
    """The rounds whose every table is over: those before the current one, all of them once the event is."""
    if ev.status == "over":
        return len(ev.plan or ()) or ev.round
    return ev.round - 1 if ev.status == "running" else 0


def who_sat(plan: list[list[list[int | None]]], names: list[str], round_no: int, number: int, seat: int) -> str:
    """The name standings use for a seat: its player's, or a computer player's own key (never ranked)."""
    try:
        p = plan[round_no - 1][number - 1][seat]
    except (IndexError, TypeError):
        p = None
    return names[p] if p is not None and p < len(names) else f"\x00computer {round_no}-{number}-{seat}"


def results_json(ev: db.Event, names: list[str], rows: list[Played], highest_wins: bool) -> dict[str, Any]:
    """The standings (by percentage, then by points) and the travellers of the boards every table has finished."""
    per_round: dict[int, int] = {}
    for round_no, _number in {(r.round, r.number) for r in rows}:
        per_round[round_no] = per_round.get(round_no, 0) + 1
    plan = ev.plan or []
    for i, rnd in enumerate(plan):  # tables not yet made count too: a board is shown only once all have played it
        per_round[i + 1] = max(per_round.get(i + 1, 0), len(rnd))
    shown = shown_boards(rows, per_round, rounds_over(ev))
    entries, where = _entries(rows, shown, plan, names)
    full: dict[Hashable, int] = {
        board_key(r, d): per_round.get(r, 0) for r, d in shown
    }  # a full board: a result from each table
    travellers = _travellers(entries, where, highest_wins, full)
    return {
        "standings": _ranking(entries, highest_wins, full),
        "travellers": travellers,
        "boards_shown": len(shown),
        "adjusted": [b["board"] for b in travellers if b["adjusted"]],  # boards short of a result: Neuberg's
    }


Where = dict[tuple[Hashable, int, str], Played]  # (board, seat, who sat there) → the deal it was played in


def _entries(
    rows: list[Played], shown: set[tuple[int, int]], plan: list[list[list[int | None]]], names: list[str]
) -> tuple[list[Entry], Where]:
    """Every seat's score of the boards shown, as matchpoints compares them, and the deal each was played in."""
    entries: list[Entry] = []
    where: Where = {}
    for r in rows:
        if (r.round, r.deal) not in shown:
            continue
        for seat, score in enumerate(r.scores):
            who = who_sat(plan, names, r.round, r.number, seat)
            e = Entry(
                board_key(r.round, r.deal),
                seat,
                who,
                score,
                r.stand_in[seat] if seat < len(r.stand_in) else False,
                computer=who.startswith("\x00"),  # compared with, never ranked: the players rank 1, 2, 3, not 2, 3, 4
            )
            entries.append(e)
            where[(e.board, seat, who)] = r
    return entries, where


def _ranking(entries: list[Entry], highest_wins: bool, full: Mapping[Hashable, int]) -> list[dict[str, Any]]:
    """The players' standings (never a computer player's): by percentage, or by points while nobody is compared."""
    ranking: list[dict[str, Any]] = []
    for s in standings(entries, highest_wins, full):
        if s.player.startswith("\x00"):
            continue
        pct = s.percent
        ranking.append(
            {
                "name": s.player,
                "rank": s.rank,
                "rank_points": s.rank_points,
                "percent": None if pct is None else round(pct, 2),
                "matchpoints": s.matchpoints,
                "top": s.top,
                "points": s.points,
                "boards": s.boards,
                "stand_in": s.stand_in_boards,
                "adjusted": s.adjusted_boards,
            }
        )
    if ranking and all(r["percent"] is None for r in ranking):  # nobody compared yet (one table): by points
        for standing in ranking:
            standing["rank"] = standing["rank_points"]
        ranking.sort(key=lambda r: int(r["rank"].rstrip("=")))
    return ranking


def _travellers(
    entries: list[Entry], where: Where, highest_wins: bool, full: Mapping[Hashable, int]
) -> list[dict[str, Any]]:
    """Each board's traveller: at every table, the contract, its doubles, each seat's score and matchpoints
    (Neuberg's, out of a full board's top, where a table is missing: ``adjusted``)."""
    boards: dict[str, dict[str, Any]] = {}
    for result in score_boards(entries, highest_wins, full):
        b = boards.setdefault(str(result.board), {"board": str(result.board), "rows": {}, "adjusted": False})
        b["adjusted"] = b["adjusted"] or result.adjusted
        for entry, mp in result.rows:
            r = where[(entry.board, entry.seat, entry.player)]
            row = b["rows"].setdefault(
                r.number,
                {
                    "table": r.number,
                    "round": r.round,
                    "deal": r.deal,
                    "contract": r.contract,
                    "declarer": r.declarer,
                    "doubles": r.doubles,
                    "replay": f"/t/{r.table_id}/replay#deal={r.deal}" if r.over else None,
                    "seats": {},
                },
            )
            top = result.top
            row["seats"][entry.seat] = {
                "seat": entry.seat,
                "score": entry.score,
                "matchpoints": mp,
                "top": top,
                "name": None if entry.player.startswith("\x00") else entry.player,
                "stand_in": entry.stand_in,
            }
    travellers = []
    for key in sorted(
        boards,
        key=lambda k: tuple(int(x) for x in k.replace("r", "").replace("d", "").split("-") if x.isdigit()) or (0,),
    ):
        b = boards[key]
        rows_out = []
        for number in sorted(b["rows"]):
            row = b["rows"][number]
            row["seats"] = [row["seats"][s] for s in sorted(row["seats"])]
            rows_out.append(row)
        travellers.append(
            {
                "board": key,
                "round": rows_out[0]["round"],
                "deal": rows_out[0]["deal"],
                "tables": rows_out,
                "adjusted": b["adjusted"],
            }
        )
    return travellers
