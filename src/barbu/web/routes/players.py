"""Players' public pages: a profile (``/u/{name}``, its data at ``/api/players/{name}``) and the leaderboards
(``/leaderboard``, ``/api/leaderboards/{game}``)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ... import ratings
from ...i18n import translator
from ..accounts.service import fold, open_store
from ..common.errors import WebError
from ..common.i18n import page_language
from ..db.storage import Store
from ..profiles import history
from ..tables.actor import NAME_MAX
from . import refusals as R
from .clubs import visible_matches
from .helpers import page, user_of
from .services import services

#: A player is on a game's leaderboard from his first rated match of it (the profile's `leaderboard_min` is
#: the profiles' own word on it), marked provisional until he has `ratings.PROVISIONAL_MATCHES`.
BOARD_FROM = 1


def the_store(request: Request) -> Store:
    """The server's database (refused while the server is starting)."""
    return open_store(lambda: services(request).lobby.store)


async def profile_data(request: Request) -> Response:
    name = request.path_params["name"]
    found = None
    if len(name) <= NAME_MAX * 4:
        reader = await user_of(request)
        found = await asyncio.to_thread(history_profile, the_store(request), name, reader.id if reader else None)
    if found is None:
        raise WebError(R.NO_PLAYER, name=name[:NAME_MAX])
    found["matches"] = await visible_matches(request, found["matches"])  # a private club's, to outsiders: none
    words = translator(page_language(request, services(request).settings))
    for game in found["stats"]:  # contract names in the reader's language
        for c in game["contracts"]:
            c["name"] = words.gettext(c["name"])
    return JSONResponse(found, headers={"cache-control": "no-cache"})


def history_profile(store: Store, name: str, reader: int | None) -> dict[str, Any] | None:
    """A player's profile as ``reader`` may see it (None: no such player)."""
    return history.profile(store, fold(name), history.HISTORY_PAGE, reader)


async def board_data(request: Request) -> Response:
    game = request.path_params["game"]
    if game not in ratings.GAMES:
        raise WebError(R.NO_LEADERBOARD, game=game[:40], games=", ".join(ratings.GAMES))
    # From a player's first rated result, marked provisional until `established` matches (ratings.shown).
    rows = await asyncio.to_thread(history.leaderboard, the_store(request), game, minimum=BOARD_FROM)
    return JSONResponse(
        {"game": game, "minimum": BOARD_FROM, "established": ratings.PROVISIONAL_MATCHES, "players": rows},
        headers={"cache-control": "no-cache"},
    )


async def profile_page(request: Request) -> Response:
    return page(request, "profile.html")


async def board_page(request: Request) -> Response:
    return page(request, "leaderboard.html", games=ratings.GAMES)


ROUTES: list[BaseRoute] = [
    Route("/u/{name}", profile_page),
    Route("/api/players/{name}", profile_data),
    Route("/leaderboard", board_page),
    Route("/api/leaderboards/{game}", board_data),
]
