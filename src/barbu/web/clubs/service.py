"""Clubs: the rules of a club's name, roles, invitation links and seasons, and who may see a club's tables.

Any account may create a club (a name, a description, public or private).  People join through an
invitation link whose secret travels after the link's "#" (so it reaches no server log) and is stored only
as its SHA-256; the owner or an admin makes links, gives them an expiry and revokes them.  Roles: the owner
(one: he names admins, removes members, hands the club over, closes seasons, deletes it), admins (links,
and removing plain members) and members (who play at the club's tables, and may leave).

A private club is, to anyone outside it, as if it did not exist: its page, its tables in the lobby, a
table's page, its API, its WebSocket and its replay all say it is missing (`hides_table`, `rows_seen`).  A
player keeps his own match, though: an account holding a seat at a club table still reaches it after
leaving the club.

**The season's leaderboard** is a rating, not standings: every rated match of the club's tables in the
season, in the order they finished, goes through `barbu.ratings.update` from a fresh start (people begin
as newcomers, computer players at their fixed anchors, as on the server's own leaderboards).  Standings
by points or wins would reward whoever plays most and ignore whom one beat; a rating weighs each placing
by the strength of the table, and its conservative figure (μ − 3σ) keeps one lucky evening from topping
the board.  Players with fewer than `BOARD_MIN` rated matches in the season are listed apart, unranked.
A match counts for the season in which it finished.
"""

from __future__ import annotations

import asyncio
import math
import re
import secrets
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable

from ... import ratings
from ...core.words import N_
from ..accounts.service import Voice, fold, free_voice, open_store, read_in_thread, write_in_thread
from ..accounts.store import User, subject_of
from ..common.errors import WebError
from ..db.creations import CLUB
from ..db.storage import Store, _aware, hash_token, now
from ..profiles.history import ratings_of
from . import refusals as no
from . import store as db

if TYPE_CHECKING:
    from ..tables.lobby import Lobby

#: Who is asking: the account logged in on the asking browser (read only when it matters), or None.
Viewer = Callable[[], Awaitable[User | None]]

NAME_MIN, NAME_MAX = 2, 40  # characters of a club's name
DESCRIPTION_MAX = 500
SLUG_MAX = 32
CLUBS_PER_DAY = 3  # clubs one account may create in 24 hours (deleted ones count)
MEMBERS_MAX = 500
LIVE_INVITES_MAX = 20  # links of one club that work at once
INVITE_HOURS_MAX = 90 * 24  # the longest expiry a link may be given
BOARD_MIN = 3  # rated matches in the season before a player is ranked
MATCHES_PAGE = 30  # past matches shown at once
SECRET_MAX = 100  # characters of an invitation's secret as sent back

NO_SUCH_TABLE = N_("there is no such table")


async def reserve_club(creations: Any, user: User, address: str, limit: int) -> None:
    """Count one more club against the account (`CLUBS_PER_DAY`) and the address (``limit``) in any 24 hours before
    it is made, checked and counted in one step (`barbu.web.db.creations.Creations.take_each`): no burst of
    requests, on one process or many, makes one more."""
    wait, full = await creations.take_each([(f"user:{user.id}", CLUBS_PER_DAY), (address, limit)], CLUB)
    if wait:
        hours = max(1, math.ceil(wait / 60))
        if full == 0:
            raise WebError(no.TOO_MANY_CLUBS, limit=CLUBS_PER_DAY, n=hours)
        raise WebError(no.CLUBS_FROM_ADDRESS, limit=limit, n=hours)


def club_name(raw: Any) -> tuple[str, str]:
    """A club's name as (shown, folded key), or a refusal that says which rule it breaks."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(no.NAME_NEEDED)
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if len(name) > NAME_MAX:
        raise WebError(no.NAME_TOO_LONG, n=NAME_MAX)
    if len(name) < NAME_MIN:
        raise WebError(no.NAME_TOO_SHORT, n=NAME_MIN)
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in name):
        raise WebError(no.NAME_CHARACTERS)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise WebError(no.NAME_NEEDS_LETTER)
    return name, fold(name)


def club_description(raw: Any) -> str:
    """A club's description: optional, at most `DESCRIPTION_MAX` characters, lines kept, no control characters."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise WebError(no.DESCRIPTION_NOT_TEXT)
    text = unicodedata.normalize("NFC", raw).replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch)[0] != "C")
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(line.rstrip() for line in text.split("\n"))).strip()
    if len(text) > DESCRIPTION_MAX:
        raise WebError(no.DESCRIPTION_TOO_LONG, n=DESCRIPTION_MAX)
    return text


def flag(raw: Any, field: str) -> bool:
    if not isinstance(raw, bool):
        raise WebError(no.NOT_A_FLAG, field=field)
    return raw


def slug_of(name: str) -> str:
    """The club's address (/c/<slug>) from its name: lower-case ASCII letters and digits joined by "-"."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:SLUG_MAX].strip("-")
    return slug or "club"


def expiry(raw: Any) -> datetime | None:
    """A link's expiry from a request: ``hours`` from now (a whole number), or None for "until revoked"."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= INVITE_HOURS_MAX:
        raise WebError(no.INVITE_HOURS, n=INVITE_HOURS_MAX)
    return now() + timedelta(hours=raw)


def iso(t: datetime | None) -> str | None:
    return None if t is None else _aware(t).isoformat(timespec="seconds")


# ------------------------------------------------------------------ the season's leaderboard (pure)
@dataclass
class _Standing:
    name: str
    rating: ratings.Rating
    wins: int = 0
    places: int = 0


def season_board(rows: Iterable[Any], minimum: int = BOARD_MIN) -> list[dict[str, Any]]:
    """The leaderboard of each game from a season's rated results (rows with table_id, seat, game, user_id,
    account, kind, strength, place; the oldest match first): a rating from a fresh start, updated match by
    match with `barbu.ratings.update`.  Computer players play at their fixed anchors; a deleted player is a
    newcomer each time and is never listed.  Computed at each reading: about 30 µs a match here, so a season
    of ten thousand matches takes a third of a second."""
    matches: "OrderedDict[str, list[Any]]" = OrderedDict()
    for r in rows:
        matches.setdefault(r.table_id, []).append(r)
    games: dict[str, dict[int, _Standing]] = {}
    outside: dict[int | None, int] = {}  # player -> the season's matches with someone from another address
    for seats in matches.values():
        game = seats[0].game
        table = games.setdefault(game, {})
        before = []
        for s in seats:
            if s.user_id is not None:
                before.append(table[s.user_id].rating if s.user_id in table else ratings.Rating())
            elif s.kind == "bot" and s.strength:
                before.append(ratings.bot_rating(game, s.strength))
            else:
                before.append(ratings.Rating())
        places = [int(s.place) for s in seats]
        left = {i for i, s in enumerate(seats) if getattr(s, "left", False)}
        households = [getattr(s, "household", None) for s in seats]
        known = {i for i, s in enumerate(seats) if outside.get(s.user_id, 0) >= ratings.ESTABLISHED}
        try:  # each seat against his opponents only, as the server's ratings (docs/ratings.md)
            after = ratings.fair_update(before, places, left, households, known)
        except ValueError:  # a result that is not a placing of 2 to 6 players: it rates nothing
            continue
        for i, s in enumerate(seats):  # the season's matches with a person from another address, by player
            if (
                s.user_id is not None
                and households[i] is not None
                and any(o.kind == "human" and households[j] not in (None, households[i]) for j, o in enumerate(seats))
            ):
                outside[s.user_id] = outside.get(s.user_id, 0) + 1
        for s, new in zip(seats, after):
            if s.user_id is None or new is None:
                continue
            st = table.get(s.user_id)
            if st is None:
                st = table[s.user_id] = _Standing(s.account or "", new)
            st.rating, st.name = new, s.account or st.name
            st.wins += s.place == 1
            st.places += s.place
    out = []
    for game in sorted(games, key=lambda g: (-sum(st.rating.matches for st in games[g].values()), g)):
        table = {uid: st for uid, st in games[game].items() if st.name}

        def row(uid: int, st: _Standing, rank: int | None) -> dict[str, Any]:
            n = st.rating.matches
            return {
                "rank": rank,
                "name": st.name,
                "profile": f"/u/{st.name}",
                "rating": ratings.shown(st.rating),
                "provisional": ratings.provisional(st.rating),
                "matches": n,
                "wins": st.wins,
                "mean_place": round(st.places / n, 2) if n else None,
            }

        ranked = ratings.leaderboard([(uid, st.rating) for uid, st in table.items()], minimum)
        listed = {uid for _, uid, _ in ranked}
        rest = sorted(
            (uid for uid in table if uid not in listed),
            key=lambda uid: (-table[uid].rating.matches, -ratings.shown(table[uid].rating), table[uid].name.casefold()),
        )
        out.append(
            {
                "game": game,
                "players": [row(uid, table[uid], place) for place, uid, _ in ranked],
                "unranked": [row(uid, table[uid], None) for uid in rest],
            }
        )
    return out


def matches_json(rows: Iterable[Any]) -> list[dict[str, Any]]:
    """Finished matches from their seats' results (grouped by table, in the rows' order), as the page lists them."""
    grouped: "OrderedDict[str, list[Any]]" = OrderedDict()
    for r in rows:
        grouped.setdefault(r.table_id, []).append(r)
    out = []
    for tid, seats in grouped.items():
        first = seats[0]
        out.append(
            {
                "table": tid,
                "game": first.game,
                "rules": first.rules,
                "players": first.players,
                "finished": iso(max(_aware(s.finished_at) for s in seats)),
                "rated": bool(first.rated),
                "replay": f"/t/{tid}/replay",
                "seats": sorted(
                    (
                        {
                            "seat": s.seat,
                            "name": s.account or s.name,
                            "account": s.account,
                            "deleted": s.kind == "human" and s.name is None,
                            "computer": s.kind == "bot" and s.account is None and not s.left,
                            "strength": s.strength,
                            "place": s.place,
                            "points": s.points,
                            "left": bool(s.left),
                        }
                        for s in seats
                    ),
                    key=lambda s: s["seat"],
                ),
            }
        )
    return out


# ------------------------------------------------------------------ the clubs of one server
class Clubs:
    """The clubs of one server, over its database (blocking work in threads).  Every refusal is a
    `WebError` with one of `barbu.web.clubs.refusals`, worded in the reader's language; none changes anything."""

    def __init__(self, store: Callable[[], Store | None], voice: Voice = free_voice) -> None:
        """``voice``: refuses an account that may not write for others now (muted: the application wires it)."""
        self._store = store
        self.voice = voice

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await read_in_thread(self.store, fn, *args)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    # -- who sees what --
    @staticmethod
    def _seen(conn: Any, slug: Any, user: User | None) -> tuple[db.Club, str | None]:
        """The club at ``slug`` and the viewer's role there; a private club is not found by outsiders."""
        if not isinstance(slug, str) or len(slug) > SLUG_MAX + 16:
            raise WebError(no.NOT_FOUND)
        club = db.club_by_slug(conn, slug)
        if club is None:
            raise WebError(no.NOT_FOUND)
        role = db.role_of(conn, club.id, user.id) if user is not None else None
        if not club.public and role is None:
            raise WebError(no.NOT_FOUND)
        return club, role

    @staticmethod
    def _need(role: str | None, *allowed: str) -> None:
        if role is None:
            raise WebError(no.NOT_A_MEMBER)
        if role not in allowed:
            if "admin" in allowed:
                raise WebError(no.OWNER_OR_ADMIN_ONLY)
            raise WebError(no.OWNER_ONLY)

    async def visible(self, slug: Any, user: User | None) -> tuple[db.Club, str | None]:
        return await self._read(self._seen, slug, user)

    # -- the lists --
    async def listing(self, user: User | None) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            public = [club_json(c, n) for c, n in db.public_clubs(conn)]
            mine = (
                None
                if user is None
                else [club_json(c, n) | {"role": role} for c, role, n in db.clubs_of(conn, user.id)]
            )
            return {
                "public": public,
                "mine": mine,
                "limits": {"name": NAME_MAX, "description": DESCRIPTION_MAX, "per_day": CLUBS_PER_DAY},
            }

        return await self._read(read)

    async def create(
        self, user: User, data: dict[str, Any], reserve: Callable[[User], Awaitable[None]] | None = None
    ) -> db.Club:
        """A new club, once its form is checked and (``reserve``: `reserve_club`) counted against the day's limits."""
        name, key = club_name(data.get("name"))
        description = club_description(data.get("description"))
        public = flag(data.get("public", True), "public")
        slug = slug_of(name)
        if reserve is not None:
            if await self._read(lambda conn: db.name_taken(conn, key)):  # a refusal counts nothing
                raise WebError(no.NAME_TAKEN, name=name)
            await reserve(user)

        def write(conn: Any) -> db.Club:
            self.voice(conn, user.id)
            db.lock_user(conn, user.id)  # one account's creations at once are counted one after the other
            made = db.created_since(conn, user.id, now() - timedelta(days=1))
            if len(made) >= CLUBS_PER_DAY:
                wait = (made[-CLUBS_PER_DAY] + timedelta(days=1) - now()).total_seconds()
                raise WebError(no.TOO_MANY_CLUBS, limit=CLUBS_PER_DAY, n=max(1, math.ceil(wait / 3600)))
            if db.name_taken(conn, key):
                raise WebError(no.NAME_TAKEN, name=name)
            address = slug
            for i in range(2, 1000):
                if not db.slug_taken(conn, address):
                    break
                address = f"{slug[: SLUG_MAX - 4]}-{i}"
            else:
                address = f"{slug[: SLUG_MAX - 9]}-{secrets.token_hex(4)}"
            club_id = db.add_club(conn, address, name, key, description, public, user.id)
            found = db.club_by_id(conn, club_id)
            assert found is not None
            return found

        try:
            return await self._write(write)
        except WebError:
            raise
        except Exception as e:  # two clubs of one name at once: the database's unique key decides
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                raise WebError(no.NAME_TAKEN, name=name) from None
            raise

    async def page(self, slug: Any, user: User | None) -> dict[str, Any]:
        """Everything the club's page shows but its tables (the routes add those, which the lobby holds)."""

        def read(conn: Any) -> dict[str, Any]:
            club, role = self._seen(conn, slug, user)
            people = db.members(conn, club.id)
            games = db.club_games(conn, club.id)
            subjects = [subject_of(m.user_id) for m in people]
            by_game = {g: ratings_of(conn, subjects, g) for g in games[:3]}
            all_seasons = db.seasons(conn, club.id)
            current = all_seasons[-1]
            rows = db.club_results(conn, club.id, since=current.started_at, rated_only=True)
            recent = db.recent_matches(conn, club.id, MATCHES_PAGE + 1)
            matches = matches_json(recent)
            out = {
                "club": club_json(club, len(people)),
                "role": role,
                "games": games,
                "members": [
                    {
                        "name": m.name,
                        "profile": f"/u/{m.name}",
                        "role": m.role,
                        "joined": iso(m.joined_at),
                        "ratings": {
                            g: by_game[g][subject_of(m.user_id)] for g in by_game if subject_of(m.user_id) in by_game[g]
                        },
                    }
                    for m in people
                ],
                "season": season_json(current),
                "seasons": [season_json(s) for s in all_seasons],
                "board": season_board(rows),
                "board_min": BOARD_MIN,
                "matches": matches[:MATCHES_PAGE],
                "more_matches": len(matches) > MATCHES_PAGE,
                "you": user.name if user is not None else None,
                "_club_id": club.id,
            }
            if role in ("owner", "admin"):
                out["invites"] = db.invites(conn, club.id)
            return out

        return await self._read(read)

    async def season_page(self, slug: Any, number: Any, user: User | None) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any]:
            club, _ = self._seen(conn, slug, user)
            n = int(number) if isinstance(number, str) and number.isdigit() and len(number) < 7 else None
            s = db.season(conn, club.id, n) if n is not None else None
            if s is None:
                raise WebError(no.NO_SUCH_SEASON, season=str(number)[:12])
            rows = db.club_results(conn, club.id, since=s.started_at, until=s.ended_at, rated_only=True)
            return {"season": season_json(s), "board": season_board(rows), "board_min": BOARD_MIN}

        return await self._read(read)

    async def matches(self, slug: Any, before: Any, user: User | None) -> dict[str, Any]:
        try:
            moment = datetime.fromisoformat(before) if isinstance(before, str) and len(before) < 40 else None
        except ValueError:
            moment = None
        if moment is None:
            raise WebError(no.MATCHES_BEFORE)

        def read(conn: Any) -> dict[str, Any]:
            club, _ = self._seen(conn, slug, user)
            found = matches_json(db.recent_matches(conn, club.id, MATCHES_PAGE + 1, _aware(moment)))
            return {"matches": found[:MATCHES_PAGE], "more_matches": len(found) > MATCHES_PAGE}

        return await self._read(read)

    async def tables_of(self, club_id: int) -> list[Any]:
        """The club's unfinished tables as the database holds them, with their seats."""

        def read(conn: Any) -> list[tuple[Any, list[Any]]]:
            rows = db.unfinished_tables(conn, club_id)
            seats = db.seats_of(conn, [r.id for r in rows])
            return [(r, seats.get(r.id, [])) for r in rows]

        return await self._read(read)

    # -- the owner's and the admins' changes --
    async def edit(self, slug: Any, user: User, data: dict[str, Any]) -> None:
        values: dict[str, Any] = {}
        if "description" in data:
            values["description"] = club_description(data.get("description"))
        if "public" in data:
            values["public"] = flag(data.get("public"), "public")

        def write(conn: Any) -> None:
            club, role = self._seen(conn, slug, user)
            self._need(role, "owner")
            if "description" in values:
                self.voice(conn, user.id)
            if values:
                db.edit_club(conn, club.id, **values)

        await self._write(write)

    async def delete(self, slug: Any, user: User, typed: Any) -> None:
        def write(conn: Any) -> None:
            club, role = self._seen(conn, slug, user)
            self._need(role, "owner")
            if not isinstance(typed, str) or fold(typed) != fold(club.name):
                raise WebError(no.TYPE_NAME_TO_DELETE)
            db.delete_club(conn, club.id)

        await self._write(write)

    def _other(self, conn: Any, club: db.Club, raw: Any) -> db.Member:
        """The member a request names (by his user name)."""
        if isinstance(raw, str) and len(raw) <= 100:
            key = fold(raw)
            for m in db.members(conn, club.id):
                if fold(m.name) == key:
                    return m
        raise WebError(no.MEMBER_NOT_FOUND, name=str(raw)[:40] if raw else "?")

    async def set_role(self, slug: Any, user: User, member: Any, role: Any) -> None:
        if role not in ("admin", "member"):
            raise WebError(no.UNKNOWN_ROLE)

        def write(conn: Any) -> None:
            club, mine = self._seen(conn, slug, user)
            self._need(mine, "owner")
            other = self._other(conn, club, member)
            if other.role == "owner":
                raise WebError(no.OWNER_ROLE_FIXED)
            db.set_role(conn, club.id, other.user_id, role)

        await self._write(write)

    async def remove(self, slug: Any, user: User, member: Any) -> None:
        def write(conn: Any) -> None:
            club, mine = self._seen(conn, slug, user)
            self._need(mine, "owner", "admin")
            other = self._other(conn, club, member)
            if other.user_id == user.id:
                raise WebError(no.REMOVE_SELF)
            if other.role == "owner" or (other.role == "admin" and mine != "owner"):
                raise WebError(no.OWNER_ONLY)
            db.remove_member(conn, club.id, other.user_id)

        await self._write(write)

    async def leave(self, slug: Any, user: User) -> None:
        def write(conn: Any) -> None:
            club, role = self._seen(conn, slug, user)
            if role is None:
                raise WebError(no.NOT_A_MEMBER)
            if role == "owner":
                raise WebError(no.OWNER_CANNOT_LEAVE)
            db.remove_member(conn, club.id, user.id)

        await self._write(write)

    async def hand_over(self, slug: Any, user: User, member: Any) -> None:
        def write(conn: Any) -> None:
            club, mine = self._seen(conn, slug, user)
            self._need(mine, "owner")
            other = self._other(conn, club, member)
            if other.user_id == user.id:
                raise WebError(no.OWNER_ALREADY)
            db.set_role(conn, club.id, other.user_id, "owner")
            db.set_role(conn, club.id, user.id, "admin")

        await self._write(write)

    async def close_season(self, slug: Any, user: User, number: Any) -> dict[str, Any]:
        def write(conn: Any) -> dict[str, Any]:
            club, role = self._seen(conn, slug, user)
            self._need(role, "owner")
            if isinstance(number, bool) or not isinstance(number, int):
                raise WebError(no.SEASON_NUMBER_NEEDED)
            started = db.close_season(conn, club.id, number)
            if started is None:
                raise WebError(no.SEASON_NOT_CURRENT, season=number)
            return season_json(started)

        return await self._write(write)

    # -- invitation links --
    async def invite(self, slug: Any, user: User, hours: Any) -> tuple[str, dict[str, Any]]:
        """A new link's secret (given out only this once) and the link as the club's list shows it."""
        lapses = expiry(hours)
        secret = secrets.token_urlsafe(24)

        def write(conn: Any) -> dict[str, Any]:
            club, role = self._seen(conn, slug, user)
            self._need(role, "owner", "admin")
            db.sweep_invites(conn, club.id, now() - timedelta(days=30))
            if db.live_invites(conn, club.id) >= LIVE_INVITES_MAX:
                raise WebError(no.TOO_MANY_LINKS, n=LIVE_INVITES_MAX)
            invite_id = db.add_invite(conn, club.id, hash_token(secret), user.id, lapses)
            return next(i for i in db.invites(conn, club.id) if i["id"] == invite_id)

        return secret, await self._write(write)

    async def change_invite(self, slug: Any, user: User, invite_id: Any, revoke: bool, hours: Any = None) -> None:
        lapses = None if revoke else expiry(hours)
        if isinstance(invite_id, bool) or not isinstance(invite_id, int):
            raise WebError(no.LINK_NUMBER_NEEDED)

        def write(conn: Any) -> None:
            club, role = self._seen(conn, slug, user)
            self._need(role, "owner", "admin")
            done = (
                db.revoke_invite(conn, club.id, invite_id)
                if revoke
                else db.set_invite_expiry(conn, club.id, invite_id, lapses)
            )
            if not done:
                raise WebError(no.NO_SUCH_LINK)

        await self._write(write)

    @staticmethod
    def _invitation(conn: Any, key: Any) -> tuple[Any, db.Club]:
        gone = WebError(no.INVITATION_GONE)
        if not isinstance(key, str) or not key or len(key) > SECRET_MAX:
            raise gone
        found = db.invite_by_hash(conn, hash_token(key))
        if found is None or (found.expires_at is not None and _aware(found.expires_at) <= now()):
            raise gone
        club = db.club_by_id(conn, found.club_id)
        if club is None or club.deleted:
            raise gone
        return found, club

    async def invitation(self, key: Any, user: User | None) -> dict[str, Any]:
        """What a link invites to, before joining: the club's name, description and size."""

        def read(conn: Any) -> dict[str, Any]:
            _, club = self._invitation(conn, key)
            member = user is not None and db.role_of(conn, club.id, user.id) is not None
            return {"club": club_json(club, db.member_count(conn, club.id)), "member": member}

        return await self._read(read)

    async def join(self, key: Any, user: User) -> tuple[db.Club, bool]:
        """Join through a link: (the club, whether the account was a member already)."""

        def write(conn: Any) -> tuple[db.Club, bool]:
            found, club = self._invitation(conn, key)
            if db.role_of(conn, club.id, user.id) is not None:
                return club, True
            if db.member_count(conn, club.id) >= MEMBERS_MAX:
                raise WebError(no.CLUB_FULL, n=MEMBERS_MAX)
            db.add_member(conn, club.id, user.id)
            db.count_use(conn, found.id)
            return club, False

        try:
            return await self._write(write)
        except WebError:
            raise
        except Exception as e:  # two joins of one account at once: the primary key keeps one
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                club, _ = await self._read(lambda conn: self._invitation(conn, key)[::-1])
                return club, True
            raise


def club_json(club: db.Club, members: int) -> dict[str, Any]:
    return {
        "slug": club.slug,
        "name": club.name,
        "description": club.description,
        "public": club.public,
        "created": iso(club.created_at),
        "members": members,
        "url": f"/c/{club.slug}",
    }


def season_json(s: db.Season) -> dict[str, Any]:
    return {"number": s.number, "started": iso(s.started_at), "ended": iso(s.ended_at)}


# ------------------------------------------------------------------ a private club's tables, to outsiders
_TABLE_CLUBS: "OrderedDict[str, int | None]" = OrderedDict()  # table id → its club: set at creation, never changed
_TABLE_CLUBS_MAX = 20_000


def _remember(table_id: str, club_id: int | None) -> None:
    _TABLE_CLUBS[table_id] = club_id
    _TABLE_CLUBS.move_to_end(table_id)
    while len(_TABLE_CLUBS) > _TABLE_CLUBS_MAX:
        _TABLE_CLUBS.popitem(last=False)


def _hidden(store: Store, table_id: str, club_id: int | None, known: bool, user_id: int | None) -> bool:
    with store.engine.connect() as conn:
        if not known:
            exists, club_id = db.table_club(conn, table_id)
            if not exists:
                return False  # no such table: the caller says so itself
            _remember(table_id, club_id)
        if club_id is None:
            return False
        club = db.club_by_id(conn, club_id)
        if club is not None and club.public:
            return False
        if user_id is None:
            return True
        if club is not None and not club.deleted and db.role_of(conn, club_id, user_id) is not None:
            return False
        return not db.holds_seat(conn, table_id, user_id)


async def hides_table(lobby: Lobby, table_id: Any, table: Any, viewer: Viewer) -> bool:
    """Whether the table ``table_id`` must be answered to ``viewer`` as if it did not exist: it belongs to a
    private club the viewer is not a member of (and he holds no seat at it).

    ``table``, when the caller has it, is the table (its ``club_id``) or another process's lease (which
    does not say: the database does).  Runs on the process the request reached, before anything is
    relayed to the table's owner: both read the same database."""
    if not isinstance(table_id, str) or len(table_id) > 32:
        return False
    store = lobby.store
    if store is None:
        return False
    known = True
    if table is not None and hasattr(table, "club_id"):
        club_id = table.club_id
    elif table_id in lobby.tables:
        club_id = lobby.tables[table_id].club_id
    elif table_id in _TABLE_CLUBS:
        club_id = _TABLE_CLUBS[table_id]
    else:
        club_id, known = None, False
    if known and club_id is None:
        return False
    user = await viewer()
    return await asyncio.to_thread(_hidden, store, table_id, club_id, known, user.id if user else None)


async def rows_seen(store: Store | None, rows: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The lobby's rows less the tables of private clubs the viewer is not a member of; a club table's row
    names its club ("club": {slug, name})."""
    wanted = sorted({r["club_id"] for r in rows if r.get("club_id") is not None})
    if not wanted:
        return rows
    if store is None:
        return [r for r in rows if r.get("club_id") is None]
    user = await viewer()

    def read() -> tuple[set[int], dict[int, Any]]:
        with store.engine.connect() as c:
            clubs = db.clubs_by_id(c, wanted)
            open_ = {i for i, club in clubs.items() if club.public}
            return open_ | (db.memberships(c, user.id, wanted) if user is not None else set()), clubs

    shown, clubs = await asyncio.to_thread(read)
    out = []
    for r in rows:
        cid = r.get("club_id")
        if cid is None:
            out.append(r)
        elif cid in shown and cid in clubs and not clubs[cid].deleted:
            out.append({**r, "club": {"slug": clubs[cid].slug, "name": clubs[cid].name}})
    return out


async def matches_seen(store: Store | None, matches: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """A profile's matches less those at private clubs' tables the viewer may not see (not a member, no seat)."""
    ids = [m["table"] for m in matches if isinstance(m.get("table"), str)]
    if not ids or store is None:
        return matches

    def private_tables() -> dict[str, int]:
        """The matches' tables that belong to a private (or deleted) club, with their clubs."""
        with store.engine.connect() as c:
            out: dict[str, int] = {}
            for chunk in range(0, len(ids), 500):
                club_of = db.tables_clubs(c, ids[chunk : chunk + 500])
                clubs = db.clubs_by_id(c, sorted(set(club_of.values())))
                out |= {tid: cid for tid, cid in club_of.items() if cid not in clubs or not clubs[cid].public}
            return out

    private = await asyncio.to_thread(private_tables)
    if not private:
        return matches
    user = await viewer()

    def hidden() -> set[str]:
        if user is None:
            return set(private)
        with store.engine.connect() as c:
            mine = db.memberships(c, user.id, sorted(set(private.values())))
            out = {tid for tid, cid in private.items() if cid not in mine}
            return out - db.seats_held(c, sorted(out), user.id) if out else out

    gone = await asyncio.to_thread(hidden)
    return [m for m in matches if m.get("table") not in gone]
