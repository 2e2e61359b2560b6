"""What the server remembers of finished matches for its players: results, ratings, profiles, leaderboards.

When a match ends, its owner writes one result per seat (who, place, points, whether he left early) and,
for a rated match, every player's new rating, in the same fenced transaction as the table's last status,
so a match is counted once however many processes saw it end.  Each computer player strength is a rated
player too (as bots are on lichess), starting from a rating seeded from duplicate arena results
(`barbu.ratings.bot_rating`), so someone who only plays the computer still gets a rating.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ... import ratings
from ...core import safejson
from ...games import open_game
from ..accounts import store as db
from ..accounts.store import RATING_HISTORY, RATINGS, RESULTS, USERS, User, bot_subject, subject_of
from ..daily.store import attempts_data
from ..db.storage import SEATS, TABLES, Store, TableRecord, _aware, hash_token, now

LEADERBOARD_MIN = 5  # rated matches before a player appears on a leaderboard
HISTORY_PAGE = 50  # matches a profile shows at once


@dataclass
class SeatResult:
    kind: str  # human or bot (a seat its player left is played by a stand-in, but stays his)
    name: str
    strength: str | None
    user_id: int | None
    left: bool
    household: str | None = None  # HMAC of the address the seat was taken from (None: unknown, a computer player)


@dataclass
class Finished:
    """A finished match, as its owner knew it: enough to write its results and ratings."""

    table_id: str
    rules: str
    family: str
    totals: list[int]
    highest_wins: bool
    seats: list[SeatResult]
    rated: bool
    details: list[dict[str, Any]] | None = None  # each seat's deals by contract and doubles (the Barbu family)


def seat_details(game: Any) -> list[dict[str, Any]] | None:
    """What each seat's profile statistics are made of, from a finished Barbu-family match: its points per
    contract as declarer and not ({contract: {"declarer": [points, deals], "other": [...]}}) and its doubles
    (made and received, with what they won or lost)."""
    results = getattr(game, "results", None)
    if not results or not hasattr(results[0], "contract"):
        return None
    out: list[dict[str, Any]] = [
        {"contracts": {}, "doubles": {"made": 0, "made_net": 0, "received": 0, "received_net": 0}}
        for _ in range(game.n)
    ]
    for r in results:
        added = r.added
        for s in range(game.n):
            role = "declarer" if r.declarer == s else "other"
            cell = out[s]["contracts"].setdefault(r.contract, {"declarer": [0, 0], "other": [0, 0]})[role]
            cell[0] += int(added[s])
            cell[1] += 1
        for b in r.doubles:
            diff = (r.base[b.doubler] - r.base[b.doubled]) * (2 if b.redoubled else 1)
            out[b.doubler]["doubles"]["made"] += 1
            out[b.doubler]["doubles"]["made_net"] += int(diff)
            out[b.doubled]["doubles"]["received"] += 1
            out[b.doubled]["doubles"]["received_net"] -= int(diff)
    return out


def finished_of(table_id: str, game: Any, seats: Iterable[SeatResult], rated: bool) -> Finished:
    """The results of a game that is over (`barbu.core.game.Game`)."""
    family = game.rules.family
    spec = getattr(game.rules, "family_spec", None)
    highest = bool(spec.highest_wins) if spec is not None else True
    return Finished(
        table_id,
        str(game.rules),
        family,
        [int(t) for t in game.totals],
        highest,
        list(seats),
        rated,
        seat_details(game),
    )


def record(conn: Connection, f: Finished) -> bool:
    """Write a finished match's results, and its ratings when it is rated; False if already written."""
    if conn.execute(select(RESULTS.c.seat).where(RESULTS.c.table_id == f.table_id).limit(1)).first():
        return False
    game = ratings.rated_game(f.rules) or f.family
    places = ratings.placings(f.totals, f.highest_wins, {i for i, s in enumerate(f.seats) if s.left})
    rated = (
        f.rated and game in ratings.GAMES and all(s.user_id is not None for s in f.seats if s.kind == "human" or s.left)
    )
    t = now()
    conn.execute(
        RESULTS.insert(),
        [
            {
                "table_id": f.table_id,
                "seat": i,
                "user_id": s.user_id,
                "name": s.name,
                "kind": s.kind,
                "strength": s.strength if s.user_id is None else None,
                "game": game,
                "rules": f.rules,
                "players": len(f.seats),
                "place": places[i],
                "points": f.totals[i],
                "left": s.left,
                "household": s.household,
                "rated": rated,
                "finished_at": t,
                "detail": json.dumps(f.details[i], separators=(",", ":")) if f.details else None,
            }
            for i, s in enumerate(f.seats)
        ],
    )
    if rated:
        _rate(conn, f, game, places, t)
    return True


def _rate(conn: Connection, f: Finished, game: str, places: list[int], t: datetime) -> None:
    """Every player's new rating in ``game``, people and computer players alike (as bots are on lichess), each
    measured against his opponents only (`barbu.ratings.fair_update`): a seat with none keeps his rating.

    A strength seated more than once in a match plays each seat from the same rating, and keeps the mean of
    what its seats would become."""
    subjects = [subject_of(s.user_id) if s.user_id is not None else bot_subject(s.strength or "") for s in f.seats]
    q = (
        select(RATINGS)
        .where(RATINGS.c.game == game, RATINGS.c.subject.in_(sorted(set(subjects))))
        .order_by(RATINGS.c.subject)
    )
    if conn.dialect.name == "postgresql":
        q = q.with_for_update()  # two matches of one player ending at once on two processes: one waits
    stored = {r.subject: ratings.Rating(r.mu, r.sigma, r.matches) for r in conn.execute(q)}

    def start(subject: str, s: SeatResult) -> ratings.Rating:
        if subject in stored:
            return stored[subject]
        return ratings.Rating() if s.user_id is not None else ratings.bot_rating(game, s.strength or "")

    before = [start(subj, s) for subj, s in zip(subjects, f.seats)]
    left = {i for i, s in enumerate(f.seats) if s.left}
    households = [s.household for s in f.seats]
    known = {i for i, s in enumerate(f.seats) if s.user_id is not None and established(conn, s.user_id)}
    after = ratings.fair_update(before, places, left, households, known, ratings.match_weight(f.rules))
    merged: dict[str, list[ratings.Rating]] = {}
    for subj, new in zip(subjects, after):
        if new is not None:
            merged.setdefault(subj, []).append(new)
    for subj, news in merged.items():
        new = (
            news[0]
            if len(news) == 1
            else ratings.Rating(
                sum(r.mu for r in news) / len(news), sum(r.sigma for r in news) / len(news), news[0].matches
            )
        )
        shown = ratings.shown(new)
        values = {"mu": new.mu, "sigma": new.sigma, "matches": new.matches, "shown": shown, "updated_at": t}
        if subj in stored:
            conn.execute(RATINGS.update().where(RATINGS.c.subject == subj, RATINGS.c.game == game).values(**values))
        else:
            conn.execute(RATINGS.insert().values(subject=subj, game=game, **values))
        conn.execute(
            RATING_HISTORY.insert().values(
                subject=subj, game=game, table_id=f.table_id, mu=new.mu, sigma=new.sigma, shown=shown, at=t
            )
        )


def established(conn: Connection, user_id: int) -> bool:
    """Whether the account has played `barbu.ratings.ESTABLISHED` rated matches with a person from another
    address (its results and his kept with the addresses' HMACs): then it is rated against another established
    player from its own address, as a family or a club room is, which a puppet never is (docs/ratings.md)."""
    other = RESULTS.alias("other")
    q = (
        select(RESULTS.c.table_id)
        .join(other, other.c.table_id == RESULTS.c.table_id)
        .where(
            RESULTS.c.user_id == user_id,
            RESULTS.c.rated.is_(True),
            RESULTS.c.household.is_not(None),
            other.c.kind == "human",
            other.c.household.is_not(None),
            other.c.household != RESULTS.c.household,
        )
        .distinct()
        .limit(ratings.ESTABLISHED)
    )
    return len(conn.execute(q).all()) >= ratings.ESTABLISHED


COSTLY = 0.5  # points: a decision the analysis found cost at least this much counts as a costly one


def record_costs(store: Store, table_id: str, deal: int, review: dict[str, Any]) -> None:
    """Keep what the replay's analysis of one deal found each seat's decisions cost (once per deal)."""
    by_seat: dict[int, list[float]] = {}
    for d in review.get("decisions", []):
        by_seat.setdefault(int(d["seat"]), []).append(float(d["cost"] or 0.0))
    if not by_seat:
        return
    t = now()
    with store.engine.begin() as conn:
        if conn.execute(
            select(db.DECISION_COSTS.c.seat)
            .where(db.DECISION_COSTS.c.table_id == table_id, db.DECISION_COSTS.c.deal == deal)
            .limit(1)
        ).first():
            return
        conn.execute(
            db.DECISION_COSTS.insert(),
            [
                {
                    "table_id": table_id,
                    "deal": deal,
                    "seat": seat,
                    "decisions": len(costs),
                    "costly": sum(1 for c in costs if c >= COSTLY),
                    "cost": round(sum(costs), 3),
                    "at": t,
                }
                for seat, costs in by_seat.items()
            ],
        )


def _analysis(conn: Connection, user_id: int) -> dict[str, dict[str, Any]]:
    """Per game, what the analysis of his analysed deals found: decisions weighed, how often one cost at
    least `COSTLY` points, the mean cost of a decision, and the same by month."""
    costs = db.DECISION_COSTS
    q = (
        select(RESULTS.c.game, RESULTS.c.finished_at, costs.c.decisions, costs.c.costly, costs.c.cost)
        .join(costs, (costs.c.table_id == RESULTS.c.table_id) & (costs.c.seat == RESULTS.c.seat))
        .where(RESULTS.c.user_id == user_id)
        .order_by(RESULTS.c.finished_at)
    )
    out: dict[str, dict[str, Any]] = {}
    for r in conn.execute(q):
        g = out.setdefault(r.game, {"deals": 0, "decisions": 0, "costly": 0, "cost": 0.0, "months": {}})
        month = g["months"].setdefault(_aware(r.finished_at).strftime("%Y-%m"), [0, 0, 0.0])
        g["deals"] += 1
        g["decisions"] += r.decisions
        g["costly"] += r.costly
        g["cost"] += r.cost
        month[0] += r.decisions
        month[1] += r.costly
        month[2] += r.cost
    for g in out.values():
        n = g["decisions"] or 1
        g["costly_share"] = round(g["costly"] / n, 3)
        g["mean_cost"] = round(g["cost"] / n, 3)
        g["cost"] = round(g["cost"], 2)
        g["months"] = [
            {
                "month": m,
                "decisions": v[0],
                "costly_share": round(v[1] / (v[0] or 1), 3),
                "mean_cost": round(v[2] / (v[0] or 1), 3),
            }
            for m, v in sorted(g["months"].items())
        ]
    return out


# -- reads for the pages --
def rating_json(r: ratings.Rating) -> dict[str, Any]:
    return {"rating": ratings.shown(r), "provisional": ratings.provisional(r), "matches": r.matches}


def ratings_of(conn: Connection, subjects: list[str], game: str) -> dict[str, dict[str, Any]]:
    """The shown ratings of some players in one game (those who have none are absent)."""
    if not subjects:
        return {}
    q = select(RATINGS).where(RATINGS.c.game == game, RATINGS.c.subject.in_(subjects))
    return {r.subject: rating_json(ratings.Rating(r.mu, r.sigma, r.matches)) for r in conn.execute(q)}


def seat_ratings(store: Store, rules: str, seats: list[tuple[str, int | None, str | None]]) -> list[dict | None]:
    """The rating beside each seat's name at a table: (kind, user id, strength) → its figure, or None."""
    game = ratings.rated_game(rules)
    if game is None:
        return [None] * len(seats)
    wanted = []
    for _, u, st in seats:
        if u is not None:
            wanted.append(subject_of(u))
        elif st:
            wanted.append(bot_subject(st))
    with store.engine.connect() as conn:
        known = ratings_of(conn, wanted, game)
    out: list[dict | None] = []
    for kind, user_id, strength in seats:
        if user_id is not None:
            out.append(known.get(subject_of(user_id)) or rating_json(ratings.Rating()))
        elif kind == "bot" and strength:
            out.append(known.get(bot_subject(strength)) or rating_json(ratings.bot_rating(game, strength)))
        else:
            out.append(None)
    return out


def _matches(
    conn: Connection, user_id: int, limit: int | None, before: datetime | None = None, hide_private: bool = False
) -> list[dict]:
    """A player's matches, newest first; ``hide_private``: not those of private tables (for other readers:
    a private table's link is for the friends invited to it)."""
    q = select(RESULTS).where(RESULTS.c.user_id == user_id).order_by(RESULTS.c.finished_at.desc(), RESULTS.c.table_id)
    if hide_private:
        private = select(TABLES.c.id).where(TABLES.c.invite_hash.is_not(None))
        q = q.where(RESULTS.c.table_id.not_in(private))
    if before is not None:
        q = q.where(RESULTS.c.finished_at < before)
    if limit is not None:
        q = q.limit(limit)
    mine = list(conn.execute(q))
    if not mine:
        return []
    ids = [r.table_id for r in mine]
    others: dict[str, list[Any]] = {}
    for chunk in range(0, len(ids), 500):
        q = (
            select(
                RESULTS.c.table_id,
                RESULTS.c.seat,
                RESULTS.c.name,
                RESULTS.c.kind,
                RESULTS.c.strength,
                RESULTS.c.place,
                RESULTS.c.points,
                RESULTS.c.left,
                USERS.c.name.label("account"),
            )
            .outerjoin(USERS, USERS.c.id == RESULTS.c.user_id)
            .where(RESULTS.c.table_id.in_(ids[chunk : chunk + 500]))
            .order_by(RESULTS.c.seat)
        )
        for o in conn.execute(q):
            others.setdefault(o.table_id, []).append(o)
    out = []
    for r in mine:
        out.append(
            {
                "table": r.table_id,
                "game": r.game,
                "rules": r.rules,
                "players": r.players,
                "finished": _aware(r.finished_at).isoformat(timespec="seconds"),
                "seat": r.seat,
                "place": r.place,
                "points": r.points,
                "left": r.left,
                "rated": r.rated,
                "replay": f"/t/{r.table_id}/replay",
                "seats": [
                    {
                        "seat": o.seat,
                        "name": o.account or o.name,
                        "deleted": o.kind == "human" and o.name is None,
                        "computer": o.kind == "bot" and o.account is None and not o.left,
                        "strength": o.strength,
                        "account": o.account,
                        "place": o.place,
                        "points": o.points,
                        "left": o.left,
                    }
                    for o in others.get(r.table_id, [])
                ],
            }
        )
    return out


def _stats(conn: Connection, user_id: int) -> list[dict[str, Any]]:
    """Per game, what a player studies: matches, wins, mean place and points; each contract's mean points per
    deal as declarer and not; his doubles, made and received, with what they won or lost; and by month."""
    q = (
        select(
            RESULTS.c.game, RESULTS.c.place, RESULTS.c.points, RESULTS.c.rated, RESULTS.c.detail, RESULTS.c.finished_at
        )
        .where(RESULTS.c.user_id == user_id)
        .order_by(RESULTS.c.finished_at)
    )
    games: dict[str, dict[str, Any]] = {}
    for r in conn.execute(q):
        g = games.setdefault(
            r.game,
            {
                "game": r.game,
                "matches": 0,
                "wins": 0,
                "rated": 0,
                "places": 0,
                "points": 0,
                "contracts": {},
                "doubles": {},
                "months": {},
            },
        )
        g["matches"] += 1
        g["wins"] += r.place == 1
        g["rated"] += bool(r.rated)
        g["places"] += r.place
        g["points"] += r.points
        month = g["months"].setdefault(_aware(r.finished_at).strftime("%Y-%m"), [0, 0])
        month[0] += 1
        month[1] += r.place
        if r.detail:
            detail = safejson.loads(r.detail)
            for contract, roles in detail.get("contracts", {}).items():
                mine = g["contracts"].setdefault(contract, {"declarer": [0, 0], "other": [0, 0]})
                for role in ("declarer", "other"):
                    mine[role][0] += roles[role][0]
                    mine[role][1] += roles[role][1]
            for k, v in detail.get("doubles", {}).items():
                g["doubles"][k] = g["doubles"].get(k, 0) + v
    analysed = _analysis(conn, user_id)
    out = []
    for g in games.values():
        n = g["matches"]
        out.append(
            {
                "game": g["game"],
                "matches": n,
                "wins": g["wins"],
                "rated": g["rated"],
                "mean_place": round(g["places"] / n, 2),
                "mean_points": round(g["points"] / n, 1),
                "contracts": [
                    {
                        "contract": c,
                        "name": contract_names(g["game"]).get(c, c),
                        **{
                            role: {
                                "deals": v[role][1],
                                "mean": round(v[role][0] / v[role][1], 1) if v[role][1] else None,
                            }
                            for role in ("declarer", "other")
                        },
                    }
                    for c, v in sorted(g["contracts"].items())
                ],
                "doubles": g["doubles"] or None,
                "months": [
                    {"month": m, "matches": v[0], "mean_place": round(v[1] / v[0], 2)}
                    for m, v in sorted(g["months"].items())
                ],
                "analysis": analysed.get(g["game"]),
            }
        )
    return sorted(out, key=lambda g: g["game"])


@lru_cache(maxsize=64)
def contract_names(game: str) -> dict[str, str]:
    """A Barbu-family game's contracts by key, with their names (English: the pages translate them)."""
    try:
        m = open_game(game, 1)
    except Exception:  # a game with no contracts (Bésigue) or an unknown name
        return {}
    return {c.key: c.name for c in getattr(m, "contracts", ())}


def _rating_history(conn: Connection, subject: str) -> dict[str, list[dict[str, Any]]]:
    q = (
        select(RATING_HISTORY)
        .where(RATING_HISTORY.c.subject == subject)
        .order_by(RATING_HISTORY.c.game, RATING_HISTORY.c.at, RATING_HISTORY.c.id)
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for r in conn.execute(q):
        out.setdefault(r.game, []).append(
            {"at": _aware(r.at).isoformat(timespec="seconds"), "rating": r.shown, "table": r.table_id}
        )
    return out


def profile(store: Store, name_key: str, limit: int = HISTORY_PAGE, viewer: int | None = None) -> dict[str, Any] | None:
    """A player's public page: ratings per game with their history, statistics, latest matches.  To anyone
    but himself (``viewer``: the reader's account), no private table's match and no table in the chart."""
    with store.engine.connect() as conn:
        found = db.user_by_key(conn, name_key)
        if found is None or found[0].banned:
            return None
        user = found[0]
        subject = subject_of(user.id)
        rows = conn.execute(select(RATINGS).where(RATINGS.c.subject == subject).order_by(RATINGS.c.game))
        rated = {r.game: rating_json(ratings.Rating(r.mu, r.sigma, r.matches)) for r in rows}
        own = viewer == user.id
        chart = _rating_history(conn, subject)
        if not own:
            chart = {g: [{k: v for k, v in p.items() if k != "table"} for p in points] for g, points in chart.items()}
        return {
            "name": user.name,
            "since": user.created_at.date().isoformat(),
            "ratings": rated,
            "rating_history": chart,
            "stats": _stats(conn, user.id),
            "matches": _matches(conn, user.id, limit, hide_private=not own),
            "leaderboard_min": LEADERBOARD_MIN,
            "own": own,
        }


def leaderboard(store: Store, game: str, limit: int = 100, minimum: int = LEADERBOARD_MIN) -> list[dict[str, Any]]:
    """The best conservative ratings of a game among people with at least ``minimum`` rated matches."""
    with store.engine.connect() as conn:
        q = (
            select(RATINGS.c.subject, RATINGS.c.shown, RATINGS.c.matches, RATINGS.c.mu, RATINGS.c.sigma)
            .where(RATINGS.c.game == game, RATINGS.c.matches >= minimum, RATINGS.c.subject.like("u:%"))
            .order_by(RATINGS.c.shown.desc(), RATINGS.c.subject)
            .limit(limit + 50)
        )  # a few may be banned
        top = list(conn.execute(q))
        ids = [int(r.subject[2:]) for r in top]
        users = (
            {u.id: u for u in conn.execute(select(USERS.c.id, USERS.c.name, USERS.c.banned).where(USERS.c.id.in_(ids)))}
            if ids
            else {}
        )
    out: list[dict[str, Any]] = []
    for r in top:
        u = users.get(int(r.subject[2:]))
        if u is None or u.banned or len(out) >= limit:
            continue
        out.append(
            {
                "rank": len(out) + 1,
                "name": u.name,
                "profile": f"/u/{u.name}",
                "rating": r.shown,
                "matches": r.matches,
                "provisional": ratings.provisional(ratings.Rating(r.mu, r.sigma, r.matches)),
            }
        )
    return out


def waiting_for(store: Store, user_id: int) -> list[dict[str, Any]]:
    """The turn-based tables waiting for this account's decision, the longest waiting first."""
    with store.engine.connect() as conn:
        q = (
            select(TABLES.c.id, TABLES.c.rules, TABLES.c.turn_since, TABLES.c.clock)
            .where(TABLES.c.waiting_for == user_id, TABLES.c.status == "playing")
            .order_by(TABLES.c.turn_since)
            .limit(100)
        )
        return [
            {
                "id": r.id,
                "url": f"/t/{r.id}",
                "rules": r.rules,
                "clock": r.clock,
                "since": _aware(r.turn_since).isoformat(timespec="seconds") if r.turn_since else None,
            }
            for r in conn.execute(q)
        ]


def tables_held(store: Store, user_id: int) -> list[str]:
    """The unfinished tables an account holds a seat at, newest first ("My tables" on any browser)."""
    with store.engine.connect() as conn:
        q = (
            select(SEATS.c.table_id)
            .join(TABLES, TABLES.c.id == SEATS.c.table_id)
            .where(SEATS.c.user_id == user_id, SEATS.c.kind == "human", TABLES.c.status.in_(("open", "playing")))
            .order_by(TABLES.c.created_at.desc())
            .limit(50)
        )
        return [r.table_id for r in conn.execute(q)]


def download(store: Store, user: User) -> dict[str, Any]:
    """ "Download my data": everything the server keeps about the account, its password's hash excepted."""
    with store.engine.connect() as conn:
        subject = subject_of(user.id)
        rows = conn.execute(select(RATINGS).where(RATINGS.c.subject == subject))
        mail = db.mail_of(conn, user.id)
        return {
            "account": {
                "name": user.name,
                "created": user.created_at.isoformat(timespec="seconds"),
                "email": mail[0] if mail else None,
                "notify_turns": mail[1] if mail else False,
                "language": mail[2] if mail else None,
            },
            "ratings": {r.game: {"mu": r.mu, "sigma": r.sigma, "matches": r.matches, "rating": r.shown} for r in rows},
            "rating_history": _rating_history(conn, subject),
            "statistics": _stats(conn, user.id),
            "matches": _matches(conn, user.id, None),
            "seats_held": [
                {"table": r.table_id, "seat": r.seat}
                for r in conn.execute(select(SEATS.c.table_id, SEATS.c.seat).where(SEATS.c.user_id == user.id))
            ],
            "daily_deals": attempts_data(conn, user.id),
        }


def claim(store: Store, user: User, pairs: list[tuple[str, str]]) -> list[str]:
    """Tie to ``user`` the finished matches a guest played with these (table, seat credential) pairs: the
    seats nobody's account holds yet.  The results of an older match are made from its journal.  A claimed
    match stays unrated (it was not played as one)."""
    done: list[str] = []
    for table_id, token in pairs:
        h = hash_token(token)
        with store.engine.connect() as conn:
            written = conn.execute(select(RESULTS.c.seat).where(RESULTS.c.table_id == table_id).limit(1)).first()
        rec = None if written else store.load_table(table_id)
        with store.engine.begin() as conn:
            seat = conn.execute(
                select(SEATS.c.seat, SEATS.c.user_id)
                .join(TABLES, TABLES.c.id == SEATS.c.table_id)
                .where(
                    SEATS.c.table_id == table_id,
                    SEATS.c.token_hash == h,
                    SEATS.c.kind == "human",
                    TABLES.c.status == "over",
                )
            ).first()
            if seat is None or seat.user_id is not None:
                continue
            conn.execute(
                SEATS.update().where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat).values(user_id=user.id)
            )
            if rec is not None:
                record(conn, results_of_record(rec))
            taken = conn.execute(
                select(RESULTS.c.user_id).where(RESULTS.c.table_id == table_id, RESULTS.c.seat == seat.seat)
            ).first()
            if taken is not None and taken.user_id is None:
                conn.execute(
                    RESULTS.update()
                    .where(RESULTS.c.table_id == table_id, RESULTS.c.seat == seat.seat)
                    .values(user_id=user.id)
                )
                done.append(table_id)
    return done


def results_of_record(rec: TableRecord) -> Finished:
    """A stored finished table's results, by replaying its journal."""
    game = open_game(rec.rules, rec.seed)
    for _, _, text in rec.events:
        game.apply(game.parse_action(text))
    seats = {s.seat: s for s in rec.seats}
    return finished_of(
        rec.id,
        game,
        [
            SeatResult(seats[i].kind, seats[i].name, seats[i].strength, seats[i].user_id, seats[i].left)
            if i in seats
            else SeatResult("bot", "", None, None, False)
            for i in range(game.n)
        ],
        False,
    )
