"""The players' languages: gettext catalogs (Babel) for the engine's refusals and the game's words.

``translator(lang)`` is a `barbu.core.words.Words` that looks every template and word up
in the compiled catalog of ``lang`` ("en", "fr", "it"); ``word_error(e, lang)`` is a
refusal in that language.  The catalogs live in ``locale/<lang>/LC_MESSAGES/barbu.{po,mo}``,
shipped in the package; ``python -m barbu.i18n.catalogs`` re-extracts and recompiles them
(docs/i18n.md).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from ..core.errors import BarbuError
from ..core.words import ENGLISH, Words

DOMAIN = "barbu"
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

    def contract(self, name: str) -> str:
        # A Scottish combination ("King of hearts + Queens") is worded call by call.
        return " + ".join(self.pgettext("contract", part) for part in name.split(" + "))


def language(lang: str | None) -> str:
    """The supported language for a code like "fr", "fr_BE", "it-IT" or "en_US.UTF-8" (English otherwise)."""
    code = (lang or "en").replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else "en"


@cache
def translator(lang: str | None = "en") -> Words:
    """The words of ``lang``: English is the core's own; others read the shipped catalog."""
    code = language(lang)
    if code == "en":
        return ENGLISH
    catalog = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[code])
    return CatalogWords(code, catalog)


def word_error(e: BaseException, lang: str | None = "en") -> str:
    """The error in the player's language: a coded refusal is worded anew, any other error is its English."""
    if isinstance(e, BarbuError) and e.message is not None:
        return translator(lang).render(e.message, e.params)
    return str(e)
