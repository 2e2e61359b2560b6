"""The puzzles on the server: which puzzle a solver is offered, his answer checked and rated, his rating and history.

The puzzles themselves are `barbu.puzzles` (the engine's slice): the library shipped with the package (or the
server's ``--puzzles`` file) is copied into the database on first use, each puzzle with a rating of its own, and
the puzzles found in an account's finished matches are added as his own (`Puzzles.mine_later`).  A solver is an
account (``u:<id>``) or a guest browser (``g:<…>``, the daily deals' signed cookie); all his state is in the
database, so any process may serve him.

What a solver is sent before he answers is the position as his seat sees it (`position`): the table's public
state, his own hand, every other hand only for an "open" puzzle, the cards he may play.  The solution, what each
other card costs, the theme, the share of sampled deals and the source's replay are sent only in the answer's
result (`result`), once his attempt is marked answered in the database.

Modes: ``rated`` (near his level, chosen by family, contract, theme and kind; or one puzzle by its id),
``daily`` (the day's, the same for everyone: `barbu.puzzles.library.daily`), both rated; ``streak`` (ever harder
until the first mistake, unrated, his best streak kept) and ``mine`` (his own puzzles, unrated).  Each solver
answers a puzzle once, whatever the mode.  Every method here blocks (the database, the engine): the routes run
them in threads.
"""

from __future__ import annotations

import functools
import json
import logging
import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime, timezone
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from ...classic.match import Match
from ...core.errors import BarbuError
from ...core.safejson import loads
from ...puzzles import library
from ...puzzles.model import OPEN, Puzzle, PuzzleError
from ...puzzles.rating import meet, near, shown
from ...ratings.shown import provisional
from ..accounts.service import open_store
from ..common.errors import WebError
from ..db.storage import Store
from ..tables.views import card_list, contract_info, public_state, view_json
from . import refusals as R
from . import store as S
from .mining import low_priority, own_puzzles

log = logging.getLogger("barbu.web")

RATED, DAILY, STREAK, MINE = "rated", "daily", "streak", "mine"
MODES = (RATED, DAILY, STREAK, MINE)
RATED_MODES = (RATED, DAILY)  # a streak and one's own puzzles are practice: no rating moves
FILTERS = ("family", "contract", "theme", "kind")
MAX_CARD = 8  # an answer is a card as the engine writes it ("QH", "10S")
HISTORY = 100  # answers shown on the profile's chart


def today() -> str:
    return datetime.now(timezone.utc).date().isoformat()


class Puzzles:
    """The puzzles' service (one a server process)."""

    def __init__(self, store: Callable[[], Store | None], source: str | None = None) -> None:
        self.store_of = store
        self.source = source  # a puzzle file served in place of the shipped library (``barbu serve --puzzles``)
        self._library: list[Puzzle] | None = None
        self._names: dict[str, str] | None = None
        self._loaded = False
        self._lock = threading.Lock()
        self._miner: ThreadPoolExecutor | None = None
        self._solver: ProcessPoolExecutor | None = None
        self.mining: set[Future[int]] = set()  # the finished matches being looked at now (a test waits on them)
        self.rng = random.Random()

    # -- the library, in memory (the day's puzzle) and in the database (ratings, choices)
    def library(self) -> list[Puzzle]:
        """The library's puzzles, read once a process."""
        with self._lock:
            if self._library is None:
                self._library = library.read(Path(self.source)) if self.source else library.load()
            return self._library

    def engine(self) -> Any:
        """The database's engine, the library copied into it first (once a process; idempotent across them: a
        new library adds its new puzzles, those stored keep their ratings)."""
        engine = open_store(self.store_of).engine
        if not self._loaded:
            puzzles = self.library()
            with self._lock:
                if not self._loaded:
                    added = S.add_puzzles(engine, [row_of(p) for p in puzzles])
                    if added:
                        log.info("puzzles: %d added to the database (%d in the library)", added, len(puzzles))
                    self._loaded = True
        return engine

    def choices(self) -> dict[str, Any]:
        """What the library's puzzles may be chosen by, with how many each has."""
        with self.engine().connect() as conn:
            rows = S.choices(conn)
        out: dict[str, dict[str, int]] = {k: {} for k in FILTERS}
        contracts: dict[str, dict[str, int]] = {}
        for family, contract, theme, kind, n in rows:
            for key, value in zip(FILTERS, (family, contract, theme, kind)):
                out[key][value] = out[key].get(value, 0) + n
            contracts.setdefault(family, {})
            contracts[family][contract] = contracts[family].get(contract, 0) + n
        return {**{k: sorted(v.items()) for k, v in out.items()}, "by_family": contracts, "names": self.names()}

    def names(self) -> dict[str, str]:
        """The library's contracts' names (in English, as the engine words them), by their keys."""
        with self._lock:
            if self._names is None:
                found: dict[str, str] = {}
                for p in self._library or []:
                    if p.contract not in found:
                        found[p.contract] = contract_name(p.rules, p.contract)
                self._names = found
            return self._names

    # -- offering
    def offer(
        self,
        who: str,
        user_id: int | None,
        mode: str,
        pid: str | None = None,
        filters: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The puzzle offered to ``who`` in ``mode`` (its position, or its result if he answered it already)."""
        if mode not in MODES:
            raise WebError(R.BAD_MODE, modes=", ".join(MODES))
        engine = self.engine()
        filters = {k: v for k, v in (filters or {}).items() if v}
        if any(k not in FILTERS for k in filters):
            raise WebError(R.BAD_CHOICE, field=", ".join(sorted(set(filters) - set(FILTERS))))
        with engine.connect() as conn:
            solver = S.solver(conn, who)
            if pid is not None:
                found = S.puzzle(conn, pid)
                if found is None or (found.owner_id is not None and found.owner_id != user_id):
                    raise WebError(R.NO_PUZZLE, id=pid[:12])  # another's own puzzle is not there for you
                mode = MINE if found.owner_id is not None else (mode if mode in RATED_MODES else RATED)
            elif mode == DAILY:
                try:
                    day_id = library.daily(today(), self.library()).id
                except PuzzleError:  # no library at all in this install: said as "none left", never a traceback
                    raise WebError(R.NONE_LEFT) from None
                found = S.puzzle(conn, day_id)
            else:
                found = self._next(conn, who, user_id, mode, solver, filters)
        if found is None:
            raise WebError(R.NONE_LEFT)
        attempt = S.offer(engine, who, found.id, mode)
        return self.sent(found, attempt, solver, mode)

    def _next(
        self, conn: Any, who: str, user_id: int | None, mode: str, solver: S.Solver, filters: dict[str, str]
    ) -> S.Stored | None:
        """The next puzzle of a mode that chooses: the one offered and not answered yet (a reload), else a new one."""
        if mode == MINE and user_id is None:
            raise WebError(R.NOT_YOURS)
        waiting = S.open_attempt(conn, who, mode)
        if waiting is not None:
            found = S.puzzle(conn, waiting.puzzle_id)
            if found is not None and all(getattr(found, k) == v for k, v in filters.items()):
                return found
        if mode == STREAK:
            harder = S.harder(conn, who, solver.streak_level)
            return harder[0] if harder else None
        owner = user_id if mode == MINE else None
        near_him = S.candidates(conn, who, filters, solver.rating.mu, owner_id=owner)
        if not near_him:
            return None
        return near([(c, c.rating) for c in near_him], solver.rating, self.rng)

    def sent(self, found: S.Stored, attempt: S.Attempt, solver: S.Solver, mode: str) -> dict[str, Any]:
        """What the solver is sent: the position, and the result only once he has answered."""
        p = Puzzle.from_dict(loads(found.body))
        out = {
            "mode": mode,
            "rated": attempt.mode in RATED_MODES,
            "day": today() if mode == DAILY else None,
            "puzzle": position(p),
            "difficulty": shown(found.rating),
            "plays": found.plays,
            "player": solver_json(solver),
            "result": None,
        }
        if attempt.answered_at is not None:
            out["result"] = result(p, found, attempt, solver)
        return out

    # -- answering
    def answer(self, who: str, user_id: int | None, pid: str, card: str) -> dict[str, Any]:
        """Check and rate the solver's answer; then, and only then, the solution and the rest."""
        engine = self.engine()
        with engine.connect() as conn:
            found = S.puzzle(conn, pid)
        if found is None or (found.owner_id is not None and found.owner_id != user_id):
            raise WebError(R.NO_PUZZLE, id=pid[:12])
        p = Puzzle.from_dict(loads(found.body))
        legal = position(p)["state"]["legal"] or []
        if card not in legal:
            raise WebError(R.NOT_A_CARD, example=legal[0] if legal else "QH")
        solved = card in p.solution
        with engine.begin() as conn:
            # the write first: it takes the database's write lock (SQLite) before anything is read
            if not S.answer(conn, who, pid, card, solved):
                raise WebError(R.NOT_OFFERED if S.attempt(conn, who, pid) is None else R.ANSWERED)
            attempt = S.attempt(conn, who, pid)
            assert attempt is not None
            solver = S.solver(conn, who, lock=True)
            before = shown(solver.rating)
            if attempt.mode in RATED_MODES:
                puzzle_now = S.puzzle_for_update(conn, pid)
                assert puzzle_now is not None
                mine, theirs = meet(solver.rating, puzzle_now.rating, solved)
                S.rate_puzzle(conn, pid, theirs, solved)
                solver = replace(solver, rating=mine, solved=solver.solved + int(solved))
            else:
                S.count_play(conn, pid, solved)
            if attempt.mode == STREAK:
                solver = streak_after(solver, found, solved)
            S.save_solver(conn, solver, user_id)
            after = shown(solver.rating)
            rated = attempt.mode in RATED_MODES
            S.set_ratings_shown(conn, who, pid, before if rated else None, after if rated else None)
            attempt = replace(attempt, before=before if rated else None, after=after if rated else None)
            found = S.puzzle(conn, pid) or found
        return {"result": result(p, found, attempt, solver), "player": solver_json(solver)}

    def start_streak(self, who: str, user_id: int | None) -> dict[str, Any]:
        """A new streak from the easiest puzzles; the best one is kept."""
        with self.engine().begin() as conn:
            solver = S.solver(conn, who, lock=True)
            solver = replace(solver, streak=0, streak_level=0.0)
            S.save_solver(conn, solver, user_id)
        return {"player": solver_json(solver)}

    # -- the solver and the profile
    def me(self, who: str) -> dict[str, Any]:
        with self.engine().connect() as conn:
            solver = S.solver(conn, who)
            done = S.history(conn, who, HISTORY)
        return {"player": solver_json(solver), "history": [attempt_json(a) for a in done]}

    def profile(self, user_id: int, own: bool) -> dict[str, Any] | None:
        """An account's puzzle rating with its history (None: he has answered none), and his own puzzles when it
        is his own page."""
        with self.engine().connect() as conn:
            solver = S.solver_of_user(conn, user_id)
            done = S.history(conn, solver.who, HISTORY) if solver is not None else []
            owned = S.owned(conn, user_id) if own else []
            tried = {a.puzzle_id: a for a in S.history(conn, f"u:{user_id}", 1000)} if owned else {}
        return {
            "player": solver_json(solver) if solver is not None else None,
            "history": [attempt_json(a) for a in done if a.after is not None],
            "own": [own_json(s, tried.get(s.id)) for s in owned] if own else None,
        }

    # -- an account's own puzzles, found after his matches
    def mine_later(self, table_id: str, match: Any, seats: Sequence[tuple[int, int]]) -> Future[int] | None:
        """Find, in the background, the puzzles of each account's seat in a finished match (`barbu.puzzles.mine`)
        and keep them as his own.  Never blocks the caller; a failure is one line in the log."""
        if not seats or not isinstance(match, Match):  # Bésigue's and other games' matches have no such puzzles
            return None
        from ...records.barbu import record_lines

        lines = [json.dumps(obj) for obj in record_lines(match, {"table": table_id})]
        if self._miner is None:
            self._miner = ThreadPoolExecutor(1, thread_name_prefix="barbu-puzzles-mine")
        future = self._miner.submit(self._mine, table_id, lines, list(seats))
        self.mining.add(future)
        future.add_done_callback(_mined)
        future.add_done_callback(self.mining.discard)
        return future

    def _mine(self, table_id: str, lines: list[str], seats: list[tuple[int, int]]) -> int:
        """In the miner's thread: the solver's work in a process of its own (it holds the interpreter while it
        searches), then each account's puzzles stored."""
        if self._solver is None:
            self._solver = ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=low_priority)
        found = self._solver.submit(own_puzzles, table_id, lines, [seat for seat, _ in seats]).result()
        engine = self.engine()
        added = 0
        for (_, user_id), puzzles in zip(seats, found):
            added += S.add_puzzles(engine, [row_of(Puzzle.from_dict(d)) for d in puzzles], owner_id=user_id)
        return added

    def close(self) -> None:
        if self._miner is not None:
            self._miner.shutdown(wait=False, cancel_futures=True)
        if self._solver is not None:
            self._solver.shutdown(wait=False, cancel_futures=True)


def _mined(future: Future[int]) -> None:
    if future.cancelled():
        return
    e = future.exception()
    if e is not None:  # one line, never a traceback: the match is stored and rated whatever happens here
        log.error("puzzles: finding a finished match's puzzles failed: %s: %s", type(e).__name__, str(e)[:200])
    elif future.result():
        log.info("puzzles: %d found in a finished match", future.result())


def row_of(p: Puzzle) -> dict[str, Any]:
    """A puzzle as `store.add_puzzles` stores it."""
    return {
        "id": p.id,
        "kind": p.kind,
        "family": p.family,
        "contract": p.contract,
        "theme": p.theme,
        "body": library.dumps(p),
    }


def position(p: Puzzle) -> dict[str, Any]:
    """The puzzle's position as its seat sees it: never the solution, the costs, the theme or the source; the
    other hands only for an "open" puzzle."""
    try:
        m = p.match()
    except BarbuError as e:
        log.error("puzzles: puzzle %s no longer sets up its position: %s", p.id, str(e)[:200])
        raise WebError(R.BROKEN) from None
    views = [m.view(s) for s in range(m.n)]
    public = public_state(m, views[p.seat], full=True)
    state = view_json(m, views, p.seat, public=public)
    return {
        "id": p.id,
        "kind": p.kind,
        "family": p.family,
        "contract": p.contract,
        "seat": p.seat,
        "players": m.n,
        "rules": str(m.rules),
        "contracts": contract_info(m),
        "state": state,
        "hands": [card_list(v.hand) for v in views] if p.kind == OPEN else None,
    }


def result(p: Puzzle, found: S.Stored, attempt: S.Attempt, solver: S.Solver) -> dict[str, Any]:
    """Everything about an answered puzzle: the answer, the solution, what each card costs, the theme, the share
    of sampled deals (single), the rating's change and the source deal's replay."""
    return {
        "answer": attempt.answer,
        "solved": bool(attempt.solved),
        "solution": list(p.solution),
        "costs": [[a, c] for a, c in p.costs],
        "value": p.value,
        "theme": p.theme,
        "share": p.share,
        "samples": p.samples,
        "replay": p.replay,
        "source_deal": p.source_deal,
        "before": attempt.before,
        "after": attempt.after,
        "puzzle_rating": shown(found.rating),
        "plays": found.plays,
        "solved_by": found.solved,
        "line": [step.to_dict() for step in p.line],  # the rest of a line: the others' best replies, the card again
    }


def streak_after(s: S.Solver, found: S.Stored, solved: bool) -> S.Solver:
    """A streak goes on, harder, after a solved puzzle; the first mistake ends it (the best one kept)."""
    if not solved:
        return replace(s, streak=0, streak_level=0.0)
    n = s.streak + 1
    return replace(s, streak=n, streak_level=max(s.streak_level, found.rating.mu), best_streak=max(s.best_streak, n))


def solver_json(s: S.Solver) -> dict[str, Any]:
    return {
        "rating": shown(s.rating),
        "provisional": provisional(s.rating),
        "answers": s.rating.matches,
        "solved": s.solved,
        "streak": s.streak,
        "best_streak": s.best_streak,
    }


def attempt_json(a: S.Attempt) -> dict[str, Any]:
    return {
        "puzzle": a.puzzle_id,
        "mode": a.mode,
        "at": None if a.answered_at is None else a.answered_at.isoformat(),
        "solved": bool(a.solved),
        "before": a.before,
        "after": a.after,
        "rating": a.after,
    }


@functools.lru_cache(maxsize=256)
def contract_name(rules: str, key: str) -> str:
    """A contract's name (in English, as the engine words it; the page translates it) from its key."""
    try:
        c = Match(rules, None).contract_by_key.get(key)
    except (BarbuError, ValueError):
        return key
    return c.name if c is not None else key


def own_json(s: S.Stored, tried: S.Attempt | None) -> dict[str, Any]:
    rules = str(loads(s.body).get("rules", ""))
    return {
        "id": s.id,
        "family": s.family,
        "contract": s.contract,
        "contract_name": contract_name(rules, s.contract),
        "kind": s.kind,
        "added": s.added_at.isoformat(),
        "solved": None if tried is None else bool(tried.solved),
    }
