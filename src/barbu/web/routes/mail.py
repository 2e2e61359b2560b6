"""E-mail: confirming an address, sending its link again, "forgot your password", and unsubscribing.

``POST /api/mail/confirm`` {key} uses a confirmation link (its key after the link's "#", so never in a
log; the page is ``/account/confirm``); ``/api/mail/confirm-again`` sends a new link to the logged-in
account's address; ``/api/mail/forgot`` {who: a name or an address} answers alike whatever it finds.
``/mail/unsubscribe/{token}``: GET asks first (mail programs and scanners follow links by themselves),
POST turns it off, from the page's button or from a mail program's one-click (RFC 8058: no log-in, no
Origin, a body of ``List-Unsubscribe=One-Click``), and answers a page that says what was turned off.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..accounts.refusals import UNSUBSCRIBE_LINK_UNKNOWN
from ..accounts.store import User
from ..common.errors import WebError
from ..common.i18n import page_language
from ..common.wording import word
from ..tables.sockets import client_address
from . import payloads as p
from .bodies import decode
from .helpers import NO_STORE, action, page
from .services import services

ONE_CLICK_MAX = 1024  # bytes of a one-click unsubscribe's body read (it says only "List-Unsubscribe=One-Click")


async def confirm(request: Request) -> Response:
    body = await decode(request, p.ConfirmAddress)
    name, email = await services(request).mail.confirm(body.key)
    return JSONResponse({"name": name, "email": email}, headers=NO_STORE)


@action(p.Empty)
async def confirm_again(request: Request, body: p.Empty, user: User) -> dict[str, Any]:
    return (await services(request).mail.confirm_again(user)).json()


async def forgot(request: Request) -> Response:
    body = await decode(request, p.Forgot)
    await services(request).mail.forgot(body.who, client_address(request))
    return JSONResponse({"ok": True}, headers=NO_STORE)


async def unsubscribe(request: Request) -> Response:
    """Ask (GET), or turn off (POST) what an e-mail's unsubscribe link names; a page either way."""
    mail = services(request).mail
    token = request.path_params["token"]
    if request.method == "POST":
        received = 0
        async for chunk in request.stream():  # the one-click body, read and let go: the token decides
            received += len(chunk)
            if received > ONE_CLICK_MAX:
                break
        found = await mail.unsubscribe(token)
    else:
        found = await mail.check_unsubscribe(token)
    if found is None:
        refused = word(WebError(UNSUBSCRIBE_LINK_UNKNOWN), page_language(request, services(request).settings))
        return page(request, "unsubscribe.html", status_code=404, found=False, refused=refused)
    name, what, email = found
    return page(
        request,
        "unsubscribe.html",
        found=True,
        done=request.method == "POST",
        account=name,
        what=what,
        email=email,
    )


async def confirm_page(request: Request) -> Response:
    return page(request, "account.html")


ROUTES: list[BaseRoute] = [
    Route("/account/confirm", confirm_page),
    Route("/api/mail/confirm", confirm, methods=["POST"]),
    Route("/api/mail/confirm-again", confirm_again, methods=["POST"]),
    Route("/api/mail/forgot", forgot, methods=["POST"]),
    Route("/mail/unsubscribe/{token}", unsubscribe, methods=["GET", "POST"]),
]
