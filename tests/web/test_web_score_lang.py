"""The scorekeeper's API in three languages: refusals worded in the reader's language (the page's
``x-barbu-lang``, else the browser's Accept-Language or the ``barbu_lang`` cookie) with their code and
parameters; the keeper's questions, the Scottish Set and Round and the flags in that language; the
printable sheet and the score page itself in it."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

from barbu.i18n import translator, word_error
from barbu.scorekeeper import KeeperError, new_keeper
from barbu.scorekeeper.questions import TRICKS_LABEL
from barbu.scorekeeper.refusals import PLAYER_ROUND
from barbu.web.app import create_app
from barbu.web.common.settings import Settings
from barbu.web.scorebooks.keeping import BAD_NAMES, FIELD_ERRORS, NOTHING_TO_UNDO
from barbu.web.scorebooks.store import CHANGED_ELSEWHERE, READ_ONLY

NAMES = ["Ann", "Bob", "Cat", "Dan"]
LANGS = ("en", "fr", "it")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=sqlite_url, kept_games_per_hour=0))
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def new_game(client: TestClient, rules: str = "classic", names: list[str] = NAMES) -> dict[str, Any]:
    r = client.post("/api/score", json={"rules": rules, "names": names, "first": 0, "title": "", "owner": "o"})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_in_the_readers_language_with_its_code(client: TestClient, lang: str) -> None:
    words = translator(lang)
    r = client.post(
        "/api/score", json={"rules": "classic", "names": ["Ann"], "first": 0}, headers={"x-barbu-lang": lang}
    )
    assert r.status_code == 400
    assert r.json()["code"] == "bad-names" and r.json()["error"] == words.render(BAD_NAMES, {})
    r = client.post(
        "/api/score",
        json={"rules": "classic", "names": ["Ann", "Bob", "", "Dan"], "first": 0},
        headers={"x-barbu-lang": lang},
    )
    assert r.json()["code"] == "name-missing" and r.json()["params"] == {"n": 3}
    assert r.json()["error"] == words.render(FIELD_ERRORS["name"][2], {"n": 3})
    if lang != "en":  # really another language: not the English sentence
        assert r.json()["error"] != translator("en").render(FIELD_ERRORS["name"][2], {"n": 3})
    assert client.post("/api/score/mine", json={"owner": "o"}).json()["games"] == []  # nothing was created


def test_the_three_wordings_of_one_refusal(client: TestClient) -> None:
    game = new_game(client)
    said = {
        lang: client.post(
            f"/api/score/{game['id']}/change",
            json={"key": game["key"], "version": 1, "op": "undo"},
            headers={"x-barbu-lang": lang},
        ).json()
        for lang in LANGS
    }
    assert {d["code"] for d in said.values()} == {"nothing-to-undo"}
    assert said["en"]["error"] == "there is nothing to undo"
    assert said["fr"]["error"] == "il n'y a rien à annuler"
    assert said["it"]["error"] == "non c'è niente da annullare"
    assert said["it"]["error"] == translator("it").render(NOTHING_TO_UNDO, {})


def test_the_browsers_language_when_the_page_names_none(client: TestClient) -> None:
    """Without x-barbu-lang the request's own language counts: the cookie, then Accept-Language."""
    game = new_game(client)
    stale = {"key": game["key"], "version": 0, "op": "undo"}
    r = client.post(f"/api/score/{game['id']}/change", json=stale, headers={"accept-language": "it-IT,it;q=0.9"})
    assert r.status_code == 409 and r.json()["error"] == translator("it").render(CHANGED_ELSEWHERE, {})
    client.cookies.set("barbu_lang", "fr")
    r = client.get(f"/api/score/{game['id']}", headers={"x-score-key": "wrong"})
    assert r.status_code == 403 and r.json()["error"] == translator("fr").render(READ_ONLY, {})
    assert r.json()["code"] == "read-only-link"


@pytest.mark.parametrize("lang", ("fr", "it"))
def test_a_keepers_refusal_in_the_readers_language(client: TestClient, lang: str) -> None:
    """Counts that do not add up: the keeper's own refusal, worded for this reader."""
    game = new_game(client)
    bad = {"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [5, 3, 3, 3]}}
    r = client.post(
        f"/api/score/{game['id']}/draft", json={"key": game["key"], "entry": bad}, headers={"x-barbu-lang": lang}
    )
    assert r.status_code == 422
    with pytest.raises(KeeperError) as refused:
        new_keeper("classic", NAMES, 0).add(bad)
    assert r.json()["code"] == refused.value.code and r.json()["code"]
    assert r.json()["error"] == word_error(refused.value, lang)


def test_questions_and_the_deal_in_the_readers_language(client: TestClient) -> None:
    game = new_game(client)
    r = client.post(
        f"/api/score/{game['id']}/draft",
        json={"key": game["key"], "entry": {"contract": "trumps", "trump": "S", "doubles": []}},
        headers={"x-barbu-lang": "it"},
    )
    tricks = next(q for q in r.json()["questions"] if q["key"] == "tricks")
    assert tricks["label"] == translator("it").gettext(TRICKS_LABEL) == "Prese di ogni giocatore"
    entry = {"contract": "no-queens", "doubles": []}  # nobody doubled: not played, a flag with its code
    r = client.post(
        f"/api/score/{game['id']}/change",
        json={"key": game["key"], "version": 1, "op": "add", "entry": entry},
        headers={"x-barbu-lang": "fr"},
    )
    deal = r.json()["game"]["deals"][0]
    assert deal["flag_codes"] == ["keeper-flag-not-played"]
    assert deal["flags"] == ["non jouée : personne n'a contré, les points sont partagés"]
    assert deal["name"] == "No queens"  # contract names go as the rules name them: the page words them
    assert r.json()["game"]["undo_text"] == "retirer la donne 1"


def test_the_scottish_set_and_round_in_the_readers_language(client: TestClient) -> None:
    game = new_game(client, "scottish", ["Ann", "Bob", "Cat", "Dan"])
    r = client.get(f"/api/score/{game['id']}", headers={"x-score-key": game["key"], "x-barbu-lang": "it"})
    assert r.json()["game"]["next"]["where"] == translator("it").render(PLAYER_ROUND, {"set": 1, "round": 1})
    assert r.json()["game"]["next"]["where"] == "Set 1, giro del giocatore 1"


def test_the_page_and_its_printed_sheet_in_the_readers_language(client: TestClient) -> None:
    page = client.get("/score", headers={"accept-language": "it"})
    assert '<html lang="it">' in page.text and "Nuova partita" in page.text
    assert 'id="barbu-i18n"' in page.text  # the script's words travel with the page
    page = client.get("/score?lang=fr")
    assert '<html lang="fr">' in page.text and "Nouvelle partie" in page.text
    game = new_game(client)
    client.post(
        f"/api/score/{game['id']}/change",
        json={"key": game["key"], "version": 1, "op": "add", "entry": {"contract": "no-queens", "doubles": []}},
    )
    view = game["view_id"]
    sheet = client.get(f"/score/view/{view}/sheet.html?lang=it").text
    assert translator("it").contract("No queens") in sheet and "No queens" not in sheet
    english = client.get(f"/score/view/{view}/sheet.html?lang=en").text
    assert "No queens" in english


#: Cards as a French and an Italian player write them: rank letters, then suit letters.
LETTERS = {
    "fr": ({"T": "10", "J": "V", "Q": "D", "K": "R"}, {"S": "P", "H": "C", "D": "K", "C": "T"}),
    "it": ({"T": "10", "J": "F", "Q": "D", "K": "R"}, {"S": "P", "H": "C", "D": "Q", "C": "F"}),
}


def written(rows: str, lang: str) -> str:
    ranks, suits = LETTERS[lang]
    return " ".join(w if w == "/" else ranks.get(w[0], w[0]) + suits[w[1]] for w in rows.split())


@pytest.mark.parametrize("lang", ("fr", "it"))
def test_chinese_rows_typed_in_the_readers_language(client: TestClient, lang: str) -> None:
    """The rows a French or Italian player types are read as the cards they name; the game keeps them in the
    engine's notation."""
    english = [
        "AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D",
        "AH KH QH JH TH / 9S 8S 7S 6S 5S / 4C 3C 2C",
        "AD KD QD JD TD / 9C 8C 7C 6C 5C / 4H 3H 2H",
        "AC KC QC JC TC / 9D 8D 7D 6D 5D / 4S 3S 2S",
    ]
    assert written(english[0], "fr") == "AP RP DP VP 10P / 9C 8C 7C 6C 5C / 4K 3K 2K"
    game = new_game(client, "classic(chinese_poker=true)")
    entry = {"contract": "chinese-poker", "doubles": [], "outcome": {"rows": english}}
    expected = client.post(f"/api/score/{game['id']}/draft", json={"key": game["key"], "entry": entry}).json()
    theirs = {**entry, "outcome": {"rows": [written(r, lang) for r in english]}}
    got = client.post(
        f"/api/score/{game['id']}/draft", json={"key": game["key"], "entry": theirs}, headers={"x-barbu-lang": lang}
    ).json()
    assert got["preview"]["deal"]["scores"] == expected["preview"]["deal"]["scores"]
    saved = client.post(
        f"/api/score/{game['id']}/change",
        json={"key": game["key"], "version": 1, "op": "add", "entry": theirs},
        headers={"x-barbu-lang": lang},
    )
    assert saved.json()["game"]["entries"][0]["outcome"]["rows"] == english  # kept in the engine's notation
    wrong = {**entry, "outcome": {"rows": ["zz", *theirs["outcome"]["rows"][1:]]}}
    r = client.post(
        f"/api/score/{game['id']}/draft", json={"key": game["key"], "entry": wrong}, headers={"x-barbu-lang": lang}
    )
    assert r.status_code == 422 and r.json()["code"]
