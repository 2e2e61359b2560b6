"""The web pages' languages: which one a request reads, its pages rendered in it, its words for the JavaScript.

A page's language is, first found first: ``?lang=`` in the address, the ``barbu_lang``
cookie (the header's switcher sets it), the browser's Accept-Language negotiated among
the languages barbu speaks, then the server's ``--lang`` (`Settings.default_lang`).
Pages are Jinja2 templates (``templates/``) rendered with that language's catalog, and
each embeds the JavaScript's catalog (``<script id="barbu-i18n" type="application/json">``),
read by ``static/js/i18n.js``.  One server speaks many languages at once, so everything
here takes the language as an argument: never the process-wide ``barbu.i18n._``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.core import UnknownLocaleError
from babel.messages.pofile import read_po
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.requests import HTTPConnection
from starlette.responses import HTMLResponse

from ...i18n import LANGUAGES, LOCALE_DIR, language, translator
from .settings import Settings

TEMPLATES = Path(__file__).parent.parent / "templates"
COOKIE = "barbu_lang"
COOKIE_AGE = 365 * 24 * 3600  # the switcher's choice is remembered for a year
#: The catalogs whose words the browser's scripts show: the pages' own, and the game's vocabulary.
JS_DOMAINS = ("web", "webscore")
#: Each language named in its own words, for the switcher.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "it": "Italiano"}


def accepted_language(header: str | None) -> str | None:
    """The best of our languages in an Accept-Language header (q-values honoured); None if it names none."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, rest = part.strip().partition(";")
        q = 1.0
        for param in rest.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = tag.strip().replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else None


def chosen(code: str | None) -> str | None:
    """A language a user chose (``?lang=``, the cookie): one we speak, else None."""
    if not code:
        return None
    code = code.strip().replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else None


def page_language(request: HTTPConnection, settings: Settings) -> str:
    """The language of this request's page: the address, the cookie, the browser, the server's default."""
    return (
        chosen(request.query_params.get("lang"))
        or chosen(request.cookies.get(COOKIE))
        or accepted_language(request.headers.get("accept-language"))
        or language(settings.default_lang)
    )


@cache
def environment(lang: str) -> Environment:
    """The templates with ``lang``'s gettext installed (one environment per language: requests interleave)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    tr = translator(lang)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        tr.gettext,
        tr.ngettext,
        newstyle=True,
        pgettext=tr.pgettext,
    )
    env.globals.update(lang=lang, languages=LANGUAGE_NAMES, number=tr.number, words=tr, i18n_json=js_catalog_json(lang))
    return env


def render_page(
    request: HTTPConnection, settings: Settings, name: str, status_code: int = 200, **context: Any
) -> HTMLResponse:
    """The template ``name`` in the request's language (``lang`` and the JavaScript's catalog in its context)."""
    lang = page_language(request, settings)
    html = environment(lang).get_template(name).render(**context)
    response = HTMLResponse(
        html,
        status_code=status_code,
        headers={"cache-control": "no-cache", "content-language": lang, "vary": "cookie, accept-language"},
    )
    if chosen(request.query_params.get("lang")) == lang:  # ?lang= in a link: remembered like the switcher's choice
        response.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="lax")
    return response


def _entries(lang: str, domain: str) -> list[Any]:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return []
    with path.open("rb") as f:
        return [m for m in read_po(f, locale=lang, domain=domain) if m.id and not m.fuzzy]


@cache
def js_catalog(lang: str) -> dict[str, Any]:
    """What the browser's scripts need to speak ``lang``: the pages' msgids and the game's vocabulary.

    ``messages`` maps a msgid (``context\\x04msgid`` for a word with a context, as gettext keys
    them) to its translation, or to the list of its plural forms, keyed by the singular.
    English needs none: the msgids are English.
    """
    lang = language(lang)
    messages: dict[str, Any] = {}
    if lang != "en":
        entries = [m for d in JS_DOMAINS for m in _entries(lang, d)]
        entries += _entries(lang, "barbu")  # suits, ranks, contracts and their help, doubling words
        for m in entries:
            key = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
            if m.context:
                key = f"{m.context}\x04{key}"
            value = list(m.string) if isinstance(m.string, (tuple, list)) else m.string
            if value and all(value if isinstance(value, list) else [value]):
                messages[key] = value
    try:
        decimal = Locale.parse(lang).number_symbols["latn"]["decimal"]
    except (UnknownLocaleError, KeyError):
        decimal = "."
    return {"lang": lang, "messages": messages, "decimal": decimal}


@cache
def js_catalog_json(lang: str) -> str:
    """The catalog as JSON safe inside a ``<script type="application/json">`` element."""
    text = json.dumps(js_catalog(lang), ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
