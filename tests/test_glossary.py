"""Every French and Italian catalog holds to the glossary of docs/i18n.md: one word per concept.

The words not to use are read from the glossary's table, so the page and the catalogs
cannot drift apart; French typography (no-break spaces) is checked on every entry, and
the typed words the Keys help advertises are read by the parser.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

sys.path.insert(0, str(Path(__file__).parent))
from helpers import D0, start_deal  # noqa: E402

from barbu.core.actions import Double  # noqa: E402
from barbu.i18n import translator  # noqa: E402
from barbu.i18n.typed import engine_text, parse_typed  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "barbu" / "i18n" / "locale"
GLOSSARY = ROOT / "docs" / "i18n.md"
DOMAINS = ("barbu", "cli", "guide", "keeper", "tui", "web", "webscore")
NBSP = "\u00a0"


def entries(lang: str) -> list[tuple[str, str | None, str, str]]:
    """(domain, context, msgid, one msgstr form) for every translated entry of ``lang``."""
    out = []
    for domain in DOMAINS:
        with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
        for m in catalog:
            if not m.id:
                continue
            msgid = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
            forms = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
            out += [(domain, m.context, msgid, s) for s in forms if s]
    return out


def glossary_rows() -> list[list[str]]:
    """The cells of the glossary table (header and rule lines left out)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Glossary: one word per concept", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip().strip("|").split("|") for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row] for row in rows[1:]]


def forbidden(lang: str) -> list[str]:
    """The backticked words of the glossary's "French: not" or "Italian: not" column."""
    column = 4 if lang == "fr" else 5
    return [w for row in glossary_rows() for w in re.findall(r"`([^`]+)`", row[column])]


def pattern(word: str) -> re.Pattern[str]:
    """A whole-word (or, with a trailing *, word-start) case-insensitive pattern for ``word``."""
    prefix = word.endswith("*")
    body = re.escape(word.rstrip("*"))
    start = r"\b" if word[0].isalnum() else ""
    end = "" if prefix or not word.rstrip("*")[-1].isalnum() else r"\b"
    return re.compile(start + body + end, re.IGNORECASE)


#: Verb forms that look like a forbidden noun: "non contri mai" (you never double), "Contri {whom}".
VERB_USES = {"it": (re.compile(r"\bcontri mai\b", re.I), re.compile(r"\bContri \{whom\}"))}


def test_glossary_lists_words_for_both_languages():
    assert len(glossary_rows()) >= 15
    assert "tour idiot" in forbidden("fr") and "contri" in forbidden("it") and "dare contro" in forbidden("it")


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_no_catalog_uses_a_word_the_glossary_forbids(lang):
    bad = []
    for word in forbidden(lang):
        pat = pattern(word)
        for domain, context, msgid, text in entries(lang):
            if context == "typed":  # old words stay accepted when typed
                continue
            for verb in VERB_USES.get(lang, ()):
                text = verb.sub("", text)
            if pat.search(text):
                bad.append(f"{domain}: {word!r} in {text[:90]!r}")
    assert not bad, "\n".join(bad)


def test_the_seed_has_one_word_per_language():
    """French "graine", Italian "chiave" (never "seme", the suit) wherever the random seed is meant."""
    seeds = [
        (d, c, i)
        for d, c, i, _ in entries("fr")
        if re.search(r"\bseeds?\b", i, re.I) and not re.search(r"\(the seed|the seed \(", i)
    ]
    assert len(seeds) >= 5
    for lang, word, never in (("fr", "graine", None), ("it", "chiav", re.compile(r"\bsem[ei]\b", re.I))):
        by_id = {(d, c, i): s for d, c, i, s in entries(lang)}
        for key in seeds:
            text = by_id[key]
            assert word in text.lower(), (lang, key[2], text)
            assert never is None or not never.search(text), (lang, key[2], text)


def test_the_scottish_caller_and_silly_round_are_settled():
    for lang, caller, silly in (("fr", "meneur", "tour fou"), ("it", "chiam", "giro pazzo")):
        for _, context, msgid, text in entries(lang):
            if context is None and re.search(r"\bcaller\b", msgid, re.I):
                assert caller in text.lower(), (lang, msgid, text)
            if re.search(r"\bSilly Round\b", msgid):
                assert silly in text.lower(), (lang, msgid, text)


def test_italian_bésigue_words_are_one_set():
    it = translator("it")
    assert it.pgettext("combination", "a bésigue") == "un bésigue"
    assert it.pgettext("combination", "a double bésigue") == "un doppio bésigue"
    assert it.pgettext("combination", "a quint major") == "una quinta maggiore"
    # the old words stay typed aliases
    assert engine_text("dichiara bazzica dp fq", "it") == "declare bezique QS JD"
    assert engine_text("dichiara scala aq 10q rq dq fq", "it").startswith("declare quint")


# -- French typography: a no-break space before : ; ! ? and inside « »

#: An ordinary space before a high punctuation mark that ends a word (not "x:y" notation), markup after it
#: too ("[red]Refusé :[/red]").
SPACE_BEFORE = re.compile(r" [:;!?](?=\s|$|[\"'»)\]\[])")


def test_french_has_no_break_spaces_before_high_punctuation_and_inside_guillemets():
    bad = []
    for domain, _, msgid, text in entries("fr"):
        if SPACE_BEFORE.search(text) or "« " in text or " »" in text:
            bad.append(f"{domain}: {text[:100]!r}")
        if re.search(r"«[^\u00a0\u202f]|[^\u00a0\u202f]»", text):
            bad.append(f"{domain} (guillemet without a no-break space): {text[:100]!r}")
    assert not bad, f"{len(bad)} French entries:\n" + "\n".join(bad[:40])


def test_french_typography_reaches_a_player():
    fr = translator("fr")
    assert fr.gettext("Seed") == "Graine"
    assert NBSP + ":" in fr.gettext("Set {set}, Silly Round, deal {deal}: cutter {seat}")


# -- the terminal does not break a line at a no-break space


def test_terminal_wrapping_keeps_no_break_spaces_with_their_words():
    from rich.console import Console
    from rich.text import Text
    from textual.content import Content

    from barbu.i18n import use

    use("fr")  # what a terminal process does first: it also guards the wrapping
    try:
        line = f"Pour tout revoir, tapez «{NBSP}aide{NBSP}» puis Entrée{NBSP}: scores en 1\u202f000{NBSP}!"
        console = Console(width=80, color_system=None)
        for width in range(8, 60):
            for lines in (
                [t.plain for t in Text(line).wrap(console, width)],
                [c.plain for c in Content(line).wrap(width)],
            ):
                for row in lines:
                    assert not row.lstrip().startswith((":", "!", "»", "aide", "000")), (width, lines)
                    assert not row.rstrip().endswith(("«", "1")), (width, lines)
    finally:
        use("en")  # the process language is global: the tests after this one read English


# -- the words the Keys help shows are typed words


@pytest.mark.parametrize(
    "lang,word", [("fr", "famille"), ("it", "famiglia"), ("fr", "flancs"), ("it", "fianchi"), ("en", "family")]
)
def test_family_is_a_typed_word(lang, word):
    assert engine_text(word, lang) == "family"
    m = start_deal("classic", 0, D0, contract="no-queens")
    seat = m.dbl_queue[0]
    assert parse_typed(m, word, lang) == Double(frozenset(p for p in range(4) if p not in (seat, m.dealer)))


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_every_doubling_word_of_the_keys_help_parses(lang):
    """The Keys help lists "passe, contre 1 3, famille, maximum": each is read at the doubling turn."""
    helps = [text for domain, _, msgid, text in entries(lang) if domain == "tui" and "family, maximum" in msgid]
    assert helps
    help_text = helps[0]
    family = {"fr": "famille", "it": "famiglia"}[lang]
    assert family in help_text
    m = start_deal("classic", 0, D0, contract="no-queens")
    for word in {"fr": ("passe", "famille", "maximum"), "it": ("passo", "famiglia", "massimo")}[lang]:
        assert word in help_text
        assert isinstance(parse_typed(m, word, lang), Double)


# -- the words settled by issue 30's last items


def test_italian_writes_barbù():
    """Seed 002 spells the game "Barbù"; only the French proper name "Le Barbu" and the program "barbu" stay."""
    bad = [
        f"{domain}: {text[:90]!r}"
        for domain, context, _, text in entries("it")
        if context != "typed" and re.search(r"(?<!Le )\bBarbu\b", text)
    ]
    assert not bad, "\n".join(bad)
    assert "Barbù" in translator("it").gettext("French Barbu")


def test_french_bésigue_fours_are_carrés():
    """Seed 003: "Carré de Valets / de Dames / de Rois / d'As", in the engine, the web table and the sheets."""
    fr = translator("fr")
    names = [fr.pgettext("combination", f"four {rank}") for rank in ("jacks", "queens", "kings", "aces")]
    assert names == ["un carré de valets", "un carré de dames", "un carré de rois", "un carré d'as"]
    sheet = {text for domain, _, msgid, text in entries("fr") if domain == "keeper" and msgid.startswith("4 ")}
    table = {text for _, context, msgid, text in entries("fr") if context == "meld" and msgid.startswith("Four ")}
    assert {"Carré de valets", "Carré d'as"} <= sheet
    assert {"Carré de valets", "Carré d'as"} <= table
    assert engine_text("annonce carré de valets vp vc vk vt", "fr").startswith("declare four-jacks")


def test_a_suit_named_as_trumps_is_singular_in_french():
    """French says "atout pique" and "l'atout est pique"; English keeps "trumps spades", Italian "picche"."""
    from barbu.cli.besigue_plain import trumps
    from barbu.i18n import use
    from barbu.tui.labels import suit_label

    assert [translator("fr").named_suit(s) for s in range(4)] == ["pique", "cœur", "carreau", "trèfle"]
    assert translator("it").named_suit(0) == "picche" and translator("en").named_suit(0) == "spades"
    use("fr")
    try:
        assert suit_label(0) == "♠ pique" and trumps(3) == "trèfle"
    finally:
        use("en")
    assert suit_label(0) == "♠ spades"
