"""The players' languages: gettext catalogs for the engine's refusals and the game's words.

``translator(lang)`` is a `barbu.core.words.Words` that looks every template and word up
in the compiled catalog of ``lang`` ("en", "fr", "it"); ``word_error(e, lang)`` is a
refusal in that language.  The catalogs live in ``locale/<lang>/LC_MESSAGES/barbu.{po,mo}``,
shipped in the package; ``python -m barbu.i18n.catalogs`` re-extracts and recompiles them
(docs/i18n.md).
"""

from __future__ import annotations

import gettext
import os
import sys
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BarbuError
from ..core.words import ENGLISH, Words
from .formats import format_decimal

if TYPE_CHECKING:
    from ..classic.state import Points

DOMAIN = "barbu"
#: Every catalog: the engine's first, then one per part of the package (catalogs.SOURCES).
DOMAINS = ("barbu", "guide", "cli", "tui", "keeper", "web", "webscore")
LOCALE_DIR = Path(__file__).parent / "locale"
#: The languages the package speaks, English first (the msgids themselves).
LANGUAGES = ("en", "fr", "it")


class CatalogWords(Words):
    """Words looked up in a gettext catalog; whatever the catalog lacks stays English."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self.catalog = catalog

    def gettext(self, text: str) -> str:
        return self.catalog.gettext(text)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)

    def pgettext(self, context: str, text: str) -> str:
        return self.catalog.pgettext(context, text)

    def number(self, n: int | float) -> str:
        return format_decimal(n, self.lang)

    def contract(self, name: str) -> str:
        # A Scottish combination ("King of hearts + Queens") is worded call by call.
        return " + ".join(self.pgettext("contract", part) for part in name.split(" + "))


def language(lang: str | None) -> str:
    """The supported language for a code like "fr", "fr_BE", "it-IT" or "en_US.UTF-8" (English otherwise)."""
    code = (lang or "en").replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else "en"


#: Which catalog a module keeps its words in (what ``catalogs.SOURCES`` says to the extractor), first
#: match first.  A module's own catalog is looked in first, so the same English in two parts of the
#: package may be worded for each ("Scoresheet": a short key label at the terminal, a heading on the web).
MODULE_DOMAINS = (
    ("barbu.tui.score_", "keeper"),
    ("barbu.tui.", "tui"),
    ("barbu.play.", "tui"),
    ("barbu.cli.score", "keeper"),
    ("barbu.cli.sheets", "keeper"),
    ("barbu.cli.", "cli"),
    ("barbu.records.", "cli"),
    ("barbu.agents.", "cli"),
    ("barbu.arena.", "cli"),
    ("barbu.analysis.", "cli"),
    ("barbu.games", "cli"),
    ("barbu.scorekeeper.", "keeper"),
    ("barbu.web.scorebooks.keeping", "webscore"),
    ("barbu.web.scorebooks.store", "webscore"),
    ("barbu.web.routes.scorebooks", "webscore"),
    ("barbu.web.", "web"),
    ("barbu.guide.", "guide"),
    ("barbu.i18n.rules", "guide"),
)


@cache
def domain_of(module: str) -> str:
    """The catalog of a module's own words ("barbu": the engine's, and anything outside the front ends)."""
    return next((domain for prefix, domain in MODULE_DOMAINS if module.startswith(prefix)), DOMAIN)


def _caller_domain(depth: int = 2) -> str:
    return domain_of(sys._getframe(depth).f_globals.get("__name__", ""))


@cache
def _translator(code: str, first: str) -> Words:
    order = [first] + [d for d in DOMAINS if d != first]
    catalog: gettext.NullTranslations | None = None
    for domain in order:
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{domain}.mo"
        if path.exists():
            with path.open("rb") as f:
                found = gettext.GNUTranslations(f)
            if catalog is None:
                catalog = found
            else:
                catalog.add_fallback(found)
    return CatalogWords(code, catalog or gettext.NullTranslations())


def translator(lang: str | None = "en", domain: str | None = None) -> Words:
    """The words of ``lang``: English is the core's own; others read the shipped catalogs.

    ``domain``: whose words come first (by default the calling module's own catalog, `domain_of`)."""
    code = language(lang)
    if code == "en":
        return ENGLISH
    return _translator(code, domain or _caller_domain())


def word_error(e: BaseException, lang: str | None = "en") -> str:
    """The error in the player's language: a coded refusal is worded anew, any other error is its English.

    An error that words itself (``e.worded(words)``: the scorekeeper's `KeeperError`) is asked to."""
    words = translator(lang, _caller_domain())
    worded = getattr(e, "worded", None)
    if callable(worded):
        return worded(words)
    if isinstance(e, BarbuError) and e.message is not None:
        return words.render(e.message, e.params)
    return str(e)


# -- The language of a process that speaks to one player (the command line, the terminal game).
# The web server speaks to many players at once: it passes each one's language to translator().

_current = ["en"]
#: Where the system says which language the user reads, first found first (as gettext reads them).
LOCALE_VARIABLES = ("BARBU_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def system_language(environ: Mapping[str, str] = os.environ) -> str:
    """The language of the system locale ("C" and "POSIX" are English); BARBU_LANG overrides it."""
    for var in LOCALE_VARIABLES:
        value = environ.get(var, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return language(value.split(":")[0])
    return "en"


def use(lang: str | None) -> str:
    """Speak ``lang`` from now on in this process (None: the system's language); returns the code used.

    Such a process writes to a terminal, so its wrapping is taught the no-break spaces too.
    """
    from .wrapping import keep_no_break_spaces

    keep_no_break_spaces()
    _current[0] = language(lang) if lang else system_language()
    return _current[0]


def current() -> str:
    """The language this process speaks ("en" until use() is called)."""
    return _current[0]


def words() -> Words:
    """The words of the current language: render refusals, suits, cards and contract names with it."""
    return translator(_current[0], _caller_domain())


def _(text: str) -> str:
    """``text`` in the current language (a msgid marked for Babel's extractor)."""
    return translator(_current[0], _caller_domain()).gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return translator(_current[0], _caller_domain()).ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """``text`` in the current language, told apart from the same English word by ``context``."""
    return translator(_current[0], _caller_domain()).pgettext(context, text)


def number(n: Points | float) -> str:
    """A number as the current language writes it (1 250 in French, 1.250 in Italian); an exact share of
    points that is not whole (Barbù a sei colpi's series) as it is, ``75/2``, in every language."""
    if isinstance(n, Fraction):
        if n.denominator != 1:
            return str(n)
        n = int(n)
    return translator(_current[0]).number(n)
