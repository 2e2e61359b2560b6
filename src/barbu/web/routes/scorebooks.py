"""The scorekeeper's pages and JSON API in `barbu serve`: keep the score of games played with real cards.

Pages: ``/score`` (a browser's kept games, a new game, an import), ``/score/{id}`` (keep one
game: the edit key travels in the page's URL fragment or the browser's localStorage, never in a
path) and ``/score/view/{view_id}`` (the read-only sheet the other players open).

API (every request that changes or reads a game by its private id carries the edit key):

- ``POST /api/score`` {rules, names, first, title, owner} → 201 {id, view_id, key, game}
- ``POST /api/score/mine`` {owner} → {games}: the games this browser keeps
- ``POST /api/score/import`` {text, format: json|csv, title, owner} → 201 like a new game
- ``GET /api/score/{id}`` (header ``x-score-key``) → {game}: the sheet and what the next deal needs
- ``POST /api/score/{id}/draft`` {key, entry, index?} → {needs, questions, preview}: nothing is saved
- ``POST /api/score/{id}/change`` {key, version, op: add|replace|delete|undo|title, index?, entry?, title?}
  → {game}
- ``POST /api/score/{id}/delete`` {key} → {deleted}
- ``GET /api/score/view/{view_id}`` → {game}: the sheet, without the private id
- ``GET /score/view/{view_id}/game.json`` and ``game.csv``: the export files
- ``GET /score/view/{view_id}/sheet.pdf`` and ``sheet.html``: the printable sheet (`keeping.printable_sheet`)

The work is `barbu.web.scorebooks.keeping`'s.  Every number is the keeper's (the engine's scoring); a refused entry answers 422 with the
keeper's plain words and changes nothing; a save made from an old version answers 409.

Languages: the page is a template in the reader's language (`web.i18n.page_language`: ``?lang=``, the
``barbu_lang`` cookie, Accept-Language); its script sends that language in the header ``x-barbu-lang``
on every request, and the answers are worded in it: a refusal is ``{error, code, params, deal}`` (the
error in the reader's words, the code and raw parameters for programs), the keeper's questions, flags,
the Scottish Set and Round and "undo" in that language.  Contract names travel as the rules name them
(English) and the page words them; the printable sheet takes ``?lang=`` too.  Exports stay English.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core import safejson
from ...core.words import Words
from ...i18n import language, translator, word_error
from ...scorekeeper import AnyKeeper, KeeperError
from ..common.errors import WebError
from ..common.i18n import page_language
from ..scorebooks import keeping as K
from ..scorebooks.keeping import ScoreError
from ..scorebooks.store import CHANGED_ELSEWHERE, ScorebookError, Scorebooks
from . import payloads as p
from . import refusals as R
from .bodies import read_json, shaped
from .helpers import page
from .services import services

log = logging.getLogger("barbu.web")
S = TypeVar("S", bound=p.ScorePayload)
Endpoint = Callable[[Request], Awaitable[Response]]

#: The routes' refusals of a body's transport, as the scorekeeper's page reads them (its own codes).
TRANSPORT = {
    R.CROSS_ORIGIN.code: (K.CROSS_ORIGIN, 403),
    R.NOT_JSON.code: (K.NOT_JSON_TYPE, 415),
    R.NOT_AN_OBJECT.code: (K.NOT_AN_OBJECT, 400),
}


def lang_of(request: Request) -> str:
    """The reader's language: what the page says it shows (header x-barbu-lang), else the request's own."""
    asked = request.headers.get("x-barbu-lang")
    return language(asked) if asked else page_language(request, services(request).settings)


def tr_of(request: Request) -> Words:
    return translator(lang_of(request))


def books(request: Request) -> Scorebooks:
    return services(request).scorebooks.books()


def as_score_error(request: Request, e: WebError) -> ScoreError:
    """A refusal of the body's transport in the scorekeeper's own words and codes."""
    if e.code in TRANSPORT:
        message, status = TRANSPORT[e.code]
        return ScoreError(message, status)
    if isinstance(e.cause, safejson.JsonError):
        return ScoreError(K.BAD_JSON, error=word_error(e.cause, lang_of(request)))
    return ScoreError(str(e), e.status)


def misshapen(kind: type[p.Payload], field: str | None) -> Exception:
    """A score request's field of the wrong shape: the keeper's refusal for it."""
    words = kind.keeper_shapes if issubclass(kind, p.ScorePayload) else {}
    return ScoreError(words.get(field or "", K.NOT_AN_OBJECT))


async def read(request: Request, kind: type[S], limit: int | None = None) -> S:
    """The body as ``kind``, every refusal in the scorekeeper's terms."""
    try:
        data = await read_json(request, limit)
    except WebError as e:
        raise as_score_error(request, e) from None
    return shaped(data, kind, misshapen)


def refusal(request: Request, e: Exception) -> JSONResponse:
    """A refusal as the page reads it: worded in the reader's language, with its code and parameters."""
    lang = lang_of(request)
    body: dict[str, Any] = {
        "error": K.worded(e, lang),
        "code": getattr(e, "code", None),
        "params": K.jsonable(getattr(e, "params", None) or {}),
    }
    if not isinstance(e, ScorebookError):
        body["deal"] = getattr(e, "deal", None)
    return JSONResponse(body, status_code=getattr(e, "status", 422))


def api(handler: Endpoint) -> Endpoint:
    """A score endpoint: its refusals (and the keeper's, and the store's) answered as the page reads them."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except (ScoreError, KeeperError, ScorebookError) as e:
            return refusal(request, e)
        except (TypeError, AttributeError, IndexError, KeyError, ValueError):
            # Answers of a shape the checks above let through and the keeper could not read: a refusal
            # for the browser, and a trace in the log so the check can be made tighter.
            log.exception("scorekeeper: %s %s could not read the request", request.method, request.url.path)
            return refusal(request, ScoreError(K.UNREADABLE_ANSWERS, 422))

    run.__name__ = run.__qualname__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def no_store(data: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers={"cache-control": "no-store"})


def key_of(key: Any) -> str | None:
    """An edit key as sent (in a body, or the header ``x-score-key``), or None if it cannot be one."""
    return key if isinstance(key, str) and len(key) <= 200 else None


async def score_page(request: Request) -> Response:
    return page(request, "score.html")


async def check_create(request: Request) -> None:
    await services(request).scorebooks.check_create(request.client.host if request.client else "unknown")


async def create_book(request: Request, keeper: AnyKeeper, title: str, owner: str | None) -> Response:
    book, key = await asyncio.to_thread(books(request).create, K.stored(keeper, []), title, owner)
    return no_store(
        {
            "id": book.id,
            "view_id": book.view_id,
            "key": key,
            "url": f"/score/{book.id}",
            "game": K.book_json(book, keeper, True, tr_of(request)),
        },
        201,
    )


@api
async def api_new(request: Request) -> Response:
    body = await read(request, p.NewScore)
    keeper, title = await asyncio.to_thread(K.new_game, body.rules, body.names, body.first, body.title)
    await check_create(request)
    return await create_book(request, keeper, title, K.owner_field(body.owner))


@api
async def api_import(request: Request) -> Response:
    body = await read(request, p.ImportScore, services(request).settings.max_import)
    keeper = await asyncio.to_thread(K.imported, body.text, body.format)
    await check_create(request)
    title = K.text_field(body.title, "title", 120, empty_ok=True) or K.default_title(keeper)
    return await create_book(request, keeper, title, K.owner_field(body.owner))


@api
async def api_mine(request: Request) -> Response:
    body = await read(request, p.ScoreOwner)
    owner = K.owner_field(body.owner)
    rows = await asyncio.to_thread(books(request).owned_by, owner) if owner else []
    games = []
    for b in rows:
        s = b.summary()
        s.pop("view_id", None)
        games.append(s)
    return no_store({"games": games})


@api
async def api_game(request: Request) -> Response:
    book = await asyncio.to_thread(
        books(request).check_key, request.path_params["book_id"], key_of(request.headers.get("x-score-key"))
    )
    keeper = await asyncio.to_thread(K.keeper_of, book)
    return no_store({"game": await asyncio.to_thread(K.book_json, book, keeper, True, tr_of(request))})


@api
async def api_view(request: Request) -> Response:
    book = await asyncio.to_thread(books(request).get_view, request.path_params["view_id"])
    keeper = await asyncio.to_thread(K.keeper_of, book)
    return no_store({"game": await asyncio.to_thread(K.book_json, book, keeper, False, tr_of(request))})


@api
async def api_draft(request: Request) -> Response:
    body = await read(request, p.ScoreDraft)
    book = await asyncio.to_thread(books(request).check_key, request.path_params["book_id"], key_of(body.key))
    keeper = await asyncio.to_thread(K.keeper_of, book)
    entry = K.typed_entry(K.entry_field(body.entry), lang_of(request))
    return no_store(await asyncio.to_thread(K.draft, keeper, entry, body.index, tr_of(request)))


@api
async def api_change(request: Request) -> Response:
    body = await read(request, p.ScoreChange)
    key = key_of(body.key)
    book = await asyncio.to_thread(books(request).check_key, request.path_params["book_id"], key)
    if book.version != body.version:
        raise ScorebookError(CHANGED_ELSEWHERE, 409)
    keeper = await asyncio.to_thread(K.keeper_of, book)
    entry = K.typed_entry(body.entry, lang_of(request)) if isinstance(body.entry, dict) else body.entry
    keeper, undo = await asyncio.to_thread(
        K.change, keeper, list(book.data.get("undo", [])), body.op, body.index, entry
    )
    title = K.text_field(body.title, "title", 120) if body.op == "title" else None
    saved = await asyncio.to_thread(books(request).save, book.id, key, K.stored(keeper, undo), body.version, title)
    return no_store({"game": await asyncio.to_thread(K.book_json, saved, keeper, True, tr_of(request))})


@api
async def api_delete(request: Request) -> Response:
    body = await read(request, p.ScoreKey)
    await asyncio.to_thread(books(request).delete, request.path_params["book_id"], key_of(body.key))
    return no_store({"deleted": request.path_params["book_id"]})


@api
async def export(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in ("json", "csv"):
        raise ScoreError(K.EXPORT_KINDS, 404)
    book = await asyncio.to_thread(books(request).get_view, request.path_params["view_id"])
    keeper = await asyncio.to_thread(K.keeper_of, book)
    stem = "".join(c if c.isalnum() else "-" for c in book.title)[:40].strip("-") or "game"
    text = await asyncio.to_thread(K.export_json if kind == "json" else K.export_csv, keeper)
    media = "application/json" if kind == "json" else "text/csv; charset=utf-8"
    return Response(text, media_type=media, headers={"content-disposition": f'attachment; filename="{stem}.{kind}"'})


@api
async def printed(request: Request) -> Response:
    kind = request.path_params["kind"]
    if kind not in ("pdf", "html"):
        raise ScoreError(K.PRINT_KINDS, 404)
    book = await asyncio.to_thread(books(request).get_view, request.path_params["view_id"])
    keeper = await asyncio.to_thread(K.keeper_of, book)
    body, media = await asyncio.to_thread(K.printable_sheet, keeper, kind, lang_of(request))
    headers = {"content-security-policy": K.PRINT_CSP}
    if kind == "pdf":
        headers["content-disposition"] = 'inline; filename="sheet.pdf"'
    return Response(body, media_type=media, headers=headers)


@api
async def qr_code(request: Request) -> Response:
    """The read-only link as a QR code, for the other players at the table to scan from the keeper's phone."""
    book = await asyncio.to_thread(books(request).get_view, request.path_params["view_id"])
    return Response(
        K.view_qr_svg(str(request.url_for("score_view", view_id=book.view_id)), tr_of(request)),
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=86400", "vary": "accept-language, cookie"},
    )


ROUTES: list[BaseRoute] = [
    Route("/score", score_page),
    Route("/score/view/{view_id}", score_page, name="score_view"),
    Route("/score/view/{view_id}/qr.svg", qr_code),
    Route("/score/view/{view_id}/game.{kind:str}", export),
    Route("/score/view/{view_id}/sheet.{kind:str}", printed),
    Route("/score/{book_id}", score_page),
    Route("/api/score", api_new, methods=["POST"]),
    Route("/api/score/mine", api_mine, methods=["POST"]),
    Route("/api/score/import", api_import, methods=["POST"]),
    Route("/api/score/view/{view_id}", api_view),
    Route("/api/score/{book_id}", api_game),
    Route("/api/score/{book_id}/draft", api_draft, methods=["POST"]),
    Route("/api/score/{book_id}/change", api_change, methods=["POST"]),
    Route("/api/score/{book_id}/delete", api_delete, methods=["POST"]),
]
