"""The accounts' pages and API: sign up, log in and out, the account's own changes, and its data.

``POST /api/account/signup`` and ``/login`` {name, password} set the session cookie; ``/logout``,
``/logout-all``, ``/password`` {old, new}, ``/delete`` {password}, ``/reset`` {key, password} (a one-time
link from ``barbu users reset-password``, its key after the link's "#", so never in a log) and ``/claim``
{tables: [{id, token}]} (the finished matches this browser played as a guest).  ``GET /api/account``
says who is logged in; ``GET /api/account/data`` is "Download my data".  Every POST checks the Origin
(`bodies.read_json`), so another site cannot log a visitor in or out.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..accounts import devices
from ..accounts import store as db
from ..accounts.service import COOKIE, SESSION_DAYS, fold
from ..accounts.store import User
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.mail import valid_email
from ..profiles import history
from ..tables.sockets import client_address
from . import payloads as p
from . import refusals as R
from .bodies import decode, read_json, shaped
from .helpers import NO_STORE, page, required, user_of
from .services import services

CLAIM_MAX = p.CLAIM_MAX


def user_json(user: User | None) -> dict[str, Any] | None:
    return (
        None
        if user is None
        else {"name": user.name, "profile": f"/u/{user.name}", "since": user.created_at.date().isoformat()}
    )


async def logged_in(request: Request) -> User:
    """The account of the session; refused (401) when it has ended."""
    return await required(request, R.SESSION_ENDED)


def with_session(request: Request, body: dict[str, Any], token: str | None, status: int = 200) -> Response:
    """The answer, setting (a token) or clearing (None) the session cookie."""
    response = JSONResponse(body, status_code=status, headers=NO_STORE)
    secure = request.url.scheme == "https"  # directly, or through a proxy the operator named
    if token is None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
    else:
        response.set_cookie(
            COOKIE, token, max_age=SESSION_DAYS * 24 * 3600, path="/", httponly=True, samesite="lax", secure=secure
        )
    return response


async def me(request: Request) -> Response:
    """Who is logged in; to himself, his e-mail settings too (nobody else ever reads them)."""
    s = services(request)
    user = await user_of(request)
    body: dict[str, Any] = {"user": user_json(user), "mail": s.settings.smtp_host is not None}
    if user is not None:  # his address, whether confirmed, and when its link was sent (accounts/email.py)
        body["user"] |= (await s.mail.address(user)).json()
    return JSONResponse(body, headers=NO_STORE)


async def notify(request: Request) -> Response:
    """{"email": …, "notify": true|false}: "your turn" e-mails at turn-based tables, or none."""
    s = services(request)
    data = await read_json(request)
    user = await logged_in(request)
    body = shaped(data, p.Notify)
    email, on = body.email, body.notify
    if email in (None, ""):
        email = None
    elif not valid_email(email):
        raise WebError(R.NOT_AN_EMAIL)
    if on and email is None:
        raise WebError(R.NO_EMAIL)
    if on and s.settings.smtp_host is None:
        raise WebError(R.NO_MAIL)
    found, sent = await s.mail.save(user, email, on)  # a new address is unconfirmed and sent its link
    return JSONResponse(found.json() | {"sent": sent}, headers=NO_STORE)


async def turns(request: Request) -> Response:
    """ "Your turn": every turn-based table waiting for the logged-in player's decision, longest first."""
    user = await logged_in(request)
    rows = await asyncio.to_thread(history.waiting_for, services(request).accounts.store, user.id)
    return JSONResponse({"tables": rows}, headers=NO_STORE)


async def remember_lang(request: Request, user: User) -> None:
    """The language his e-mails are written in: the page's, at each log-in."""
    s = services(request)
    lang = page_language(request, s.settings)
    store = s.accounts.store

    def write() -> None:
        with store.engine.begin() as conn:
            db.set_lang(conn, user.id, lang)

    await asyncio.to_thread(write)


def known_browser(request: Request, response: Response, cookie: str) -> Response:
    """The known-browser cookie (`accounts.devices`) set on a log-in's answer."""
    response.set_cookie(
        devices.COOKIE,
        cookie,
        max_age=devices.DAYS * 24 * 3600,
        path="/api/account",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def sign_up(request: Request) -> Response:
    """A new account.  The name and password are weighed first (a refused one counts nothing), then the
    address's sign-up is counted in one step (`Creations.take`), before the password is hashed."""
    s = services(request)
    body = await decode(request, p.Credentials)

    async def count() -> None:
        wait = await s.lobby.creations.take(client_address(request), "signup", s.settings.signups_per_hour)
        if wait:
            raise WebError(R.TOO_MANY_SIGNUPS, n=wait)

    user, token = await s.accounts.sign_up(body.name, body.password, count)
    await remember_lang(request, user)
    cookie = s.accounts.devices.remember(request.cookies.get(devices.COOKIE), fold(user.name))
    return known_browser(request, with_session(request, {"user": user_json(user)}, token, 201), cookie)


async def log_in(request: Request) -> Response:
    body = await decode(request, p.Credentials)
    known = request.cookies.get(devices.COOKIE)
    user, token, cookie = await services(request).accounts.log_in(
        body.name, body.password, client_address(request), known
    )
    await remember_lang(request, user)
    return known_browser(request, with_session(request, {"user": user_json(user)}, token), cookie)


async def log_out(request: Request) -> Response:
    await decode(request, p.Empty)
    await services(request).accounts.log_out(request.cookies.get(COOKIE))
    return with_session(request, {"user": None}, None)


async def log_out_everywhere(request: Request) -> Response:
    await decode(request, p.Empty)
    user = await logged_in(request)
    await services(request).accounts.log_out_everywhere(user)
    return with_session(request, {"user": None}, None)


async def password(request: Request) -> Response:
    data = await read_json(request)
    user = await logged_in(request)
    body = shaped(data, p.PasswordChange)
    token = await services(request).accounts.change_password(user, body.old, body.new)
    return with_session(request, {"user": user_json(user)}, token)


async def delete(request: Request) -> Response:
    data = await read_json(request)
    user = await logged_in(request)
    body = shaped(data, p.Password)
    await services(request).accounts.delete(user, body.password)
    return with_session(request, {"user": None, "deleted": True}, None)


async def reset(request: Request) -> Response:
    body = await decode(request, p.Reset)
    user, token = await services(request).accounts.use_reset(body.key, body.password)
    return with_session(request, {"user": user_json(user)}, token)


async def claim(request: Request) -> Response:
    data = await read_json(request, 64 * 1024)
    user = await logged_in(request)
    body = shaped(data, p.Claim)
    pairs = [(t.get("id"), t.get("token")) for t in body.tables if isinstance(t, dict)]
    kept = [(i, k) for i, k in pairs if isinstance(i, str) and isinstance(k, str) and len(i) <= 32 and len(k) <= 200]
    claimed = await asyncio.to_thread(history.claim, services(request).accounts.store, user, kept)
    return JSONResponse({"claimed": claimed}, headers=NO_STORE)


async def my_data(request: Request) -> Response:
    user = await logged_in(request)
    data = await asyncio.to_thread(history.download, services(request).accounts.store, user)
    return JSONResponse(
        data, headers={**NO_STORE, "content-disposition": f'attachment; filename="barbu-{user.id}-data.json"'}
    )


async def account_page(request: Request) -> Response:
    return page(request, "account.html")


ROUTES: list[BaseRoute] = [
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
