"""The clubs' pages and API (the rules are in `barbu.web.clubs.service`).

Pages: ``/clubs`` (public clubs, "my clubs", a form to create one), ``/clubs/join#key=…`` (an invitation
link: its secret after "#", so it never reaches a server's log) and ``/c/{slug}`` (a club: members,
tables, the season's leaderboard, past matches; 404 for a private club to anyone outside it).

API, every POST checking the Origin (`bodies.read_json`) and, but the invitation's preview, a logged-in account:

- ``GET /api/clubs``: {public, mine}; ``POST /api/clubs`` {name, description, public}: a new club.
- ``POST /api/clubs/invitation`` {key}: what a link invites to; ``POST /api/clubs/join`` {key}: join.
- ``GET /api/clubs/{slug}``: the page's data; ``GET /api/clubs/{slug}/seasons/{n}``: a season's
  leaderboard; ``GET /api/clubs/{slug}/matches?before=ISO``: older matches.
- ``GET /api/clubs/{slug}/tables``: its unfinished tables; ``POST`` {rules, players, clock, rated,
  turn_based}: a new club table (members).
- ``POST /api/clubs/{slug}/invites`` {hours|null}: a new link (owner, admins), its secret given once;
  ``…/invites/{id}/revoke``, ``…/invites/{id}/expiry`` {hours|null}.
- ``POST /api/clubs/{slug}/leave``; ``…/role`` {member, role}, ``…/owner`` {member} (hand over),
  ``…/season`` {season} (close it, begin the next), ``…/edit`` {description, public}, ``…/delete`` {name}
  (owner); ``…/remove`` {member} (owner; an admin for plain members).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...games import open_game
from ..accounts.store import User
from ..clubs.service import club_json, flag, hides_table, matches_seen, reserve_club, rows_seen
from ..common.errors import WebError
from ..tables.actor import requested_clock
from ..tables.clock import DEFAULT as DEFAULT_CLOCK
from ..tables.clock import TURN_DEFAULT
from ..tables.lobby import parse_rules
from ..tables.sockets import client_address
from . import payloads as p
from . import refusals as R
from .bodies import decode
from .helpers import action, answer, page, page_or_missing, user_of
from .services import services


# -- a private club's tables, as a request's or a WebSocket's browser may see them (`barbu.web.clubs.service`)
async def club_hides(conn: HTTPConnection, table_id: Any, table: Any = None) -> bool:
    """Whether the table ``table_id`` must be answered to this browser as if it did not exist (a private club's,
    to an outsider: `barbu.web.clubs.service.hides_table`)."""
    return await hides_table(services(conn).lobby, table_id, table, lambda: user_of(conn))


async def visible_rows(conn: HTTPConnection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's rows as this browser may see them (`barbu.web.clubs.service.rows_seen`)."""
    return await rows_seen(services(conn).lobby.store, rows, lambda: user_of(conn))


async def visible_matches(conn: HTTPConnection, matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A profile's matches as this browser may see them (`barbu.web.clubs.service.matches_seen`)."""
    return await matches_seen(services(conn).lobby.store, matches, lambda: user_of(conn))


@lru_cache(maxsize=256)
def _players(rules: str) -> int:
    try:
        return int(open_game(rules, 1).n)
    except Exception:
        return 0


def stored_row(rec: Any, seats: list[Any], club_id: int) -> dict[str, Any]:
    """A club table another process plays, as the lobby lists tables, from what the database holds."""
    n = max(_players(rec.rules), len(seats), max((s.seat + 1 for s in seats), default=0))
    by_seat = {s.seat: s for s in seats}
    out = []
    for i in range(n):
        s = by_seat.get(i)
        out.append(
            {"kind": "open", "name": "", "strength": None, "account": False, "rating": None}
            if s is None
            else {
                "kind": s.kind,
                "name": s.name,
                "strength": s.strength,
                "account": s.user_id is not None and not s.left,
                "rating": None,
            }
        )
    return {
        "id": rec.id,
        "rules": rec.rules,
        "players": n,
        "status": rec.status,
        "private": False,
        "rated": bool(rec.rated),
        "club_id": club_id,
        "turn_based": bool(rec.turn_based),
        "seats": out,
        "open_seats": sum(1 for s in out if s["kind"] == "open"),
        "spectators": 0,
    }


def slug(request: Request) -> str:
    found: str = request.path_params["slug"]
    return found


# -- pages
async def clubs_page(request: Request) -> Response:
    return page(request, "clubs.html", joining=request.url.path.rstrip("/") == "/clubs/join")


async def club_page(request: Request) -> Response:
    return await page_or_missing(
        request,
        "club.html",
        services(request).clubs.visible(slug(request), await user_of(request)),
        lambda found: {"club_name": found[0].name if found else ""},
    )


# -- the lists, and making a club
@action(p.ClubForm, 201)
async def create(request: Request, body: p.ClubForm, user: User) -> dict[str, Any]:
    lobby, limit, address = services(request).lobby, services(request).settings.clubs_per_day, client_address(request)
    club = await services(request).clubs.create(
        user, body.given(), lambda who: reserve_club(lobby.creations, who, address, limit)
    )
    return {"club": club_json(club, 1) | {"role": "owner"}}


async def list_or_create(request: Request) -> Response:
    if request.method == "GET":
        return answer(await services(request).clubs.listing(await user_of(request)))
    return await create(request)


# -- invitations
async def invitation(request: Request) -> Response:
    body = await decode(request, p.Key)
    return answer(await services(request).clubs.invitation(body.key, await user_of(request)))


@action(p.Key)
async def join(request: Request, body: p.Key, user: User) -> dict[str, Any]:
    club, already = await services(request).clubs.join(body.key, user)
    return {"club": club_json(club, 0), "already": already}


@action(p.Hours, 201)
async def new_invite(request: Request, body: p.Hours, user: User) -> dict[str, Any]:
    secret, invite = await services(request).clubs.invite(slug(request), user, body.hours)
    return {"invite": invite, "key": secret, "url": f"/clubs/join#key={secret}"}


@action(p.Empty)
async def revoke(request: Request, body: p.Empty, user: User) -> None:
    await services(request).clubs.change_invite(slug(request), user, request.path_params["invite"], True)


@action(p.Hours)
async def invite_expiry(request: Request, body: p.Hours, user: User) -> None:
    await services(request).clubs.change_invite(slug(request), user, request.path_params["invite"], False, body.hours)


# -- the club
async def club_tables(request: Request, club_id: int) -> list[dict[str, Any]]:
    """The club's unfinished tables, newest first: as this process or the others last published them, else
    as the database holds them."""
    lobby = services(request).lobby
    listed = {r["id"]: r for r in lobby.listing() if r.get("club_id") == club_id}
    out = []
    for rec, seats in await services(request).clubs.tables_of(club_id):
        t = lobby.tables.get(rec.id)
        out.append(t.summary() if t is not None else listed.get(rec.id) or stored_row(rec, seats, club_id))
    return out


async def club_data(request: Request) -> Response:
    user = await user_of(request)
    body = await services(request).clubs.page(slug(request), user)
    body["tables"] = await club_tables(request, body.pop("_club_id"))
    return answer(body)


async def season_data(request: Request) -> Response:
    return answer(
        await services(request).clubs.season_page(slug(request), request.path_params["number"], await user_of(request))
    )


async def older_matches(request: Request) -> Response:
    return answer(
        await services(request).clubs.matches(slug(request), request.query_params.get("before"), await user_of(request))
    )


@action(p.ClubTable, 201)
async def new_table(request: Request, body: p.ClubTable, user: User) -> dict[str, Any]:
    """A club table, made by a member from the club's page; its creator's credential given once, as in
    the lobby.  A private club's table is listed and seated for its members only (`club_hides`)."""
    club, role = await services(request).clubs.visible(slug(request), user)
    if role is None:
        raise WebError(R.MEMBERS_ONLY_TABLES)
    rules = parse_rules(body.rules, body.players)
    rated = flag(body.rated, "rated")
    turn_based = flag(body.turn_based, "turn_based")
    clock = requested_clock(
        (TURN_DEFAULT if turn_based else DEFAULT_CLOCK) if body.clock is p.UNSET else body.clock, turn_based
    )
    t, creator = await services(request).lobby.create(
        rules, address=client_address(request), clock=clock, rated=rated, club_id=club.id, turn_based=turn_based
    )
    return {"id": t.id, "url": f"/t/{t.id}", "creator": creator, "table": t.info()}


async def tables(request: Request) -> Response:
    """GET: the club's unfinished tables (the page refreshes them); POST: a new one (`new_table`)."""
    if request.method == "POST":
        return await new_table(request)
    club, _ = await services(request).clubs.visible(slug(request), await user_of(request))
    return answer({"tables": await club_tables(request, club.id)})


@action(p.Empty)
async def leave(request: Request, body: p.Empty, user: User) -> None:
    await services(request).clubs.leave(slug(request), user)


@action(p.MemberRole)
async def role(request: Request, body: p.MemberRole, user: User) -> None:
    await services(request).clubs.set_role(slug(request), user, body.member, body.role)


@action(p.Member)
async def remove(request: Request, body: p.Member, user: User) -> None:
    await services(request).clubs.remove(slug(request), user, body.member)


@action(p.Member)
async def owner(request: Request, body: p.Member, user: User) -> None:
    await services(request).clubs.hand_over(slug(request), user, body.member)


@action(p.Season)
async def season(request: Request, body: p.Season, user: User) -> dict[str, Any]:
    return {"season": await services(request).clubs.close_season(slug(request), user, body.season)}


@action(p.ClubForm)
async def edit(request: Request, body: p.ClubForm, user: User) -> None:
    await services(request).clubs.edit(slug(request), user, body.given())


@action(p.Named)
async def delete(request: Request, body: p.Named, user: User) -> dict[str, Any]:
    await services(request).clubs.delete(slug(request), user, body.name)
    return {"deleted": True}


ROUTES: list[BaseRoute] = [
    Route("/clubs", clubs_page),
    Route("/clubs/join", clubs_page),
    Route("/c/{slug}", club_page),
    Route("/api/clubs", list_or_create, methods=["GET", "POST"]),
    Route("/api/clubs/invitation", invitation, methods=["POST"]),
    Route("/api/clubs/join", join, methods=["POST"]),
    Route("/api/clubs/{slug}", club_data),
    Route("/api/clubs/{slug}/seasons/{number}", season_data),
    Route("/api/clubs/{slug}/matches", older_matches),
    Route("/api/clubs/{slug}/tables", tables, methods=["GET", "POST"]),
    Route("/api/clubs/{slug}/invites", new_invite, methods=["POST"]),
    Route("/api/clubs/{slug}/invites/{invite:int}/revoke", revoke, methods=["POST"]),
    Route("/api/clubs/{slug}/invites/{invite:int}/expiry", invite_expiry, methods=["POST"]),
    Route("/api/clubs/{slug}/leave", leave, methods=["POST"]),
    Route("/api/clubs/{slug}/role", role, methods=["POST"]),
    Route("/api/clubs/{slug}/remove", remove, methods=["POST"]),
    Route("/api/clubs/{slug}/owner", owner, methods=["POST"]),
    Route("/api/clubs/{slug}/season", season, methods=["POST"]),
    Route("/api/clubs/{slug}/edit", edit, methods=["POST"]),
    Route("/api/clubs/{slug}/delete", delete, methods=["POST"]),
]
