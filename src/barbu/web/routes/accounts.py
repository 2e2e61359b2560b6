"""The accounts' pages and API: sign up, log in and out, the account's own changes, and its data.

``POST /api/account/signup`` and ``/login`` {name, password} set the session cookie; ``/logout``,
``/logout-all``, ``/password`` {old, new}, ``/delete`` {password}, ``/reset`` {key, password} (a one-time
link from ``barbu users reset-password``, its key after the link's "#", so never in a log) and ``/claim``
{tables: [{id, token}]} (the finished matches this browser played as a guest).  ``GET /api/account``
says who is logged in; ``GET /api/account/data`` is "Download my data".  Every POST checks the Origin
(`read_json`), so another site cannot log a visitor in or out.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ... import ratings
from ...core.words import N_
from ..accounts import store as db
from ..profiles import history
from ..accounts.service import COOKIE, SESSION_DAYS, Accounts, fold, open_store
from ..accounts.store import User
from ..clubs.service import visible_matches
from ..common.mail import valid_email
from ...i18n import translator
from ..common.i18n import page_language, render_page
from ..common.settings import Settings
from ..tables.sockets import client_address
from ..db.storage import Store
from ..tables.actor import NAME_MAX, TableError

NO_STORE = {"cache-control": "no-store"}
CLAIM_MAX = 200  # tables one claim may name


def user_json(user: User | None) -> dict[str, Any] | None:
    return None if user is None else {"name": user.name, "profile": f"/u/{user.name}",
                                      "since": user.created_at.date().isoformat()}


def mail_settings(store: Store, user_id: int) -> tuple[str | None, bool] | None:
    with store.engine.connect() as conn:
        found = db.mail_of(conn, user_id)
    return None if found is None else (found[0], found[1])


def account_routes(settings: Settings, accounts: Accounts, read_json: Callable[..., Awaitable[dict[str, Any]]],
                   take_signup: Callable[[str], Awaitable[int]]) -> list[Route]:
    """``take_signup(address)``: 0 when the address may sign up again now (counted), else minutes to wait."""

    async def current(request: Request) -> User | None:
        return await accounts.session_user(request.cookies.get(COOKIE))

    async def required(request: Request) -> User:
        user = await current(request)
        if user is None:
            raise TableError(N_("log in first: your session has ended"), 401)
        return user

    def with_session(request: Request, body: dict[str, Any], token: str | None, status: int = 200) -> Response:
        """The answer, setting (a token) or clearing (None) the session cookie."""
        response = JSONResponse(body, status_code=status, headers=NO_STORE)
        secure = request.url.scheme == "https"  # directly, or through a proxy the operator named
        if token is None:
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
        else:
            response.set_cookie(COOKIE, token, max_age=SESSION_DAYS * 24 * 3600, path="/", httponly=True,
                                samesite="lax", secure=secure)
        return response

    async def me(request: Request) -> Response:
        """Who is logged in; to himself, his e-mail settings too (nobody else ever reads them)."""
        user = await current(request)
        body: dict[str, Any] = {"user": user_json(user), "mail": settings.smtp_host is not None}
        if user is not None:
            found = await asyncio.to_thread(mail_settings, accounts.store, user.id)
            if found is not None:
                body["user"] |= {"email": found[0], "notify_turns": found[1]}
        return JSONResponse(body, headers=NO_STORE)

    async def notify(request: Request) -> Response:
        """{"email": …, "notify": true|false}: "your turn" e-mails at turn-based tables, or none."""
        data = await read_json(request)
        user = await required(request)
        email, on = data.get("email"), data.get("notify")
        if not isinstance(on, bool):
            raise TableError(N_("\"notify\" is true or false"))
        if email in (None, ""):
            email = None
        elif not valid_email(email):
            raise TableError(N_("that is not an e-mail address"))
        if on and email is None:
            raise TableError(N_("give the e-mail address to write to"))
        if on and settings.smtp_host is None:
            raise TableError(N_("this server sends no e-mails"), 409)
        store = accounts.store

        def write() -> None:
            with store.engine.begin() as conn:
                db.set_mail(conn, user.id, email, on)
        await asyncio.to_thread(write)
        return JSONResponse({"email": email, "notify_turns": on}, headers=NO_STORE)

    async def turns(request: Request) -> Response:
        """"Your turn": every turn-based table waiting for the logged-in player's decision, longest first."""
        user = await required(request)
        rows = await asyncio.to_thread(history.waiting_for, accounts.store, user.id)
        return JSONResponse({"tables": rows}, headers=NO_STORE)

    async def remember_lang(request: Request, user: User) -> None:
        """The language his e-mails are written in: the page's, at each log-in."""
        lang = page_language(request, settings)
        store = accounts.store

        def write() -> None:
            with store.engine.begin() as conn:
                db.set_lang(conn, user.id, lang)
        await asyncio.to_thread(write)

    async def sign_up(request: Request) -> Response:
        data = await read_json(request)
        wait = await take_signup(client_address(request))
        if wait:
            raise TableError(N_("too many accounts were made from your address: try again in {n} minutes"), 429,
                             n=wait)
        user, token = await accounts.sign_up(data.get("name"), data.get("password"))
        await remember_lang(request, user)
        return with_session(request, {"user": user_json(user)}, token, 201)

    async def log_in(request: Request) -> Response:
        data = await read_json(request)
        user, token = await accounts.log_in(data.get("name"), data.get("password"), client_address(request))
        await remember_lang(request, user)
        return with_session(request, {"user": user_json(user)}, token)

    async def log_out(request: Request) -> Response:
        await read_json(request)
        await accounts.log_out(request.cookies.get(COOKIE))
        return with_session(request, {"user": None}, None)

    async def log_out_everywhere(request: Request) -> Response:
        await read_json(request)
        user = await required(request)
        await accounts.log_out_everywhere(user)
        return with_session(request, {"user": None}, None)

    async def password(request: Request) -> Response:
        data = await read_json(request)
        user = await required(request)
        token = await accounts.change_password(user, data.get("old"), data.get("new"))
        return with_session(request, {"user": user_json(user)}, token)

    async def delete(request: Request) -> Response:
        data = await read_json(request)
        user = await required(request)
        await accounts.delete(user, data.get("password"))
        return with_session(request, {"user": None, "deleted": True}, None)

    async def reset(request: Request) -> Response:
        data = await read_json(request)
        user, token = await accounts.use_reset(data.get("key"), data.get("password"))
        return with_session(request, {"user": user_json(user)}, token)

    async def claim(request: Request) -> Response:
        data = await read_json(request, 64 * 1024)
        user = await required(request)
        tables = data.get("tables")
        if not isinstance(tables, list) or len(tables) > CLAIM_MAX:
            raise TableError(N_("send the tables to claim as a list of at most {n}"), n=CLAIM_MAX)
        pairs = [(t.get("id"), t.get("token")) for t in tables if isinstance(t, dict)]
        pairs = [(i, k) for i, k in pairs if isinstance(i, str) and isinstance(k, str) and len(i) <= 32
                 and len(k) <= 200]
        claimed = await asyncio.to_thread(history.claim, accounts.store, user, pairs)
        return JSONResponse({"claimed": claimed}, headers=NO_STORE)

    async def my_data(request: Request) -> Response:
        user = await required(request)
        data = await asyncio.to_thread(history.download, accounts.store, user)
        return JSONResponse(data, headers={**NO_STORE, "content-disposition":
                                           f'attachment; filename="barbu-{user.id}-data.json"'})

    async def account_page(request: Request) -> Response:
        return render_page(request, settings, "account.html")

    return [
        Route("/account", account_page),
        Route("/account/reset", account_page),
        Route("/api/account", me),
        Route("/api/account/signup", sign_up, methods=["POST"]),
        Route("/api/account/login", log_in, methods=["POST"]),
        Route("/api/account/logout", log_out, methods=["POST"]),
        Route("/api/account/logout-all", log_out_everywhere, methods=["POST"]),
        Route("/api/account/password", password, methods=["POST"]),
        Route("/api/account/delete", delete, methods=["POST"]),
        Route("/api/account/reset", reset, methods=["POST"]),
        Route("/api/account/claim", claim, methods=["POST"]),
        Route("/api/account/data", my_data),
        Route("/api/account/notify", notify, methods=["POST"]),
        Route("/api/account/turns", turns),
    ]



def player_routes(settings: Settings, store: Callable[[], Store | None],
                  viewer: Callable[[Request], Awaitable[User | None]] | None = None) -> list[Route]:
    """Players' public pages: a profile (``/u/{name}``, its data at ``/api/players/{name}``) and the
    leaderboards (``/leaderboard``, ``/api/leaderboards/{game}``)."""

    def the_store() -> Store:
        return open_store(store)

    async def profile_data(request: Request) -> Response:
        name = request.path_params["name"]
        found = None
        if len(name) <= NAME_MAX * 4:
            reader = await viewer(request) if viewer is not None else None
            found = await asyncio.to_thread(history.profile, the_store(), fold(name), history.HISTORY_PAGE,
                                            reader.id if reader is not None else None)
        if found is None:
            raise TableError(N_("there is no player named {name}"), 404, name=name[:NAME_MAX])
        found["matches"] = await visible_matches(request, found["matches"])  # a private club's, to outsiders: none
        words = translator(page_language(request, settings))
        for game in found["stats"]:  # contract names in the reader's language
            for c in game["contracts"]:
                c["name"] = words.gettext(c["name"])
        return JSONResponse(found, headers={"cache-control": "no-cache"})

    async def board_data(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in ratings.GAMES:
            raise TableError(N_("there is no leaderboard for '{game}'; choose from: {games}"), 404,
                             game=game[:40], games=", ".join(ratings.GAMES))
        rows = await asyncio.to_thread(history.leaderboard, the_store(), game)
        return JSONResponse({"game": game, "minimum": history.LEADERBOARD_MIN, "players": rows},
                            headers={"cache-control": "no-cache"})

    async def profile_page(request: Request) -> Response:
        return render_page(request, settings, "profile.html")

    async def board_page(request: Request) -> Response:
        return render_page(request, settings, "leaderboard.html", games=ratings.GAMES)

    return [
        Route("/u/{name}", profile_page),
        Route("/api/players/{name}", profile_data),
        Route("/leaderboard", board_page),
        Route("/api/leaderboards/{game}", board_data),
    ]
