"""The daily deals on the server: who is playing, his boards as he may see them, and the results once he is done.

Rules of the game live in `barbu.duplicate.daily`; the rows in `barbu.web.daily.store`.  Here: a person is an
account (``u:<id>``) or a guest browser (``g:<SHA-256 of its daily cookie's random part>``); the cookie is
signed with a key drawn from the server's daily secret, so a cookie the server did not make is no guest at all.
Established accounts, new accounts and guests are ranked in three lists (`Daily.pool_of`).  He plays each game's
set once a day (UTC), board after board at his own pace, and everything he is sent is what his seat may see
(`barbu.web.tables.views.view_json`).  Before he has finished, nothing else of the day's boards leaves the
server: no other seat's cards, no other player's result, no record, replay or analysis (`Daily.replay_record`),
no key; once he has, the replays are his alone until the day is over.  The day's key is published once the day
is over.  Several finishers from one address (its HMAC) are marked to the operator (`Daily.address_marks`).
Every method here blocks (the database): the routes run them in threads.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import re
import secrets
import threading
import time
from bisect import bisect_left, bisect_right
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from io import StringIO
from typing import Any, Callable, Iterator, cast

from itsdangerous import BadSignature, Signer

from ...core.daily_keys import day_key
from ...core.errors import BarbuError
from ...duplicate.daily import BESIGUE, GAMES, BoardPlay, DailyError, DailySet, daily_set, share_line
from ...duplicate.daily_besigue import BesigueBoard
from ...duplicate.matchpoints import Entry, score_all
from ...play.labels import computer_name, table_place
from ...records.barbu import write_record
from ..common.errors import WebError
from ..common.refusals import SERVER_STARTING
from ..db.storage import Store
from ..tables.views import contract_info, scoresheet, view_json
from . import refusals as no
from . import store as db

EPS = 1e-9
REFRESH = 30.0  # seconds: a large pool is scored again at most this often (a small one at every finish)
LARGE = 5000  # finished attempts from which a pool counts as large (scoring it takes a good part of a second)
SHOWN = 100  # rows of a ranking or a traveller sent besides the reader's own
COOKIE = "barbu_daily"  # a guest browser's daily identity (random, signed by the server; only its SHA-256 is stored)
ACCOUNT, NEW, GUEST = "account", "new", "guest"  # the ranking's lists: established accounts, new accounts, guests
ESTABLISHED_AGE = timedelta(days=7)  # an account this old on the day ...
ESTABLISHED_DAYS = 3  # ... that finished a set on so many earlier days is established; any other is new
REPLAY_PREFIX = "daily."  # a daily board's replay id: "daily.<attempt>.<board>.<signature>" (no table id has a dot)
REPLAY_ID = re.compile(r"daily\.([0-9]{1,12})\.([0-9]{1,4})\.([0-9a-f]{24})")


_paused = 0  # how many large scorings run now with the cyclic collector paused
_paused_lock = threading.Lock()


@contextmanager
def collector_paused(pause: bool = True) -> Iterator[None]:
    """Python's cyclic collector off while a large pool is read and scored: the million small objects made then
    all live until the scoring ends, and the collector would walk them again and again for no garbage (it
    doubles the time: 8.5 s against 4.4 s for 100,000 players on a loaded 2-core machine).  Threads scoring at
    once count in; the last one out turns it back on, if it was on."""
    global _paused
    if not pause:
        yield
        return
    with _paused_lock:
        if _paused == 0 and not gc.isenabled():
            pause = False  # someone else turned it off: leave it as it is
        else:
            _paused += 1
            gc.disable()
    try:
        yield
    finally:
        if pause:
            with _paused_lock:
                _paused -= 1
                if _paused == 0:
                    gc.enable()


@dataclass(frozen=True)
class Scored:
    """One pool's finished attempts at a set, scored: the ranking and each board's results (best first)."""

    count: int
    names: dict[str, str]
    doubles: dict[tuple[str, int], str]
    ranking: list[Any]
    boards: list[Any]
    at: float = 0.0  # when it was scored (time.monotonic)

    @classmethod
    def of(cls, rows: list[tuple[int, str, int, int, str]], count: int, highest_wins: bool) -> "Scored":
        names = {str(aid): name for aid, name, *_ in rows}
        doubles = {(str(aid), board): d for aid, _, board, _, d in rows}
        entries = [Entry(board, 0, str(aid), float(score)) for aid, _, board, score, _ in rows]
        boards, ranking = score_all(entries, highest_wins)
        boards.sort(key=lambda b: cast(int, b.board))  # the boards of a daily set are numbered
        return cls(count, names, doubles, ranking, boards, time.monotonic())

    def against(self, scores: dict[int, int], highest_wins: bool) -> tuple[float | None, str, list[float | None]]:
        """A result not in this scoring yet (one who finished since), compared with it: his percentage and each
        board's share of the matchpoints exactly as a new scoring would give them, and his rank among the others'
        percentages as last scored (at most `REFRESH` seconds old)."""
        sign = 1 if highest_wins else -1
        by_board = {b.board: sorted(sign * e.score for e, _ in b.rows) for b in self.boards}
        mps = top = 0.0
        fractions: list[float | None] = []
        for board in sorted(scores):
            others = by_board.get(board, [])
            mine = sign * scores[board]
            below, upto = bisect_left(others, mine - EPS), bisect_right(others, mine + EPS)
            mp = below + 0.5 * (upto - below)
            mps += mp
            top += len(others)
            fractions.append(mp / len(others) if others else None)
        percent = None if top == 0 else 100.0 * mps / top
        value = -1.0 if percent is None else percent
        better = sum(1 for st in self.ranking if (st.percent if st.percent is not None else -1.0) > value + EPS)
        tied = any(abs((st.percent if st.percent is not None else -1.0) - value) <= EPS for st in self.ranking)
        return percent, f"{better + 1}=" if tied else str(better + 1), fractions


def utc_today() -> str:
    return datetime.now(timezone.utc).date().isoformat()


@dataclass(frozen=True)
class Person:
    """Who is asking: an account (``since``: when it was made) or a guest browser, and the HMAC of the address
    he asks from (``address``: never the address itself)."""

    who: str
    pool: str
    name: str
    user_id: int | None = None
    since: datetime | None = None
    address: str | None = None


def guest(token: str, address: str | None = None) -> Person:
    """The guest whose signed cookie carries ``token`` (its random part)."""
    who = "g:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
    return Person(who, GUEST, "guest", address=address)


def account(user_id: int, name: str, since: datetime | None = None, address: str | None = None) -> Person:
    return Person(f"u:{user_id}", ACCOUNT, name, user_id, since, address)


class Daily:
    """The daily deals of one server."""

    def __init__(
        self,
        store: Callable[[], Store | None],
        strength: str = "rule",
        boards: int = 0,
        today: Callable[[], str] = utc_today,
    ) -> None:
        self._store = store
        self.strength = strength
        self.boards = boards  # > 0: sets cut to so many boards (a short set for tests)
        self.today = today  # injectable: the tests move the day
        self._secret: bytes | None = None
        self._locks: dict[int, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._scores: dict[tuple[str, str, str], Scored] = {}

    # -- the sets
    @property
    def store(self) -> Store:
        s = self._store()
        if s is None:
            raise WebError(SERVER_STARTING)
        return s

    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = db.daily_secret(self.store.engine)
        return self._secret

    def _key(self, purpose: bytes) -> bytes:
        """A key of its own for one use, drawn from the daily secret (the same in every process of the server)."""
        return hmac.new(self.secret(), b"barbu-daily:" + purpose, hashlib.sha256).digest()

    # -- guests
    def _signer(self) -> Signer:
        return Signer(self._key(b"guest-cookie"), salt="barbu-daily-guest", digest_method=hashlib.sha256)

    def new_guest_cookie(self) -> tuple[str, str]:
        """A new guest's cookie, signed by the server: (cookie, its random part)."""
        token = secrets.token_urlsafe(24)
        return self._signer().sign(token).decode("ascii"), token

    def guest_token(self, cookie: Any) -> str | None:
        """The random part of a guest cookie this server signed; None for any other (made up, tampered, old)."""
        if not isinstance(cookie, str) or not 16 <= len(cookie) <= 200:
            return None
        try:
            return self._signer().unsign(cookie.encode("utf-8", "surrogatepass")).decode("utf-8")
        except (BadSignature, UnicodeError):
            return None

    # -- who is ranked where
    def pool_of(self, person: Person, day: str) -> str:
        """The list a person is ranked in on ``day``: guests apart; an account is established when it is at least
        `ESTABLISHED_AGE` old on the day and finished a set on `ESTABLISHED_DAYS` earlier days, else new (a
        puppet made for the day, or a newcomer, is never compared with the established players)."""
        if person.pool != ACCOUNT:
            return person.pool
        start = datetime.combine(datetime.strptime(day, "%Y-%m-%d").date(), datetime.min.time(), timezone.utc)
        if person.since is None or person.since > start - ESTABLISHED_AGE:
            return NEW
        with self.store.engine.connect() as conn:
            days = db.finished_days(conn, person.who, day)
        return ACCOUNT if days >= ESTABLISHED_DAYS else NEW

    def set_of(self, day: str, game: str) -> DailySet:
        if game not in GAMES:
            raise WebError(no.NO_DAILY_GAME)
        return daily_set(self.secret(), day, game, self.strength, self.boards)

    def over(self, day: str) -> bool:
        return day < self.today()

    def published_key(self, day: str) -> str | None:
        """The day's key once the day is over, else None (it is never sent before)."""
        return day_key(self.secret(), day).hex() if self.over(day) else None

    def check_day(self, day: Any) -> str:
        """A day asked for: today or a past day, written YYYY-MM-DD."""
        if day is None:
            return self.today()
        try:
            parsed = datetime.strptime(str(day), "%Y-%m-%d").date().isoformat()
        except ValueError:
            raise WebError(no.DAY_FORMAT) from None
        if parsed > self.today():
            raise WebError(no.DAY_TO_COME)
        return parsed

    # -- the overview
    def overview(self, person: Person, day: str | None = None) -> dict[str, Any]:
        day = day or self.today()
        with self.store.engine.connect() as conn:
            mine = db.attempts_of(conn, day, person.who)
            past = db.played_days(conn, self.today())
        games = []
        for game in GAMES:
            dset = self.set_of(day, game)
            a = mine.get(game)
            entry: dict[str, Any] = {
                "game": game,
                "boards": dset.size,
                "status": "none" if a is None else "finished" if a.finished else "playing",
            }
            if a is not None and a.finished:
                entry["percent"] = self._result(dset, a)["percent"]
            games.append(entry)
        now = datetime.now(timezone.utc)
        midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), timezone.utc)
        return {
            "day": day,
            "today": self.today(),
            "over": self.over(day),
            "key": self.published_key(day),
            "games": games,
            "next_in": int((midnight - now).total_seconds()),
            "signed_in": person.user_id is not None,
            "past": [{"day": d, "key": self.published_key(d)} for d in past],
        }

    # -- playing
    def start(self, person: Person, game: str, also: Person | None = None) -> dict[str, Any]:
        """Begin today's set (or carry on with it); a finished set is not played twice.  ``also``: the guest this
        browser was before logging in: one who played the set as a guest (and saw every hand in its replays) may
        not play it again under his account."""
        day = self.today()
        dset = self.set_of(day, game)
        if also is not None and also.who != person.who:
            with self.store.engine.connect() as conn:
                mine, before = db.attempt_of(conn, day, game, person.who), db.attempt_of(conn, day, game, also.who)
            if mine is None and before is not None:
                raise WebError(no.PLAYED_AS_GUEST)
        with self.store.engine.connect() as conn:
            a = db.attempt_of(conn, day, game, person.who)
        if a is None:
            pool = self.pool_of(person, day)
            a, _made = db.start_attempt(
                self.store.engine, day, game, person.who, pool, person.user_id, person.name, person.address
            )
        if a.finished:
            raise WebError(no.PLAYED_ALREADY)
        return self._state(dset, a)

    def _attempt(self, person: Person, game: str, day: str | None = None) -> tuple[DailySet, db.Attempt]:
        day = day or self.today()
        dset = self.set_of(day, game)
        with self.store.engine.connect() as conn:
            a = db.attempt_of(conn, day, game, person.who)
        if a is None:
            raise WebError(no.START_FIRST)
        return dset, a

    def state(self, person: Person, game: str) -> dict[str, Any]:
        dset, a = self._attempt(person, game)
        if a.finished:
            return {"finished": True, "game": game, "day": a.day}
        return self._state(dset, a)

    def _current(self, dset: DailySet, a: db.Attempt) -> tuple[int, BoardPlay, dict[int, db.BoardRow]]:
        with self.store.engine.connect() as conn:
            rows = db.boards_of(conn, a.id)
        board = next((k for k in range(dset.size) if k not in rows or rows[k].score is None), dset.size)
        if board >= dset.size:
            return board, None, rows  # type: ignore[return-value]
        moves = rows[board].moves if board in rows else []
        try:
            return board, BoardPlay(dset, board, moves), rows
        except (BarbuError, DailyError):
            raise WebError(no.MOVES_BROKEN) from None

    def _state(self, dset: DailySet, a: db.Attempt) -> dict[str, Any]:
        board, play, rows = self._current(dset, a)
        if play is None:
            return {"finished": True, "game": dset.game, "day": a.day}
        out = {
            "finished": False,
            "game": dset.game,
            "family": dset.family,
            "day": a.day,
            "board": board,
            "boards": dset.size,
            "seat": play.seat,
            "players": play.n,
            "contract": play.contract,
            "name": a.name,
            "strength": dset.strength,
            "rules": str(dset.rules),  # the table's header names the game from it, as at any table
            "highest_wins": dset.highest_wins,
            "done": [{"board": k, "score": rows[k].score} for k in sorted(rows) if rows[k].score is not None],
        }
        out.update(board_state(play))
        return out

    def _lock(self, attempt_id: int) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(attempt_id, threading.Lock())

    def act(self, person: Person, game: str, board: Any, move: Any) -> dict[str, Any]:
        """The person's move on his current board; refused in plain words and nothing changed if wrong."""
        if not isinstance(move, str) or not 0 < len(move) <= 200:
            raise WebError(no.MOVE_AS_TEXT, example='{"move": "QH"}')
        dset, a = self._attempt(person, game)
        if a.finished:
            raise WebError(no.PLAYED_ALREADY)
        with self._lock(a.id):
            current, play, _rows = self._current(dset, a)
            if play is None:
                raise WebError(no.PLAYED_ALREADY)
            if board != current:
                raise WebError(no.NOT_THIS_BOARD)
            if not play.to_move():
                raise WebError(no.NOT_YOUR_TURN)
            try:
                play.play(move)
            except BarbuError as e:  # the rules' own refusal, worded in the reader's language
                raise WebError.wrap(e) from None
            with self.store.engine.begin() as conn:
                db.save_board(conn, a.id, current, play.moves, play.score, play.note() if play.done else None)
                if play.done and current + 1 >= dset.size:
                    db.finish(conn, a.id, person.address)
        out = self.state(person, game)
        if play.done:
            out["last_board"] = {
                "board": current,
                "score": play.score,
                "contract": play.contract,
                "scores": play.scores,
                "seat": play.seat,
            }
            # the deal's summary as the game's table shows it, and its last position
            out["last_board"].update(besigue_end(play) if dset.game == BESIGUE else barbu_end(play))
        return out

    # -- results
    def results(self, person: Person, game: str, day: str | None = None) -> dict[str, Any]:
        """The ranking and travellers: for one who finished the set, or for anyone once the day is over."""
        day = day or self.today()
        dset = self.set_of(day, game)
        with self.store.engine.connect() as conn:
            mine = db.attempt_of(conn, day, game, person.who)
        if not (mine is not None and mine.finished) and not self.over(day):
            raise WebError(no.RESULTS_HIDDEN)
        pool = mine.pool if mine is not None else person.pool
        out = self._result(dset, mine if mine is not None and mine.finished else None, pool)
        out.update({"day": day, "game": game, "key": self.published_key(day), "boards": dset.size})
        return out

    def _scored(self, dset: DailySet, pool: str) -> Scored:
        """One pool scored.  A small pool is scored again whenever another attempt finishes; a large one (100,000
        players take seconds) at most every `REFRESH` seconds, those who finished since being compared with it
        (`Scored.against`)."""
        key = (dset.day, dset.game, pool)
        with self.store.engine.connect() as conn:
            count = db.finished_count(conn, dset.day, dset.game, pool)
            cached = self._scores.get(key)
            if cached is not None and (
                cached.count == count or (count >= LARGE and time.monotonic() - cached.at < REFRESH)
            ):
                return cached
            with collector_paused(count >= LARGE):
                rows = db.finished_results(conn, dset.day, dset.game, pool)
        with collector_paused(count >= LARGE):
            scored = Scored.of(rows, count, dset.highest_wins)
        with self._locks_guard:
            if len(self._scores) > 64:
                self._scores.clear()
            self._scores[key] = scored
        return scored

    def _result(self, dset: DailySet, mine: db.Attempt | None, pool: str | None = None) -> dict[str, Any]:
        pool = pool or (mine.pool if mine is not None else ACCOUNT)
        sc = self._scored(dset, pool)
        me = str(mine.id) if mine is not None else None
        late = me is not None and me not in sc.names  # finished since the pool was last scored
        own_scores: dict[int, int] = {}
        if late:
            assert mine is not None
            with self.store.engine.connect() as conn:
                own_scores = {k: b.score for k, b in db.boards_of(conn, mine.id).items() if b.score is not None}

        def shown(rows: list[Any], is_me: Callable[[Any], bool]) -> list[Any]:
            """The first rows, and the reader's own wherever it falls."""
            out = rows[:SHOWN]
            out.extend(r for r in rows[SHOWN:] if is_me(r))
            return out

        travellers = []
        fractions: list[float | None] = []
        for br in sc.boards:
            top = len(br.rows) - 1
            rows = [
                {
                    "name": sc.names[e.player],
                    "you": e.player == me,
                    "score": int(e.score),
                    "doubles": sc.doubles.get((e.player, br.board), ""),
                    "matchpoints": mp,
                }
                for e, mp in shown(br.rows, lambda r: r[0].player == me)
            ]
            if late and br.board in own_scores:
                rows.append(
                    {
                        "name": mine.name,  # type: ignore[union-attr]
                        "you": True,
                        "score": own_scores[br.board],
                        "doubles": "",
                        "matchpoints": None,
                    }
                )
            travellers.append({"board": br.board, "results": len(br.rows) + late, "rows": rows})
            if me is not None and not late:
                mp = next((mp for e, mp in br.rows if e.player == me), 0.0)
                fractions.append(None if top == 0 else mp / top)
        ranking = shown(sc.ranking, lambda st: st.player == me)
        out: dict[str, Any] = {
            "players": len(sc.ranking) + late,
            "pool": pool,
            "travellers": travellers,
            "highest_wins": dset.highest_wins,
            "ranking": [
                {
                    "name": sc.names[st.player],
                    "you": st.player == me,
                    "rank": st.rank,
                    "percent": st.percent,
                    "points": st.points,
                }
                for st in ranking
            ],
        }
        own = next((st for st in sc.ranking if st.player == me), None)
        if own is not None:
            out.update(
                {
                    "percent": own.percent,
                    "rank": own.rank,
                    "points": own.points,
                    "share": share_line(dset.day, dset.game, own.percent, fractions),
                }
            )
        elif late:
            percent, rank, fractions = sc.against(own_scores, dset.highest_wins)
            out.update(
                {
                    "percent": percent,
                    "rank": rank,
                    "points": float(sum(own_scores.values())),
                    "share": share_line(dset.day, dset.game, percent, fractions),
                }
            )
            out["ranking"].append(
                {
                    "name": mine.name,  # type: ignore[union-attr]
                    "you": True,
                    "rank": rank,
                    "percent": percent,
                    "points": out["points"],
                }
            )
        else:
            out["percent"] = None
        return out

    def record(self, person: Person, game: str, board: Any, day: str | None = None) -> str:
        """The record of one of the person's own finished boards (for the replay and its analysis); the key
        rides in its header once the day is over."""
        day = day or self.today()
        dset, a = self._attempt(person, game, day)
        if not a.finished:
            raise WebError(no.RESULTS_HIDDEN)
        return self._record(dset, a, board)

    # -- replays
    def _replay_signature(self, attempt_id: int, board: int) -> str:
        msg = f"{attempt_id}.{board}".encode()
        return hmac.new(self._key(b"replay"), msg, hashlib.sha256).hexdigest()[:24]

    def replay_id(self, person: Person, game: str, board: Any, day: str | None = None) -> str:
        """The replay id of one of the person's own finished boards: a link he may keep, which opens to him alone
        until the day is over, and to anyone who has it after (`replay_record`)."""
        day = day or self.today()
        dset, a = self._attempt(person, game, day)
        if not a.finished:
            raise WebError(no.RESULTS_HIDDEN)
        if not isinstance(board, int) or not 0 <= board < dset.size:
            raise WebError(no.NO_BOARD)
        return f"{REPLAY_PREFIX}{a.id}.{board}.{self._replay_signature(a.id, board)}"

    def replay_record(self, person: Person, rid: str) -> str:
        """The record behind a daily replay id, for the replay, its analysis and its double-dummy tables: to the
        one who finished that set (the same account or guest browser) while the day lasts, to anyone after."""
        found = REPLAY_ID.fullmatch(rid)
        if found is None:
            raise WebError(no.NO_REPLAY)
        attempt_id, board = int(found[1]), int(found[2])
        if not hmac.compare_digest(found[3], self._replay_signature(attempt_id, board)):
            raise WebError(no.NO_REPLAY)
        with self.store.engine.connect() as conn:
            a = db.attempt_by_id(conn, attempt_id)
        if a is None or not a.finished:
            raise WebError(no.NO_REPLAY)
        if not self.over(a.day) and a.who != person.who:
            raise WebError(no.REPLAY_HIDDEN, day=a.day)
        return self._record(self.set_of(a.day, a.game), a, board)

    def public_plays(self, day: str, game: str, board: int, limit: int) -> list[tuple[str, str]]:
        """Once the day is over, the first ``limit`` finished plays of one board, each as (replay id, record): the
        replays anyone with their link may open then (`replay_record`), for the server's own puzzles
        (`barbu.web.puzzles.harvest`).  Nothing while the day lasts."""
        if not self.over(day):
            return []
        dset = self.set_of(day, game)
        with self.store.engine.connect() as conn:
            q = (
                db.ATTEMPTS.select()
                .where(db.ATTEMPTS.c.day == day, db.ATTEMPTS.c.game == game, db.ATTEMPTS.c.finished_at.is_not(None))
                .order_by(db.ATTEMPTS.c.finished_at, db.ATTEMPTS.c.id)
                .limit(limit)
            )
            found = [db.attempt_by_id(conn, r.id) for r in conn.execute(q)]
        return [
            (f"{REPLAY_PREFIX}{a.id}.{board}.{self._replay_signature(a.id, board)}", self._record(dset, a, board))
            for a in found
            if a is not None
        ]

    def check_upload(self, day: Any) -> None:
        """A daily deal's record uploaded for a replay (its header's day): refused while that day lasts, since
        an uploaded replay opens to anyone with its link."""
        if isinstance(day, str) and not self.over(day):
            raise WebError(no.REPLAY_HIDDEN, day=day[:10])

    # -- the operator's marks
    def address_marks(self, day: str | None = None) -> list[dict[str, Any]]:
        """Several finishers of one game's set from one address on ``day`` (today by default), for the operator
        and the moderators' desk: each group's address as the start of its HMAC (never the address), and its
        finishers in the order they finished (name, list, when; ``after_guest`` for an account that finished
        after a guest from that address, who may have known the deals)."""
        day = day or self.today()
        with self.store.engine.connect() as conn:
            found = db.shared_finishes(conn, day)
        groups: dict[tuple[str, str], list[db.Attempt]] = {}
        for a in found:
            groups.setdefault((a.game, a.address_hash or ""), []).append(a)
        marks = []
        for (game, address), attempts in groups.items():
            finishers, guest_seen = [], False
            for a in attempts:
                finishers.append(
                    {
                        "name": a.name,
                        "user_id": a.user_id,
                        "pool": a.pool,
                        "finished": a.finished_at.isoformat(timespec="seconds") if a.finished_at else None,
                        "after_guest": a.pool != GUEST and guest_seen,
                    }
                )
                guest_seen = guest_seen or a.pool == GUEST
            marks.append({"day": day, "game": game, "address": address[:12], "finishers": finishers})
        return marks

    def _record(self, dset: DailySet, a: db.Attempt, board: Any) -> str:
        day, game = a.day, a.game
        if not isinstance(board, int) or not 0 <= board < dset.size:
            raise WebError(no.NO_BOARD)
        with self.store.engine.connect() as conn:
            rows = db.boards_of(conn, a.id)
        try:
            play = BoardPlay(dset, board, rows[board].moves if board in rows else [])
        except (BarbuError, DailyError):
            raise WebError(no.MOVES_BROKEN) from None
        # The record's words are English; "West, good player", as every front end names a computer player.
        names = [computer_name(table_place(s, play.seat, play.n), dset.strength, english=True) for s in range(play.n)]
        names[play.seat] = a.name
        header: dict[str, Any] = {
            "players_names": names,
            "daily": {
                "day": day,
                "game": game,
                "board": board,
                "seat": play.seat,
                "contract": play.contract,
                "strength": dset.strength,
            },
        }
        key = self.published_key(day)
        if key is not None:
            header["chance"] = {"method": "hmac-sha256-daily", "day_key": key, "game": game, "board": board}
        out = StringIO()
        if dset.game == BESIGUE:
            from ...records.besigue import record_lines
            from ...records.lines import write_lines

            write_lines(record_lines(play.match, header), out)
        else:
            write_record(play.match, out, header)
        return out.getvalue()


def board_state(play: BoardPlay) -> dict[str, Any]:
    """The board as the person's seat sees it: the Barbu table's own view message (`view_json`), or the Bésigue
    table's (`BesigueWeb.state`, what static/js/besigue.js draws) with the last move told."""
    m = play.match
    if play.dset.game != BESIGUE:
        return {
            "contracts": contract_info(m),
            "state": view_json(m, m.views(), play.seat, full=True, actors=play.actors),
        }
    from ..tables.games import BesigueWeb

    assert isinstance(play, BesigueBoard)  # what `BoardPlay` makes of a Bésigue set's board
    state = BesigueWeb(m).state(play.seat)
    if state.get("deal"):  # each board is a fresh game's first deal: numbered here as the set's deal
        state["deal"] = play.board + 1
    state["results"] = [dict(r, number=play.board + 1) for r in state.get("results", [])]
    log = m.log
    last = next(((i, seat, text) for i, (seat, text) in reversed(list(enumerate(log))) if seat >= 0), None)
    return {
        "contracts": [],
        "role": play.role,
        "options": BesigueWeb(m).info()["options"],
        "state": state,
        "last": None if last is None else {"seq": last[0], "seat": last[1], "action": last[2]},
    }


def barbu_end(play: BoardPlay) -> dict[str, Any]:
    """A finished board of the Barbu family: its deal's line of the scoresheet (points, doubles and their
    settlement) numbered as the set's board, for the table's summary of a deal, and the last position as the
    person's seat sees it (the next deal is not dealt: no card of it is shown)."""
    summary = scoresheet(play.match)["deals"][0]
    summary["number"] = play.board + 1
    return {"summary": summary, **board_state(play)}


def besigue_end(play: BoardPlay) -> dict[str, Any]:
    """A finished Bésigue board: its summary (combinations, brisques, last trick, points) numbered as the set's
    board, and the final position as the person's seat sees it (every card is played by then)."""
    from ..tables.games import _result_json

    summary = _result_json(play.result)
    summary["number"] = play.board + 1
    out = {"summary": summary, **board_state(play)}
    out["state"]["dealer"] = play.result["dealer"]  # the game has turned to its next deal's dealer: not this board's
    return out
