"""What the clubs' and the events' routes share: who is logged in, a POST's body and account, the JSON answer,
and a page whose subject is missing.

Each of those modules repeated the same steps in every handler (read the JSON body, which checks the Origin,
then require a logged-in account, call the service, answer without caching); a refusal is a `TableError`, which
the app's handler turns into a JSON error in the reader's language.  `RouteHelpers.action` is those steps once.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ...core.words import N_
from ..accounts.service import COOKIE, Accounts
from ..accounts.store import User
from ..common.i18n import render_page
from ..common.settings import Settings
from ..tables.actor import TableError

NO_STORE = {"cache-control": "no-store"}

#: A service call behind a POST: (the request, its JSON body, the logged-in account) -> the answer's body
#: (None: ``{"ok": true}``).
Handler = Callable[[Request, dict[str, Any], User], Awaitable[dict[str, Any] | None]]


def answer(body: dict[str, Any], status: int = 200) -> Response:
    """A JSON answer no cache keeps (it is the reader's own view)."""
    return JSONResponse(body, status_code=status, headers=NO_STORE)


class RouteHelpers:
    """The steps every route of a page's API takes, over the server's accounts and its JSON reader."""

    def __init__(self, accounts: Accounts, read_json: Callable[..., Awaitable[dict[str, Any]]]) -> None:
        self.accounts = accounts
        self.read_json = read_json

    async def current(self, request: Request) -> User | None:
        """The account logged in on the request's browser, else None."""
        return await self.accounts.session_user(request.cookies.get(COOKIE))

    async def required(self, request: Request) -> User:
        """The logged-in account; refused (401) to a guest."""
        user = await self.current(request)
        if user is None:
            raise TableError(N_("log in (or make an account) to do that"), 401)
        return user

    def action(self, handler: Handler, status: int = 200) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint: the body read first (its Origin and size checked), then the account required, then
        ``handler``; its body answered with ``status``, or ``{"ok": true}`` when it returns None."""
        async def endpoint(request: Request) -> Response:
            data = await self.read_json(request)
            user = await self.required(request)
            body = await handler(request, data, user)
            return answer({"ok": True} if body is None else body, status)
        return endpoint


async def page_or_missing(request: Request, settings: Settings, template: str, find: Awaitable[Any],
                          name: Callable[[Any], dict[str, Any]]) -> Response:
    """``template`` for what ``find`` finds (its ``name(found)`` in the context, ``missing`` False), or the same
    template as a 404 (``missing`` True) when ``find`` is refused with 404; any other refusal goes on up."""
    try:
        found = await find
    except TableError as e:
        if e.status != 404:
            raise
        return render_page(request, settings, template, status_code=404, missing=True, **name(None))
    return render_page(request, settings, template, missing=False, **name(found))
