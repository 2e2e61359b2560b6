"""The lobby: every table of the server, created, found and rebuilt from storage.

At start-up every unfinished table is rebuilt by replaying its event log, so
a server killed at any moment resumes each table at the action it had
reached.  Finished tables are loaded when someone asks for them.

With many processes the application gives the lobby its cluster (`barbu.web.cluster.node.Cluster`, whose
host the lobby is), known here by what the lobby asks of it (`barbu.web.tables.peers.Peers`); what outlives
a table in the domains above (results, ratings, e-mails) is given as functions (`barbu.web.tables.outside`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import Counter
from datetime import datetime
from typing import Any, Awaitable, Callable

from ...besigue.ruleset import OPTIONS as BESIGUE_OPTIONS
from ...besigue.ruleset import PRESETS as BESIGUE_PRESETS
from ...classic.ruleset import OPTIONS, Ruleset, presets
from ...core.chance import new_secret
from ...core.errors import BarbuError
from ...core.game import GameRules
from ...core.words import ENGLISH, Words
from ...games import game_kind, short_rules
from ..common.errors import WebError
from ..common.settings import Settings
from ..db import chat as chatdb
from ..db.creations import TABLE, Creations
from ..db.journal import Journal
from ..db.leases import Lease
from ..db.storage import SeatRecord, Store, TableRecord, hash_token, now
from . import mine as mytables
from .actor import Table
from .chat import Apart, Speaker, sweep_before
from .limits import MY_TABLES, TableLimits
from .outside import Beyond, Outside
from .peers import Peers
from .refusals import BESIGUE_TWO_PLAYERS, BOTS_BY_CHOICE, PLAYERS_WHOLE_NUMBER, PRIVATE_TRUE_OR_FALSE, RULES_NEEDED
from .seats import SeatGuard
from .thinking import ThinkingPool

log = logging.getLogger("barbu.web")
CHAT_SWEEP_EVERY = 3600.0  # seconds between two enforcements of the chat's retention
__all__ = ["Lobby", "MY_TABLES", "invitation", "options_catalogue", "parse_rules"]


def parse_rules(text: Any, players: Any = None, short: bool = False) -> Any:
    """The rules of a new table, of any game of the house (`barbu.games.game_kind`); ``short``: the game's
    short form (`barbu.games.short_rules`), a match of some twenty minutes."""
    rules = _parse_rules(text, players)
    return game_kind(str(rules)).open(short_rules(str(rules)), None).rules if short else rules


def _parse_rules(text: Any, players: Any = None) -> Any:
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise WebError(RULES_NEEDED)
    if game_kind(text).name == "besigue":
        if players is not None and players != 2:
            raise WebError(BESIGUE_TWO_PLAYERS)
        try:
            return game_kind(text).open(text, None).rules
        except BarbuError as e:
            raise WebError.wrap(e) from None
    try:
        r = Ruleset.parse(text)
        if players is not None:
            if not isinstance(players, int) or isinstance(players, bool):
                raise WebError(PLAYERS_WHOLE_NUMBER)
            if players != r.players:
                r = r.replace(players=players)
    except WebError:
        raise
    except BarbuError as e:
        raise WebError.wrap(e) from None
    return r


def invitation(private: Any) -> tuple[str | None, str | None]:
    """A private table's invitation: its secret (for the creator's link, after ``#invite=``) and the hash
    stored; (None, None) for a listed table."""
    if private is None or private is False:
        return None, None
    if private is not True:
        raise WebError(PRIVATE_TRUE_OR_FALSE)
    secret = secrets.token_urlsafe(18)
    return secret, hash_token(secret)


def options_catalogue(words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Presets with the options each allows, for the lobby's form; descriptions and help in ``words``' language."""
    out = []
    for p in presets():
        r = p.ruleset
        fam = r.family_spec
        opts = []
        for name, value in r.option_values().items():
            if name == "players" or name not in fam.options:
                continue
            spec = OPTIONS[name]
            opts.append(
                {
                    "name": name,
                    "kind": spec.kind.__name__,
                    "default": value,
                    "help": words.gettext(spec.help),
                    "choices": list(spec.choices) if spec.choices else None,
                    "minimum": spec.minimum,
                    "maximum": spec.maximum,
                }
            )
        out.append(
            {
                "name": p.name,
                "description": words.gettext(p.description),
                "players": list(fam.players),
                "default_players": r.players,
                "options": opts,
                "game": "barbu",
            }
        )
    return out + besigue_catalogue(words)


def besigue_catalogue(words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Bésigue's presets and options in the same shape, for the lobby's form."""
    out = []
    for name, (rules, description) in BESIGUE_PRESETS.items():
        opts = []
        for opt, (allowed, meaning, values) in BESIGUE_OPTIONS.items():
            default = getattr(rules, opt)
            is_int = isinstance(default, int)
            choices = None if allowed == "int" else [int(v) if is_int else v for v in allowed]
            detail = "; ".join(f"{v}: {words.gettext(m)}" for v, m in values.items())
            meaning = words.gettext(meaning)
            opts.append(
                {
                    "name": opt,
                    "kind": "int" if is_int else "str",
                    "default": default,
                    "help": f"{meaning} ({detail})" if detail else meaning,
                    "choices": choices,
                    "minimum": 1 if allowed == "int" else None,
                    "maximum": None,
                }
            )
        out.append(
            {
                "name": name,
                "description": words.gettext(description),
                "players": [2],
                "default_players": 2,
                "options": opts,
                "game": "besigue",
            }
        )
    return out


class Lobby:
    """Every table of this process: created, found, rebuilt from storage, swept when idle or abandoned."""

    def __init__(self, settings: Settings, outside: Outside | None = None) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.journal: Journal | None = None
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[TableRecord | None]] = {}
        # Tables claimed and being rebuilt (`adopt`): a browser that arrives meanwhile waits for the started table.
        self._adoptions: dict[str, asyncio.Future[bool]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.creations = Creations()  # per-hour counts by address, kept in the database
        # One of many processes: tables are owned through leases, the rest relayed.  The application builds the
        # cluster (`barbu.web.cluster.node.Cluster`) with this lobby as its host, and sets it here before start.
        self.cluster: Peers | None = None
        self.limits = TableLimits(settings, self.creations, self.tables, lambda: self.cluster)
        self.thinking = ThinkingPool(settings)  # computer players' thinking and hints, shared fairly by address
        self.started_at = time.time()
        self.beyond = Beyond(settings, outside or Outside(), lambda: self.store)
        self.on_deal: Callable[[Table], None] | None = None  # a deal ended at a table here (`barbu.web.events.service`)
        # an event's table built here reads whether its event is paused (`barbu.web.events.pausing`)
        self.paused_of: Callable[[str], Awaitable[dict[str, Any] | None]] | None = None
        # the chat's account check and name (`barbu.web.tables.chat.Speaker`: a muted account says nothing)
        self.chat_speaker: Speaker | None = None
        # a block keeps two accounts apart: the seat guard and the chat's filter (`barbu.web.social.blocks`)
        self.seat_guard: SeatGuard | None = None
        self.chat_apart: Apart | None = None
        self._chat_swept = 0.0  # when the chat's retention was last enforced (time.monotonic)

    async def start(self) -> None:
        # Many processes: a transaction left idle by a paused process ends well before its leases do.
        idle = self.settings.lease_ttl / 2 if self.settings.broker_url else None
        self.store = await asyncio.to_thread(Store, self.settings.db_url, True, idle)
        self.journal = Journal(self.store)
        await asyncio.to_thread(self.creations.load, self.store)
        self.creations.journal = self.journal
        if self.cluster is not None:  # tables are claimed one by one, each by one process
            await self.cluster.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="lobby-sweeper")
            return
        records = await asyncio.to_thread(self.store.load_tables, True)
        for rec in records:
            try:
                t = self._build(rec)
            except Exception:
                log.exception("table %s could not be rebuilt from its log; it stays closed", rec.id)
                continue
            self.tables[t.id] = t
            t.start()
        log.info("lobby: %d tables resumed", len(records))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="lobby-sweeper")

    def _journal(self) -> Journal:
        assert self.journal is not None, "the lobby has not started"
        return self.journal

    async def _sweep(self) -> None:
        interval = min(60.0, max(0.05, self.settings.unload_after / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.unload_idle()
                await self.expire_open()
                self.creations.sweep()
                if time.monotonic() - self._chat_swept > CHAT_SWEEP_EVERY:
                    self._chat_swept = time.monotonic()
                    await self.sweep_chat()
            except Exception:  # never let the sweeper die
                log.exception("lobby: unloading idle tables failed")

    async def sweep_chat(self, at: datetime | None = None) -> int:
        """Delete the chat's messages older than ``barbu serve --chat-days`` (0: kept for ever): how many."""
        before = sweep_before(self.settings.chat_days, at)
        if before is None:
            return 0
        gone = int(await self._journal().run(lambda conn: chatdb.sweep(conn, before)))
        if gone:
            log.info("lobby: %d chat messages older than %g days deleted", gone, self.settings.chat_days)
        return gone

    async def chat_changed(self, message_id: int) -> None:
        """A moderator removed or restored a chat message: its table, wherever it is played, sends its chat
        anew (a removed message to nobody); a table played nowhere reads it when it is built."""
        store = self.store
        if store is None:
            return

        def table_of(c: Any) -> str | None:
            m = chatdb.by_id(c, message_id)
            return None if m is None else m.table_id

        table_id = await self._journal().run(table_of)
        if table_id is None:
            return
        try:
            found = await self.locate(table_id)
            if isinstance(found, Lease):
                if self.cluster is not None:
                    await self.cluster.request(found.owner, table_id, "chat", {}, "", "en")
            elif found is not None:
                await found.call(found.chat.refresh)
        except Exception:  # that table reads its chat again when it is built
            log.warning("table %s was not told of a moderator's change to its chat", table_id)

    async def unload_idle(self) -> list[str]:
        """Let finished tables nobody has used for a while leave memory.

        They stay in the database and come back on the next request for them,
        so a long-running server holds only the tables in play.
        """
        cutoff = time.monotonic() - self.settings.unload_after
        gone = [t for t in self.tables.values() if t.idle_and_over(cutoff)]
        for t in gone:
            del self.tables[t.id]
            await t.stop()
        if gone:
            log.info("lobby: %d finished tables unloaded", len(gone))
        return [t.id for t in gone]

    async def expire_open(self, at: float | None = None) -> list[str]:
        """Close open tables nobody has joined for a while, so abandoned tables do not fill the server.

        The time of the last seat taken is stored, so this holds across restarts too.
        """
        at = time.time() if at is None else at
        gone = [t for t in self.tables.values() if t.expired(at)]
        for t in gone:
            del self.tables[t.id]
            await self._close_for_good(t)
        if gone:
            log.info("lobby: %d open tables nobody joined have expired", len(gone))
        return [t.id for t in gone]

    async def discard(self, t: Table) -> None:
        """Close a table made for nothing (an event's table another process made first): never listed, never played."""
        self.tables.pop(t.id, None)
        await self._close_for_good(t)

    async def _close_for_good(self, t: Table) -> None:
        t.status, table_id = "expired", t.id
        await self._journal().run(lambda conn: Store.set_status(conn, table_id, "expired"))
        await t.stop()

    # ------------------------------------------------------------------ the limits (`barbu.web.tables.limits`)
    @property
    def connections(self) -> Counter[str]:
        """Open WebSocket connections by address."""
        return self.limits.connections

    def check_create(self, address: str) -> None:
        self.limits.check_create(address)

    def check_room(self, address: str | None, reserved: bool) -> None:
        self.limits.check_room(address, reserved)

    def check_bots(self, table: Table, address: str) -> None:
        self.limits.check_bots(table, address)

    def in_use_by(self, address: str) -> int:
        return self.limits.in_use_by(address)

    def usage(self) -> dict[str, tuple[int, int]]:
        return self.limits.usage()

    def play_reserve(self) -> int:
        return self.limits.play_reserve()

    async def connect(self, address: str) -> bool:
        return await self.limits.connect(address)

    async def disconnect(self, address: str) -> None:
        await self.limits.disconnect(address)

    def health(self) -> dict[str, Any]:
        """What the server holds, for its operator: never a table id, a name or an address."""
        status = Counter(t.status for t in self.tables.values())
        return {
            "status": "ok",
            "uptime": round(time.time() - self.started_at),
            "tables": {
                "open": status["open"],
                "playing": status["playing"],
                "over_in_memory": status["over"],
                "limit": self.settings.max_tables,
            },
            "connections": sum(self.connections.values()),
            "addresses": len(self.connections),
            "players_connected": sum(1 for t in self.tables.values() for s in t.seats if s.conns),
            "journal_queue": self.journal.queued() if self.journal else 0,
            "journal_commits": self.journal.commits if self.journal else 0,
        }

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.cluster is not None:  # hand the tables over before stopping
            await self.cluster.close()
        for t in list(self.tables.values()):
            await t.stop()
        self.thinking.close()
        if self.journal:
            await self.journal.close()

    # ------------------------------------------------------------------ tables built, lost, adopted
    def _build(self, rec: TableRecord, epoch: int | None = None) -> Table:
        """A table from its record; ``epoch``: its lease's, carried by each of its writes (many processes)."""
        journal = self._journal()
        t = Table(
            rec, journal.fenced(rec.id, epoch) if epoch is not None else journal, self.settings, on_rematch=self.rematch
        )
        t.thinking = self.thinking
        t.hash_address = self.creations.address_hash
        t.on_lost = self._lost
        t.on_over = self.beyond.match_over
        t.on_turn = self.beyond.tell_turn
        t.on_deal = self._deal_ended
        t.paused_of = self.paused_of
        t.chat.speaker = self.chat_speaker
        t.chat.apart = self.chat_apart
        t.seating.guard = self.seat_guard
        self.show_ratings(t)
        return t

    def _deal_ended(self, t: Table) -> None:
        if self.on_deal is not None:
            self.on_deal(t)

    def show_ratings(self, t: Table) -> None:
        """Read the ratings shown beside the seats' names, then give them to the table (off its actor)."""
        self.beyond.show_ratings(t)

    def drop(self, table_id: str) -> Table | None:
        """Let a table leave this process (its lease is handed over as the process drains)."""
        return self.tables.pop(table_id, None)

    def _lost(self, t: Table) -> None:
        """Another process took ``t`` over: it leaves this one."""
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        if self.cluster is not None:
            self.cluster.lost(t.id)

    async def adopt(self, table_id: str, epoch: int) -> bool:
        """Start a table this process has just claimed, rebuilt from the journal as its last owner left it.

        Called right after the claim, with no wait between: from then until the table is started, `locate`
        waits for it rather than hand a browser the unstarted copy it reads (a command sent there is lost)."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._adoptions[table_id] = done
        try:
            started = await self._rebuild(table_id, epoch)
        finally:
            self._adoptions.pop(table_id, None)
            if not done.done():
                done.set_result(table_id in self.tables)
        return started

    async def _rebuild(self, table_id: str, epoch: int) -> bool:
        assert self.store is not None
        rec = await asyncio.to_thread(self.store.load_table, table_id)
        if rec is None or rec.status not in ("open", "playing"):
            return False
        try:
            t = self._build(rec, epoch)
        except Exception:
            log.exception("table %s could not be rebuilt from its log; it stays closed", table_id)
            return False
        self.tables[t.id] = t
        t.start()
        return True

    async def locate(self, table_id: str) -> Table | Lease | None:
        """Where a table is played: here (the table), in another process (its lease), or nowhere (None).

        With many processes an unfinished table nobody owns is claimed by the process asked for it.  Another
        process's table is found by its lease alone: nothing is read or replayed here to relay to it."""
        cluster = self.cluster
        if cluster is not None and table_id not in self.tables and len(table_id) <= 32:
            lease, at = await cluster.lease_of(table_id)
            if lease is not None and lease.alive(at) and lease.owner != cluster.node:
                return lease
        t = await self.get(table_id)
        if cluster is None or t is None or t.status not in ("open", "playing"):
            return t
        if t.id in cluster.epochs or t.id in self._adoptions:  # ours: the started table, once it is rebuilt
            pending = self._adoptions.get(t.id)
            if pending is not None:
                await asyncio.shield(pending)
            return self.tables.get(t.id)
        for _ in range(3):
            lease, at = await cluster.lease_of(table_id)
            if lease is not None and lease.alive(at) and lease.owner != cluster.node:
                return lease
            epoch = await cluster.claim(table_id)
            if epoch is not None and await self.adopt(table_id, epoch):
                return self.tables[table_id]
        return None

    # ------------------------------------------------------------------ the lobby's rows
    def own_listing(self) -> list[dict[str, Any]]:
        """This process's rows of the lobby (with many processes, each publishes its own)."""
        out = [t.summary() for t in self.tables.values() if t.status != "over" and t.invite_hash is None]
        out.reverse()
        return out[:200]

    def listing(self) -> list[dict[str, Any]]:
        """Tables people can join or watch, newest first; a private table is never listed.

        With many processes, the rows come from the shared index (`barbu.web.cluster.broker`) as read a round
        ago, this process's own ones as they are now (and its newest ones, not yet in the index, first)."""
        out = self.own_listing()
        if self.cluster is not None:
            own = {r["id"]: r for r in out}
            here = self.tables
            listed = [own.pop(r["id"], r) for r in self.cluster.listed if r.get("id") not in here or r["id"] in own]
            out = list(own.values()) + listed
        return out[:200]

    # ------------------------------------------------------------------ a new table
    async def create(
        self,
        rules: GameRules,
        rematch_of: Table | None = None,
        address: str | None = None,
        bots_by: str = "creator",
        clock: str | None = None,
        invite_hash: str | None = None,
        reserved: bool = False,
        rated: bool = False,
        club_id: int | None = None,
        turn_based: bool = False,
        secret: str | None = None,
        deal_limit: int | None = None,
        counted_as: tuple[str, str] | None = None,
    ) -> tuple[Table, str]:
        """A new table and its creator's credential (given out only this once).

        ``counted_as``: an event's table with computer players, counted against its director, (his account's
        key, his address's) HMACs, as its ``creator_addr`` and ``bots_addr`` (`TableLimits.event_load`).

        ``secret`` (hex): a duplicate event's table, dealt by boards from this key (`core.chance.BoardChance`),
        ended after ``deal_limit`` deals if given (`barbu.web.events.service`).

        ``clock`` is the table's clock as stored ("per_move+bank" seconds, None: none); ``invite_hash`` makes
        the table private (the hash of the invitation's secret); ``reserved``: "Play against the computer",
        which may use the share of the server's limit kept for it (a rematch may too)."""
        self._journal()
        if bots_by not in ("creator", "seated"):
            raise WebError(BOTS_BY_CHOICE)
        # Checked and counted with no await between: concurrent creations never pass a limit.  With many
        # processes the per-hour count is the server's, checked and counted in one step in the broker.
        if address is not None:
            self.limits.check_create(address)
        self.limits.check_room(address, reserved or rematch_of is not None)
        with self.limits.counting(address):
            if address is not None:
                wait = await self.creations.take(address, TABLE, self.settings.tables_per_hour)
                if wait:
                    raise self.limits.too_many(wait)
            return await self._create(
                rules,
                rematch_of,
                address,
                bots_by,
                clock,
                invite_hash,
                rated,
                club_id,
                turn_based,
                secret,
                deal_limit,
                counted_as,
            )

    async def _create(
        self,
        rules: GameRules,
        rematch_of: Table | None,
        address: str | None,
        bots_by: str,
        clock: str | None,
        invite_hash: str | None,
        rated: bool = False,
        club_id: int | None = None,
        turn_based: bool = False,
        board_secret: str | None = None,
        deal_limit: int | None = None,
        counted_as: tuple[str, str] | None = None,
    ) -> tuple[Table, str]:
        table_id = secrets.token_urlsafe(6)
        seed = secrets.randbelow(2**62)
        boards = board_secret is not None  # an event's table: the same cards as the round's other tables
        secret = board_secret if board_secret is not None else new_secret().hex()
        bots_secret = new_secret().hex()  # the computer players' seeds: from nothing else about the table
        creator = secrets.token_urlsafe(24)
        creator_hash = hash_token(creator) if rematch_of is None else rematch_of.creator_hash
        text = str(rules)
        seats: list[SeatRecord] = []
        if rematch_of is not None:  # same players, same credentials, same computer players
            seats = [s.record() for s in rematch_of.seats]
            # a seat its player left is the stand-in's now: in the rematch, a computer player like any other
            seats = [dataclasses.replace(s, user_id=None, left=False) if s.left else s for s in seats]
        old_id = rematch_of.id if rematch_of else None
        # whom the table counts against: its maker's address, a rematch its first table's
        creator_addr = self.creations.address_hash(address) if address is not None else None
        bots_addr = None
        if rematch_of is not None:
            creator_addr, bots_addr = rematch_of.creator_addr, rematch_of.bots_addr
        if counted_as is not None:
            creator_addr, bots_addr = counted_as
        status = "playing" if seats and all(s.kind != "open" for s in seats) else "open"
        cluster = self.cluster

        def write(conn: Any) -> int | None:
            Store.create_table(
                conn,
                table_id,
                text,
                seed,
                rematch_of=old_id,
                secret=secret,
                creator_hash=creator_hash,
                bots_by=bots_by,
                invite_hash=invite_hash,
                clock=clock,
                bots_secret=bots_secret,
                creator_addr=creator_addr,
                bots_addr=bots_addr,
                rated=rated,
                club_id=club_id,
                turn_based=turn_based,
                boards=boards,
                deal_limit=deal_limit,
            )
            for s in seats:
                Store.set_seat(conn, table_id, s)
            if status == "playing":
                Store.set_status(conn, table_id, "playing")
            return cluster.claim_new(conn, table_id) if cluster is not None else None

        epoch: int | None = await self._journal().run(write)
        if cluster is not None and epoch is not None:
            cluster.epochs[table_id] = epoch
        rec = TableRecord(
            table_id,
            text,
            seed,
            status,
            now(),
            rematch_of=old_id,
            secret=secret,
            creator_hash=creator_hash,
            bots_by=bots_by,
            seats=seats,
            invite_hash=invite_hash,
            clock=clock,
            bots_secret=bots_secret,
            creator_addr=creator_addr,
            bots_addr=bots_addr,
            rated=rated,
            club_id=club_id,
            turn_based=turn_based,
            boards=boards,
            deal_limit=deal_limit,
        )
        t = self._build(rec, epoch)
        t.creator_address = address
        if rematch_of is not None:
            t.bot_address = rematch_of.bot_address
            t.creator_address = rematch_of.creator_address
        self.tables[t.id] = t
        t.start()
        return t, creator

    async def rematch(self, old: Table) -> Table:
        """The rematch of a finished table (`barbu.web.tables.rematch`): the same seats, rules and clock."""
        t, _ = await self.create(
            old.rules,
            rematch_of=old,
            bots_by=old.bots_by,
            clock=old.clock_text,
            invite_hash=old.invite_hash,
            rated=old.rated,
            club_id=old.club_id,
            turn_based=old.turn_based,
        )
        return t

    # ------------------------------------------------------------------ finding a table
    async def get(self, table_id: str) -> Table | None:
        """A table by id; a finished one is loaded from storage on first request.

        Asking for a table counts as activity: it is not unloaded under a connection about to join.
        """
        t = self.tables.get(table_id)
        if t is not None:
            t.last_activity = time.monotonic()
            return t
        if self.store is None or len(table_id) > 32:
            return None
        fut = self._loading.get(table_id)
        if fut is None:
            fut = asyncio.ensure_future(asyncio.to_thread(self.store.load_table, table_id))
            self._loading[table_id] = fut
        try:
            rec = await fut
        finally:
            self._loading.pop(table_id, None)
        t = self.tables.get(table_id)
        if rec is not None and rec.status == "expired":
            return None
        if t is None and rec is not None and self.cluster is not None and rec.status in ("open", "playing"):
            return self._build(rec)  # another process's, or nobody's yet (`locate` claims it): a copy to read
        if t is None and rec is not None:
            t = self._build(rec)
            self.tables[t.id] = t
            t.start()
        return t

    async def mine(self, data: dict[str, Any], user_id: int | None = None) -> list[dict[str, Any]]:
        """ "My tables": each table the request's credentials open, as the lobby lists tables
        (`barbu.web.tables.mine`); logged in, every unfinished table the account holds a seat at too."""
        wanted = mytables.wanted(data)
        if user_id is not None and self.store is not None:
            asked = {w[0] for w in wanted}
            held = await asyncio.to_thread(mytables.held_by, self.store, user_id)
            wanted += [(tid, None, None) for tid in held if tid not in asked]
        out = []
        for table_id, token, creator in wanted:
            out.append(mytables.status(await self.get(table_id), table_id, token, creator, user_id))
        return out

    async def end(self, t: Table, token: Any, creator: Any, user_id: int | None = None) -> bool:
        """End a table of computer players (`Table.end`); one with no finished deal leaves the server at once."""
        kept: bool = await t.call(t.end, token, creator, user_id)
        if not kept and self.tables.get(t.id) is t:
            del self.tables[t.id]
            await t.stop()
        return kept
