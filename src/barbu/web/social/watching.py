"""The live tables page (issue 45, "Watching"): the matches being played that anyone may watch, the highest rated
first (the average rating of the accounts seated), then the tables of the players you follow and of your clubs.

It orders the lobby's rows (`barbu.web.tables.lobby.Lobby.listing`, already less what the reader may not see);
spectators see what spectators always saw (the table's page, its spectators' oracle): nothing new is opened.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

TOP = 20  # tables in the "highest rated" list


def average_rating(row: dict[str, Any]) -> float | None:
    """The average rating of the accounts seated at a lobby row's table (None: no account with a rating)."""
    found = [
        s["rating"]["rating"]
        for s in row.get("seats", ())
        if s.get("account") and isinstance(s.get("rating"), dict) and isinstance(s["rating"].get("rating"), int)
    ]
    return sum(found) / len(found) if found else None


def table_json(row: dict[str, Any]) -> dict[str, Any]:
    avg = average_rating(row)
    return {
        "id": row["id"],
        "rules": row.get("rules", ""),
        "players": [
            {"name": s.get("name", ""), "kind": s.get("kind"), "account": bool(s.get("account"))}
            for s in row.get("seats", ())
        ],
        "rating": None if avg is None else round(avg),
        "rated": bool(row.get("rated")),
        "spectators": int(row.get("spectators") or 0),
        "club": row.get("club"),
        "watch": f"/t/{row['id']}",
    }


def live_tables(rows: Iterable[dict[str, Any]], friends: set[str], clubs: set[int]) -> dict[str, list[dict[str, Any]]]:
    """The live tables in three lists: ``top`` (highest average rating first, the unrated after them, newest
    first among equals), ``friends`` (a player you follow is seated: ``friends`` holds their names folded) and
    ``clubs`` (a table of one of your clubs)."""
    live = [r for r in rows if r.get("status") == "playing" and not r.get("private")]
    ordered = sorted(
        enumerate(live), key=lambda ir: (average_rating(ir[1]) is None, -(average_rating(ir[1]) or 0), ir[0])
    )
    top = [table_json(r) for _, r in ordered[:TOP]]
    mine = [
        table_json(r)
        for r in live
        if any(s.get("account") and str(s.get("name", "")).casefold() in friends for s in r.get("seats", ()))
    ]
    club = [table_json(r) for r in live if r.get("club_id") in clubs]
    return {"top": top, "friends": mine, "clubs": club}


def tables_of(rows: Iterable[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The unfinished tables a player (by his account's name) sits at, among the rows the reader may see."""
    folded = name.casefold()
    return [
        table_json(r)
        for r in rows
        if not r.get("private")
        and any(s.get("account") and str(s.get("name", "")).casefold() == folded for s in r.get("seats", ()))
    ]
