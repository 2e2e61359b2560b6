"""Refusals as codes with parameters, worded in English, French and Italian from the shipped catalogs."""

from __future__ import annotations

import gettext
import json
import string
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "besigue"))

from bhelpers import deal_game  # noqa: E402
from helpers import D0, deal, start_deal  # noqa: E402
from scottish_helpers import deal as scottish_deal  # noqa: E402
from scottish_helpers import finish_deal as scottish_finish_deal  # noqa: E402
from scottish_helpers import new_match as scottish_new_match  # noqa: E402
from test_scottish_rules import SUITS_DEAL  # noqa: E402

from barbu.core.errors import IllegalAction  # noqa: E402
from barbu.core.words import MESSAGES  # noqa: E402
from barbu.i18n import (  # noqa: E402
    DOMAINS,
    LANGUAGES,
    LOCALE_DIR,
    catalogs,  # noqa: E402
    language,
    system_language,
    translator,
    word_error,
)


def refusal(make, act) -> IllegalAction:
    """The refusal of ``act`` on a fresh state from ``make``, checked to leave the state as it was."""
    state = make()
    before = str(state.history if hasattr(state, "history") else state.log)
    with pytest.raises(IllegalAction) as info:
        act(state)
    assert str(state.history if hasattr(state, "history") else state.log) == before
    return info.value


def at_trumps():
    m = start_deal("classic", 0, D0, contract="trumps", trump="H", doubles="pass; pass; pass; pass")
    m.apply("5S")
    return m


def dealer_after_passes():
    return start_deal("classic", 0, D0, contract="no-queens", doubles="pass; pass; pass")


def second_deal_declare():
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="pass; pass; pass; pass")
    deal(m, D0)
    return m


def besigue_declare():
    g = deal_game(
        ["AC", "KH", "QH", "7C", "8C", "9C", "TC", "JC", "7S"],
        ["7D", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        "8H",
        top=["TD", "TD", "TS", "TS", "9H", "9H"],
    )
    g.apply("play AC")
    g.apply("play 7D")
    return g


def besigue_second_marriage():
    g = deal_game(
        ["AC", "KS", "QS", "QS", "AS", "AS", "7C", "8C", "9C"],
        ["7D", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        "8H",
        top=["TD", "TD", "TS", "TS", "9H", "9H"],
    )
    for a in ("play AC", "play 7D", "declare marriage KS QS", "play AS", "play 8D"):
        g.apply(a)
    return g


def scottish_after_three_singles():
    m = scottish_new_match(caller=2)
    for call in ("aces", "king", "queens"):
        scottish_deal(m, SUITS_DEAL)
        m.apply(call)
        scottish_finish_deal(m)
    scottish_deal(m, SUITS_DEAL)
    return m


# (what, state, action, code, params, English, French, Italian)
CASES = [
    (
        "follow suit",
        at_trumps,
        lambda m: m.apply(next(c for c in range(13, 52) if m.hands[m.to_act()] >> c & 1)),
        "follow-suit",
        {"suit": 0},
        "you must follow suit: play a spade",
        "vous devez fournir\u00a0: jouez un pique",
        "devi rispondere al seme: gioca una carta di picche",
    ),
    (
        "the dealer doubles",
        dealer_after_passes,
        lambda m: m.apply("double 1"),
        "dealer-never-doubles",
        {},
        "the dealer never doubles; he may only redouble doubles he received",
        "le donneur ne contre jamais\u00a0; il peut seulement surcontrer les contres reçus",
        "il mazziere non dà mai il contro; può solo surcontrare i contro ricevuti",
    ),
    (
        "a contract already played",
        second_deal_declare,
        lambda m: m.apply("no-queens"),
        "contract-played",
        {"contract": "no-queens", "name": "No queens"},
        "No queens has already been declared in this series",
        "Pas de dames a déjà été annoncé dans cette série",
        "Niente donne è già stata scelta in questa serie",
    ),
    (
        "a Bésigue marriage in trumps",
        besigue_declare,
        lambda g: g.apply("declare marriage KH QH"),
        "marriage-in-trumps",
        {},
        "a king and queen of trumps make a trump marriage",
        "un roi et une dame d'atout font un mariage d'atout",
        "re e donna di atout fanno un matrimonio di atout",
    ),
    (
        "a Bésigue card serving twice",
        besigue_second_marriage,
        lambda g: g.apply("declare marriage KS* QS"),
        "already-served",
        {"card": 5, "meld": "marriage", "name": "a marriage"},
        "your declared K♠ has already served in a marriage; a card may serve again only in a combination of another kind",
        "votre R♠ déclaré a déjà servi dans un mariage\u00a0; une carte ne resert que dans une combinaison d'une autre sorte",
        "il tuo R♠ dichiarato è già servito in un matrimonio; una carta può servire di nuovo solo in una combinazione "
        "di altro tipo",
    ),
    (
        "a Scottish call already played",
        scottish_after_three_singles,
        lambda m: m.apply("aces+tricks"),
        "call-part-played",
        {"contract": "aces+tricks", "name": "Aces + Tricks"},
        "Aces + Tricks cannot be called: part of it has already been played in this round",
        "As + Plis ne peut pas être annoncé\u00a0: une partie en a déjà été jouée dans ce tour",
        "Assi + Prese non si può chiamare: una sua parte è già stata giocata in questo giro",
    ),
]


@pytest.mark.parametrize("what, make, act, code, params, en, fr, it", CASES, ids=[c[0] for c in CASES])
def test_refusals_in_three_languages(what, make, act, code, params, en, fr, it) -> None:
    e = refusal(make, act)
    assert (e.code, e.params) == (code, params)
    assert json.loads(json.dumps(e.params)) == params  # plain data a server can send as it is
    assert str(e) == en
    assert [word_error(e, lang) for lang in LANGUAGES] == [en, fr, it]


def at_domino():
    return start_deal("classic", 0, D0, contract="domino", rank="7", doubles="pass; pass; pass; pass")


def test_cards_suits_and_ranks_in_each_language() -> None:
    e = refusal(at_domino, lambda m: m.apply("5S"))  # seat 0 holds 5432 of spades; no row is started
    assert (e.code, e.params) == ("domino-row-not-started", {"card": 3, "suit": 0, "rank": 5})
    assert word_error(e, "fr") == (
        "5♠ ne peut pas être posé\u00a0: la rangée des piques n'est pas commencée\u00a0; elle s'ouvre par le 7"
    )
    assert word_error(e, "it") == "5♠ non può essere messa: la fila di picche non è iniziata; si apre con il 7"
    e = refusal(at_domino, lambda m: m.apply("QH"))
    assert [word_error(e, lang) for lang in LANGUAGES] == ["you do not hold Q♥", "vous n'avez pas D♥", "non hai D♥"]
    e = refusal(at_domino, lambda m: m.apply("JH"))
    assert [word_error(e, lang) for lang in LANGUAGES] == ["you do not hold J♥", "vous n'avez pas V♥", "non hai F♥"]


def test_plural_forms_follow_each_language() -> None:
    msg = MESSAGES["must-double-dealer"]
    fr = translator("fr")
    assert "1 contre et" in fr.render(msg, {"seat": 2, "n": 1})
    assert "2 contres et" in fr.render(msg, {"seat": 2, "n": 2})
    assert "0 contre et" in fr.render(msg, {"seat": 2, "n": 0})  # French: 0 is singular


def test_an_error_without_a_code_stays_english() -> None:
    e = ValueError("plain")
    assert word_error(e, "fr") == "plain"
    assert word_error(IllegalAction("no code here"), "it") == "no code here"


def test_language_codes() -> None:
    assert [language(x) for x in ("fr_BE.UTF-8", "it-IT", "de", None, "EN")] == ["fr", "it", "en", "en", "en"]


def test_the_system_language_comes_from_the_locale() -> None:
    assert system_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert system_language({"LANGUAGE": "it:en", "LANG": "fr_FR.UTF-8"}) == "it"
    assert system_language({"LC_ALL": "C.UTF-8", "LANG": "it_IT.UTF-8"}) == "it"
    assert system_language({"BARBU_LANG": "en", "LANG": "fr_FR.UTF-8"}) == "en"
    assert system_language({"LANG": "de_DE.UTF-8"}) == system_language({}) == "en"


def test_numbers_as_each_language_writes_them() -> None:
    assert [translator(lang).number(-1250) for lang in LANGUAGES] == ["-1250", "-1\u202f250", "-1.250"]


def test_the_template_catalog_is_up_to_date() -> None:
    """messages.pot holds exactly what the code marks and the vocabulary: run python -m barbu.i18n.catalogs."""
    shipped = {(m.context, m.id) for m in catalogs.read(catalogs.POT, "en") if m.id}
    assert shipped == {(m.context, m.id) for m in catalogs.extract() if m.id}
    # a coded message is in the catalog of the part that raises it (records' and agents' are the cli's)
    every = shipped | {(m.context, m.id) for d in DOMAINS[1:] for m in catalogs.read(catalogs.pot_path(d), "en", d)}
    ids = {i if isinstance(i, str) else i[0] for _, i in every}
    assert {m.text for m in MESSAGES.values()} <= ids


@pytest.mark.parametrize("domain", DOMAINS[1:])
def test_each_front_ends_template_is_up_to_date(domain: str) -> None:
    """Each part's .pot holds exactly what its code marks: run python -m barbu.i18n.catalogs --domain DOMAIN."""
    shipped = {(m.context, m.id) for m in catalogs.read(catalogs.pot_path(domain), "en", domain) if m.id}
    assert shipped == {(m.context, m.id) for m in catalogs.extract(domain) if m.id}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_message_has_a_translation(lang: str, domain: str) -> None:
    assert catalogs.missing(lang, domain) == []


def fields(template: str) -> list[tuple[str, str, str]]:
    return sorted((f, c or "", s or "") for _, f, s, c in string.Formatter().parse(template) if f is not None)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translations_keep_every_parameter_and_its_kind(lang: str, domain: str) -> None:
    for m in catalogs.read(catalogs.po_path(lang, domain), lang, domain):
        if not m.id or m.context:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for s in strings:
            assert fields(s) == fields(ids[0]), f"{lang}: {s!r} does not keep the fields of {ids[0]!r}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_compiled_catalogs_match_the_po_files(lang: str, domain: str) -> None:
    compiled = gettext.translation(domain, localedir=LOCALE_DIR, languages=[lang])
    for m in catalogs.read(catalogs.po_path(lang, domain), lang, domain):
        if m.id and isinstance(m.id, str):
            got = compiled.pgettext(m.context, m.id) if m.context else compiled.gettext(m.id)
            assert got == m.string, f"{lang}: the .mo is stale for {m.id!r}: run python -m barbu.i18n.catalogs"


SAMPLES = {
    "suit": 1,
    "suit1": 1,
    "card": 10,
    "cards": [10, 24],
    "rank": 8,
    "seat": 2,
    "count": 3,
    "contract": "No queens",
    "bcard": 4,
    "meld": "a marriage",
    "symbol": 1,
    "list": ["aces", "king"],
    "": "x",
    "error": ValueError("x"),
}
SAMPLES["contract_keys"] = [("no-queens", "No queens"), ("trumps", "Trumps")]
SAMPLES["meld_keys"] = ["marriage", "quint"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_in_every_language(lang: str) -> None:
    import barbu.besigue.refusals  # noqa: F401  (its kinds: bcard, meld, symbol)
    import barbu.scottish.refusals  # noqa: F401

    words = translator(lang)
    for m in MESSAGES.values():
        params = {f: SAMPLES[spec] for f, _, spec in fields(m.text)}
        text = words.render(m, params)
        assert "{" not in text and text.strip(), (m.code, text)
        if lang != "en":
            assert text != translator("en").render(m, params), f"{m.code} is not translated into {lang}"


def test_each_part_reads_its_own_catalog_first() -> None:
    """The same English in two parts may be worded for each: a short key label, a heading on the web."""
    from barbu.i18n import domain_of

    assert translator("fr", "tui").gettext("Scoresheet") == "Marque"
    assert translator("fr", "web").gettext("Scoresheet") == "Feuille de marque"
    assert [
        domain_of(m)
        for m in (
            "barbu.tui.table",
            "barbu.tui.score_app",
            "barbu.cli.sheets",
            "barbu.web.app",
            "barbu.web.scorebooks.keeping",
            "barbu.classic.match",
            "barbu.agents.hint",
        )
    ] == ["tui", "keeper", "keeper", "web", "webscore", "barbu", "cli"]
