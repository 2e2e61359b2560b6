"""The catalogs' upkeep with Babel: extract the msgids, merge them into each language, compile.

    python -m barbu.i18n.catalogs                 # every domain: its .pot, then fr and it .po updated, .mo compiled
    python -m barbu.i18n.catalogs --domain tui    # one domain only
    python -m barbu.i18n.catalogs --check         # exit 1, listing them, if a msgid lacks a translation

There is one catalog (gettext domain) per part of the package, so each part's words are
kept on their own: ``barbu`` (the engine's refusals and the game's vocabulary), ``guide``
(the rules), ``cli``, ``tui``, ``keeper`` (the scorekeeper and its sheets) and ``web``.
``barbu.i18n.translator`` reads them all.  The msgids are the strings marked ``_()``,
``N_()``, ``ngettext()``/``NN_()`` and ``pgettext()`` (Babel's Python, JavaScript and Jinja2
extractors) and, for ``barbu``, the game's vocabulary, which the engine keeps as data: suit
and rank words, rank letters, every contract and call name of every preset, Bésigue's
combinations, the doubling words.  Each vocabulary word carries a context (``pgettext``)
so translators see what it is.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.util import UTC

from .. import games  # noqa: F401  (registers every family, so every contract name is seen)
from ..besigue.actions import MELD_NAMES
from ..core.words import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SINGULAR, SUITS
from . import DOMAIN, DOMAINS, LANGUAGES, LOCALE_DIR
from .typed import TYPED_WORDS, contract_keys

PACKAGE = Path(__file__).parent.parent
HERE = Path(__file__).parent
POT = HERE / "messages.pot"
HOLDER = "the barbu authors"
HEADER = (
    "# {language} words of barbu ({domain}).\n"
    "# Kept with python -m barbu.i18n.catalogs (docs/i18n.md); keep every {{field}} and {{field:kind}} as it is."
)
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "NN_": (1, 2), "t": None, "tn": (1, 2), "tp": ((1, "c"), 2)}
#: Where each domain's msgids are: (glob under src/barbu, extractor), the first match deciding.
#: A domain's globs name its files only; "ignore" keeps a file out of a wider glob.
SOURCES: dict[str, list[tuple[str, str]]] = {
    "barbu": [
        ("core/**.py", "python"),
        ("classic/**.py", "python"),
        ("scottish/**.py", "python"),
        ("besigue/**.py", "python"),
    ],
    "guide": [("guide/**.py", "python")],
    "cli": [
        ("cli/score.py", "ignore"),
        ("cli/sheets.py", "ignore"),
        ("cli/**.py", "python"),
        ("analysis/**.py", "python"),
        ("puzzles/**.py", "python"),
        ("records/**.py", "python"),
        ("agents/**.py", "python"),
        ("arena/**.py", "python"),
        ("duplicate/**.py", "python"),
        ("games.py", "python"),
    ],
    "tui": [("tui/score_*.py", "ignore"), ("tui/**.py", "python"), ("play/**.py", "python")],
    "keeper": [
        ("scorekeeper/**.py", "python"),
        ("tui/score_*.py", "python"),
        ("cli/score.py", "python"),
        ("cli/sheets.py", "python"),
    ],
    "web": [
        ("web/scorebooks/keeping.py", "ignore"),
        ("web/scorebooks/store.py", "ignore"),
        ("web/routes/scorebooks.py", "ignore"),
        ("web/static/js/score.js", "ignore"),
        ("web/templates/score.html", "ignore"),
        ("web/**.py", "python"),
        ("web/static/js/**.js", "javascript"),
        ("web/templates/**.html", "jinja2"),
    ],
    "webscore": [
        ("web/scorebooks/keeping.py", "python"),
        ("web/scorebooks/store.py", "python"),
        ("web/routes/scorebooks.py", "python"),
        ("web/static/js/score.js", "javascript"),
        ("web/templates/score.html", "jinja2"),
    ],
}
#: Catalogs carry this date rather than today's, so a re-extraction changes only what changed.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
OPTIONS = {"web/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
#: Words the front ends will need that the engine does not name in a message.
EXTRA_WORDS = (
    ("doubling", "double"),
    ("doubling", "redouble"),
    ("doubling", "pass"),
    ("besigue", "stock"),
    ("besigue", "turn-up"),
    ("besigue", "brisques"),
)


def contract_names() -> list[str]:
    """Every contract and call name of every preset (a Scottish combination split into its calls)."""
    names: list[str] = []
    for name in contract_keys():
        for part in name.split(" + "):
            if part not in names:
                names.append(part)
    return names


def vocabulary() -> list[tuple[str, str]]:
    """(context, word) for every word of the game the engine keeps as data."""
    words = [("suits", s) for s in SUIT_NAMES] + [("suit", s) for s in SUIT_SINGULAR]
    words += [("named suit", s) for s in SUIT_NAMES]
    words += [("rank", r) for r in RANK_NAMES]
    words += [("rank letter", r) for r in (*RANKS.replace("T", ""), "10", "T")]
    words += [("suit letter", s) for s in SUITS]
    words += [("rank letters typed", r) for r in "JQKA"]
    words += [("contract", n) for n in contract_names()]
    words += [("combination", m) for m in MELD_NAMES.values()]
    words += [("typed", w) for w in TYPED_WORDS]
    return words + list(EXTRA_WORDS)


def pot_path(domain: str = DOMAIN) -> Path:
    """The template catalog of a domain (the engine's keeps its first name, messages.pot)."""
    return POT if domain == DOMAIN else HERE / "templates" / f"{domain}.pot"


def extract(domain: str = DOMAIN) -> Catalog:
    """The template catalog of a domain: its marked msgids (then, for the engine, the vocabulary)."""
    pot = Catalog(
        project="barbu",
        version="0.1",
        domain=domain,
        fuzzy=False,
        copyright_holder=HOLDER,
        header_comment=HEADER.format(language="The English", domain=domain),
        creation_date=FIXED_DATE,
    )
    method_map = [(glob, method) for glob, method in SOURCES[domain]]
    for filename, lineno, message, comments, context in extract_from_dir(
        PACKAGE,
        method_map=method_map,
        options_map=OPTIONS,
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        pot.add(message, locations=[(filename, lineno)], auto_comments=comments, context=context)
    if domain == DOMAIN:
        for context, word in vocabulary():
            pot.add(word, context=context)
    return pot


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, lang: str, domain: str = DOMAIN) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


def write(catalog: Catalog, path: Path, mo: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False)
    if mo:
        with path.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)


def update(domain: str = DOMAIN) -> None:
    """Extract the domain's .pot, merge it into each language's .po, compile each .mo."""
    pot = extract(domain)
    write(pot, pot_path(domain))
    for lang in LANGUAGES[1:]:
        path = po_path(lang, domain)
        catalog = (
            read(path, lang, domain)
            if path.exists()
            else Catalog(locale=lang, domain=domain, project="barbu", copyright_holder=HOLDER)
        )
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.fuzzy = False  # the header: a fuzzy one would be left out of the .mo, and its plural forms with it
        assert catalog.locale is not None  # read or made with its language
        catalog.header_comment = HEADER.format(language=catalog.locale.english_name, domain=domain)
        catalog.last_translator = catalog.language_team = HOLDER
        catalog.project, catalog.version = pot.project, pot.version
        catalog.creation_date = catalog.revision_date = FIXED_DATE  # no date: branches merge without conflicts
        write(catalog, path, mo=True)


def missing(lang: str, domain: str = DOMAIN) -> list[str]:
    """The msgids of a domain's .pot that the language's .po leaves untranslated (or fuzzy)."""
    path = po_path(lang, domain)
    if not path.exists():
        return [f"{domain}: no catalog {path.name} for {lang}: run python -m barbu.i18n.catalogs"]
    catalog = read(path, lang, domain)
    out = []
    for m in read(pot_path(domain), "en", domain):
        if not m.id:
            continue
        t = catalog.get(m.id, context=m.context)
        strings = [] if t is None else t.string if isinstance(t.string, tuple) else [t.string]
        if t is None or t.fuzzy or not strings or not all(strings):
            out.append(f"{m.context + ': ' if m.context else ''}{m.id if isinstance(m.id, str) else m.id[0]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m barbu.i18n.catalogs", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only list the untranslated messages")
    parser.add_argument(
        "--domain", choices=DOMAINS, action="append", help="only this catalog (again for more); all by default"
    )
    args = parser.parse_args(argv)
    domains = args.domain or list(DOMAINS)
    if not args.check:
        for domain in domains:
            update(domain)
    gaps = {(lang, d): missing(lang, d) for d in domains for lang in LANGUAGES[1:]}
    for (lang, domain), ids in gaps.items():
        for i in ids:
            print(f"{lang} ({domain}): untranslated: {i}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
