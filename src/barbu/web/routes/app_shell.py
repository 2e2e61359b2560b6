"""The site as an app on a phone's home screen: the web app manifest (``GET /manifest.webmanifest``), the
service worker (``GET /sw.js``, at the root so that its scope is the whole site) and the page it shows when the
network is down (``GET /offline/{lang}``).

The manifest speaks the page's language (``?lang=``, the cookie, Accept-Language: `page_language`); its ``id``
stays "/" so that the installed app is the same one whatever the language.  The service worker's source is
``templates/sw.js`` with its settings filled in: the files it keeps (the offline page in each language and what
that page needs) and a version drawn from their bytes, so that a release that changes any of them is a new
service worker with a new cache, which replaces the old one (docs/server.md, "On a phone's home screen").
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...core.words import N_
from ...i18n import LANGUAGES, language, translator
from ..common.i18n import TEMPLATES, environment, page_language
from .helpers import STATIC, not_found
from .services import services

#: The felt's green (static/css/barbu.css ``--felt``) and the page's background there.
THEME_COLOUR = "#1d5c3a"
BACKGROUND_COLOUR = "#eef1ee"
DESCRIPTION = N_("Barbu and other card games with friends, clubs and computer players")
#: What the offline page needs besides itself, kept by the service worker when it installs.
OFFLINE_FILES = (
    "/static/css/barbu.css",
    "/static/js/display.js",
    "/static/js/offline.js",
    "/static/js/pwa.js",
    "/static/favicon.svg",
    "/static/icons/icon-192.png",
)
ICONS = (
    {"src": "/static/favicon.svg", "sizes": "any", "type": "image/svg+xml"},
    {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
    {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
    {"src": "/static/icons/maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
)
NO_CACHE = {"cache-control": "no-cache"}


async def manifest(request: Request) -> Response:
    lang = page_language(request, services(request).settings)
    body = {
        "id": "/",
        "name": "barbu",
        "short_name": "barbu",
        "description": translator(lang).gettext(DESCRIPTION),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": list(ICONS),
    }
    return JSONResponse(
        body,
        media_type="application/manifest+json",
        headers={**NO_CACHE, "content-language": lang, "vary": "cookie, accept-language"},
    )


@cache
def offline_html(lang: str) -> str:
    """The offline page in ``lang``: the same for everyone (no account, nothing private), kept by the worker."""
    return environment(lang).get_template("offline.html").render()


async def offline(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return not_found(request)
    return HTMLResponse(offline_html(lang), headers={**NO_CACHE, "content-language": lang})


@cache
def worker_source(default_lang: str) -> str:
    """``templates/sw.js`` with its settings: the files to keep, the languages, and the version of them all."""
    keep = [f"/offline/{lang}" for lang in LANGUAGES] + list(OFFLINE_FILES)
    source = (TEMPLATES / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode())
    for lang in LANGUAGES:
        digest.update(offline_html(lang).encode())
    for path in OFFLINE_FILES:
        digest.update((STATIC / path.removeprefix("/static/")).read_bytes())
    settings = {
        "version": digest.hexdigest()[:16],
        "keep": keep,
        "languages": list(LANGUAGES),
        "fallback": default_lang,
    }
    return source.replace("__SETTINGS__", json.dumps(settings, separators=(",", ":")))


async def service_worker(request: Request) -> Response:
    source = worker_source(language(services(request).settings.default_lang))
    return Response(source, media_type="text/javascript", headers=NO_CACHE)


ROUTES: list[BaseRoute] = [
    Route("/manifest.webmanifest", manifest),
    Route("/sw.js", service_worker),
    Route("/offline/{lang}", offline),
]
