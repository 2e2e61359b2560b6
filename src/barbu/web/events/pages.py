"""What is shown of the events: the lists, an event's page (details, players, the reader's table, standings and
travellers), the digest the push compares, and whether a table's replay must wait.

Other tables' addresses are given only once their round is over (they are unlisted tables, like private ones,
until then); a board's results only once every table has played it (`results`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import datetime
from typing import Any

from ..accounts.store import User
from ..clubs import store as clubstore
from ..common.errors import WebError
from ..db.storage import _aware
from . import refusals as no
from . import store as db
from .access import EventAccess, club_role, hidden
from .formats import capacity, default_deals, players_at
from .pausing import paused_json
from .results import Played, deal_rows, results_json, stand_in_starts
from .settings import FIELDS

#: Events a list shows at once (the next ones by "More"), and of one director's at most this many in the server's
#: lists (a club's own list shows all of its events): one account's flood never pushes a real club night out.
PAGE = 50
PER_DIRECTOR = 3


def iso(t: datetime | None) -> str | None:
    return None if t is None else _aware(t).isoformat(timespec="seconds")


def summary_json(ev: db.Event, registered: int, club: Any = None) -> dict[str, Any]:
    """An event as the lists show it (never its key while it is played)."""
    seats = players_at(ev.rules)
    return {
        "id": ev.id,
        "url": f"/e/{ev.id}",
        "name": ev.name,
        "rules": ev.rules,
        "format": ev.format,
        "rounds": ev.rounds,
        "round": ev.round,
        "tables": ev.tables,
        "seats": seats,
        "deals": ev.deals,
        "strength": ev.strength,
        "clock": ev.clock,
        "start": iso(ev.start_at),
        "status": ev.status,
        "director": ev.director,
        "registered": registered,
        "room": None if ev.tables is None else ev.tables * seats,
        "club": None if club is None else {"slug": club.slug, "name": club.name, "url": f"/c/{club.slug}"},
        "paused": paused_json(ev),  # paused by the director: since when, and why if he said
    }


def changed_since(ev: db.Event, me: db.Player | None) -> dict[str, Any] | None:
    """What the director changed after ``me`` registered (the fields, in `FIELDS`' order, and the last change's
    time), for his page while the event is to come; None: nothing."""
    if me is None or me.registered_at is None or ev.status != "registering":
        return None
    after = [c for c in ev.changes if c.at > me.registered_at]
    fields = [f for f in FIELDS if any(f in c.fields for c in after)]
    return {"at": iso(after[-1].at), "fields": fields} if fields else None


def names_of(people: list[db.Player]) -> list[str]:
    """The players by their index in the plan."""
    placed = sorted((p for p in people if p.position is not None), key=lambda p: p.position or 0)
    names = [""] * (max((p.position or 0 for p in placed), default=-1) + 1)
    for p in placed:
        names[p.position or 0] = p.name
    return names


class EventPages:
    """The events as their pages read them; an event's standings computed once per change of its tables."""

    def __init__(self, access: EventAccess) -> None:
        self.access = access
        self.lobby = access.lobby
        self._results: dict[int, tuple[Any, dict[str, Any]]] = {}  # event → (what it was computed from, results)

    async def replay_withheld(self, table_id: str) -> bool:
        """Whether a table's replay must wait: it is a duplicate event's table whose round other tables may still
        be playing (a replay shows every hand of boards they have not finished), as the event page hides it."""
        if self.lobby.store is None:
            return False

        def read(conn: Any) -> bool:
            event_id = db.event_of_table(conn, table_id)
            ev = None if event_id is None else db.event_by_id(conn, event_id)
            if ev is None or ev.status in ("over", "cancelled"):
                return False
            rnd = next((r for r, _n, tid in db.tables(conn, ev.id) if tid == table_id), None)
            return rnd is None or rnd >= (ev.round or 0)

        return bool(await self.access.read(read))

    async def of_table(self, table_id: Any, user: User | None) -> dict[str, Any]:
        """What an event's table says at its end (static/js/eventend.js): its event, its round, whether every
        table of the round is over, the reader's next table and, the event over, his place.  Refused as missing
        for a table that is no event's, or whose event the reader may not see."""
        if self.lobby.store is None or not isinstance(table_id, str) or len(table_id) > 64:
            raise WebError(no.NOT_AN_EVENT_TABLE)
        event_id = await self.access.read(db.event_of_table, table_id)
        if event_id is None:
            raise WebError(no.NOT_AN_EVENT_TABLE)
        body = await self.page(event_id, user)
        tables = await self.access.read(db.tables, event_id)
        rnd, number = next(((r, n) for r, n, tid in tables if tid == table_id), (0, 0))
        me = user.name.casefold() if user is not None else None
        mine = next((s for s in body["standings"] if me is not None and s["name"].casefold() == me), None)
        next_table = body["my_table"] if body["my_table"] and body["my_table"]["id"] != table_id else None
        return {
            "event": {k: body[k] for k in ("id", "url", "name", "status", "round", "rounds", "deals", "start")},
            "round": rnd,
            "number": number,
            "round_over": body["status"] == "over" or rnd < (body["round"] or 0),
            "next_table": next_table,
            "place": None if mine is None or body["status"] != "over" else mine["rank"],  # as the standings say it
        }

    async def listing(self, user: User | None, club_id: int | None = None, page: int = 0) -> dict[str, Any]:
        """A page of the upcoming events (the soonest first), and the running and past ones, a private club's only
        to its members; in the server's lists, at most `PER_DIRECTOR` of one director's (a club's list: all)."""
        uid = user.id if user is not None else None
        cap = None if club_id is not None else PER_DIRECTOR

        def read(conn: Any) -> dict[str, Any]:
            upcoming = db.listed(conn, ("registering",), uid, club_id, cap, offset=page * PAGE, limit=PAGE + 1)
            more = len(upcoming) > PAGE
            found = upcoming[:PAGE]
            if page == 0:
                found += db.listed(conn, ("running",), uid, club_id, cap, limit=PAGE)
                found += db.listed(conn, ("over", "cancelled"), uid, club_id, cap, newest_first=True, limit=PAGE)
            clubs = clubstore.clubs_by_id(conn, sorted({e.club_id for e in found if e.club_id is not None}))
            mine = clubstore.memberships(conn, user.id, sorted(clubs)) if user is not None else set()
            counts = db.counts(conn, [e.id for e in found])
            out: dict[str, list[Any]] = {"registering": [], "running": [], "over": [], "cancelled": []}
            for e in found:
                club = clubs.get(e.club_id) if e.club_id is not None else None
                if club is not None and (club.deleted or (not club.public and e.club_id not in mine)):
                    continue
                out[e.status].append(summary_json(e, counts.get(e.id, 0), club))
            out["registering"].sort(key=lambda e: (e["start"] is None, e["start"] or "", e["id"]))
            past = [e for e in out["over"] + out["cancelled"]]  # a cancelled event leaves the upcoming list
            past.sort(key=lambda e: -e["id"])
            return {
                "upcoming": out["registering"],
                "running": out["running"],
                "past": past[:PAGE],
                "page": page,
                "more": more,
                "per_director": cap,
            }

        return await self.access.read(read)

    async def visible(self, raw: Any, user: User | None) -> db.Event:
        """The event, if ``user`` may see it (a private club's to its members only; else missing, as if not there)."""
        ev = await self.access.find(raw)

        def read(conn: Any) -> None:
            if hidden(*club_role(conn, ev.club_id, user)):
                raise WebError(no.NOT_FOUND)

        await self.access.read(read)
        return ev

    async def page(self, raw: Any, user: User | None) -> dict[str, Any]:
        """Everything the event's page shows: details, players, the reader's table, standings, travellers."""
        ev = await self.access.find(raw)

        def read(conn: Any) -> tuple[Any, Any, list[db.Player], list[tuple[int, int, str]]]:
            club, role = club_role(conn, ev.club_id, user)
            if hidden(club, role):
                raise WebError(no.NOT_FOUND)
            return club, role, db.players(conn, ev.id), db.tables(conn, ev.id)

        club, role, people, tables = await self.access.read(read)
        return await self._body(ev, user, club, role, people, tables)

    async def digest(self, event_id: int) -> str | None:
        """What the event's page shows anyone (as a guest would see it, whatever the club), and which of its
        tables are made (a player's own table appears on his page then), as a digest: the push tells the pages
        when it differs (`barbu.web.events.push`).  None: no such event."""
        ev = await self.access.read(db.event_by_id, event_id)
        if ev is None:
            return None

        def read(conn: Any) -> tuple[Any, list[db.Player], list[tuple[int, int, str]]]:
            club = clubstore.club_by_id(conn, ev.club_id) if ev.club_id is not None else None
            return club, db.players(conn, ev.id), db.tables(conn, ev.id)

        club, people, tables = await self.access.read(read)
        body = await self._body(ev, None, club, None, people, tables)
        body["made"] = [[r, n] for r, n, _ in tables]
        return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()

    async def _body(
        self,
        ev: db.Event,
        user: User | None,
        club: Any,
        role: str | None,
        people: list[db.Player],
        tables: list[tuple[int, int, str]],
    ) -> dict[str, Any]:
        me = next((p for p in people if user is not None and p.user_id == user.id), None)
        body = summary_json(ev, len(people), club) | {
            "players": [{"name": p.name, "left": p.left, "profile": f"/u/{p.name}"} for p in people],
            "director_is_me": user is not None and (ev.director_id == user.id or role in ("owner", "admin")),
            "me_registered": me is not None,
            "me_left": bool(me and me.left),
            "logged_in": user is not None,
            "capacity": capacity(ev),
            "key": ev.secret if ev.status == "over" else None,
            "deals_default": default_deals(ev),
            "changed": changed_since(ev, me),
        }
        names = names_of(people)
        my_table = None
        if me is not None and me.position is not None and ev.status == "running":
            for r, number, tid in tables:
                if r == ev.round and ev.plan and me.position in ev.plan[r - 1][number - 1]:
                    my_table = {"id": tid, "url": f"/t/{tid}", "number": number, "round": r}
        body["my_table"] = my_table
        rows, highest = await self._played(ev, tables, people)
        # Every player's page reads the event every few seconds: the standings are computed once per change
        key = (ev.status, ev.round, tuple(names), tuple((r.table_id, r.deal, r.over, tuple(r.stand_in)) for r in rows))
        cached = self._results.get(ev.id)
        if cached is None or cached[0] != key:
            cached = self._results[ev.id] = (key, results_json(ev, names, rows, highest))
            if len(self._results) > 200:
                self._results.pop(next(iter(self._results)))
        body |= copy.deepcopy(cached[1])
        for b in body["travellers"]:  # a table's replay holds all its deals: only once every table of the round is over
            for row in b["tables"]:
                if ev.status != "over" and row["round"] >= ev.round:
                    row["replay"] = None
        over = {(r.round, r.number) for r in rows if r.over}
        body["past_tables"] = [
            {
                "round": r,
                "number": n,
                "url": f"/t/{tid}" if (r, n) in over or ev.status == "over" else None,
                "replay": f"/t/{tid}/replay" if (r, n) in over else None,
            }
            for r, n, tid in tables
            if r < ev.round or ev.status == "over"
        ]
        return body

    async def _played(
        self, ev: db.Event, tables: list[tuple[int, int, str]], people: list[db.Player]
    ) -> tuple[list[Played], bool]:
        """Every finished deal of the event's tables, from the tables themselves (in memory, else the database)."""
        rows: list[Played] = []
        highest = True
        for r, number, tid in tables:
            t = self.lobby.tables.get(tid)
            if t is None:
                t = await self.lobby.get(tid)
            if t is None:
                continue
            spec = getattr(t.rules, "family_spec", None)
            highest = bool(spec.highest_wins) if spec is not None else True
            rows.extend(deal_rows(t, r, number, stand_in_starts(ev.plan, people, r, number)))
        return rows, highest
