"""Duplicate events on the server: a director's event, its players, its rounds of tables and its standings.

A director (any account; a club's owner or admins for a club event) creates an event: the game, the format
(`barbu.duplicate.movements.FORMATS`), the rounds, the number of tables or an open registration, the
computer players' strength, the pace (the table clock, always on) and a start time or "when I say".
Accounts register; when the event starts the registered players are placed by
`barbu.duplicate.movements.schedule` and each round's tables are made at once, every table of a round dealt
by `barbu.core.chance.BoardChance` keyed by HMAC(event key, round), so deal k gives every table the same
cards from the same seats.  Empty seats, and the seats of players who left, are played by computer
players of the director's strength.  When every table of a round is over the next round's are made; when
the last is over the event is over and its key is published.

**Hidden information.**  A board's results (its traveller, and its part of the standings) are shown to
nobody until every table of its round has finished that deal: a player never learns what another table did
with cards he has still to play.  Other tables' addresses are given only once their round is over (they are
unlisted tables, like private ones, until then).

Every refusal is a `WebError` with one of `barbu.web.events.refusals`, worded in the reader's language; none changes
anything.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import logging
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable, Literal, overload

from ...core.chance import new_secret
from ...core.errors import BarbuError
from ...duplicate.matchpoints import Entry, score_boards, standings
from ...games import open_game
from ..clubs import store as clubstore
from ..clubs.refusals import NOT_FOUND as NO_CLUB
from . import store as db
from . import refusals as no
from ..accounts.service import open_store, read_in_thread, write_in_thread
from ..accounts.store import User
from .push import EventPush
from ..db.leases import Lease
from ..tables.lobby import parse_rules
from ..common.errors import WebError
from ..common.refusals import UNKNOWN_STRENGTH
from ..db.storage import Store, _aware, hash_token, now
from ..tables.actor import Table, requested_clock

log = logging.getLogger("barbu.web")

NAME_MIN, NAME_MAX = 2, 60
TABLES_MAX = 50
ROUNDS_MAX = 8
DEALS_MAX = 60
START_DAYS_MAX = 60  # how far ahead an event may be set
DEFAULT_PACE = "normal"
SWEEP_EVERY = 30  # the watcher's rounds between two checks of every event with pages here (a lost notice)

#: What a director may change before the start: the request's field → the event's column.  The field's name is
#: also what a change is recorded as (`eventstore.Change`), for the page to tell the registered players.
FIELDS = {"name": "name", "rules": "rules", "format": "format", "rounds": "rounds", "tables": "tables",
          "deals": "deals", "strength": "strength", "clock": "clock", "start": "start_at"}


# ------------------------------------------------------------------ the core's formats (another module's)
#: Seconds a round may stay short of its tables before another pass makes the missing ones (a round takes a
#: fraction of a second to make; more than this means the process making it was lost).
ROUND_REPAIR_AFTER = 30.0


def _formats() -> tuple[str, ...]:
    try:
        from ...duplicate.movements import FORMATS
        return tuple(FORMATS)
    except ImportError:  # the movements module not there yet: one match only
        return ("one-match",)


def plan_for(players: int, seats: int, fmt: str, rounds: int) -> list[list[list[int | None]]]:
    """Round → table → seat → player index (None: a computer player), by `duplicate.movements.schedule`."""
    made: Callable[[int, int, str, int], list[list[list[int | None]]]] | None
    try:
        from ...duplicate.movements import schedule
        made = schedule
    except ImportError:
        made = None
    if made is not None:
        try:
            return made(players, seats, fmt, rounds)
        except BarbuError as e:
            raise WebError.wrap(e) from None
    if players < 1:
        raise WebError(no.NOBODY_REGISTERED)
    tables = -(-players // seats)
    return [[[t * seats + s if t * seats + s < players else None for s in range(seats)] for t in range(tables)]]


def deals_in_round(rules: str, fmt: str) -> int | None:
    """Deals a table plays per round (`duplicate.formats.deals_per_round`); None: the whole match."""
    try:
        from ...duplicate.formats import deals_per_round
    except ImportError:
        return None
    try:
        return int(deals_per_round(rules, fmt))
    except BarbuError as e:
        raise WebError.wrap(e) from None


def board_key(round_no: int, deal_no: int) -> str:
    try:
        from ...duplicate.formats import board_id
        return str(board_id(round_no, deal_no))
    except ImportError:
        return f"r{round_no}-d{deal_no}"


def round_secret(event_secret: str, round_no: int) -> str:
    """The key of a round's deals: HMAC-SHA256(the event's key, round), the same for every table of the round."""
    return hmac.new(bytes.fromhex(event_secret), b"round:%d" % round_no, hashlib.sha256).hexdigest()


# ------------------------------------------------------------------ what a request asks for
def event_name(raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(no.NAME_NEEDED)
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise WebError(no.NAME_LENGTH, lo=NAME_MIN, hi=NAME_MAX)
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise WebError(no.NAME_CHARACTERS)
    return name


#: What each whole-number field of the form must be, worded whole so that every language can say it.
WHOLE_NUMBERS = {"rounds": no.ROUNDS_RANGE, "tables": no.TABLES_RANGE, "deals": no.DEALS_RANGE}


@overload
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: Literal[False] = False) -> int: ...
@overload
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: bool) -> int | None: ...
def whole(raw: Any, field: str, lo: int, hi: int, allow_none: bool = False) -> int | None:
    if raw is None and allow_none:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise WebError(WHOLE_NUMBERS[field], lo=lo, hi=hi)
    return raw


def start_time(raw: Any) -> datetime | None:
    """The start from a request: an ISO moment within `START_DAYS_MAX` days, or None for "when I say"."""
    if raw is None or raw == "":
        return None
    try:
        if not isinstance(raw, str) or len(raw) > 40:
            raise ValueError
        at = _aware(datetime.fromisoformat(raw))
    except ValueError:
        raise WebError(no.START_FORMAT) from None
    if at < now() - timedelta(minutes=1):
        raise WebError(no.START_PASSED)
    if at > now() + timedelta(days=START_DAYS_MAX):
        raise WebError(no.START_TOO_FAR, n=START_DAYS_MAX)
    return at


def iso(t: datetime | None) -> str | None:
    return None if t is None else _aware(t).isoformat(timespec="seconds")


def players_at(rules: str) -> int:
    return int(open_game(rules, 1).n)


def default_deals(ev: db.Event) -> int | None:
    """The deals a table plays per round when the director chose none (what the event's format plays)."""
    try:
        return deals_in_round(ev.rules, ev.format)
    except WebError:
        return None


def form_of(ev: db.Event) -> dict[str, Any]:
    """An event's facts as its director's form gives them (`Events.settings_of` reads them back), but the start;
    the deals empty when they are what the format plays, so that a change of format plays its own."""
    return {"name": ev.name, "rules": ev.rules, "format": ev.format, "rounds": ev.rounds, "tables": ev.tables,
            "deals": None if ev.deals == default_deals(ev) else ev.deals, "strength": ev.strength,
            "clock": ev.clock}


def changed_since(ev: db.Event, me: db.Player | None) -> dict[str, Any] | None:
    """What the director changed after ``me`` registered (the fields, in `FIELDS`' order, and the last change's
    time), for his page while the event is to come; None: nothing."""
    if me is None or me.registered_at is None or ev.status != "registering":
        return None
    after = [c for c in ev.changes if c.at > me.registered_at]
    fields = [f for f in FIELDS if any(f in c.fields for c in after)]
    return {"at": iso(after[-1].at), "fields": fields} if fields else None


# ------------------------------------------------------------------ the results of the event's tables
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
        out.append(Played(round_no, number, t.id, k + 1, [float(x) for x in scores], contract, declarer, doubles,
                          left, t.status == "over"))
    return out


def stand_in_starts(plan: list[list[list[int | None]]] | None, people: list[db.Player], round_no: int,
                    number: int) -> dict[int, int]:
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


def shown_boards(rows: list[Played], tables_per_round: dict[int, int]) -> set[tuple[int, int]]:
    """The boards (round, deal) every table of their round has finished: only those are shown to anyone."""
    done: dict[tuple[int, int], int] = {}
    for r in rows:
        done[(r.round, r.deal)] = done.get((r.round, r.deal), 0) + 1
    return {b for b, n in done.items() if n >= tables_per_round.get(b[0], 0) > 0}


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
    shown = shown_boards(rows, per_round)
    entries, where = [], {}
    for r in rows:
        if (r.round, r.deal) not in shown:
            continue
        for seat, score in enumerate(r.scores):
            who = who_sat(plan, names, r.round, r.number, seat)
            e = Entry(board_key(r.round, r.deal), seat, who, score, r.stand_in[seat] if seat < len(r.stand_in)
                      else False)
            entries.append(e)
            where[(e.board, seat, who)] = r
    ranking: list[dict[str, Any]] = []
    for s in standings(entries, highest_wins):
        if s.player.startswith("\x00"):
            continue
        pct = s.percent
        ranking.append({"name": s.player, "rank": s.rank, "rank_points": s.rank_points,
                        "percent": None if pct is None else round(pct, 2), "matchpoints": s.matchpoints,
                        "top": s.top, "points": s.points, "boards": s.boards, "stand_in": s.stand_in_boards})
    if ranking and all(r["percent"] is None for r in ranking):  # nobody compared yet (one table): by points
        for standing in ranking:
            standing["rank"] = standing["rank_points"]
        ranking.sort(key=lambda r: int(r["rank"].rstrip("=")))
    boards: dict[str, dict[str, Any]] = {}
    for result in score_boards(entries, highest_wins):
        b = boards.setdefault(str(result.board), {"board": str(result.board), "rows": {}})
        for entry, mp in result.rows:
            r = where[(entry.board, entry.seat, entry.player)]
            row = b["rows"].setdefault(r.number, {
                "table": r.number, "round": r.round, "deal": r.deal, "contract": r.contract,
                "declarer": r.declarer, "doubles": r.doubles,
                "replay": f"/t/{r.table_id}/replay#deal={r.deal}" if r.over else None, "seats": {}})
            top = len(result.rows) - 1
            row["seats"][entry.seat] = {"seat": entry.seat, "score": entry.score, "matchpoints": mp, "top": top,
                                        "name": None if entry.player.startswith("\x00") else entry.player,
                                        "stand_in": entry.stand_in}
    travellers = []
    for key in sorted(boards, key=lambda k: tuple(int(x) for x in k.replace("r", "").replace("d", "").split("-")
                                                  if x.isdigit()) or (0,)):
        b = boards[key]
        rows_out = []
        for number in sorted(b["rows"]):
            row = b["rows"][number]
            row["seats"] = [row["seats"][s] for s in sorted(row["seats"])]
            rows_out.append(row)
        travellers.append({"board": key, "round": rows_out[0]["round"], "deal": rows_out[0]["deal"],
                           "tables": rows_out})
    return {"standings": ranking, "travellers": travellers, "boards_shown": len(shown)}


# ------------------------------------------------------------------ the events of one server
class Events:
    """The events of one server, over its database and its lobby (blocking work in threads)."""

    def __init__(self, lobby: Any, settings: Any) -> None:
        self.lobby = lobby
        self.settings = settings
        self._advancing: set[int] = set()
        self._unstarted: set[int] = set()  # events whose time came but which could not start (logged once)
        self._short: dict[tuple[int, int], float] = {}  # (event, round) → since when its tables are fewer than planned
        self._results: dict[int, tuple[Any, dict[str, Any]]] = {}  # event → (what it was computed from, results)
        self._task: asyncio.Task | None = None
        self.interval = 2.0
        self._ticks = 0
        # The event pages held here, told at once when what they show changes (`barbu.web.events.push`): a deal
        # finished at an event's table is heard from the table itself, in the process that plays it.
        self.push = EventPush(self.digest)
        self._event_of: dict[str, int] = {}  # table → its event, as read
        self._background: set[asyncio.Task] = set()
        lobby.on_deal = self._deal_ended

    @property
    def store(self) -> Store:
        return open_store(lambda: self.lobby.store)

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await read_in_thread(self.store, fn, *args)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    # -- the watcher: due starts, finished rounds --
    def start_watching(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="events")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        for task in list(self._background):
            task.cancel()
        await self.push.stop()

    async def _listen_to_the_others(self) -> None:
        """With a broker, hear the other processes' notices of change (their tables' deals, their requests)."""
        cluster = self.lobby.cluster
        if cluster is None or self.push.listening:
            return
        try:
            await self.push.start(cluster.broker.redis, cluster.node)
        except Exception as e:  # the pages here read the event slowly instead, until a restart
            log.warning("events: cannot listen for the other processes' changes (%s)", e)

    async def _watch(self) -> None:
        await self._listen_to_the_others()
        while True:
            await asyncio.sleep(self.interval)
            if self.lobby.store is None:
                continue
            try:
                await self.tick()
            except Exception:  # never let the watcher die
                log.exception("events: the watcher failed")

    async def tick(self) -> None:
        """Start the events whose time has come; move every running event whose round is over on."""
        due = await self._read(db.due, now())
        for event_id in due:
            try:
                await self.start(event_id, None)
            except WebError as e:  # nobody registered, or the numbers do not fit: the event stays as it is
                if event_id not in self._unstarted:  # said once, not every round of the watcher
                    self._unstarted.add(event_id)
                    log.info("event %s: could not start at its time (%s)", event_id, e)
        for event_id in await self._read(lambda c: db.running(c)):
            await self.advance(event_id)
        self._ticks += 1
        if self._ticks % SWEEP_EVERY == 0:
            self.push.sweep()

    # -- changes, told to the pages at once --
    def changed(self, event_id: int) -> None:
        """Something about the event may have changed: its pages (in every process) are told if what they show did."""
        self.push.changed(event_id)

    def _deal_ended(self, t: Table) -> None:
        """A deal ended at a table played here (the lobby's ``on_deal``, in the table's actor): if it is an
        event's, its pages are told, and a table that is over may end its round."""
        if getattr(t, "boards", None) is None:  # only an event's tables are dealt by boards
            return
        task = asyncio.get_running_loop().create_task(self._table_moved(t), name=f"event-deal-{t.id}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _table_moved(self, t: Table) -> None:
        try:
            event_id = self._event_of.get(t.id)
            if event_id is None:  # (not kept when not found: a table is entered in its event once seated)
                event_id = await self._read(db.event_of_table, t.id)
                if event_id is None:
                    return
                if len(self._event_of) > 10_000:
                    self._event_of.clear()
                self._event_of[t.id] = event_id
            self.changed(event_id)
            if t.status == "over":
                async def settled() -> None:  # after the table's own "over" is stored (queued before this)
                    return None
                try:
                    await t.call(settled)
                except WebError:  # closed meanwhile: the watcher moves the round on
                    return
                await self.advance(event_id)
        except Exception:  # the watcher's rounds make up for it
            log.exception("events: table %s's deal could not be told", t.id)

    # -- reading --
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
        return bool(await self._read(read))

    async def find(self, raw: Any) -> db.Event:
        event_id = _event_id(raw)
        ev = await self._read(db.event_by_id, event_id)
        if ev is None:
            raise WebError(no.NOT_FOUND)
        return ev

    @staticmethod
    def _club_role(conn: Any, club_id: int | None, user: User | None) -> tuple[Any, str | None]:
        if club_id is None:
            return None, None
        club = clubstore.club_by_id(conn, club_id)
        role = clubstore.role_of(conn, club_id, user.id) if user is not None else None
        return club, role

    async def listing(self, user: User | None, club_id: int | None = None) -> dict[str, Any]:
        """Upcoming, running and past events (a private club's only to its members)."""
        def read(conn: Any) -> dict[str, Any]:
            found = db.events(conn, club_id=club_id, limit=200)
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
            return {"upcoming": out["registering"], "running": out["running"], "past": past[:50]}
        return await self._read(read)

    async def visible(self, raw: Any, user: User | None) -> db.Event:
        """The event, if ``user`` may see it (a private club's to its members only; else missing, as if not there)."""
        ev = await self.find(raw)

        def read(conn: Any) -> None:
            club, role = self._club_role(conn, ev.club_id, user)
            if club is not None and (club.deleted or (not club.public and role is None)):
                raise WebError(no.NOT_FOUND)
        await self._read(read)
        return ev

    async def page(self, raw: Any, user: User | None) -> dict[str, Any]:
        """Everything the event's page shows: details, players, the reader's table, standings, travellers."""
        ev = await self.find(raw)

        def read(conn: Any) -> tuple[Any, Any, list[db.Player], list[tuple[int, int, str]]]:
            club, role = self._club_role(conn, ev.club_id, user)
            if club is not None and (club.deleted or (not club.public and role is None)):
                raise WebError(no.NOT_FOUND)
            return club, role, db.players(conn, ev.id), db.tables(conn, ev.id)
        club, role, people, tables = await self._read(read)
        return await self._body(ev, user, club, role, people, tables)

    async def digest(self, event_id: int) -> str | None:
        """What the event's page shows anyone (as a guest would see it, whatever the club), and which of its
        tables are made (a player's own table appears on his page then), as a digest: the push tells the pages
        when it differs (`barbu.web.events.push`).  None: no such event."""
        ev = await self._read(db.event_by_id, event_id)
        if ev is None:
            return None

        def read(conn: Any) -> tuple[Any, list[db.Player], list[tuple[int, int, str]]]:
            club = clubstore.club_by_id(conn, ev.club_id) if ev.club_id is not None else None
            return club, db.players(conn, ev.id), db.tables(conn, ev.id)
        club, people, tables = await self._read(read)
        body = await self._body(ev, None, club, None, people, tables)
        body["made"] = [[r, n] for r, n, _ in tables]
        return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()

    async def _body(self, ev: db.Event, user: User | None, club: Any, role: str | None, people: list[db.Player],
                    tables: list[tuple[int, int, str]]) -> dict[str, Any]:
        me = next((p for p in people if user is not None and p.user_id == user.id), None)
        body = summary_json(ev, len(people), club) | {
            "players": [{"name": p.name, "left": p.left, "profile": f"/u/{p.name}"} for p in people],
            "director_is_me": user is not None and (ev.director_id == user.id or role in ("owner", "admin")),
            "me_registered": me is not None, "me_left": bool(me and me.left), "logged_in": user is not None,
            "capacity": self.capacity(ev), "key": ev.secret if ev.status == "over" else None,
            "deals_default": default_deals(ev),
            "changed": changed_since(ev, me),
        }
        names = self._names(ev, people)
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
        body["past_tables"] = [{"round": r, "number": n, "url": f"/t/{tid}" if (r, n) in over or ev.status == "over"
                           else None, "replay": f"/t/{tid}/replay" if (r, n) in over else None}
                          for r, n, tid in tables if r < ev.round or ev.status == "over"]
        return body

    @staticmethod
    def _names(ev: db.Event, people: list[db.Player]) -> list[str]:
        """The players by their index in the plan."""
        placed = sorted((p for p in people if p.position is not None), key=lambda p: p.position or 0)
        names = [""] * (max((p.position or 0 for p in placed), default=-1) + 1)
        for p in placed:
            names[p.position or 0] = p.name
        return names

    async def _played(self, ev: db.Event, tables: list[tuple[int, int, str]],
                      people: list[db.Player]) -> tuple[list[Played], bool]:
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

    def capacity(self, ev: db.Event) -> int | None:
        return None if ev.tables is None else ev.tables * players_at(ev.rules)

    # -- the director --
    def settings_of(self, data: dict[str, Any]) -> dict[str, Any]:
        """An event's columns from a director's form, each field checked, then the numbers checked to fit
        together (the schedule's own refusal for a full event): the one check of creating and of changing."""
        name = event_name(data.get("name"))
        rules = str(parse_rules(data.get("rules"), data.get("players")))
        fmt = data.get("format", "one-match")
        formats = _formats()
        if fmt not in formats:
            raise WebError(no.UNKNOWN_FORMAT, fmt=str(fmt)[:30], formats=", ".join(formats))
        rounds = whole(data.get("rounds", 1), "rounds", 1, ROUNDS_MAX)
        if fmt == "one-match" and rounds != 1:
            raise WebError(no.ONE_MATCH_ONE_ROUND, rounds=rounds)
        tables = whole(data.get("tables"), "tables", 1, TABLES_MAX, allow_none=True)
        deals = whole(data.get("deals"), "deals", 1, DEALS_MAX, allow_none=True)
        strength = data.get("strength", self.settings.stand_in)
        if strength not in self.settings.strengths():
            raise WebError(UNKNOWN_STRENGTH, strength=str(strength)[:40], strengths=", ".join(self.settings.strengths()))
        clock = requested_clock(data.get("clock", DEFAULT_PACE))
        if clock is None:
            raise WebError(no.CLOCK_NEEDED)
        start_at = start_time(data.get("start"))
        if tables is not None:  # the numbers must fit before anyone registers
            plan_for(tables * players_at(rules), players_at(rules), fmt, rounds)
        per_round = deals_in_round(rules, fmt)
        if deals is not None and per_round is not None:
            deals = min(deals, per_round)
        return {"name": name, "rules": rules, "format": fmt, "rounds": rounds, "tables": tables,
                "deals": deals if deals is not None else per_round, "strength": strength, "clock": clock,
                "start_at": start_at}

    async def create(self, user: User, data: dict[str, Any]) -> db.Event:
        values = self.settings_of(data)
        club_slug = data.get("club")

        def write(conn: Any) -> db.Event:
            club_id = None
            if club_slug is not None:
                club = clubstore.club_by_slug(conn, club_slug) if isinstance(club_slug, str) else None
                role = clubstore.role_of(conn, club.id, user.id) if club is not None else None
                if club is None or (not club.public and role is None):
                    raise WebError(NO_CLUB)
                if role not in ("owner", "admin"):
                    raise WebError(no.CLUB_OWNER_OR_ADMIN)
                club_id = club.id
            event_id = db.add_event(conn, director_id=user.id, club_id=club_id, secret=new_secret().hex(), plan=None,
                                    **values)
            found = db.event_by_id(conn, event_id)
            assert found is not None
            return found
        return await self._write(write)

    @staticmethod
    def _directs(conn: Any, ev: db.Event, user: User) -> None:
        """Refused unless ``user`` directs the event (its director; a club's owner or admins for a club's)."""
        if ev.director_id == user.id:
            return
        if ev.club_id is not None and clubstore.role_of(conn, ev.club_id, user.id) in ("owner", "admin"):
            return
        raise WebError(no.DIRECTOR_ONLY)

    @staticmethod
    def _before_start(ev: db.Event) -> None:
        """A director's change is made before the start only."""
        if ev.status == "cancelled":
            raise WebError(no.CANCELLED)
        if ev.status != "registering":
            raise WebError(no.STARTED_NO_CHANGE)

    async def _directed(self, raw: Any, user: User, change: Callable[[Any, db.Event], Any]) -> Any:
        """Run ``change`` in one transaction on the locked event, once the director and the time are checked."""
        ev = await self.find(raw)

        def write(conn: Any) -> Any:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            self._directs(conn, found, user)
            self._before_start(found)
            return change(conn, found)
        done = await self._write(write)
        self.changed(ev.id)
        return done

    async def cancel(self, raw: Any, user: User) -> None:
        """The director calls the event off before its start: its players see it cancelled, nothing is played."""
        await self._directed(raw, user, lambda conn, ev: db.set_event(conn, ev.id, status="cancelled"))

    async def edit(self, raw: Any, user: User, data: dict[str, Any]) -> tuple[db.Event, list[str]]:
        """The director changes the event before the start: any of `FIELDS` (and ``players``, the players a
        table), only those given.  The event's other facts fill in the rest and the whole is checked as at its
        creation (`settings_of`); then against the players registered (room for them all).  A refusal changes
        nothing.  The changed fields (by their name in `FIELDS`), recorded for the registered players."""
        given = {k: data[k] for k in (*FIELDS, "players") if k in data}
        if not given:
            raise WebError(no.NOTHING_TO_CHANGE)
        ev = await self.find(raw)
        wanted = self.settings_of(form_of(ev) | given)  # outside the transaction: the schedule may take a moment
        if "start" not in given:
            wanted["start_at"] = ev.start_at  # kept as it is, even if its time has passed

        def change(conn: Any, found: db.Event) -> tuple[db.Event, list[str]]:
            if form_of(found) != form_of(ev) or found.start_at != ev.start_at:  # changed meanwhile: look again
                raise WebError(no.CHANGED_MEANWHILE)
            seats = players_at(wanted["rules"])
            registered = db.player_count(conn, found.id)
            if wanted["tables"] is not None and registered > wanted["tables"] * seats:
                raise WebError(no.TOO_MANY_REGISTERED, n=registered, room=wanted["tables"] * seats)
            changed = [f for f, column in FIELDS.items() if wanted[column] != getattr(found, column)]
            if changed:
                db.set_event(conn, found.id, **wanted, changes=db.changes_text(found, changed))
            edited = db.event_by_id(conn, found.id)
            assert edited is not None
            return edited, changed
        edited, changed = await self._directed(ev.id, user, change)
        self._unstarted.discard(edited.id)  # a new start time: said again if it cannot start then
        return edited, changed

    async def remove(self, raw: Any, user: User, name: Any) -> None:
        """The director removes a player's registration before the start."""
        if not isinstance(name, str) or not name.strip() or len(name) > 64:
            raise WebError(no.WHOSE_REGISTRATION)

        def change(conn: Any, ev: db.Event) -> None:
            who = next((p for p in db.players(conn, ev.id) if p.name.casefold() == name.strip().casefold()), None)
            if who is None:
                raise WebError(no.PLAYER_NOT_REGISTERED, name=name.strip()[:40])
            db.remove_player(conn, ev.id, who.user_id)
        await self._directed(raw, user, change)

    async def start(self, raw: Any, user: User | None) -> None:
        """Seat the registered players by the schedule and make the first round's tables ("start now", or
        the event's time has come: ``user`` None)."""
        ev = await self.find(raw)

        def write(conn: Any) -> tuple[db.Event, list[db.Player]] | None:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            if user is not None:
                self._directs(conn, found, user)
            if found.status == "cancelled":
                raise WebError(no.CANCELLED)
            if found.status != "registering":
                raise WebError(no.STARTED_ALREADY)
            people = [p for p in db.players(conn, found.id)]
            playing = []
            for p in people:  # a player already at another event's table is not seated at two at once
                if db.busy_elsewhere(conn, p.user_id, found.id):
                    db.set_player(conn, found.id, p.user_id, left=True, position=None)
                else:
                    playing.append(p)
            if not playing:
                raise WebError(no.NOBODY_REGISTERED)
            seats = players_at(found.rules)
            if found.tables is not None and len(playing) > found.tables * seats:
                raise WebError(no.ROOM_FOR, n=found.tables * seats)
            plan = plan_for(len(playing), seats, found.format, found.rounds)
            for i, p in enumerate(playing):
                db.set_player(conn, found.id, p.user_id, position=i)
            db.set_event(conn, found.id, status="running", round=1, plan=plan)
            running = db.event_by_id(conn, found.id)
            assert running is not None
            return running, db.players(conn, found.id)
        started = await self._write(write)
        if started is not None:
            ev2, people = started
            try:
                await self._make_round(ev2, people, 1)
            finally:
                self.changed(ev2.id)

    async def _make_round(self, ev: db.Event, people: list[db.Player], round_no: int,
                          made: frozenset[int] = frozenset()) -> None:
        """The tables of round ``round_no`` (but those numbered in ``made``): the plan's players in their seats,
        computer players elsewhere.  A table is entered in the event only once it is seated, so a round left
        half made by a lost process is completed by another (`advance`) without a table short of its seats."""
        assert ev.plan is not None
        by_position = {p.position: p for p in people if p.position is not None}
        rules = parse_rules(ev.rules)
        key = round_secret(ev.secret, round_no)
        for number, seats in enumerate(ev.plan[round_no - 1], start=1):
            if number in made:
                continue
            t, creator = await self.lobby.create(rules, clock=ev.clock, invite_hash=hash_token(secrets.token_hex(16)),
                                                 club_id=ev.club_id, secret=key, deal_limit=ev.deals,
                                                 reserved=True)
            for seat, p in enumerate(seats):
                player = by_position.get(p) if p is not None else None
                if player is None or player.left:
                    await t.call(t.add_bot, seat, ev.strength, creator, None)
                else:
                    await t.call(t.take_seat, seat, player.name, None, None, creator, (player.user_id, player.name))
            mark_stand_ins = [(seat, by_position[p]) for seat, p in enumerate(seats)
                              if p is not None and p in by_position and by_position[p].left]
            for seat, gone in mark_stand_ins:  # a player who left: his seat's results stay his, played by the stand-in
                t.seats[seat].left = True
                t.seats[seat].user_id = gone.user_id
                rec = t.seats[seat].record()
                await t.journal.run(lambda c, r=rec, tid=t.id: Store.set_seat(c, tid, r))
            if not await self._write(db.add_table, ev.id, round_no, number, t.id):
                await self.lobby.discard(t)  # another process made this table of the round meanwhile
                continue
            self.lobby.show_ratings(t)

    async def advance(self, event_id: int) -> None:
        """If every table of the current round is over, make the next round's tables, or end the event."""
        if event_id in self._advancing:
            return
        self._advancing.add(event_id)
        try:
            ev = await self._read(db.event_by_id, event_id)
            if ev is None or ev.status != "running" or ev.plan is None:
                return
            tables = [tid for r, _, tid in await self._read(db.tables, event_id) if r == ev.round]
            if len(tables) < len(ev.plan[ev.round - 1]):  # the round's tables are being made...
                since = self._short.setdefault((event_id, ev.round), time.monotonic())
                if time.monotonic() - since >= ROUND_REPAIR_AFTER:  # ...or the process making them was lost
                    self._short.pop((event_id, ev.round), None)
                    made = frozenset(n for r, n, _ in await self._read(db.tables, event_id) if r == ev.round)
                    log.warning("event %s: round %s was left half made; making its missing tables", event_id, ev.round)
                    await self._make_round(ev, await self._read(db.players, event_id), ev.round, made)
                    self.changed(event_id)
                return
            self._short.pop((event_id, ev.round), None)
            for tid in tables:
                t = self.lobby.tables.get(tid) or await self.lobby.get(tid)
                if t is None or t.status != "over" or t.stored_status != "over":
                    return
            last = ev.round >= len(ev.plan)

            def write(conn: Any) -> db.Event | None:
                found = db.event_by_id(conn, event_id, lock=True)
                if found is None or found.status != "running" or found.round != ev.round:
                    return None  # another process moved it on
                if last:
                    db.set_event(conn, event_id, status="over")
                else:
                    db.set_event(conn, event_id, round=ev.round + 1)
                return db.event_by_id(conn, event_id)
            moved = await self._write(write)
            if moved is not None and not last:
                await self._make_round(moved, await self._read(db.players, event_id), moved.round)
            if moved is not None:
                self.changed(event_id)
        finally:
            self._advancing.discard(event_id)

    # -- the players --
    async def register(self, raw: Any, user: User) -> None:
        ev = await self.find(raw)

        def write(conn: Any) -> None:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            club, role = self._club_role(conn, found.club_id, user)
            if club is not None and (club.deleted or (not club.public and role is None)):
                raise WebError(no.NOT_FOUND)
            if found.status == "over":
                raise WebError(no.OVER)
            if found.status == "cancelled":
                raise WebError(no.CANCELLED)
            if found.status != "registering":
                raise WebError(no.REGISTRATION_CLOSED)
            if db.registered(conn, found.id, user.id):
                raise WebError(no.REGISTERED_ALREADY)
            cap = self.capacity(found)
            if cap is not None and db.player_count(conn, found.id) >= cap:
                raise WebError(no.FULL, n=cap)
            if db.busy_elsewhere(conn, user.id, found.id):
                raise WebError(no.BUSY_ELSEWHERE)
            db.add_player(conn, found.id, user.id)
        try:
            await self._write(write)
        except WebError:
            raise
        except Exception as e:  # two registrations of one account at once: the primary key keeps one
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                raise WebError(no.REGISTERED_ALREADY) from None
            raise
        self.changed(ev.id)

    async def leave(self, raw: Any, user: User) -> str:
        """Before the start: the registration is withdrawn ("withdrawn").  Once it runs: the player leaves for
        good, the stand-in plays his seat to the end of the round and computer players his later seats
        ("left"); his results stay his, marked."""
        ev = await self.find(raw)

        def write(conn: Any) -> str:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            if not db.registered(conn, found.id, user.id):
                raise WebError(no.NOT_REGISTERED)
            if found.status == "cancelled":
                raise WebError(no.CANCELLED)
            if found.status == "over":
                raise WebError(no.OVER)
            if found.status == "registering":
                db.remove_player(conn, found.id, user.id)
                return "withdrawn"
            db.set_player(conn, found.id, user.id, left=True)
            return "left"
        done = await self._write(write)
        if done == "left":
            ev = await self.find(ev.id)
            finished = 0  # the deals of this round his table had finished: those stay his, not the stand-in's
            for r, _, tid in await self._read(db.tables, ev.id):
                if r != ev.round:
                    continue
                found = await self.lobby.locate(tid)  # here, or another process's (its lease): it runs the request
                if found is None:
                    continue
                if isinstance(found, Lease):
                    copy_ = await self.lobby.get(tid)  # a copy read from the log: the deals finished so far
                    if copy_ is not None and copy_.seat_of(user.id) is not None:
                        finished = len(copy_.match.results)
                    if self.lobby.cluster is not None:
                        await self.lobby.cluster.request(found.owner, tid, "leave", {"_user": [user.id, user.name]},
                                                         "", "en")
                    continue
                seat = found.seat_of(user.id)
                if seat is not None:
                    finished = len(found.match.results)
                if found.status != "over" and seat is not None and not seat.left:
                    try:
                        await found.call(found.give_up, None, None, user.id, True)
                    except WebError:
                        log.info("event %s: table %s could not hand %s's seat to the stand-in", ev.id, tid, user.id)
            await self._write(lambda conn, r=ev.round: db.set_player(conn, ev.id, user.id, left_round=r,
                                                                     left_deal=finished))
        self.changed(ev.id)
        return done


def _event_id(raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    raise WebError(no.NOT_FOUND)


def summary_json(ev: db.Event, registered: int, club: Any = None) -> dict[str, Any]:
    """An event as the lists show it (never its key while it is played)."""
    seats = players_at(ev.rules)
    return {"id": ev.id, "url": f"/e/{ev.id}", "name": ev.name, "rules": ev.rules, "format": ev.format,
            "rounds": ev.rounds, "round": ev.round, "tables": ev.tables, "seats": seats, "deals": ev.deals,
            "strength": ev.strength, "clock": ev.clock, "start": iso(ev.start_at), "status": ev.status,
            "director": ev.director, "registered": registered,
            "room": None if ev.tables is None else ev.tables * seats,
            "club": None if club is None else {"slug": club.slug, "name": club.name, "url": f"/c/{club.slug}"}}
