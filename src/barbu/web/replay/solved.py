"""Double-dummy tables solved in the background, so that a daily board's or an event board's table opens exact.

The boards are known before anyone plays them: a day's daily sets (`barbu.duplicate.daily`) as soon as the day
begins, an event round's deals (`barbu.core.chance.BoardChance` from the round's key) as soon as its tables are
made.  Each deal is added once to the database (`barbu.web.db.solved_tables`, keyed by `ddtable.board_key`) with
the chance actions that deal it on a fresh match, where the declarer still has every contract to choose from, so
its table holds every row any table of that board may show.  Then one process claims it (atomically: one
solver a deal, whatever the number of processes; a claim not renewed is taken over after a restart) and solves
it at a larger budget than the replay's on-demand one, in a pool of low-priority processes (``os.nice``) of
``barbu serve --solver-workers`` workers (0: none in this process), so that play is never starved.

Nothing here shows a table: the replay (`barbu.web.replay.service.Analyses.stored_dd`) looks a stored table up when
a player who may see the board asks for it, under the replay's own access rules.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy.engine import Connection

from ...analysis.ddtable import DDTable, board_key, dd_table, options, stored_cells, table_json
from ...classic.match import CHANCE, Match
from ...core.actions import Deal, Draw
from ...core.chance import BoardChance
from ...core.daily_keys import board_key as daily_board_key
from ...duplicate.daily import BESIGUE, GAMES, DailySet
from ..db import solved_tables as db
from ..db.storage import Store

log = logging.getLogger("barbu.web")

#: Each cell's budget in the background, in seconds of the reference machine (`ddtable.POSITIONS_PER_SECOND`):
#: three times the replay's on-demand one, since nobody waits for it.
BACKGROUND_SECONDS = 6.0
NICE = 10  # how much lower than the server the background solvers run
STALE = 120.0  # seconds after which a claim not renewed is taken over (its process stopped)
RENEW = 20.0  # seconds between two renewals of a claim
INTERVAL = 60.0  # seconds between two looks for new boards (a new day, a new round wakes it at once)


class Stopped(Exception):
    """The server stops: a table being solved is left for a later claim."""


def fresh_start(rules: str, actions: Iterable[str]) -> Match:
    """A fresh match of ``rules`` after ``actions`` (the chance actions dealing a board): its first decision."""
    m = Match(rules, None)
    for text in actions:
        m.apply(m.parse_action(text))
    if m.to_act() in (CHANCE, None):
        raise ValueError("these actions do not reach a decision")
    return m


def start_actions(start: Match) -> tuple[str, ...]:
    """The actions dealing a deal's first decision on a fresh match: its chance actions."""
    return tuple(str(a) for a in start.history)


def daily_start(dset: DailySet, board: int) -> Match:
    """A daily board as dealt: the fresh match its key deals (`barbu.duplicate.daily`), at its first decision."""
    m = Match(dset.rules, None)
    chance = BoardChance(daily_board_key(dset.key, board))
    while m.to_act() == CHANCE:
        m.apply(chance(m))
    return m


def as_first_deal(start: Match, draw: Draw) -> Match | None:
    """Deal ``start`` (any deal of a match) as the first of a fresh match: the draw turned round so the same seat
    deals, then the same hands.  None when that does not give the very same deal (a rule whose first deal
    differs)."""
    cards = list(draw.cards)
    for turn in range(len(cards)):
        m = Match(str(start.rules), None)
        m.apply(Draw(tuple(cards[turn:] + cards[:turn])))
        if m.to_act() != CHANCE or getattr(m, "dealer", None) != getattr(start, "dealer", None):
            continue
        deal = next((a for a in reversed(start.history) if isinstance(a, Deal)), None)
        if deal is None:
            return None
        m.apply(deal)
        return m if board_key(m) == board_key(start) else None
    return None


def round_starts(rules: str, secret: bytes, deals: int | None) -> list[Match]:
    """An event round's deals as dealt (every table of the round gets them: `BoardChance` from the round's key),
    each as the first deal of a fresh match where one can be made, so its table has every contract's row.
    Found by playing the round through with the first legal action (the cards do not depend on the play)."""
    m = Match(rules, None)
    chance = BoardChance(secret)
    starts: list[Match] = []
    draw: Draw | None = None
    limit = deals if deals is not None else 10_000
    while m.to_act() is not None and len(m.results) < limit:
        if m.to_act() == CHANCE:
            action = chance(m)
            if not starts and isinstance(action, Draw):
                draw = action  # the last draw before the first deal: a tie is drawn again
            m.apply(action)
            continue
        if len(starts) == len(m.results):
            first = as_first_deal(m, draw) if draw is not None and starts else None
            starts.append(first if first is not None else m.clone())
        m.apply(m.legal_actions()[0])
    return starts


def today_sets(daily: Any) -> list[DailySet]:
    """Today's daily sets of the games that have a double-dummy table (``daily``: `barbu.web.daily.service.Daily`)."""
    day = daily.today()
    return [daily.set_of(day, game) for game in GAMES if game != BESIGUE]


def covered(rules: str) -> bool:
    """Whether a game's deals have a double-dummy table (the Barbu games: not Bésigue, not the Scottish game)."""
    try:
        return Match(rules, None).rules.family != "scottish"
    except Exception:  # Bésigue, or rules this engine does not read: no table
        return False


def worker_start(server: int, nice: int = 0) -> None:
    """A solving worker's start: lower its priority by ``nice``, and end it soon after the server process
    ``server`` is gone (killed without its shutdown), at the latest once the cell under way is done."""
    if nice:
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the workers stay bounded in number anyway
            pass

    def watch() -> None:
        while True:
            time.sleep(2.0)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # another user's process took the number: ours is gone
                os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def solving_pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """Processes that solve cells, started by a fork server (not forked from the server's threads), each ended
    with the server whatever way it stops."""
    return ProcessPoolExecutor(
        max(1, workers),
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=worker_start,
        initargs=(os.getpid(), nice),
    )


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut a solving pool down now: the cells waiting dropped, the ones under way ended with their processes
    (a search cannot be interrupted, and a low-priority one on a busy machine could hold the server's stop)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


class SolvedTables:
    """The background solving of one server process: the boards added, claimed, solved and stored."""

    def __init__(
        self,
        store: Callable[[], Store | None],
        workers: int = 0,
        seconds: float = BACKGROUND_SECONDS,
        interval: float = INTERVAL,
        stale: float = STALE,
    ) -> None:
        self._store = store
        self.workers = workers
        self.seconds = seconds
        self.interval = interval
        self.stale = stale
        self.claimer = secrets.token_hex(8)  # this process, in the claims it holds
        self.daily_sets: Callable[[], list[DailySet]] = lambda: []  # today's sets (the application wires it)
        # the rounds being played: ("event:<id>/<round>", rules, the round's key, deals), read from the database
        self.rounds: Callable[[Connection], list[tuple[str, str, bytes, int | None]]] = lambda conn: []
        self.added: set[str] = set()  # sources this process has added already
        self.closing = False
        self.solved = 0  # tables this process has solved
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._failed = False  # told once until a pass goes well again

    @property
    def store(self) -> Store | None:
        return self._store()

    # -- adding boards
    def add(self, source: str, start: Match) -> bool:
        """One board to solve (once, whatever process adds it): whether it was new."""
        store = self.store
        if store is None:
            return False
        board = db.Board(board_key(start), source, str(start.rules), start_actions(start), self.seconds)
        return db.add(store.engine, board)

    def add_daily(self, dset: DailySet) -> int:
        """A day's set of one game, board by board (Bésigue and the Scottish game have no table)."""
        source = f"daily:{dset.day}/{dset.game}"
        if source in self.added or dset.game == BESIGUE or not covered(str(dset.rules)):
            return 0
        added = sum(self.add(f"{source}/{b + 1}", daily_start(dset, b)) for b in range(dset.size))
        self.added.add(source)
        return added

    def add_round(self, source: str, rules: str, secret: bytes, deals: int | None) -> int:
        """An event round's deals (``source``: "event:<id>/<round>"), each once."""
        if source in self.added or not covered(rules):
            return 0
        starts = round_starts(rules, secret, deals)
        added = sum(self.add(f"{source}/{k}", s) for k, s in enumerate(starts, start=1))
        self.added.add(source)
        return added

    def wake(self) -> None:
        """Look for new boards now (a round's tables were just made)."""
        if self._wake is not None:
            self._wake.set()

    # -- solving
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = solving_pool(self.workers, NICE)
        return self._pool

    def solve(self, board: db.Board) -> DDTable | None:
        """Solve one claimed board and store it; None when the server stops or the claim was taken over."""
        store = self.store
        assert store is not None
        start = fresh_start(board.rules, board.actions)
        last = [time.monotonic()]

        def progress(done: int, total: int) -> None:
            if self.closing:
                raise Stopped
            if time.monotonic() - last[0] >= RENEW:
                last[0] = time.monotonic()
                if not db.renew(store.engine, board.key, self.claimer):
                    raise Stopped  # taken over: another process solves it

        table = dd_table(start, seconds=board.seconds, progress=progress, pool=self.pool())
        cells = [c for r in table.rows for c in r.cells]
        if not db.save(
            store.engine, board.key, self.claimer, table_json(table, start), sum(c.exact for c in cells), len(cells)
        ):
            return None
        self.solved += 1
        return table

    def solve_waiting(self, most: int | None = None) -> int:
        """Claim and solve the boards waiting (or left by a stopped process), oldest first: how many were solved."""
        store = self.store
        if store is None:
            return 0
        count = 0
        while not self.closing and (most is None or count < most):
            if self._wake is not None and self._wake.is_set():  # a round's tables were made: its boards first
                return count
            with store.engine.connect() as conn:
                waiting = db.to_solve(conn, self.stale)
            claimed = next((b for b in waiting if db.claim(store.engine, b.key, self.claimer, self.stale)), None)
            if claimed is None:
                return count
            try:
                if self.solve(claimed) is not None:
                    count += 1
            except Stopped:
                return count
            except ValueError:  # a row this engine cannot deal again: left as it is, said once
                log.warning("solved tables: %s (%s) cannot be dealt again", claimed.key, claimed.source)
            except Exception:
                if self.closing:  # the pool was ended under the search: the board is left for a later claim
                    return count
                raise
        return count

    def pass_once(self) -> int:
        """One look: today's daily sets and the running rounds added, then what waits solved."""
        for dset in self.daily_sets():
            self.add_daily(dset)
        store = self.store
        if store is None:
            return 0
        with store.engine.connect() as conn:
            rounds = self.rounds(conn)
        for source, rules, secret, deals in rounds:
            self.add_round(source, rules, secret, deals)
        return self.solve_waiting()

    def start(self) -> None:
        if self.workers > 0 and self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        assert self._wake is not None
        while not self.closing:
            try:
                await asyncio.to_thread(self.pass_once)
                if self._failed:
                    log.info("solved tables: the background solving works again")
                self._failed = False
            except Exception as e:  # a database outage: said once, tried again at the next look
                if not self._failed:
                    log.warning("solved tables: the background solving failed (%s); trying again", type(e).__name__)
                self._failed = True
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()

    async def stop(self) -> None:
        """Stop solving (the table under way is left to a later claim) and shut the pool down."""
        self.closing = True
        if self._wake is not None:
            self._wake.set()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def stored_table(store: Store | None, start: Match) -> tuple[dict[str, Any], float] | None:
    """The stored cells of the deal ``start`` is at (`ddtable.table_json`) and their budget, when it was solved
    in the background."""
    if store is None:
        return None
    with store.engine.connect() as conn:
        return db.cells_of(conn, board_key(start))


def fully_stored(start: Match, stored: dict[str, Any], seats: int) -> bool:
    """Whether a stored table has every cell of ``start``'s table (its contracts may be fewer than stored)."""
    known = stored_cells(stored)
    return all(known(o, s) is not None for o in options(start)[0] for s in range(seats))
