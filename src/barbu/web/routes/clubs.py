"""The clubs' pages and API (the rules are in `barbu.web.clubs.service`).

Pages: ``/clubs`` (public clubs, "my clubs", a form to create one), ``/clubs/join#key=…`` (an invitation
link: its secret after "#", so it never reaches a server's log) and ``/c/{slug}`` (a club: members,
tables, the season's leaderboard, past matches; 404 for a private club to anyone outside it).

API, every POST checking the Origin (`read_json`) and, but the invitation's preview, a logged-in account:

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
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.routing import Route

from ...core.words import N_
from ...games import open_game
from ..accounts.service import COOKIE, Accounts
from ..accounts.store import User
from ..tables.clock import DEFAULT as DEFAULT_CLOCK, TURN_DEFAULT
from ..clubs.service import Clubs, club_json, flag, hides_table, matches_seen, rows_seen
from ..common.i18n import render_page
from ..tables.lobby import parse_rules
from .helpers import RouteHelpers, answer, page_or_missing
from ..common.settings import Settings
from ..tables.sockets import client_address
from ..tables.actor import TableError, requested_clock

if TYPE_CHECKING:
    from ..tables.lobby import Lobby

__all__ = ["club_routes", "club_hides", "visible_matches", "visible_rows"]


async def viewer(conn: HTTPConnection) -> User | None:
    """The account logged in on a request's or WebSocket's browser."""
    return await conn.app.state.accounts.session_user(conn.cookies.get(COOKIE))


async def club_hides(conn: HTTPConnection, table_id: Any, table: Any = None) -> bool:
    """Whether the table ``table_id`` must be answered, to this request or WebSocket, as if it did not exist
    (a private club's, to an outsider: `barbu.web.clubs.service.hides_table`)."""
    return await hides_table(conn.app.state.lobby, table_id, table, lambda: viewer(conn))


async def visible_rows(conn: HTTPConnection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's rows as this browser may see them (`barbu.web.clubs.service.rows_seen`)."""
    return await rows_seen(conn.app.state.lobby.store, rows, lambda: viewer(conn))


async def visible_matches(conn: HTTPConnection, matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A profile's matches as this browser may see them (`barbu.web.clubs.service.matches_seen`)."""
    return await matches_seen(conn.app.state.lobby.store, matches, lambda: viewer(conn))



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
        out.append({"kind": "open", "name": "", "strength": None, "account": False, "rating": None} if s is None else
                   {"kind": s.kind, "name": s.name, "strength": s.strength,
                    "account": s.user_id is not None and not s.left, "rating": None})
    return {"id": rec.id, "rules": rec.rules, "players": n, "status": rec.status, "private": False,
            "rated": bool(rec.rated), "club_id": club_id, "turn_based": bool(rec.turn_based), "seats": out,
            "open_seats": sum(1 for s in out if s["kind"] == "open"), "spectators": 0}


def club_routes(settings: Settings, lobby: "Lobby", accounts: Accounts,
                read_json: Callable[..., Awaitable[dict[str, Any]]]) -> list[Route]:
    clubs = Clubs(lambda: lobby.store)
    helpers = RouteHelpers(accounts, read_json)
    current, action = helpers.current, helpers.action

    def slug(request: Request) -> str:
        return request.path_params["slug"]

    # -- pages --
    async def clubs_page(request: Request) -> Response:
        return render_page(request, settings, "clubs.html", joining=request.url.path.rstrip("/") == "/clubs/join")

    async def club_page(request: Request) -> Response:
        return await page_or_missing(request, settings, "club.html",
                                     clubs.visible(slug(request), await current(request)),
                                     lambda found: {"club_name": found[0].name if found else ""})

    # -- the lists, and making a club --
    async def list_or_create(request: Request) -> Response:
        if request.method == "GET":
            return answer(await clubs.listing(await current(request)))
        return await create(request)

    async def new_club(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        club = await clubs.create(user, data)
        return {"club": club_json(club, 1) | {"role": "owner"}}
    create = action(new_club, 201)

    # -- invitations --
    async def invitation(request: Request) -> Response:
        data = await read_json(request)
        return answer(await clubs.invitation(data.get("key"), await current(request)))

    async def join(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        club, already = await clubs.join(data.get("key"), user)
        return {"club": club_json(club, 0), "already": already}

    async def new_invite(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        secret, invite = await clubs.invite(slug(request), user, data.get("hours"))
        return {"invite": invite, "key": secret, "url": f"/clubs/join#key={secret}"}

    async def revoke(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.change_invite(slug(request), user, request.path_params["invite"], True)

    async def invite_expiry(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.change_invite(slug(request), user, request.path_params["invite"], False, data.get("hours"))

    # -- the club --
    async def club_tables(club_id: int) -> list[dict[str, Any]]:
        """The club's unfinished tables, newest first: as this process or the others last published them, else
        as the database holds them."""
        listed = {r["id"]: r for r in lobby.listing() if r.get("club_id") == club_id}
        out = []
        for rec, seats in await clubs.tables_of(club_id):
            t = lobby.tables.get(rec.id)
            out.append(t.summary() if t is not None else listed.get(rec.id) or stored_row(rec, seats, club_id))
        return out

    async def club_data(request: Request) -> Response:
        user = await current(request)
        body = await clubs.page(slug(request), user)
        body["tables"] = await club_tables(body.pop("_club_id"))
        return answer(body)

    async def season_data(request: Request) -> Response:
        return answer(await clubs.season_page(slug(request), request.path_params["number"], await current(request)))

    async def older_matches(request: Request) -> Response:
        return answer(await clubs.matches(slug(request), request.query_params.get("before"), await current(request)))

    async def tables(request: Request) -> Response:
        """GET: the club's unfinished tables (the page refreshes them); POST: a new one (`club_table`)."""
        if request.method == "POST":
            return await new_table(request)
        club, _ = await clubs.visible(slug(request), await current(request))
        return answer({"tables": await club_tables(club.id)})

    async def club_table(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        """A club table, made by a member from the club's page; its creator's credential given once, as in
        the lobby.  A private club's table is listed and seated for its members only (`club_hides`)."""
        club, role = await clubs.visible(slug(request), user)
        if role is None:
            raise TableError(N_("only the club's members may create its tables"), 403)
        rules = parse_rules(data.get("rules"), data.get("players"))
        rated = flag(data.get("rated", False), "rated")
        turn_based = flag(data.get("turn_based", False), "turn_based")
        clock = requested_clock(data.get("clock", TURN_DEFAULT if turn_based else DEFAULT_CLOCK), turn_based)
        t, creator = await lobby.create(rules, address=client_address(request), clock=clock, rated=rated,
                                        club_id=club.id, turn_based=turn_based)
        return {"id": t.id, "url": f"/t/{t.id}", "creator": creator, "table": t.info()}
    new_table = action(club_table, 201)

    async def leave(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.leave(slug(request), user)

    async def role(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.set_role(slug(request), user, data.get("member"), data.get("role"))

    async def remove(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.remove(slug(request), user, data.get("member"))

    async def owner(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.hand_over(slug(request), user, data.get("member"))

    async def season(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        return {"season": await clubs.close_season(slug(request), user, data.get("season"))}

    async def edit(request: Request, data: dict[str, Any], user: User) -> None:
        await clubs.edit(slug(request), user, data)

    async def delete(request: Request, data: dict[str, Any], user: User) -> dict[str, Any]:
        await clubs.delete(slug(request), user, data.get("name"))
        return {"deleted": True}

    return [
        Route("/clubs", clubs_page),
        Route("/clubs/join", clubs_page),
        Route("/c/{slug}", club_page),
        Route("/api/clubs", list_or_create, methods=["GET", "POST"]),
        Route("/api/clubs/invitation", invitation, methods=["POST"]),
        Route("/api/clubs/join", action(join), methods=["POST"]),
        Route("/api/clubs/{slug}", club_data),
        Route("/api/clubs/{slug}/seasons/{number}", season_data),
        Route("/api/clubs/{slug}/matches", older_matches),
        Route("/api/clubs/{slug}/tables", tables, methods=["GET", "POST"]),
        Route("/api/clubs/{slug}/invites", action(new_invite, 201), methods=["POST"]),
        Route("/api/clubs/{slug}/invites/{invite:int}/revoke", action(revoke), methods=["POST"]),
        Route("/api/clubs/{slug}/invites/{invite:int}/expiry", action(invite_expiry), methods=["POST"]),
        Route("/api/clubs/{slug}/leave", action(leave), methods=["POST"]),
        Route("/api/clubs/{slug}/role", action(role), methods=["POST"]),
        Route("/api/clubs/{slug}/remove", action(remove), methods=["POST"]),
        Route("/api/clubs/{slug}/owner", action(owner), methods=["POST"]),
        Route("/api/clubs/{slug}/season", action(season), methods=["POST"]),
        Route("/api/clubs/{slug}/edit", action(edit), methods=["POST"]),
        Route("/api/clubs/{slug}/delete", action(delete), methods=["POST"]),
    ]
