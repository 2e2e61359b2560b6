"""Typed input in the player's language: cards, keywords and contract names read into the engine's notation."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "besigue"))

from bhelpers import deal_game  # noqa: E402
from helpers import D0, new_match, start_deal  # noqa: E402
from scottish_helpers import new_match as scottish_new_match  # noqa: E402

from barbu.besigue.actions import Declare as BDeclare  # noqa: E402
from barbu.besigue.actions import NoDeclaration, Play
from barbu.besigue.cards import parse_type  # noqa: E402
from barbu.core.actions import Declare, Double, NameRank, NameTrump  # noqa: E402
from barbu.core.cards import RANKS, SUITS  # noqa: E402
from barbu.core.cards import parse_card as core_parse_card
from barbu.core.errors import ParseError  # noqa: E402
from barbu.i18n import word_error  # noqa: E402
from barbu.i18n.typed import engine_text, parse_card, parse_typed, readings  # noqa: E402

#: How each language writes ranks (index 0..12: 2..A) and suits (S H D C), as its players do.
LETTERS = {
    "en": ("2 3 4 5 6 7 8 9 T J Q K A".split(), "S H D C".split()),
    "fr": ("2 3 4 5 6 7 8 9 10 V D R A".split(), "P C K T".split()),
    "it": ("2 3 4 5 6 7 8 9 10 F D R A".split(), "P C Q F".split()),
}
SYMBOLS = "♠♥♦♣"


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_every_card_in_both_orders_and_with_symbols(lang):
    ranks, suits = LETTERS[lang]
    for card in range(52):
        r, s = ranks[card % 13], suits[card // 13]
        want = RANKS[card % 13] + SUITS[card // 13]
        for typed in (r + s, s + r, (r + s).lower(), (s + r).lower(), r + SYMBOLS[card // 13], SYMBOLS[card // 13] + r):
            assert engine_text(typed, lang) == want, (typed, lang)
            assert parse_card(typed, lang) == card, (typed, lang)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_english_letters_are_the_fallback(lang):
    # "dq" and "qd" are the queen of diamonds for everybody
    assert engine_text("qd", lang) == "QD"
    assert engine_text("dq", lang) == "QD"
    assert engine_text("KS", lang) == "KS"
    assert engine_text("jc", lang) == "JC"
    assert parse_card("10s", lang) == core_parse_card("TS")


def test_the_players_language_comes_first_when_both_read():
    assert engine_text("ac", "fr") == "AH"  # as de cœur
    assert engine_text("ac", "it") == "AH"  # asso di cuori
    assert engine_text("ac", "en") == "AC"  # ace of clubs
    assert engine_text("tc", "fr") == "TC"  # not French (two suits): English, the ten of clubs
    assert engine_text("ct", "fr") == "TC"
    assert engine_text("dc", "fr") == "QH"  # dame de cœur, never read as English
    assert engine_text("dc", "en") == "dc"  # not an English card: left as typed
    # Italian F is both the jack (fante) and clubs (fiori): every reading agrees
    assert engine_text("ff", "it") == "JC"
    assert engine_text("fq", "it") == "JD" == engine_text("qf", "it")
    assert engine_text("df", "it") == "QC" == engine_text("fd", "it")
    # the French "as" (ace) is a word, not the ace of spades in English letters
    assert "AS" not in readings("as", "fr")
    assert engine_text("as", "en") == "AS"


def test_cards_in_words():
    assert engine_text("dame de cœur", "fr") == "QH"
    assert engine_text("Dame de coeur", "fr") == "QH"
    assert engine_text("10 de pique", "fr") == "TS"
    assert engine_text("as de trèfle", "fr") == "AC"
    assert engine_text("valet carreau", "fr") == "JD"
    assert engine_text("donna di picche", "it") == "QS"
    assert engine_text("fante di fiori", "it") == "JC"
    assert engine_text("asso di cuori", "it") == "AH"
    assert engine_text("queen of hearts", "fr") == "QH"  # English words as the fallback


@pytest.mark.parametrize(
    "lang,junk", [("fr", "zz"), ("it", "xy"), ("fr", "dp*"), ("fr", "dame de rien"), ("it", "11p")]
)
def test_junk_is_not_a_card_and_the_refusal_is_worded(lang, junk):
    with pytest.raises(ParseError) as info:
        parse_card(junk, lang)
    e = info.value
    assert e.code == "not-a-card" and e.params == {"text": junk}
    assert str(e).startswith(repr(junk) + " is not a card")
    fr, it = word_error(e, "fr"), word_error(e, "it")
    assert fr.startswith(repr(junk) + " n'est pas une carte") and "P, C, K, T" in fr
    assert it.startswith(repr(junk) + " non è una carta") and "P, C, Q, F" in it


@pytest.mark.parametrize(
    "lang,typed,want",
    [
        ("fr", "passe", "pass"),
        ("fr", "Passe", "pass"),
        ("it", "passo", "pass"),
        ("fr", "contre 2", "double 2"),
        ("fr", "contre 1 et 3", "double 1 and 3"),
        ("it", "contro 1 e 3", "double 1 and 3"),
        ("fr", "surcontre 1", "redouble 1"),
        ("it", "surcontro 2", "redouble 2"),
        ("fr", "maximum", "maximum"),
        ("it", "massimo", "maximum"),
        ("fr", "atout cœur", "trump hearts"),
        ("fr", "atout pique", "trump spades"),
        ("it", "atout quadri", "trump diamonds"),
        ("fr", "atout c", "trump hearts"),
        ("it", "atout q", "trump diamonds"),
        ("fr", "k", "diamonds"),
        ("fr", "sans atout", "none"),
        ("it", "senza atout", "none"),
        ("fr", "rang dame", "rank Q"),
        ("it", "valore fante", "rank J"),
        ("fr", "hauteur 10", "rank 10"),
        ("fr", "d", "Q"),
        ("fr", "r", "K"),
        ("it", "f", "J"),
        ("fr", "jouer dp", "play QS"),
        ("fr", "jouer dp*", "play QS*"),
        ("it", "gioca rc", "play KH"),
        ("fr", "annonce mariage RP DP", "declare marriage KS QS"),
        ("fr", "annoncer mariage d'atout rc dc", "declare trump-marriage KH QH"),
        ("fr", "annonce bésigue dp vk", "declare bezique QS JD"),
        ("fr", "annonce quinte ap 10p rp dp vp", "declare quint AS TS KS QS JS"),
        ("it", "dichiara bazzica dp fq", "declare bezique QS JD"),
        ("it", "dichiara scala ap rp dp fp 10p", "declare quint AS KS QS JS TS"),
        ("it", "accusa quattro assi ap ac aq af", "declare four-aces AS AH AD AC"),
        ("fr", "annonce carré de dames dp dc dk dt", "declare four-queens QS QH QD QC"),
        ("fr", "pas d'annonce", "no-declaration"),
        ("it", "niente", "no-declaration"),
        ("fr", "échanger 7p", "exchange 7S"),
        ("fr", "montrer 7c", "show 7H"),
        ("it", "scambia 7p", "exchange 7S"),
        ("fr", "donner dp rc 10t", "give QS KH TC"),
        ("it", "cala 7p 8p 9p", "lay 7S 8S 9S"),
    ],
)
def test_keywords(lang, typed, want):
    assert engine_text(typed, lang) == want


@pytest.mark.parametrize(
    "lang,typed,want",
    [
        ("fr", "pas de dames", "no-queens"),
        ("fr", "Pas de cœurs", "no-hearts"),
        ("fr", "pas de plis", "no-tricks"),
        ("fr", "barbu", "no-king"),
        ("fr", "les deux derniers", "no-last-two"),
        ("fr", "atout", "trumps"),
        ("fr", "réussite", "domino"),
        ("fr", "reussite", "domino"),
        ("fr", "salade", "salad"),
        ("fr", "contrat pas de dames", "no-queens"),
        ("it", "niente donne", "no-queens"),
        ("it", "niente cuori", "no-hearts"),
        ("it", "niente prese", "no-tricks"),
        ("it", "niente re di cuori", "no-king"),
        ("it", "ultime due", "no-last-two"),
        ("it", "domino", "domino"),
        ("it", "insalata", "salad"),
        # Scottish calls, alone and grouped
        ("fr", "as + dames", "aces+queens"),
        ("fr", "roi de cœur + dames", "king+queens"),
        ("fr", "dames et plis", "no-queens+no-tricks"),
        ("fr", "le tout", "aces+king+queens+hearts+tricks"),
        ("fr", "double patience", "double-patience"),
        ("it", "doppia pazienza", "double-patience"),
        ("it", "pazienza", "patience"),
        ("it", "tutto", "aces+king+queens+hearts+tricks"),
    ],
)
def test_contract_names_as_players_say_them(lang, typed, want):
    assert engine_text(typed, lang) == want


def test_one_name_two_keys_are_both_read():
    # Réussite is Domino in the classic game and Success in the French preset
    assert readings("réussite", "fr")[:2] == ["domino", "success"]
    assert readings("roi de cœur", "fr")[0] == "KH"  # the card first, the Scottish call next
    assert "king" in readings("roi de cœur", "fr")


def test_english_text_is_left_as_the_engine_reads_it():
    for text in ("pass", "double 1 3", "no-queens", "trump H", "QH", "declare marriage KS QS", "maximum"):
        assert engine_text(text, "en").lower() == text.lower()
        assert parse_typed is not None


# -- through the games' own parsers


def test_classic_deal_typed_in_french_and_italian():
    m = new_match("classic", 0)
    from helpers import deal

    deal(m, D0)
    assert parse_typed(m, "pas de dames", "fr") == Declare("no-queens")
    assert parse_typed(m, "niente donne", "it") == Declare("no-queens")
    assert parse_typed(m, "réussite", "fr") == Declare("domino")
    m = start_deal("classic", 0, D0, contract="trumps")
    assert parse_typed(m, "atout cœur", "fr") == NameTrump(1)
    assert parse_typed(m, "cœur", "fr") == NameTrump(1)
    assert parse_typed(m, "sans atout", "fr") == NameTrump(None)
    assert parse_typed(m, "atout fiori", "it") == NameTrump(3)
    assert parse_typed(m, "c", "fr") == NameTrump(1)  # cœur
    assert parse_typed(m, "c", "en") == NameTrump(3)  # clubs
    m = start_deal("classic", 0, D0, contract="trumps", trump="H")
    assert parse_typed(m, "passe", "fr") == Double()
    assert parse_typed(m, "contre 2", "fr") == Double(frozenset({2}))
    assert parse_typed(m, "contro 2 e 3", "it") == Double(frozenset({2, 3}))
    m = start_deal("classic", 0, D0, contract="trumps", trump="H", doubles="pass; pass; pass; pass")
    assert parse_typed(m, "5p", "fr") == core_parse_card("5S")
    assert parse_typed(m, "p5", "it") == core_parse_card("5S")


def test_french_preset_reads_reussite_as_its_success():
    m = new_match("french", 0)
    from helpers import deal

    deal(m, D0)
    assert parse_typed(m, "réussite", "fr") == Declare("success")


def test_a_rank_named_in_french():
    m = start_deal("classic", 0, D0, contract="domino")
    assert m.phase_name == "rank"
    assert parse_typed(m, "dame", "fr") == NameRank(10)
    assert parse_typed(m, "as", "fr") == NameRank(12)
    assert parse_typed(m, "r", "fr") == NameRank(11)
    assert parse_typed(m, "fante", "it") == NameRank(9)


def test_junk_is_refused_in_the_players_words():
    m = start_deal("classic", 0, D0, contract="trumps", trump="H", doubles="pass; pass; pass; pass")
    with pytest.raises(ParseError) as info:
        parse_typed(m, "zz", "fr")
    assert info.value.params["text"] == "zz"
    assert "n'est pas une carte" in word_error(info.value, "fr")
    assert "non è una carta" in word_error(info.value, "it")
    assert len(m.history) == len(
        start_deal("classic", 0, D0, contract="trumps", trump="H", doubles="pass; pass; pass; pass").history
    )


def test_scottish_calls_typed_in_french():
    m = scottish_new_match(caller=0)
    from scottish_helpers import deal
    from test_scottish_rules import SUITS_DEAL

    deal(m, SUITS_DEAL)
    for typed, lang in (
        ("roi de cœur + dames", "fr"),
        ("rc + dames", "fr"),
        ("niente re di cuori e niente donne", "it"),
    ):
        action = parse_typed(m, typed, lang)
        assert str(action) == str(m.parse_action("king+queens")), typed


def test_besigue_typed_in_french_and_italian():
    g = deal_game(
        ["KS", "QS", "AC", "7C", "8C", "9C", "TC", "JC", "7H"],
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "AD", "KD"],
        "7D",
    )
    assert parse_typed(g, "jouer dp", "fr") == Play(parse_type("QS"))
    assert parse_typed(g, "gioca dp", "it") == Play(parse_type("QS"))
    assert parse_typed(g, "annonce mariage rp dp", "fr") == BDeclare(
        "marriage", ((parse_type("QS"), False), (parse_type("KS"), False))
    )
    assert parse_typed(g, "pas d'annonce", "fr") == NoDeclaration()


def test_the_italian_k_of_seed_002_is_the_king():
    assert engine_text("K di cuori", "it") == "KH"
    assert engine_text("kc", "it") == "KH"  # re di cuori, not the English king of clubs
    assert engine_text("kq", "it") == "KD"
    assert engine_text("kc", "fr") == "KC"  # French K is carreau: two suits, so English


@pytest.mark.parametrize(
    "lang,hint,want",
    [
        ("fr", "jouer DP", "play QS"),
        ("fr", "jouer DP*", "play QS*"),
        ("fr", "annonce bésigue DP VK", "declare bezique QS JD"),
        ("fr", "pas d'annonce", "no-declaration"),
        ("fr", "échanger 7C", "exchange 7H"),
        ("fr", "montrer 7C", "show 7H"),
        ("fr", "contre 1 3", "double 1 3"),
        ("fr", "donner AP RC 7K", "give AS KH 7D"),
        ("fr", "poser 9C 8C 7C", "lay 9H 8H 7H"),
        ("fr", "roi de cœur + dames", "king+queens"),
        ("fr", "double patience", "double-patience"),
        ("fr", "DP", "QS"),
        ("fr", "10K", "TD"),
        ("fr", "DC", "QH"),
        ("fr", "10p", "TS"),
        ("it", "gioca DP", "play QS"),
        ("it", "dichiara bazzica DP FQ", "declare bezique QS JD"),
        ("it", "niente", "no-declaration"),
        ("it", "scambia 7C", "exchange 7H"),
        ("it", "mostra 7C", "show 7H"),
        ("it", "contro 1 3", "double 1 3"),
        ("it", "dai AP RC 7Q", "give AS KH 7D"),
        ("it", "cala 9C 8C 7C", "lay 9H 8H 7H"),
        ("it", "re di cuori + donne", "king+queens"),
        ("it", "niente re di cuori + niente donne", "no-king+no-queens"),
        ("it", "doppia pazienza", "double-patience"),
        ("it", "10Q", "TD"),
        ("it", "DC", "QH"),
        ("it", "10p", "TS"),
    ],
)
def test_the_examples_the_refusals_give_are_read(lang, hint, want):
    # the French and Italian refusals show these as what to type: each reads as the engine's notation
    assert engine_text(hint, lang) == want
    if want.split()[0] in ("play", "declare", "no-declaration", "exchange", "show"):
        from barbu.besigue.actions import parse_action as besigue_action

        besigue_action(want)


def test_a_mistyped_contract_lists_the_names_the_player_may_type():
    m = new_match("classic", 0)
    from helpers import deal

    deal(m, D0)
    with pytest.raises(ParseError) as info:
        parse_typed(m, "pas de rois", "fr")
    e = info.value
    assert str(e).endswith("contracts are: no-tricks, no-hearts, no-queens, no-king, no-last-two, trumps, domino")
    fr = word_error(e, "fr")
    assert fr.startswith("'pas de rois' n'est pas un contrat\u00a0; les contrats sont\u00a0: Pas de plis, Pas de cœurs")
    assert "Barbu" in fr and "Réussite" in fr
    assert "Niente donne" in word_error(e, "it")
    for name in ("Pas de plis", "Barbu", "Réussite", "Les deux derniers"):  # each can be typed back
        assert parse_typed(m, name, "fr").contract in m.contract_by_key


def test_an_unknown_combination_lists_what_the_player_may_type():
    g = deal_game(
        ["KS", "QS", "AC", "7C", "8C", "9C", "TC", "JC", "7H"],
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "AD", "KD"],
        "7D",
    )
    with pytest.raises(ParseError) as info:
        parse_typed(g, "annonce mariagex rp dp", "fr")
    e = info.value
    assert "combinations are: marriage, trump-marriage, bezique" in str(e)
    fr, it = word_error(e, "fr"), word_error(e, "it")
    assert "les combinaisons sont\u00a0: mariage, mariage d'atout, bésigue, carré de valets" in fr
    assert (
        "quinte majeure" in fr and "le combinazioni sono: matrimonio" in it and "quinta maggiore, doppio bésigue" in it
    )
    assert parse_typed(g, "annonce mariage d'atout rp dp", "fr") is not None


def test_a_refusal_names_what_the_player_typed_not_the_engines_notation():
    g = deal_game(
        ["KS", "QS", "AC", "7C", "8C", "9C", "TC", "JC", "7H"],
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "AD", "KD"],
        "7D",
    )
    with pytest.raises(ParseError) as info:
        parse_typed(g, "jouer 2p", "fr")
    assert info.value.code == "not-a-besigue-card" and info.value.params["text"] == "2p"
    assert word_error(info.value, "fr").startswith("'2p' n'est pas une carte de Bésigue")
    m = start_deal("classic", 0, D0, contract="trumps", trump="H")
    with pytest.raises(ParseError) as info:
        parse_typed(m, "contre x", "fr")
    assert info.value.params["text"] == "contre x"
