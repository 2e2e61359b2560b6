"""The lobby: every table of the server, created, found and rebuilt from storage.

At start-up every unfinished table is rebuilt by replaying its event log, so
a server killed at any moment resumes each table at the action it had
reached.  Finished tables are loaded when someone asks for them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import Counter
from typing import Any, Callable

from ...core.chance import new_secret

from ...besigue.ruleset import OPTIONS as BESIGUE_OPTIONS, PRESETS as BESIGUE_PRESETS
from ...core.errors import BarbuError
from ...core.words import ENGLISH, N_, NN_, Words
from ...games import game_kind
from ...classic.ruleset import presets
from ...classic.ruleset import OPTIONS, Ruleset
from ..db.creations import TABLE, Creations
from ..cluster.node import Cluster
from ..common.sharedlimits import WEBSOCKETS
from ..db.journal import Journal
from ..db.leases import Lease
from ..accounts import store as accountstore
from ..profiles import history
from ..common import mail
from . import mine as mytables
from ..common.settings import Settings
from ..db.storage import SeatRecord, Store, TableRecord, hash_token, now
from .actor import Table, TableError
from .ops import operate
from .thinking import ThinkingPool

log = logging.getLogger("barbu.web")
MY_TABLES = "my_tables"  # the code of a per-address limit's refusal: the lobby points to "My tables"


def parse_rules(text: Any, players: Any = None) -> Any:
    """The rules of a new table, of any game of the house (`barbu.games.game_kind`)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 500:
        raise TableError(N_("choose the rules: a preset name such as classic, optionally with options"))
    if game_kind(text).name == "besigue":
        if players is not None and players != 2:
            raise TableError(N_("Bésigue is a game for two players"))
        try:
            return game_kind(text).open(text, None).rules
        except BarbuError as e:
            raise TableError.wrap(e) from None
    try:
        r = Ruleset.parse(text)
        if players is not None:
            if not isinstance(players, int) or isinstance(players, bool):
                raise TableError(N_("the number of players is a whole number"))
            if players != r.players:
                r = r.replace(players=players)
    except TableError:
        raise
    except BarbuError as e:
        raise TableError.wrap(e) from None
    return r


def invitation(private: Any) -> tuple[str | None, str | None]:
    """A private table's invitation: its secret (for the creator's link, after ``#invite=``) and the hash
    stored; (None, None) for a listed table."""
    if private is None or private is False:
        return None, None
    if private is not True:
        raise TableError(N_("\"private\" is true or false"))
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
            opts.append({"name": name, "kind": spec.kind.__name__, "default": value, "help": words.gettext(spec.help),
                         "choices": list(spec.choices) if spec.choices else None,
                         "minimum": spec.minimum, "maximum": spec.maximum})
        out.append({"name": p.name, "description": words.gettext(p.description), "players": list(fam.players),
                    "default_players": r.players, "options": opts, "game": "barbu"})
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
            opts.append({"name": opt, "kind": "int" if is_int else "str", "default": default,
                         "help": f"{meaning} ({detail})" if detail else meaning, "choices": choices,
                         "minimum": 1 if allowed == "int" else None, "maximum": None})
        out.append({"name": name, "description": words.gettext(description), "players": [2], "default_players": 2,
                    "options": opts, "game": "besigue"})
    return out


class Lobby:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.journal: Journal | None = None
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self._sweeper: asyncio.Task | None = None
        self.creations = Creations()  # per-hour counts by address, kept in the database
        self._pending = 0  # tables being written: counted against the limits before they are in self.tables
        self._pending_by: Counter[str] = Counter()  # the same, by creating address
        self.connections: Counter[str] = Counter()  # address -> open WebSocket connections
        self.thinking = ThinkingPool(settings)  # computer players' thinking and hints, shared fairly by address
        self.started_at = time.time()
        self._background: set[asyncio.Task] = set()
        self.on_deal: Callable[[Table], None] | None = None  # a deal ended at a table here (`barbu.web.events.service`)
        # One of many processes (`barbu.web.cluster.node`): tables are owned through leases, the rest relayed.
        self.cluster: Cluster | None = Cluster(settings, self, operate) if settings.broker_url else None

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

    async def _sweep(self) -> None:
        interval = min(60.0, max(0.05, self.settings.unload_after / 4))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.unload_idle()
                await self.expire_open()
                self.creations.sweep()
            except Exception:  # never let the sweeper die
                log.exception("lobby: unloading idle tables failed")

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
            t.status = "expired"
            await self.journal.run(lambda conn, tid=t.id: Store.set_status(conn, tid, "expired"))
            await t.stop()
        if gone:
            log.info("lobby: %d open tables nobody joined have expired", len(gone))
        return [t.id for t in gone]

    async def discard(self, t: Table) -> None:
        """Close a table made for nothing (an event's table another process made first): never listed, never played."""
        self.tables.pop(t.id, None)
        t.status = "expired"
        await self.journal.run(lambda conn, tid=t.id: Store.set_status(conn, tid, "expired"))
        await t.stop()

    def check_create(self, address: str) -> None:
        """Refuse a new table to an address that made too many this hour (counts kept in the database)."""
        wait = self.creations.wait(address, TABLE, self.settings.tables_per_hour)
        if wait:
            raise self._too_many(wait)

    def _too_many(self, wait: int) -> TableError:
        limit = self.settings.tables_per_hour
        return TableError(NN_("you have created {limit} tables this hour, the most one player may; "
                                 "try again in {n} minute",
                                 "you have created {limit} tables this hour, the most one player may; "
                                 "try again in {n} minutes"), 429, limit=limit, n=wait)

    def in_use_by(self, address: str) -> int:
        """Unfinished tables ``address`` created that are still waiting for players or being played.

        A match against the computer left for over an hour does not count: its player walked away.  With many
        processes, the others' tables count as each last published them (`usage`, a round ago)."""
        h = self.creations.address_hash(address)
        return self._pending_by[address] + self.usage().get(h, (0, 0))[0] + self._others_usage(h)[0]

    def usage(self) -> dict[str, tuple[int, int]]:
        """This process's tables by the address HMAC they count against: (unfinished tables in use that it
        created, unfinished tables where it seated computer players)."""
        recent = time.monotonic() - 3600
        out: dict[str, list[int]] = {}
        for t in self.tables.values():
            if t.status not in ("open", "playing"):
                continue
            if t.creator_addr and (t.status == "open" or t.last_activity > recent or t.humans_connected()):
                out.setdefault(t.creator_addr, [0, 0])[0] += 1
            if t.bots_addr:
                out.setdefault(t.bots_addr, [0, 0])[1] += 1
        return {h: (a, b) for h, (a, b) in out.items()}

    def _others_usage(self, h: str) -> tuple[int, int]:
        if self.cluster is None:
            return 0, 0
        rows = [u.get(h) for u in self.cluster.others_usage.values()]
        return sum(r[0] for r in rows if r), sum(r[1] for r in rows if r)

    def check_room(self, address: str | None, reserved: bool) -> None:
        """The limits on unfinished tables, per address first, then the server's; the caller counts the
        new table before its next ``await``, so no burst of creations passes between the check and the count.

        ``reserved``: "Play against the computer" or a rematch, which may use the share of the server's
        limit kept for them (``play_reserve``); a table made in the lobby may not."""
        per_address = self.settings.open_tables_per_address
        if address is not None and per_address > 0 and self.in_use_by(address) >= per_address:
            raise TableError(N_("you already have {limit} unfinished tables, the most one player may; "
                                "finish or leave one first"), 429, code=MY_TABLES, limit=per_address)
        limit = self.settings.max_tables
        held = self._pending + sum(1 for t in self.tables.values() if t.status != "over")
        if held >= limit:
            raise TableError(N_("the server has as many tables as it can hold; try again later"), 503)
        if not reserved and held >= limit - self.play_reserve():
            raise TableError(N_("the server has as many tables with free seats as it can hold; try again later, "
                                "or play against the computer"), 503)

    def play_reserve(self) -> int:
        """Tables of the server's limit only "Play against the computer" and rematches may use."""
        limit = self.settings.max_tables
        return min(limit - 1, int(limit * self.settings.play_reserve + 0.999)) if limit > 1 else 0

    def check_bots(self, table: Table, address: str) -> None:
        """Refuse computer players to an address already running as many computer tables as allowed."""
        limit = self.settings.bot_tables_per_address
        h = self.creations.address_hash(address)
        if limit <= 0 or table.bots_addr == h:
            return
        running = self.usage().get(h, (0, 0))[1] + self._others_usage(h)[1]
        if running >= limit:
            raise TableError(N_("you already have {limit} tables with computer players, the most one player may; "
                                "finish one first"), 429, code=MY_TABLES, limit=limit)

    async def connect(self, address: str) -> bool:
        """Count a new WebSocket from `address`; False when it already has as many as allowed.

        With many processes the server's count decides (`SharedLimits`), this process's is kept too."""
        limit = self.settings.connections_per_address
        if limit > 0 and self.connections[address] >= limit:
            return False
        self.connections[address] += 1
        if self.cluster is not None and not await self.cluster.limits.acquire(
                WEBSOCKETS, self.creations.address_hash(address), limit):
            self.connections[address] -= 1
            if self.connections[address] <= 0:
                del self.connections[address]
            return False
        return True

    async def disconnect(self, address: str) -> None:
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]
        if self.cluster is not None:
            await self.cluster.limits.release(WEBSOCKETS, self.creations.address_hash(address))

    def health(self) -> dict[str, Any]:
        """What the server holds, for its operator: never a table id, a name or an address."""
        status = Counter(t.status for t in self.tables.values())
        return {"status": "ok", "uptime": round(time.time() - self.started_at),
                "tables": {"open": status["open"], "playing": status["playing"], "over_in_memory": status["over"],
                           "limit": self.settings.max_tables},
                "connections": sum(self.connections.values()), "addresses": len(self.connections),
                "players_connected": sum(1 for t in self.tables.values() for s in t.seats if s.conns),
                "journal_queue": self.journal.queued() if self.journal else 0, "journal_commits": self.journal.commits if self.journal else 0}

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

    def _build(self, rec: TableRecord, epoch: int | None = None) -> Table:
        """A table from its record; ``epoch``: its lease's, carried by each of its writes (many processes)."""
        assert self.journal is not None
        journal = self.journal.fenced(rec.id, epoch) if epoch is not None else self.journal
        t = Table(rec, journal, self.settings, on_rematch=self.rematch)
        t.thinking = self.thinking
        t.hash_address = self.creations.address_hash
        t.on_lost = self._lost
        t.on_over = self._match_over
        t.on_turn = self._tell_turn
        t.on_deal = self._deal_ended
        self.show_ratings(t)
        return t

    def _deal_ended(self, t: Table) -> None:
        if self.on_deal is not None:
            self.on_deal(t)

    async def _match_over(self, t: Table) -> None:
        """A match played to its end: its status, its results and (rated) the ratings, in one fenced write."""
        seats = [history.SeatResult(s.kind, s.name, s.strength, s.user_id, s.left) for s in t.seats]
        finished = history.finished_of(t.id, t.match, seats, t.rated)

        def write(conn: Any) -> None:
            history.record(conn, finished)
            Store.set_status(conn, t.id, "over")
        await t.journal.run(write)
        self.show_ratings(t)

    async def _tell_turn(self, t: Table, user_id: int, kind: str) -> None:
        """E-mail a player that a turn-based table waits for him ("turn") or that his time ran out
        ("timeout"), if the server has a mail server and he asked for it.  Off the table's actor."""
        if self.settings.smtp_host is None or self.store is None:
            return
        store, settings, table_id, game = self.store, self.settings, t.id, str(t.rules)

        async def tell() -> None:
            def read() -> Any:
                with store.engine.connect() as conn:
                    return accountstore.mail_of(conn, user_id)
            found = await asyncio.to_thread(read)
            if found is None:
                return
            email, notify, lang, name = found
            if notify and email:
                await mail.send(settings, mail.message(settings, email, lang or settings.default_lang, kind, name,
                                                       table_id, game))
        task = asyncio.get_running_loop().create_task(tell(), name=f"mail-{t.id}")
        self._background.add(task)  # held until done: a task nobody holds may be collected mid-way
        task.add_done_callback(self._background.discard)

    def show_ratings(self, t: Table) -> None:
        """Read the ratings shown beside the seats' names, then give them to the table (off its actor)."""
        if self.store is None:
            return
        store, rules = self.store, str(t.rules)
        seats = [(s.kind if not s.left else "human", s.user_id, s.strength) for s in t.seats]

        async def read() -> None:
            try:
                values = await asyncio.to_thread(history.seat_ratings, store, rules, seats)
            except Exception:  # the page shows no figure; the table plays on
                log.exception("table %s: the ratings could not be read", t.id)
                return
            t.tell(t.set_ratings, values)
        try:
            asyncio.get_running_loop().create_task(read(), name=f"ratings-{t.id}")
        except RuntimeError:  # no loop (a table read outside the server)
            pass

    def _lost(self, t: Table) -> None:
        """Another process took ``t`` over: it leaves this one."""
        if self.tables.get(t.id) is t:
            del self.tables[t.id]
        if self.cluster is not None:
            self.cluster.lost(t.id)

    async def adopt(self, table_id: str, epoch: int) -> bool:
        """Start a table this process has just claimed, rebuilt from the journal as its last owner left it."""
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

    async def locate(self, table_id: str) -> "Table | Lease | None":
        """Where a table is played: here (the table), in another process (its lease), or nowhere (None).

        With many processes an unfinished table nobody owns is claimed by the process asked for it.  Another
        process's table is found by its lease alone: nothing is read or replayed here to relay to it."""
        if self.cluster is not None and table_id not in self.tables and len(table_id) <= 32:
            lease, at = await self.cluster.lease_of(table_id)
            if lease is not None and lease.alive(at) and lease.owner != self.cluster.node:
                return lease
        t = await self.get(table_id)
        if self.cluster is None or t is None or t.status not in ("open", "playing") or t.id in self.cluster.epochs:
            return t
        for _ in range(3):
            lease, at = await self.cluster.lease_of(table_id)
            if lease is not None and lease.alive(at) and lease.owner != self.cluster.node:
                return lease
            epoch = await self.cluster.claim(table_id)
            if epoch is not None and await self.adopt(table_id, epoch):
                return self.tables[table_id]
        return None

    def own_listing(self) -> list[dict[str, Any]]:
        """This process's rows of the lobby (with many processes, each publishes its own)."""
        out = [t.summary() for t in self.tables.values() if t.status != "over" and t.invite_hash is None]
        out.reverse()
        return out[:200]

    async def create(self, rules: Ruleset, rematch_of: Table | None = None, address: str | None = None,
                     bots_by: str = "creator", clock: str | None = None,
                     invite_hash: str | None = None, reserved: bool = False, rated: bool = False,
                     club_id: int | None = None, turn_based: bool = False, secret: str | None = None,
                     deal_limit: int | None = None) -> tuple[Table, str]:
        """A new table and its creator's credential (given out only this once).

        ``secret`` (hex): a duplicate event's table, dealt by boards from this key (`core.chance.BoardChance`),
        ended after ``deal_limit`` deals if given (`barbu.web.events.service`).

        ``clock`` is the table's clock as stored ("per_move+bank" seconds, None: none); ``invite_hash`` makes
        the table private (the hash of the invitation's secret); ``reserved``: "Play against the computer",
        which may use the share of the server's limit kept for it (a rematch may too)."""
        assert self.journal is not None
        if bots_by not in ("creator", "seated"):
            raise TableError(N_("who may add computer players: \"creator\" or \"seated\""))
        # Checked and counted with no await between: concurrent creations never pass a limit.  With many
        # processes the per-hour count is the server's, checked and counted in one step in the broker.
        if address is not None:
            self.check_create(address)
        self.check_room(address, reserved or rematch_of is not None)
        if address is not None:
            self._pending_by[address] += 1
        self._pending += 1
        try:
            if address is not None:
                wait = await self.creations.take(address, TABLE, self.settings.tables_per_hour)
                if wait:
                    raise self._too_many(wait)
            return await self._create(rules, rematch_of, address, bots_by, clock, invite_hash, rated, club_id,
                                      turn_based, secret, deal_limit)
        finally:
            self._pending -= 1
            if address is not None:
                self._pending_by[address] -= 1
                if self._pending_by[address] <= 0:
                    del self._pending_by[address]

    async def _create(self, rules: Ruleset, rematch_of: Table | None, address: str | None, bots_by: str,
                      clock: str | None, invite_hash: str | None, rated: bool = False, club_id: int | None = None,
                      turn_based: bool = False, board_secret: str | None = None,
                      deal_limit: int | None = None) -> tuple[Table, str]:
        assert self.journal is not None
        table_id = secrets.token_urlsafe(6)
        seed = secrets.randbelow(2 ** 62)
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

        cluster = self.cluster

        def write(conn: Any) -> int | None:
            Store.create_table(conn, table_id, text, seed, rematch_of=old_id, secret=secret,
                               creator_hash=creator_hash, bots_by=bots_by, invite_hash=invite_hash, clock=clock,
                               bots_secret=bots_secret, creator_addr=creator_addr, bots_addr=bots_addr, rated=rated,
                               club_id=club_id, turn_based=turn_based, boards=boards, deal_limit=deal_limit)
            for s in seats:
                Store.set_seat(conn, table_id, s)
            if seats and all(s.kind != "open" for s in seats):
                Store.set_status(conn, table_id, "playing")
            return cluster.claim_new(conn, table_id) if cluster is not None else None
        epoch = await self.journal.run(write)
        if cluster is not None and epoch is not None:
            cluster.epochs[table_id] = epoch
        status = "playing" if seats and all(s.kind != "open" for s in seats) else "open"
        rec = TableRecord(table_id, text, seed, status, now(), rematch_of=old_id, secret=secret,
                          creator_hash=creator_hash, bots_by=bots_by, seats=seats, invite_hash=invite_hash,
                          clock=clock, bots_secret=bots_secret, creator_addr=creator_addr, bots_addr=bots_addr,
                          rated=rated, club_id=club_id, turn_based=turn_based, boards=boards,
                          deal_limit=deal_limit)
        t = self._build(rec, epoch)
        t.creator_address = address
        if rematch_of is not None:
            t.bot_address = rematch_of.bot_address
            t.creator_address = rematch_of.creator_address
        self.tables[t.id] = t
        t.start()
        return t, creator

    async def rematch(self, old: Table) -> Table:
        t, _ = await self.create(old.rules, rematch_of=old, bots_by=old.bots_by, clock=old.clock_text,
                                 invite_hash=old.invite_hash, rated=old.rated, club_id=old.club_id,
                                 turn_based=old.turn_based)
        return t

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

    def listing(self) -> list[dict[str, Any]]:
        """Tables people can join or watch, newest first; a private table is never listed.

        With many processes, the other processes' rows come from what they last published (a round ago)."""
        out = self.own_listing()
        if self.cluster is not None:
            for rows in self.cluster.others.values():
                out.extend(rows)
        return out[:200]

    async def mine(self, data: dict[str, Any], user_id: int | None = None) -> list[dict[str, Any]]:
        """"My tables": each table the request's credentials open, as the lobby lists tables
        (`barbu.web.tables.mine`); logged in, every unfinished table the account holds a seat at too."""
        wanted = mytables.wanted(data)
        if user_id is not None and self.store is not None:
            asked = {w[0] for w in wanted}
            held = await asyncio.to_thread(history.tables_held, self.store, user_id)
            wanted += [(tid, None, None) for tid in held if tid not in asked]
        out = []
        for table_id, token, creator in wanted:
            out.append(mytables.status(await self.get(table_id), table_id, token, creator, user_id))
        return out

    async def end(self, t: Table, token: Any, creator: Any, user_id: int | None = None) -> bool:
        """End a table of computer players (`Table.end`); one with no finished deal leaves the server at once."""
        kept = await t.call(t.end, token, creator, user_id)
        if not kept and self.tables.get(t.id) is t:
            del self.tables[t.id]
            await t.stop()
        return kept
