"""What the routes share: who is logged in, a JSON answer, a POST that acts for an account, a page (or its
404), and the answer to a refusal.

A refusal is a `WebError` raised anywhere below a handler; `web_error` (the application's handler for it)
answers it with its status (`status_of`) and its words in the reader's language.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response

from ..accounts.service import COOKIE
from ..accounts.store import User
from ..common.errors import MISSING, Refusal, WebError, status_of
from ..common.i18n import TEMPLATES, page_language, render_page
from ..common.wording import error_json
from . import refusals as R
from .bodies import read_json, shaped
from .payloads import Payload
from .services import services

NO_STORE = {"cache-control": "no-store"}
STATIC = Path(__file__).parent.parent / "static"
P = TypeVar("P", bound=Payload)
Endpoint = Callable[[Request], Awaitable[Response]]

#: A service call behind a POST: (the request, its body, the logged-in account) -> the answer's body
#: (None: ``{"ok": true}``).
Handler = Callable[[Request, P, User], Awaitable[dict[str, Any] | None]]


def answer(body: dict[str, Any], status: int = 200) -> Response:
    """A JSON answer no cache keeps (it is the reader's own view)."""
    return JSONResponse(body, status_code=status, headers=NO_STORE)


async def user_of(conn: HTTPConnection) -> User | None:
    """The account logged in on this request's or WebSocket's browser (its session cookie), else None."""
    return await services(conn).accounts.session_user(conn.cookies.get(COOKIE))


async def required(conn: HTTPConnection, refusal: Refusal = R.LOG_IN) -> User:
    """The logged-in account; refused (401) to a guest."""
    user = await user_of(conn)
    if user is None:
        raise WebError(refusal)
    return user


def action(kind: type[P], status: int = 200) -> Callable[[Handler[P]], Endpoint]:
    """A POST endpoint: the body read first (its Origin and size checked), then the account required, then the
    body shaped as ``kind`` and the handler called; its body answered with ``status``, or ``{"ok": true}``."""

    def wrap(handler: Handler[P]) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            data = await read_json(request)
            user = await required(request)
            body = await handler(request, shaped(data, kind), user)
            return answer({"ok": True} if body is None else body, status)

        endpoint.__name__ = endpoint.__qualname__ = handler.__name__
        endpoint.__doc__ = handler.__doc__
        return endpoint

    return wrap


def page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    """A page in the request's language (a template), or a static one not yet made a template."""
    if (TEMPLATES / name).exists():
        return render_page(request, services(request).settings, name, status_code=status_code, **context)
    return FileResponse(
        STATIC / name, status_code=status_code, media_type="text/html", headers={"cache-control": "no-cache"}
    )


def not_found(request: Request) -> Response:
    """The page of something that is not there (or may not be seen by the reader)."""
    return page(request, "notfound.html", 404)


async def page_or_missing(
    request: Request, template: str, find: Awaitable[Any], name: Callable[[Any], dict[str, Any]]
) -> Response:
    """``template`` for what ``find`` finds (its ``name(found)`` in the context, ``missing`` False), or the same
    template as a 404 (``missing`` True) when ``find`` is refused as missing; any other refusal goes on up."""
    try:
        found = await find
    except WebError as e:
        if e.kind != MISSING:
            raise
        return page(request, template, 404, missing=True, **name(None))
    return page(request, template, missing=False, **name(found))


async def web_error(request: Request, exc: Exception) -> Response:
    """A refusal, answered with its status and its words in the reader's language."""
    assert isinstance(exc, WebError)
    return JSONResponse(error_json(exc, page_language(request, services(request).settings)), status_code=status_of(exc))
