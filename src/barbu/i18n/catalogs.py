"""The catalogs' upkeep with Babel: extract the msgids, merge them into each language, compile.

    python -m barbu.i18n.catalogs            # messages.pot, then fr and it .po updated, .mo compiled
    python -m barbu.i18n.catalogs --check    # exit 1, listing them, if a msgid lacks a translation

The msgids are the templates marked ``N_()`` / ``NN_()`` in the engine (Babel's Python
extractor, as ``pybabel extract -F babel.cfg -k N_ -k NN_:1,2`` would find them) and the
game's vocabulary, which the engine keeps as data: suit and rank words, rank letters, every
contract and call name of every preset, Bésigue's combinations, the doubling words.
Each vocabulary word carries a context (``pgettext``) so translators see what it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .. import games  # noqa: F401  (registers every family, so every contract name is seen)
from ..besigue.actions import MELD_NAMES
from ..classic.contracts import classic_contracts
from ..classic.ruleset import presets
from ..core.words import RANK_NAMES, RANKS, SUIT_NAMES, SUIT_SINGULAR
from . import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = Path(__file__).parent.parent
POT = Path(__file__).parent / "messages.pot"
HOLDER = "the barbu authors"
HEADER = ("# {language} words of barbu: the engine's refusals and the game's vocabulary.\n"
          "# Kept with python -m barbu.i18n.catalogs (docs/i18n.md); keep every {{field:kind}} as it is.")
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "NN_": (1, 2)}
#: Where the engine's msgids are; the front ends join when they are translated.
SOURCES = ("core", "classic", "scottish", "besigue")
#: Words the front ends will need that the engine does not name in a message.
EXTRA_WORDS = (
    ("doubling", "double"), ("doubling", "redouble"), ("doubling", "pass"),
    ("besigue", "stock"), ("besigue", "turn-up"), ("besigue", "brisques"),
)


def contract_names() -> list[str]:
    """Every contract and call name of every preset (a Scottish combination split into its calls)."""
    names: list[str] = []
    contracts = [c for p in presets() for c in p.ruleset.family_spec.contracts(p.ruleset)]
    for c in [*contracts, *classic_contracts(ravage_city=True, chinese_poker=True)]:
        for part in c.name.split(" + "):
            if part not in names:
                names.append(part)
    return names


def vocabulary() -> list[tuple[str, str]]:
    """(context, word) for every word of the game the engine keeps as data."""
    words = [("suits", s) for s in SUIT_NAMES] + [("suit", s) for s in SUIT_SINGULAR]
    words += [("rank", r) for r in RANK_NAMES]
    words += [("rank letter", r) for r in (*RANKS.replace("T", ""), "10", "T")]
    words += [("contract", n) for n in contract_names()]
    words += [("combination", m) for m in MELD_NAMES.values()]
    return words + list(EXTRA_WORDS)


def extract() -> Catalog:
    """The template catalog: the engine's marked msgids, then the vocabulary."""
    pot = Catalog(project="barbu", version="0.1", domain=DOMAIN, fuzzy=False, copyright_holder=HOLDER,
                  header_comment=HEADER.format(language="The English"))
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                PACKAGE / source, method_map=[("**.py", "python")], keywords=KEYWORDS):
            pot.add(message, locations=[(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    for context, word in vocabulary():
        pot.add(word, context=context)
    return pot


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, lang: str) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, path: Path, mo: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False)
    if mo:
        with path.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)


def update() -> None:
    """Extract messages.pot, merge it into each language's .po, compile each .mo."""
    pot = extract()
    write(pot, POT)
    for lang in LANGUAGES[1:]:
        path = po_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN, project="barbu",
                                                                 copyright_holder=HOLDER)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.fuzzy = False  # the header: a fuzzy one would be left out of the .mo, and its plural forms with it
        catalog.header_comment = HEADER.format(language=catalog.locale.english_name)
        catalog.last_translator = catalog.language_team = HOLDER
        catalog.project, catalog.version = pot.project, pot.version
        write(catalog, path, mo=True)


def missing(lang: str) -> list[str]:
    """The msgids of messages.pot that the language's .po leaves untranslated (or fuzzy)."""
    catalog = read(po_path(lang), lang)
    out = []
    for m in read(POT, "en"):
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
    args = parser.parse_args(argv)
    if not args.check:
        update()
    gaps = {lang: missing(lang) for lang in LANGUAGES[1:]}
    for lang, ids in gaps.items():
        for i in ids:
            print(f"{lang}: untranslated: {i}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
