"""The scorekeeper in English, French and Italian: its refusals and flags worded per language, the printable
sheets (text, HTML, PDF) with their contract names and numbers, and ``barbu sheet`` / ``barbu score print``."""

from __future__ import annotations

import argparse

import pypdfium2 as pdfium
import pytest
from rich.console import Console

from barbu.i18n import translator, use, word_error
from barbu.scorekeeper import BesigueKeeper, Keeper, KeeperError
from barbu.scorekeeper.printing import printable
from barbu.scorekeeper.questions import label
from barbu.scorekeeper.refusals import Note, word_keeper_error, word_note
from barbu.scorekeeper.sheet import sheet_for
from barbu.scorekeeper.textsheet import render_text

A, B, C, D = range(4)
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def refusal(keeper, entry) -> KeeperError:
    before = list(keeper.entries)
    with pytest.raises(KeeperError) as info:
        keeper.add(entry)
    assert keeper.entries == before  # a refusal changes nothing
    return info.value


def words_of(e: BaseException) -> dict[str, str]:
    return {lang: word_error(e, lang) for lang in ("en", "fr", "it")}


@pytest.fixture(autouse=True)
def english_after():
    yield
    use("en")


# ---------------------------------------------------------------------- refusals
def test_counts_that_do_not_add_up_are_refused_in_three_languages():
    k = Keeper("classic", NAMES, first=A)
    e = refusal(k, {"contract": "no-tricks", "doubles": [[B, A]], "outcome": {"tricks": [3, 3, 3, 3]}})
    assert e.code == "keeper-add-up" and e.params["sum"] == 12 and e.params["total"] == 13
    said = words_of(e)
    assert (
        str(e)
        == said["en"]
        == ("deal 1: Tricks each player took add up to 12, not 13: tricks each player took must account for all 13")
    )
    assert said["fr"].startswith("donne 1 : Plis de chaque joueur : la somme fait 12, pas 13")
    assert said["it"].startswith("smazzata 1: Prese di ogni giocatore: la somma fa 12, non 13")


def test_a_card_in_a_refusal_is_written_as_the_language_writes_it():
    k = Keeper("classic", NAMES, first=A)
    e = refusal(k, {"contract": "no-queens", "doubles": [[B, A]], "outcome": {"QS": 1}})
    assert e.code == "keeper-missing-card"
    said = words_of(e)
    assert said["en"] == "deal 1: missing: Who took the Q♥?"
    assert said["fr"] == "donne 1 : il manque : Qui a pris le D♥ ?"
    assert said["it"] == "smazzata 1: manca: Chi ha preso il D♥?"


def test_a_double_refused_by_the_keeper_and_one_refused_by_the_engine():
    k = Keeper("classic", NAMES, first=A)
    e = refusal(k, {"contract": "no-king", "doubles": [[B, B]], "outcome": {"KH": B}})
    assert words_of(e) == {
        "en": "deal 1: Bruno cannot double himself",
        "fr": "donne 1 : Bruno ne peut pas se contrer lui-même",
        "it": "smazzata 1: Bruno non può contrare sé stesso",
    }
    # The engine's own refusal, said of the player who made the move, worded anew in each language.
    e = refusal(k, {"contract": "no-king", "doubles": [[A, B]], "outcome": {"KH": B}})
    said = words_of(e)
    assert said["en"] == "deal 1: Anna: the dealer never doubles; he may only redouble doubles he received"
    assert said["fr"].startswith("donne 1 : Anna : le donneur ne contre jamais")
    assert said["it"].startswith("smazzata 1: Anna: il mazziere non")
    assert word_keeper_error(e, "fr") == said["fr"]


def test_game_refusals_and_besigue_refusals_in_three_languages():
    with pytest.raises(KeeperError) as info:
        Keeper("classic", ["Anna", "Bruno"])
    assert words_of(info.value) == {
        "en": "classic is played by 4 players: give 4 names, not 2",
        "fr": "classic se joue à 4 joueurs : donnez 4 noms, pas 2",
        "it": "classic si gioca in 4: dai 4 nomi, non 2",
    }
    bk = BesigueKeeper("besigue", ["Anna", "Bruno"])
    e = refusal(bk, {"outcome": {"melds": [{}, {}], "sevens": [0, 0], "brisques": [3, 3], "last": 0}})
    assert e.code == "keeper-brisques-sum"
    said = words_of(e)
    assert said["en"] == "deal 1: the brisques add up to 6, not 8: every one is won in some trick"
    assert said["fr"] == "donne 1 : les brisques font 6 en tout, pas 8 : chacune est gagnée dans un pli"
    assert said["it"] == "smazzata 1: le brisque fanno 6 in tutto, non 8: ognuna si vince in qualche presa"
    with pytest.raises(KeeperError) as info:
        bk.undo()
    assert words_of(info.value)["it"] == "non c'è niente da annullare"


def test_flags_and_question_labels_are_worded_per_language():
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "trumps", "trump": "H", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    k.add({"contract": "domino", "rank": "J", "doubles": [], "outcome": {"order": [A, B, C]}})
    for contract, out in [
        ("no-king", {"KH": B}),
        ("no-queens", {"QS": B, "QH": C, "QD": D, "QC": A}),
        ("no-last-two", {"last": [B, C]}),
    ]:
        k.add({"contract": contract, "doubles": [[C, A], [D, A]], "outcome": out})
    k.add({"contract": "no-tricks", "doubles": [[C, A]], "outcome": {"tricks": [4, 3, 3, 3]}})
    (flag,) = k.flags[6]
    assert isinstance(flag, Note)
    assert flag == (
        "Bruno did not double Anna although the obligation required it (2 double(s) still owed with 2 deal(s) left)"
    )
    assert word_note(flag, translator("fr")) == (
        "Bruno n'a pas contré Anna alors que l'obligation l'exigeait (2 contres encore dus, 2 donne(s) restante(s))"
    )
    assert word_note(flag, translator("it")).startswith("Bruno non ha contrato Anna benché l'obbligo")
    qs = k.needs({"contract": "no-hearts", "doubles": [[C, A]]}).questions
    assert [label(q, translator("fr")) for q in qs] == ["Cœurs ramassés par chaque joueur", "Qui a pris le A♥ ?"]
    assert [label(q, translator("it")) for q in qs] == ["Cuori presi da ogni giocatore", "Chi ha preso il A♥?"]


# ---------------------------------------------------------------------- sheets
def classic_game() -> Keeper:
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "no-queens", "doubles": [[B, A], [C, A]], "outcome": {"QS": B, "QH": C, "QD": D, "QC": A}})
    k.add({"contract": "trumps", "trump": "H", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    k.add({"contract": "no-king", "doubles": []})
    return k


def besigue_game() -> BesigueKeeper:
    """Bruno passes a thousand: the totals need a thousands separator."""
    bk = BesigueKeeper("besigue", ["Anna", "Bruno"])
    for melds, sevens, brisques, last in [
        ([{"double-bezique": 1, "marriage": 2}, {"quint": 1}], [1, 0], [5, 3], 0),
        ([{"four-aces": 1}, {"double-bezique": 1}], [0, 1], [2, 6], 1),
        ([{"bezique": 1}, {"trump-marriage": 1}], [0, 0], [4, 4], 1),
        ([{}, {"four-kings": 1}], [0, 0], [4, 4], 1),
    ]:
        bk.add({"outcome": {"melds": melds, "sevens": sevens, "brisques": brisques, "last": last}})
    assert bk.totals == [850, 1080] and bk.is_over
    return bk


def pdf_text(data: bytes) -> str:
    return "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(data))


def test_a_french_sheet_in_text_and_pdf_with_its_contract_names():
    k = classic_game()
    text = render_text(sheet_for(k.rules, k.names, k.results, k.flags, lang="fr"))
    assert text.startswith("Feuille de marque du Barbu — ")
    for words in (
        "En cours : 3 donnes sur 28",
        "Anna donne et annonce",
        "Contrat",
        "Pas de dames",
        "Pas de cœurs",
        "Les deux derniers",
        "Réussite",
        "Total cumulé",
        "Série",
        "atout ♥",
        "Bru ×Ann · Car ×Ann",
        "personne n'a contré : non jouée, partagée",
        "Totaux : Anna 15",
        "Le plus haut total gagne.",
    ):
        assert words in text, words
    assert "remarque : non jouée" not in text  # said on its row once, not again as a note
    assert "No queens" not in text and "Running total" not in text
    pdf = pdf_text(printable(k, "pdf", lang="fr"))
    for words in (
        "Feuille de marque du Barbu",
        "Règles :",
        "Joueurs :",
        "Pas de dames",
        "Total cumulé",
        "Réussite",
        "Anna donne et annonce",
        "page 1 sur",
        "Les totaux au fil de la partie",
    ):
        assert words in pdf, words
    html = printable(k, "html", lang="fr").decode()
    assert '<html lang="fr">' in html and "Pas de dames" in html and "Total cumulé" in html


def test_an_italian_besigue_sheet_writes_thousands_the_italian_way():
    bk = besigue_game()
    sheet = sheet_for(bk.rules, bk.names, bk.results, bk.flags, lang="it")
    text = render_text(sheet)
    for words in (
        "Foglio dei punti del Bésigue",
        "Finita: 4 smazzate; obiettivo 1.000",
        "Dichiarazioni",
        "Doppio bésigue 500",
        "Quinta 250",
        "4 re 80",
        "dà Anna",
        "Totali: Anna 850  Bruno 1.080",
        "Classifica: 1. Bruno 1.080  2. Anna 850",
    ):
        assert words in text, words
    pdf = pdf_text(printable(bk, "pdf", lang="it"))
    assert "1.080" in pdf and "Foglio dei punti del Bésigue" in pdf and "Matrimonio" in pdf
    # French writes a thousand with a (narrow) no-break space: the PDF's fonts have the no-break space.
    fr = pdf_text(printable(bk, "pdf", lang="fr"))
    assert "1\u00a0080" in fr and "?" not in fr.replace("? ", "")
    assert "1\u202f080" in render_text(sheet_for(bk.rules, bk.names, bk.results, lang="fr"))


def test_the_english_sheet_is_unchanged_by_default():
    k = classic_game()
    text = render_text(sheet_for(k.rules, k.names, k.results, k.flags))
    assert "Barbu score sheet — " in text and "No queens" in text and "Running total" in text


def test_barbu_sheet_and_barbu_score_print_follow_the_language(tmp_path, capsys):
    from barbu.cli.sheets import cmd_sheet

    use("it")
    out = tmp_path / "vuoto.txt"
    args = argparse.Namespace(
        rules="classic", players=None, sets=None, names="Anna,Bruno,Carla,Dario", out=str(out), paper="a4"
    )
    console = Console(file=open(tmp_path / "said.txt", "w"), width=200)
    assert cmd_sheet(args, console) == 0
    console.file.close()
    assert "foglio dei punti di testo scritto in" in (tmp_path / "said.txt").read_text()
    text = out.read_text(encoding="utf-8")
    assert "Foglio dei punti del Barbù" in text and "Niente donne" in text and "Foglio vuoto" in text

    from barbu.cli.score import cmd_print
    from barbu.tui.score_store import KeyRing, ScoreStore

    store = ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))
    book = store.create(classic_game(), "Venerdì")
    use("fr")
    target = tmp_path / "feuille.pdf"
    assert cmd_print(store, argparse.Namespace(id=book.id, format="pdf", output=str(target))) == 0
    assert "Pas de dames" in pdf_text(target.read_bytes())


SAMPLES = {
    "count": 3,
    "card": 10,
    "cards": [10, 24],
    "contract": "No queens",
    "meld": "a marriage",
    "list": ["Anna", "Bruno"],
    "name": "Tricks each player took",
    "lname": "Tricks each player took",
    "": "x",
}


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_every_keeper_message_is_translated(lang):
    """Each refusal and flag of the keeper renders in French and Italian with every field filled, and reads
    differently from the English (a template of fields only, like ``{who}: {error}``, excepted)."""
    import string

    import barbu.besigue.refusals  # noqa: F401  (the meld kind)
    from barbu.scorekeeper.refusals import MESSAGES

    words, english = translator(lang), translator("en")
    assert len(MESSAGES) > 80
    for m in MESSAGES.values():
        fields = [(f, spec) for _, f, spec, _ in string.Formatter().parse(m.text) if f is not None]
        params = {f: SAMPLES[spec or ""] for f, spec in fields}
        text = words.render(m, params)
        assert "{" not in text and text.strip(), (m.code, text)
        literal = "".join(t for t, *_ in string.Formatter().parse(m.text))
        if any(ch.isalpha() for ch in literal):
            assert text != english.render(m, params), f"{m.code} is not translated into {lang}"
