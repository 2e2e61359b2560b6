"""The server's own puzzles, found in the plays of finished daily deals and event rounds, added to the public pool.

A day's daily boards are secret until the day is over (`barbu.web.daily.service.Daily.over`): only then are its
plays looked at, each through the record its replay shows (`Daily.public_plays`, the same that anyone with the
replay's link may open once the day is over).  The puzzle finder is `barbu puzzles make --from`'s
(`barbu.puzzles.make.mine_actions`), run in a low-priority process of its own as an account's own puzzles are
(`barbu.web.puzzles.mining`).  Each board keeps its best few puzzles by margin (the least any other card costs),
sourced "daily:<day>/<game>/<board>" and with no replay link: a person's play of a daily deal is his, and its
replay's link his to give (it shows the name he played under), so a puzzle names nobody and leads to no one.  Each day's set of one game is claimed once in
the database (`store.claim_harvest`), whatever the number of processes and restarts, and a puzzle is stored once
(its id).  An event's round is looked at likewise once it is over, when its tables' replays open to anyone
(`barbu.web.events.rounds.finished_rounds`, wired by the application: this room sits below the events'), its
puzzles sourced "event:<id>/<round>/<deal>" and linked to their table's replay.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from datetime import timedelta
from multiprocessing import get_context
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ...duplicate.daily import BESIGUE
from ...puzzles.model import OPEN, SINGLE, Puzzle
from ..daily import store as daily_db
from ..db.storage import now
from ..replay.solved import covered, stop_pool
from . import store as S
from .mining import low_priority

log = logging.getLogger("barbu.web")

EXACT_CARDS = 7  # as `barbu puzzles make`: positions solved once every hand holds at most so many cards
PER_BOARD = 3  # the best puzzles kept of one board, by margin
PLAYS = 8  # plays of one board looked at (the first to finish the set)
DAYS = 7  # past days looked at
STALE = timedelta(minutes=30)  # a claim left undone so long is taken over (its process stopped)
INTERVAL = 3600.0  # seconds between two looks (a new day comes once a day)


def play_puzzles(rules: str, plays: list[tuple[str | None, list[str]]], kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """In the finder's process: the puzzles of some plays of one game (each its replay's path, or None for no
    link, and its actions), each linked to its play's replay at its deal where it has one; as JSON-ready data."""
    from ...puzzles.make import mine_actions
    from ...puzzles.single import SAMPLES

    out = []
    for replay, actions in plays:
        puzzles, _ = mine_actions(rules, actions, "harvest", kinds, SAMPLES, EXACT_CARDS)
        out += [
            replace(p, replay=None if replay is None else f"{replay}#deal={p.source_deal}&move=0").to_dict()
            for p in puzzles
        ]
    return out


def best(found: list[Puzzle], source_of: Callable[[Puzzle], str]) -> list[Puzzle]:
    """The best `PER_BOARD` puzzles of each board (``source_of``: a puzzle's board as its source) by margin, the
    least any other card costs; a position found in two plays kept once."""
    boards: dict[str, dict[str, Puzzle]] = {}
    for p in found:
        source = source_of(p)
        boards.setdefault(source, {}).setdefault(p.id, replace(p, source=source))
    out = []
    for puzzles in boards.values():
        ranked = sorted(puzzles.values(), key=lambda p: (-min((c for _, c in p.costs), default=0), p.id))
        out += ranked[:PER_BOARD]
    return out


class Harvest:
    """The harvest of one server process: finished days' sets claimed, their puzzles found and stored."""

    def __init__(self, puzzles: Any, daily: Any, kinds: tuple[str, ...] = (OPEN, SINGLE), enabled: bool = True) -> None:
        self.puzzles = puzzles  # `barbu.web.puzzles.service.Puzzles`: the database, the rows
        self.daily = daily  # `barbu.web.daily.service.Daily`
        self.kinds = kinds
        self.claimer = secrets.token_hex(8)
        # the events' rounds over, read from the database (the application wires `events.rounds.finished_rounds`)
        self.rounds: Callable[[Connection], list[tuple[str, str, list[str]]]] = lambda conn: []
        self.enabled = enabled  # the loop runs (a server that solves in the background); a test calls pass_once
        self.interval = INTERVAL
        self._pool: ProcessPoolExecutor | None = None
        self._task: asyncio.Task | None = None
        self.closing = False

    def due(self) -> list[tuple[str, str]]:
        """The past days' sets (day, game) someone finished and no process has harvested (the games the exact
        solver plays: not Bésigue, not the Scottish game)."""
        engine = self.puzzles.engine()
        A = daily_db.ATTEMPTS
        with engine.connect() as conn:
            days = daily_db.played_days(conn, self.daily.today(), DAYS)
            q = select(A.c.day, A.c.game).where(A.c.day.in_(days), A.c.finished_at.is_not(None)).distinct()
            todo = sorted({(r.day, r.game) for r in conn.execute(q) if r.game != BESIGUE and self.daily.over(r.day)})
            done = S.harvested(conn, [f"daily:{d}/{g}" for d, g in todo])
        return [(d, g) for d, g in todo if f"daily:{d}/{g}" not in done and covered(str(self.daily.set_of(d, g).rules))]

    def harvest_day(self, day: str, game: str) -> int:
        """One finished day's set of one game, if this process claims it: how many puzzles were added."""
        if not self.daily.over(day):  # never today's boards
            return 0
        engine = self.puzzles.engine()
        source = f"daily:{day}/{game}"
        if not S.claim_harvest(engine, source, self.claimer, now() - STALE):
            return 0
        from ...records.barbu import read_record

        dset = self.daily.set_of(day, game)
        added = 0
        for board in range(dset.size):
            plays: list[tuple[str | None, list[str]]] = []
            for _rid, text in self.daily.public_plays(day, game, board, PLAYS):
                rec = read_record(text.splitlines())
                plays.append((None, [t for _, t in rec.actions]))  # no link: the play's replay is its player's
            name = f"{source}/{board + 1}"
            added += self.store_best(str(dset.rules), plays, lambda _p, name=name: name)  # type: ignore[misc]
        S.harvest_done(engine, source, self.claimer, added)
        if added:
            log.info("puzzles: %d found in the daily deals of %s (%s)", added, day, game)
        return added

    def store_best(
        self, rules: str, plays: list[tuple[str | None, list[str]]], source_of: Callable[[Puzzle], str]
    ) -> int:
        """The plays' puzzles found in the finder's process, the best of each board added to the public pool."""
        from .service import row_of

        if not plays:
            return 0
        found = self.pool().submit(play_puzzles, rules, plays, self.kinds).result()
        kept = best([Puzzle.from_dict(d) for d in found], source_of)
        return S.add_puzzles(self.puzzles.engine(), [row_of(p) for p in kept])

    # -- events
    def due_rounds(self) -> list[tuple[str, str, list[str]]]:
        """The events' rounds over (their replays open to anyone) that no process has harvested."""
        engine = self.puzzles.engine()
        with engine.connect() as conn:
            rounds = [r for r in self.rounds(conn) if covered(r[1])]
            done = S.harvested(conn, [source for source, _, _ in rounds])
        return [r for r in rounds if r[0] not in done]

    def harvest_round(self, source: str, rules: str, table_ids: list[str]) -> int:
        """One event round's tables (``source``: "event:<id>/<round>"), if this process claims it: how many puzzles
        were added, each sourced "event:<id>/<round>/<deal>" and linked to its table's replay."""
        engine = self.puzzles.engine()
        if not S.claim_harvest(engine, source, self.claimer, now() - STALE):
            return 0
        store = self.puzzles.store_of()
        tables = [] if store is None else store.load_tables(ids=table_ids[:PLAYS])
        plays: list[tuple[str | None, list[str]]] = [
            (f"/t/{t.id}/replay", [text for _, _, text in t.events]) for t in tables if t.status == "over"
        ]
        added = self.store_best(rules, plays, lambda p: f"{source}/{p.source_deal}")
        S.harvest_done(engine, source, self.claimer, added)
        if added:
            log.info("puzzles: %d found in %s", added, source)
        return added

    def pass_once(self) -> int:
        """One look: every finished day's set and event round not harvested yet."""
        added = sum(self.harvest_day(day, game) for day, game in self.due() if not self.closing)
        return added + sum(self.harvest_round(*r) for r in self.due_rounds() if not self.closing)

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=low_priority)
        return self._pool

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        while not self.closing:
            try:
                await asyncio.to_thread(self.pass_once)
            except Exception as e:  # a database outage: one line, tried again at the next look
                if self.closing:  # the finder's process ended under it: the claim is taken over later
                    return
                log.warning("puzzles: the daily deals' puzzles could not be found (%s)", type(e).__name__)
            await asyncio.sleep(self.interval)

    async def stop(self) -> None:
        self.closing = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
        self.close()

    def close(self) -> None:
        """The finder's process ended now (a search cannot be interrupted): a set or round under way is left to a
        later claim."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
