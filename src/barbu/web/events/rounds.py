"""An event's rounds and their tables: the start (the players placed by the schedule) and each round's tables.

Every table of a round is dealt by `barbu.core.chance.BoardChance` keyed by HMAC(event key, round), so deal k
gives every table the same cards from the same seats.  Empty seats, and the seats of players who left, are
played by computer players of the director's strength.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Awaitable, Callable, Mapping

from sqlalchemy.engine import Connection

from ..accounts.store import User
from ..common import outages
from ..common.errors import WebError
from ..db.storage import Store, hash_token
from ..tables.lobby import parse_rules
from . import refusals as no
from . import store as db
from .access import Changed, EventAccess, directs
from .formats import plan_for, players_at, round_secret

log = logging.getLogger("barbu.web")


def bots_needed(tables: list[list[int | None]], by_position: Mapping[int, db.Player]) -> int:
    """How many of these tables (each its seats' positions in the plan) seat a computer player: an empty seat, or
    one whose player left (``by_position``: the players by position; empty at the start, when nobody has left)."""
    return sum(
        1
        for seats in tables
        if any(p is None or (by_position and (p not in by_position or by_position[p].left)) for p in seats)
    )


def running_rounds(conn: Connection) -> list[tuple[str, str, bytes, int | None]]:
    """The rounds being played now, for their boards' double-dummy tables solved in the background
    (`barbu.web.replay.solved`): each as ("event:<id>/<round>", rules, the round's key, deals a table)."""
    out = []
    for event_id in db.running(conn):
        ev = db.event_by_id(conn, event_id)
        if ev is not None and ev.round > 0:
            key = bytes.fromhex(round_secret(ev.secret, ev.round))
            out.append((f"event:{ev.id}/{ev.round}", ev.rules, key, ev.deals))
    return out


def finished_rounds(conn: Connection, limit: int = 50) -> list[tuple[str, str, list[str]]]:
    """The rounds whose replays anyone may open (the round over, as `EventPages.replay_withheld` says it), of the
    newest ``limit`` events not in a club (a private club's replays are its members' only), for the server's own
    puzzles (`barbu.web.puzzles.harvest`): each as ("event:<id>/<round>", rules, its tables' ids)."""
    out: list[tuple[str, str, list[str]]] = []
    for ev in db.events(conn, "running", limit=limit) + db.events(conn, "over", limit=limit):
        if ev.club_id is not None:
            continue
        by_round: dict[int, list[str]] = {}
        for rnd, _n, table_id in db.tables(conn, ev.id):
            if ev.status == "over" or rnd < (ev.round or 0):
                by_round.setdefault(rnd, []).append(table_id)
        out.extend((f"event:{ev.id}/{rnd}", ev.rules, ids) for rnd, ids in sorted(by_round.items()))
    return out


class Rounds:
    """The events' rounds: seating the players at the start, and making a round's tables."""

    def __init__(self, access: EventAccess, changed: Changed) -> None:
        self.access = access
        self.lobby = access.lobby
        self.changed = changed
        self.told: set[tuple[int, int]] = set()  # rounds said to wait for room, said once each
        self.on_made: Callable[[], None] | None = None  # a round's tables made: its boards' tables solved early
        # a table's players told it is ready (the application gives the notifications': `barbu.web.notices`):
        # (event, name, round, table, accounts)
        self.ready: Callable[[int, str, int, str, list[int]], Awaitable[Any]] | None = None

    async def start(self, raw: Any, user: User | None) -> None:
        """Seat the registered players by the schedule and make the first round's tables ("start now", or
        the event's time has come: ``user`` None)."""
        ev = await self.access.find(raw)
        if ev.status == "registering":  # refused now rather than started short of its tables
            people = await self.access.read(db.players, ev.id)
            plan = plan_for(max(1, len(people)), players_at(ev.rules), ev.format, ev.rounds)
            self.check_bots(ev, await self.counted_as(ev), bots_needed(plan[0], {}))

        def write(conn: Any) -> tuple[db.Event, list[db.Player]] | None:
            found = db.event_by_id(conn, ev.id, lock=True)
            assert found is not None
            if user is not None:
                directs(conn, found, user)
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

        started = await self.access.write(write)
        if started is not None:
            ev2, people = started
            try:
                await self.make(ev2, people, 1)
            except WebError as e:  # another table of his took the room meanwhile: the round waits (`waiting`)
                self.waiting(ev2.id, 1, e)
            finally:
                self.changed(ev2.id)

    async def make(
        self, ev: db.Event, people: list[db.Player], round_no: int, made: frozenset[int] = frozenset()
    ) -> None:
        """The tables of round ``round_no`` (but those numbered in ``made``): the plan's players in their seats,
        computer players elsewhere.  A table is entered in the event only once it is seated, so a round left
        half made by a lost process is completed by another (`Watcher.advance`) without a table short of its
        seats."""
        assert ev.plan is not None
        by_position = {p.position: p for p in people if p.position is not None}
        todo = [(n, seats) for n, seats in enumerate(ev.plan[round_no - 1], start=1) if n not in made]
        counted = await self.counted_as(ev)
        need = bots_needed([seats for _, seats in todo], by_position)
        self.check_bots(ev, counted, need)  # and counted at once, with no await between (`making_bots`)
        with self.lobby.limits.making_bots(counted, need):
            await self._make(ev, todo, by_position, round_no, counted)
        if self.on_made is not None:
            self.on_made()

    async def counted_as(self, ev: db.Event) -> tuple[str, str]:
        """Whom an event's computer players count against: its director's account (a key of its own) and the
        address the event was created from (the account's key again for an older event, made before it was kept)."""
        creations = self.lobby.creations
        account = creations.address_hash(f"user:{ev.director_id}")
        return account, await self.access.read(db.director_addr, ev.id) or account

    def check_bots(self, ev: db.Event, counted: tuple[str, str], need: int) -> None:
        """Refused when ``need`` more tables with computer players would take the director past the cap of one
        player's (`Settings.bot_tables_per_address`), counting those of his tables and events running now."""
        limit = self.access.settings.bot_tables_per_address
        running = self.lobby.limits.event_load(*counted)
        if limit > 0 and need > 0 and running + need > limit:
            raise WebError(no.COMPUTER_TABLES, need=need, running=running, limit=limit)

    def waiting(self, event_id: int, round_no: int, e: WebError) -> None:
        """A round whose tables wait for room under its director's cap: the watcher makes them later (`Watcher.advance`)."""
        if (event_id, round_no) not in self.told:
            self.told.add((event_id, round_no))
            log.info("event %s: round %s waits for room for its computer players (%s)", event_id, round_no, e.code)

    async def _make(
        self,
        ev: db.Event,
        todo: list[tuple[int, list[int | None]]],
        by_position: Mapping[int, db.Player],
        round_no: int,
        counted: tuple[str, str],
    ) -> None:
        rules = parse_rules(ev.rules)
        key = round_secret(ev.secret, round_no)
        made: list[tuple[str, list[db.Player]]] = []  # the tables made here, with their seated players
        for number, seats in todo:
            bots = bots_needed([seats], by_position)
            t, creator = await self.lobby.create(
                rules,
                clock=ev.clock,
                invite_hash=hash_token(secrets.token_hex(16)),
                club_id=ev.club_id,
                secret=key,
                deal_limit=ev.deals,
                reserved=True,
                counted_as=counted if bots else None,
            )
            for seat, p in enumerate(seats):
                player = by_position.get(p) if p is not None else None
                if player is None or player.left:
                    await t.call(t.add_bot, seat, ev.strength, creator, None)
                else:
                    await t.call(t.take_seat, seat, player.name, None, None, creator, (player.user_id, player.name))
            mark_stand_ins = [
                (seat, by_position[p])
                for seat, p in enumerate(seats)
                if p is not None and p in by_position and by_position[p].left
            ]
            for seat, gone in mark_stand_ins:  # a player who left: his seat's results stay his, played by the stand-in
                t.seats[seat].left = True
                t.seats[seat].user_id = gone.user_id
                rec = t.seats[seat].record()
                await t.journal.run(lambda c, r=rec, tid=t.id: Store.set_seat(c, tid, r))
            if not await self.access.write(db.add_table, ev.id, round_no, number, t.id):
                await self.lobby.discard(t)  # another process made this table of the round meanwhile
                continue
            self.lobby.show_ratings(t)
            made.append((t.id, [by_position[p] for p in seats if p is not None and p in by_position]))
        for table_id, seated in made:  # once every table of the round is made: no table waits for a push
            await self._tell_ready(ev, round_no, table_id, seated)

    async def _tell_ready(self, ev: db.Event, round_no: int, table_id: str, seated: list[db.Player]) -> None:
        """The players seated at a new table told it is ready; a notice that cannot be given is one log line,
        never a round left short of its tables."""
        players = [p.user_id for p in seated if not p.left]
        if self.ready is None or not players:
            return
        try:
            await self.ready(ev.id, ev.name, round_no, table_id, players)
        except Exception as e:  # an outage told once as such; anything else as the bug it is
            outages.failed_or_traced(e, f"event {ev.id}: its players could not be told their table {table_id} is ready")
