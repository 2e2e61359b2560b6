"""A finished match replayed card by card, every hand face up, with each decision weighed beside it.

A replay is made from a record: a finished table's (`Table.record_lines`, which
refuses a match still being played, so no hand of a live table ever leaves the
server) or a record file a player uploads (his own game from ``barbu play``).
Each deal is sent as frames, one per decision of the deal: the public state
the table shows (`views.public_state`) plus the four hands.  The analysis of a
deal (`barbu.analysis.review_match`) runs in a worker thread, one deal of one
match at a time, behind a bounded queue; its result is kept per match and deal.
A deal's double-dummy table (`barbu.analysis.ddtable`) is solved the same way
on request, for the deals whose four hands the replay already shows, its cells spread over one pool of
processes the server shares (shut down with it); a daily board's or an event board's table solved in the
background beforehand (`barbu.web.replay.solved`) is served at once from the database.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import os
import re
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ...analysis import Decision, Review, review_match
from ...analysis.ddtable import DEFAULT_CELL_SECONDS, DDTable, dd_table, deal_start, stored_cells
from ...besigue.cards import card_text as besigue_card
from ...besigue.game import BesigueGame
from ...classic.match import CHANCE, Match
from ...core import safejson
from ...core.errors import BarbuError
from ...play.names import computer_kind
from ...records.barbu import number_out, read_record
from ...records.barbu import replay as replay_record
from ...records.besigue import replay_lines as replay_besigue
from ..common.errors import WebError
from ..tables.actor import Table
from ..tables.thinking import FairSlots
from ..tables.views import card_list, contract_info, public_state, result_json
from . import refusals as no
from .solved import fully_stored, solving_pool, stop_pool, stored_table

log = logging.getLogger("barbu.web")

UPLOAD_PREFIX = "u"  # an uploaded record's replay id: "u" and 24 hex digits (a table's id never has that form)
UPLOADS_KEPT = 64  # uploaded records remembered (the oldest are forgotten: upload again)
RESULTS_KEPT = 256  # analysed deals remembered
HARD_FACTOR = 16  # jobs kept at most, as a multiple of the queue: addresses with none still get one in
TOP_VALUES = 4  # candidate actions sent per decision, best first


@dataclass(frozen=True)
class Source:
    """A finished match to replay: its rules, seed, every action's text, and the players' names."""

    key: str
    rules: str
    seed: int | None
    actions: tuple[str, ...]
    names: tuple[str, ...]
    table: str | None = None  # the table it was played at, if any
    game: str = "barbu"  # or "besigue": replayed, not analysed
    # Per seat, a computer player's strength ("" when the record does not say it), None for a person: the page
    # names a computer by its place and strength ("West, good player"), never by the record's name.
    computers: tuple[str | None, ...] = ()
    me: int | None = None  # the seat whose replay it is (a daily deal's player), drawn at the bottom


#: The name a web table stores for a computer player's seat (`tables.seats`), its strength kept beside it.
WEB_COMPUTER = re.compile(r"^Computer, seat \d+$")


def record_people(names: list[str], header: dict[str, Any]) -> tuple[tuple[str | None, ...], int | None]:
    """Which seats of a record are computer players (and their strengths), and whose replay it is: a daily
    deal's player, the terminal's player, or the only person among computer players."""
    daily = header.get("daily")
    if isinstance(daily, dict) and isinstance(daily.get("seat"), int) and 0 <= daily["seat"] < len(names):
        kind = daily.get("strength") if isinstance(daily.get("strength"), str) else ""
        return tuple(None if s == daily["seat"] else kind for s in range(len(names))), daily["seat"]
    computers = tuple("" if WEB_COMPUTER.match(n) else computer_kind(n) for n in names)
    tui = header.get("tui")  # `barbu play`'s record: the person's seat
    if isinstance(tui, dict) and isinstance(tui.get("seat"), int) and 0 <= tui["seat"] < len(names):
        return computers, tui["seat"]
    people = [s for s, k in enumerate(computers) if k is None]
    return computers, people[0] if len(people) == 1 else None


def table_source(t: Table) -> Source:
    """A finished table's replay; a table still being played is refused (its hands are secret)."""
    if t.status != "over":
        raise WebError(no.NOT_OVER)
    lines = t.record_lines()
    head = lines[0]
    actions = tuple(line["action"] for line in lines if line["type"] == "action")
    names = tuple(s.name or "" for s in t.seats)
    computers = tuple((s.strength or "") if s.kind == "bot" else None for s in t.seats)
    return Source(t.id, head["rules"], head.get("seed"), actions, names, t.id, t.web.name, computers)


def upload_source(text: str) -> Source:
    """An uploaded record (Barbu or Bésigue), checked by replaying it: it must hold at least one finished deal."""
    lines = text.splitlines()
    try:
        head = safejson.loads(lines[0]) if lines else None
    except safejson.JsonError:
        head = None
    besigue = isinstance(head, dict) and head.get("game") == "besigue"
    try:
        if besigue:
            rep = replay_besigue(lines)
            rules, seed, header = str(rep.game.rules), rep.game.seed, rep.header
            actions = tuple(text for _, text in rep.game.log)
            players, finished = 2, len(rep.game.results)
        else:
            record = read_record(io.StringIO(text))
            rules, seed, header = str(record.rules), record.seed, record.header
            actions = tuple(text for _, text in record.actions)
    except BarbuError as e:
        raise WebError(no.NOT_A_RECORD, reason=str(e)) from None
    if not besigue:
        try:
            m = replay_record(record).match
        except BarbuError as e:
            raise WebError(no.UNPLAYABLE, reason=str(e)) from None
        players, finished = m.n, len(m.results)
    if not finished:
        raise WebError(no.NO_FINISHED_DEAL)
    names = header.get("players_names")
    if not (isinstance(names, list) and len(names) == players and all(isinstance(x, str) for x in names)):
        names = [""] * players
    computers, me = record_people(names, header)
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    return Source(
        UPLOAD_PREFIX + digest,
        rules,
        seed,
        actions,
        tuple(x[:24] for x in names),
        game="besigue" if besigue else "barbu",
        computers=computers,
        me=me,
    )


def daily_day_of(text: str) -> object:
    """The day a daily deal's record was dealt for (its header's ``daily.day``), else None."""
    first = text.split("\n", 1)[0]
    try:
        head = safejson.loads(first) if first.strip() else None
    except safejson.JsonError:
        return None
    daily = head.get("daily") if isinstance(head, dict) else None
    return daily.get("day") if isinstance(daily, dict) else None


def is_upload_id(rid: str) -> bool:
    return len(rid) == 25 and rid.startswith(UPLOAD_PREFIX) and all(c in "0123456789abcdef" for c in rid[1:])


def _deal_ranges(src: Source) -> tuple[Match, list[tuple[int, int]]]:
    """The replayed match and, per finished deal, the (first, last+1) indexes of its actions."""
    m = Match(src.rules, src.seed)
    ranges: list[tuple[int, int]] = []
    start = 0
    for i, text in enumerate(src.actions):
        m.apply(m.parse_action(text))
        if len(m.results) > len(ranges):
            ranges.append((start, i + 1))
            start = i + 1
    return m, ranges


def overview(src: Source) -> dict[str, Any]:
    """The match at a glance: players, contracts, and each finished deal's contract and scores."""
    if src.game == "besigue":
        return besigue_overview(src)
    m, _ = _deal_ranges(src)
    run: list[int | Fraction] = [0] * m.n
    deals = []
    for r in m.results:
        run = [a + b for a, b in zip(run, r.added)]
        d = result_json(m, r)
        d["totals"] = [number_out(x) for x in run]
        deals.append(d)
    return {
        "id": src.key,
        "game": "barbu",
        "table": src.table,
        "rules": src.rules,
        "players": m.n,
        "names": list(src.names),
        "computers": list(src.computers) or [None] * len(src.names),
        "me": src.me,
        "contracts": contract_info(m),
        "highest_wins": m.rules.family_spec.highest_wins,
        "total_deals": m.total_deals,
        "over": m.is_over,
        "deals": deals,
        "totals": [number_out(x) for x in m.totals],
        "dd": m.rules.family != "scottish",
    }  # whether its deals have a double-dummy table (`request_dd`)


def deal_frames(src: Source, deal: int) -> dict[str, Any]:
    """Deal ``deal`` (1-based) frame by frame: frame 0 as dealt, frame k after the deal's k-th decision.

    Each frame holds the table's public state and every hand (the match is over);
    frame k's ``step`` is the analysis's decision number for the move that led to it.
    """
    if src.game == "besigue":
        return besigue_frames(src, deal)
    m = Match(src.rules, src.seed)
    _, ranges = _deal_ranges(src)
    if not 1 <= deal <= len(ranges):
        raise WebError(no.NO_SUCH_DEAL, deal=deal)
    first, end = ranges[deal - 1]
    for text in src.actions[:first]:
        m.apply(m.parse_action(text))
    frames: list[dict[str, Any]] = []
    step = 0
    for text in src.actions[first:end]:
        actor = m.to_act()
        action = m.parse_action(text)
        m.apply(action)
        if actor == CHANCE or actor is None:
            if frames:  # chance during the deal: the latest frame shows its outcome
                frames[-1] = _frame(m, frames[-1]["step"], frames[-1]["seat"], frames[-1]["action"])
            else:
                frames.append(_frame(m, 0, None, None))
            continue
        step += 1
        frames.append(_frame(m, step, actor, text))
    return {"deal": deal, "deals": len(ranges), "frames": frames}


def _frame(m: Match, step: int, seat: int | None, action: str | None) -> dict[str, Any]:
    state = public_state(m, m.view(0))
    last_deal = state.pop("last_deal", None)
    trick = {"leader": state["leader"], "cards": state["trick"], "complete": False}
    if not state["trick"] and action is not None and len(action) == 2:  # a card completed a trick: show it
        done = state.get("last_trick") or (last_deal or {}).get("last_trick")
        if done:
            trick = {"leader": done["leader"], "cards": done["cards"], "complete": True, "winner": done.get("winner")}
    return {
        "step": step,
        "seat": seat,
        "action": action,
        "state": state,
        "trick": trick,
        "hands": [card_list(h) for h in m.hands],
    }


def decision_json(d: Decision) -> dict[str, Any]:
    """One weighed decision as the page shows it (actions in their text forms)."""
    return {
        "step": d.step,
        "trick": d.trick,  # in trick play, the deal's trick the card went to (the page says "trick 3", not a move)
        "turn": d.turn,  # at a layout, the seat's turn there ("the layout, turn 2")
        "seat": d.seat,
        "phase": d.phase,
        "chosen": str(d.chosen),
        "best": None if d.best is None else str(d.best),
        "cost": _round(d.cost),
        "values": [[str(a), round(v, 2)] for a, v in d.values[:TOP_VALUES]],
        "exact_best": None if d.exact_best is None else str(d.exact_best),
        "exact_cost": d.exact_cost,
        "exact_values": [[str(a), v] for a, v in d.exact_values[:TOP_VALUES]],
    }


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def review_json(review: Review, deal: int) -> dict[str, Any]:
    """A deal's weighed decisions and, per seat, its costliest (as steps to jump to)."""
    decisions = [d for d in review.decisions if d.deal == deal]
    costliest = {s: [d.step for d in review.costliest(s, 3) if d.cost] for s in range(review.players)}
    return {
        "state": "done",
        "deal": deal,
        "decisions": [decision_json(d) for d in decisions],
        "costliest": [costliest[s] for s in range(review.players)],
        "totals": [_round(review.total_cost(s)) for s in range(review.players)],
        "exact_totals": [review.total_exact_cost(s) for s in range(review.players)],
    }


def dd_refusal(src: Source) -> WebError | None:
    """Why a match's deals get no double-dummy table (Bésigue, the Scottish game), or None."""
    if src.game != "barbu":
        return WebError(no.DD_NOT_FOR_BESIGUE)
    if Match(src.rules, src.seed).rules.family == "scottish":
        return WebError(no.DD_NOT_FOR_SCOTTISH)
    return None


def dd_json(table: DDTable, seconds: float, stored: bool = False) -> dict[str, Any]:
    """A deal's double-dummy table as the page shows it.  A cell is ``{"least", "most", "exact"}``, a bound
    the solver did not prove (still the static one) null: exact, a range, "at least", "no more than" or only
    the bounds (``bounds``: the points still to take).  ``stored``: solved beforehand in the background."""
    rows = [
        {
            "contract": row.contract,
            "trump": row.trump,
            "chosen": row.chosen,
            "cells": [{"least": c.proved_least, "most": c.proved_most, "exact": c.exact} for c in row.cells],
            "bounds": [[c.floor, c.ceiling] for c in row.cells],
        }
        for row in table.rows
    ]
    return {
        "state": "done",
        "deal": table.deal,
        "declarer": table.declarer,
        "seconds": seconds,
        "rows": rows,
        "left_out": list(table.left_out),
        "exact": table.exact,
        "stored": stored,
    }


def solve_dd(
    src: Source,
    deal: int,
    seconds: float,
    progress: Any = None,
    pool: Executor | None = None,
    store: Any = None,
    only_stored: bool = False,
) -> dict[str, Any] | None:
    """Deal ``deal``'s double-dummy table, every contract and seat solved within ``seconds`` a cell (in
    ``pool``), the cells stored beforehand in ``store`` (`barbu.web.replay.solved`) taken as they are.
    ``only_stored``: None unless every cell was stored (nothing is solved)."""
    refusal = dd_refusal(src)
    if refusal is not None:
        raise refusal
    m, ranges = _deal_ranges(src)
    if not 1 <= deal <= len(ranges):
        raise WebError(no.NO_SUCH_DEAL, deal=deal)
    r = m.results[deal - 1]
    start = deal_start(src.rules, src.seed, src.actions, deal)
    stored = stored_table(store, start)
    whole = stored is not None and fully_stored(start, stored[0], start.n)
    if only_stored and not whole:
        return None
    known = stored_cells(stored[0]) if stored is not None else None
    table = dd_table(start, seconds=seconds, chosen=(r.contract, r.trump), progress=progress, pool=pool, known=known)
    return dd_json(table, stored[1] if whole and stored is not None else seconds, stored=whole)


class Stopped(Exception):
    """The server stops: an analysis under way ends without a result."""


@dataclass
class Job:
    deal: int
    address: str = ""  # the client that asked: its jobs wait behind each other, not in front of others'
    step: int = 0  # the decision being weighed
    steps: int = 0  # decisions with a choice in the deal
    queued: bool = True


@dataclass
class Analyses:
    """Deals analysed on demand, off the event loop: one job per match at a time, a bounded queue.

    ``workers`` analyses run at once, handed out in turns between the client
    addresses waiting (`thinking.FairSlots`), so each client's requests wait
    behind its own.  One address may have ``per_address`` jobs under way or
    waiting; once ``queue`` jobs are, only an address with none may add one
    (up to ``queue * HARD_FACTOR``), so one client cannot fill the queue for others.
    """

    samples: int
    seconds: float
    workers: int = 1
    queue: int = 4
    per_address: int = 2
    results: OrderedDict = field(default_factory=OrderedDict)  # (key, deal) -> review_json
    jobs: dict[str, Job] = field(default_factory=dict)  # key -> the match's job under way
    dd_seconds: float = DEFAULT_CELL_SECONDS  # the solver's time for each cell of a double-dummy table
    tables: OrderedDict = field(default_factory=OrderedDict)  # (key, deal) -> dd_json
    dd_jobs: dict[str, Job] = field(default_factory=dict)  # key -> the match's double-dummy table under way
    uploads: OrderedDict = field(default_factory=OrderedDict)  # upload id -> Source
    finished: OrderedDict = field(default_factory=OrderedDict)  # table id -> Source (a finished match never changes)
    overviews: OrderedDict = field(default_factory=OrderedDict)  # replay id -> overview
    store: Any = None  # () -> the database's `Store` or None: the tables solved in the background
    dd_workers: int = 0  # processes solving a table's cells on request; 0: one a core
    _dd_pool: ProcessPoolExecutor | None = None  # made at the first table asked for, shut down with the server
    on_review: Any = None  # told (match key, deal, review_json) when a deal's analysis is done: the profiles' costs
    _slots: FairSlots | None = None
    _tasks: set = field(default_factory=set)  # the jobs' tasks, held until they end
    closing: bool = False  # the server is stopping: a running analysis stops at its next decision

    def close(self) -> None:
        self.closing = True
        if self._dd_pool is not None:
            stop_pool(self._dd_pool)
            self._dd_pool = None

    def dd_pool(self) -> Executor | None:
        """The processes a table's cells are solved in on request (None: one core, solved in the job's thread).
        Started by a fork server, not forked from the server's threads."""
        workers = self.dd_workers or os.cpu_count() or 1
        if workers <= 1:
            return None
        if self._dd_pool is None:
            self._dd_pool = solving_pool(workers)
        return self._dd_pool

    def stored_dd(self, src: Source, deal: int) -> dict[str, Any] | None:
        """The deal's table when every cell of it was solved in the background (blocking: a database read), kept
        as if solved here; None otherwise (it is then asked for with `request_dd`)."""
        if self.store is None or (src.key, deal) in self.tables or src.key in self.dd_jobs:
            return None  # none kept, already kept, or being solved here (the page asks every second)
        if dd_refusal(src) is not None:
            return None
        done = solve_dd(src, deal, self.dd_seconds, store=self.store(), only_stored=True)
        if done is not None:
            _keep(self.tables, (src.key, deal), done, RESULTS_KEPT)
        return done

    def keep_upload(self, src: Source) -> None:
        _keep(self.uploads, src.key, src, UPLOADS_KEPT)

    def keep_table(self, src: Source) -> None:
        _keep(self.finished, src.key, src, UPLOADS_KEPT)

    def overview(self, src: Source) -> dict[str, Any]:
        """`overview`, kept: the page asks for the analysis every second while it runs."""
        known = self.overviews.get(src.key)
        if known is None:
            known = overview(src)
        _keep(self.overviews, src.key, known, UPLOADS_KEPT)
        return known

    def request(self, src: Source, deal: int, address: str = "") -> dict[str, Any]:
        """The deal's analysis if done, else its progress; starts it when nothing else of this match runs.

        ``address``: the client's, for its share of the queue."""
        if src.game != "barbu":
            raise WebError(no.ANALYSIS_NOT_FOR_BESIGUE)
        done = self.results.get((src.key, deal))
        if done is not None:
            self.results.move_to_end((src.key, deal))
            return done
        job = self.jobs.get(src.key)
        if job is not None:
            if job.deal != deal:
                raise WebError(no.ANALYSIS_BUSY, deal=job.deal)
            return {"state": "queued" if job.queued else "running", "deal": deal, "step": job.step, "steps": job.steps}
        self._start(self.jobs, self._run, src, deal, address)
        return {"state": "queued", "deal": deal, "step": 0, "steps": 0}

    def _start(self, jobs: dict[str, Job], run: Any, src: Source, deal: int, address: str) -> None:
        """Admit a job (an analysis or a double-dummy table), note it under its match and start ``run`` on it."""
        self._admit(address)
        job = Job(deal, address)
        jobs[src.key] = job
        task = asyncio.get_running_loop().create_task(run(src, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _admit(self, address: str) -> None:
        """Refuse a new job (an analysis or a double-dummy table) beyond the queue or the address's share."""
        every = [*self.jobs.values(), *self.dd_jobs.values()]
        own = sum(1 for j in every if j.address == address)
        if (own and len(every) >= self.queue) or len(every) >= self.queue * HARD_FACTOR:
            raise WebError(no.QUEUE_FULL)
        if own >= self.per_address:
            raise WebError(no.OWN_JOBS, n=own)

    def request_dd(self, src: Source, deal: int, address: str = "") -> dict[str, Any]:
        """The deal's double-dummy table if solved, else its progress; starts it when no other table of this
        match is being solved (the same queue and share per address as the analyses)."""
        refusal = dd_refusal(src)
        if refusal is not None:
            raise refusal
        done = self.tables.get((src.key, deal))
        if done is not None:
            self.tables.move_to_end((src.key, deal))
            return done
        job = self.dd_jobs.get(src.key)
        if job is not None:
            if job.deal != deal:
                raise WebError(no.DD_BUSY, deal=job.deal)
            return {"state": "queued" if job.queued else "running", "deal": deal, "done": job.step, "total": job.steps}
        self._start(self.dd_jobs, self._run_dd, src, deal, address)
        return {"state": "queued", "deal": deal, "done": 0, "total": 0}

    async def _run_dd(self, src: Source, job: Job) -> None:
        if self._slots is None:
            self._slots = FairSlots(self.workers)

        def progress(done: int, total: int) -> None:
            if self.closing:
                raise Stopped
            job.step, job.steps = done, total

        try:
            async with self._slots.slot(job.address, ("dd", src.key)):
                job.queued = False
                store = self.store() if self.store is not None else None
                done = await asyncio.to_thread(
                    solve_dd, src, job.deal, self.dd_seconds, progress, self.dd_pool(), store
                )
                assert done is not None  # solved here when not every cell was stored
            _keep(self.tables, (src.key, job.deal), done, RESULTS_KEPT)
        except Stopped:
            pass
        except Exception:  # a bug: the job ends, and the next request starts it again
            if not self.closing:  # (the server stopping ends the pool under it: no bug)
                log.exception("replay %s: the double-dummy table of deal %d failed", src.key, job.deal)
        finally:
            self.dd_jobs.pop(src.key, None)

    async def _run(self, src: Source, job: Job) -> None:
        if self._slots is None:
            self._slots = FairSlots(self.workers)
        try:
            async with self._slots.slot(job.address, src.key):
                job.queued = False
                job.steps = await asyncio.to_thread(count_choices, src, job.deal)
                review = await asyncio.to_thread(self._review, src, job)
            done = review_json(review, job.deal)
            _keep(self.results, (src.key, job.deal), done, RESULTS_KEPT)
            if self.on_review is not None and src.table is not None:  # a table's deal: the profiles' costs
                self.on_review(src.key, job.deal, done)
        except Stopped:
            pass
        except Exception:  # a bug: the job ends, and the next request starts it again
            log.exception("replay %s: the analysis of deal %d failed", src.key, job.deal)
        finally:
            self.jobs.pop(src.key, None)

    def _review(self, src: Source, job: Job) -> Review:
        def progress(deal: int, step: int) -> None:
            if self.closing:
                raise Stopped
            job.step = step

        return review_match(
            src.rules,
            src.seed,
            src.actions,
            deals={job.deal},
            samples=self.samples,
            seconds=self.seconds,
            progress=progress,
        )


def _besigue_ranges(src: Source) -> tuple[BesigueGame, list[tuple[int, int]]]:
    g = BesigueGame(src.rules, src.seed)
    g.keep_undo = False
    ranges: list[tuple[int, int]] = []
    start = 0
    for i, text in enumerate(src.actions):
        g.apply(text)
        if len(g.results) > len(ranges):
            ranges.append((start, i + 1))
            start = i + 1
    return g, ranges


def besigue_overview(src: Source) -> dict[str, Any]:
    """A Bésigue game at a glance: each finished deal's scores (combinations by kind) and running totals."""
    g, _ = _besigue_ranges(src)
    deals = [
        {
            "number": r["deal"],
            "dealer": r["dealer"],
            "scores": list(r["scores"]),
            "totals": list(r["totals"]),
            "brisques": list(r["brisques"]),
            "last_trick": r["last_trick"],
            "melds": [[[k, v] for k, v in side] for side in r["melds"]],
        }
        for r in g.results
    ]
    return {
        "id": src.key,
        "game": "besigue",
        "table": src.table,
        "rules": src.rules,
        "players": 2,
        "names": list(src.names),
        "computers": list(src.computers) or [None] * len(src.names),
        "me": src.me,
        "contracts": [],
        "highest_wins": True,
        "total_deals": None,
        "over": g.is_over,
        "deals": deals,
        "totals": list(g.totals),
        "target": g.rules.target,
        "dd": False,
    }


def besigue_frames(src: Source, deal: int) -> dict[str, Any]:
    """A Bésigue deal frame by frame, as `deal_frames`: both hands face up, the table, the trick, the stock."""
    g, ranges = _besigue_ranges(src)
    if not 1 <= deal <= len(ranges):
        raise WebError(no.NO_SUCH_DEAL, deal=deal)
    first, end = ranges[deal - 1]
    g = BesigueGame(src.rules, src.seed)
    g.keep_undo = False
    for text in src.actions[:first]:
        g.apply(text)
    frames: list[dict[str, Any]] = []
    step = 0
    for text in src.actions[first:end]:
        actor = g.to_act()
        g.apply(text)
        if actor == CHANCE or actor is None:
            frames.append(_besigue_frame(g, 0, None, None))
            continue
        step += 1
        frames.append(_besigue_frame(g, step, actor, text))
    dealt = [f for f in frames if not f["step"]][-1:]  # the dealer's draw and the shuffle: one frame, as dealt
    frames = dealt + [f for f in frames if f["step"]]
    return {"deal": deal, "deals": len(ranges), "frames": frames}


def _besigue_frame(g: BesigueGame, step: int, seat: int | None, action: str | None) -> dict[str, Any]:
    state = g.view(0).to_dict()
    for private in ("hand", "opponent_hand", "opponent_known", "legal", "seat"):
        state.pop(private, None)
    trick = {
        "leader": g.leader,
        "cards": [p["card"] for p in state["trick"]],
        "seats": [p["seat"] for p in state["trick"]],
        "complete": False,
    }
    if not g.trick and action and action.startswith("play") and len(g.played) >= 2:
        (s0, c0), (s1, c1) = g.played[-2:]
        trick = {
            "leader": s0,
            "cards": [besigue_card(c0), besigue_card(c1)],
            "seats": [s0, s1],
            "complete": True,
            "winner": g.last_winner,
        }
    hands = [[besigue_card(c) for c in sorted(g.hands[s])] for s in (0, 1)]
    return {"step": step, "seat": seat, "action": action, "state": state, "trick": trick, "hands": hands}


def _keep(kept: OrderedDict, key: Any, value: Any, most: int) -> None:
    """Remember ``value`` as the newest of ``kept``, forgetting the oldest beyond ``most``."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


def count_choices(src: Source, deal: int) -> int:
    """The last decision number of the deal at which a seat had a real choice (for the progress bar)."""
    m = Match(src.rules, src.seed)
    last, step = 0, 0
    for text in src.actions:
        actor = m.to_act()
        action = m.parse_action(text)
        number = len(m.results) + 1
        if number > deal:
            break
        if actor != CHANCE and actor is not None and number == deal:
            step += 1
            if len(m.legal_actions()) > 1:
                last = step
        m.apply(action)
    return last
