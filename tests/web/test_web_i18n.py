"""The web server in three languages, in-process: which language a page is in, and what each connection reads.

A page's language comes from ``?lang=``, then the ``barbu_lang`` cookie, then the
browser's Accept-Language, then ``barbu serve --lang``.  At one table each connection
reads the server's words in its own language (its page's, or the one its hello names),
refusals included, with their code and the parameters that reveal no hidden card.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from wsclient import ORIGIN, Player, app_client

from barbu.classic.refusals import FOLLOW_SUIT
from barbu.core.cards import parse_card
from barbu.core.errors import IllegalAction
from barbu.core.refusals import YOU_DO_NOT_HOLD
from barbu.core.words import SUITS
from barbu.i18n import translator
from barbu.web import Settings
from barbu.web.common.i18n import accepted_language
from barbu.web.common.wording import refusal

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with app_client(Settings(db_url=sqlite_url, grace=1000, **FAST)) as c:
        yield c


def html_lang(text: str) -> str:
    return re.search(r'<html lang="(\w+)"', text).group(1)


def js_catalog(text: str) -> dict:
    return json.loads(re.search(r'<script id="barbu-i18n" type="application/json">(.*?)</script>', text, re.S).group(1))


@pytest.mark.parametrize(
    "header, lang",
    [
        ("it-IT,it;q=0.9,en;q=0.5", "it"),
        ("fr-CH, fr;q=0.9, en;q=0.8", "fr"),
        ("de, fr;q=0.4, it;q=0.8", "it"),
        ("en-GB,en;q=0.9,fr;q=0.8", "en"),
        ("de-DE", None),
        ("", None),
        ("fr;q=0, it;q=0.1", "it"),
        ("fr;q=abc", None),
    ],
)
def test_accept_language_is_negotiated_with_q_values(header: str, lang: str | None) -> None:
    assert accepted_language(header) == lang


def test_the_browsers_language_is_the_default_and_a_choice_overrides_it(client: TestClient) -> None:
    page = client.get("/", headers={"accept-language": "it-IT,it;q=0.9,en;q=0.5"})
    assert html_lang(page.text) == "it" and "Gioca contro il computer" in page.text
    assert page.headers["content-language"] == "it"
    page = client.get("/", headers={"accept-language": "de-DE"})
    assert html_lang(page.text) == "en" and "Play against the computer" in page.text
    client.cookies.set("barbu_lang", "fr")  # the switcher's choice beats the browser's
    page = client.get("/", headers={"accept-language": "it"})
    assert html_lang(page.text) == "fr" and "Jouer contre l'ordinateur" in page.text
    page = client.get("/?lang=it", headers={"accept-language": "fr"})  # a link's ?lang= beats the cookie
    assert html_lang(page.text) == "it" and "barbu_lang=it" in page.headers["set-cookie"]
    client.cookies.clear()
    client.cookies.set("barbu_lang", "xx")  # a cookie naming no language we speak is ignored
    assert html_lang(client.get("/", headers={"accept-language": "fr"}).text) == "fr"


def test_the_servers_default_language_is_used_when_the_browser_names_none_we_speak(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, default_lang="it", **FAST)) as c:
        assert html_lang(c.get("/", headers={"accept-language": "de"}).text) == "it"
        assert html_lang(c.get("/", headers={"accept-language": "fr"}).text) == "fr"


def test_every_page_carries_the_switcher_and_the_scripts_words(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"rules": "classic"}).json()["id"]
    for path in ("/", f"/t/{tid}", "/t/nope", "/rules", "/rules/classic"):
        page = client.get(path, headers={"accept-language": "it"})
        assert html_lang(page.text) == "it", path
        assert 'id="lang-select"' in page.text and '<option value="fr" lang="fr">Français</option>' in page.text
        assert '<option value="it" lang="it" selected>Italiano</option>' in page.text
        catalog = js_catalog(page.text)
        assert catalog["lang"] == "it" and catalog["decimal"] == ","
        words = catalog["messages"]
        assert words["contract\x04No queens"] == "Niente donne" and words["rank letter\x04Q"] == "D"
        assert words["{n} trick"] == ["{n} presa", "{n} prese"] and words["Your turn: {what}."] == "Tocca a te: {what}."
    assert js_catalog(client.get("/", headers={"accept-language": "en"}).text)["messages"] == {}
    assert "Il n'y a pas de table à cette adresse" in client.get("/t/nope?lang=fr").text


def test_the_rules_pages_and_the_lobbys_options_speak_the_pages_language(client: TestClient) -> None:
    index = client.get("/rules", headers={"accept-language": "fr"}).text
    assert (
        "Les règles de chaque jeu" in index
        and translator("fr").gettext("The standard game: 4 players, 28 deals, seven contracts, doubling") in index
    )
    page = client.get("/rules/classic", headers={"accept-language": "fr"}).text
    assert "Les contrats et ce qu&#39;ils valent" in page and "The contracts and what they are worth" not in page
    assert "Finché dura il tallone" in client.get("/rules/besigue", headers={"accept-language": "it"}).text
    presets = client.get("/api/options", headers={"accept-language": "it"}).json()["presets"]
    classic = next(p for p in presets if p["name"] == "classic")
    assert (
        classic["description"]
        == translator("it").gettext("The standard game: 4 players, 28 deals, seven contracts, doubling")
        != "The standard game: 4 players, 28 deals, seven contracts, doubling"
    )


def test_http_errors_are_worded_in_the_pages_language(client: TestClient) -> None:
    tid = client.post("/api/tables", json={"rules": "classic"}).json()["id"]
    assert client.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Anna"}).status_code == 200
    # the seat a person clicked, never its number ("seat 0 is taken")
    for lang, words in (
        ("fr", "cette place vient d'être prise\u00a0: choisissez-en une autre"),
        ("it", "questo posto è appena stato occupato: scegline un altro"),
        ("en", "this seat has just been taken: choose another"),
    ):
        r = client.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Bea"}, headers={"accept-language": lang})
        assert r.status_code == 409 and r.json()["error"] == words
    r = client.post("/api/tables", json={"rules": "classic(nonsense=1)"}, headers={"accept-language": "it"})
    assert (
        r.status_code == 400
        and r.json()["code"]
        and r.json()["error"]
        != client.post("/api/tables", json={"rules": "classic(nonsense=1)"}, headers={"accept-language": "en"}).json()[
            "error"
        ]
    )
    assert (
        client.get("/api/tables/nope", headers={"accept-language": "fr"}).json()["error"] == "cette table n'existe pas"
    )


def seat(c: TestClient, tid: str, token: str, how: str, lang: str) -> Player:
    """A seat's connection reading ``lang``: named in its hello, its page's cookie or its browser's header."""
    if how == "hello":
        p = Player(c, tid, hello=False)
        p.send({"type": "hello", "token": token, "lang": lang})
        p.seat = p.until(lambda m: m["type"] == "welcome")["seat"]
        p.until(lambda m: m["type"] in ("sync", "catch_up", "in_sync"))
        return p
    headers = dict(ORIGIN, **({"cookie": f"barbu_lang={lang}"} if how == "cookie" else {"accept-language": lang}))
    return Player(c, tid, token, headers=headers)


def test_a_mixed_table_each_seat_reads_the_server_in_its_own_language(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "classic"})
    tid = r.json()["id"]
    tokens = [
        client.post(f"/api/tables/{tid}/seats", json={"seat": s, "name": f"P{s}"}).json()["token"] for s in range(4)
    ]
    langs = {0: "fr", 1: "it", 2: "it", 3: "en"}
    players = [
        seat(client, tid, tokens[0], "hello", "fr"),
        seat(client, tid, tokens[1], "cookie", "it"),
        seat(client, tid, tokens[2], "header", "it"),
        seat(client, tid, tokens[3], "header", "en-GB"),
    ]
    for p in players:
        while p.state is None or p.state["phase"] in ("draw", "deal"):
            p.recv()
    not_your_turn = {"fr": "ce n'est pas votre tour", "it": "non è il tuo turno", "en": "it is not your turn"}
    refused: dict[int, dict] = {}
    held: dict[int, dict] = {}
    for _ in range(400):
        states = {p.seat: p.state for p in players}
        actor = states[0]["to_act"]
        if states[0]["phase"] == "over" or len(refused) == 4 and len(held) == 4:
            break
        me = players[actor]
        other = players[(actor + 1) % 4]
        if actor == 0 and 1 not in held:  # a move out of turn: the server's own words, in the mover's language
            m = other.act(other.state["hand"][0])
            assert m["code"] == "not_your_turn" and m["message"].startswith(not_your_turn[langs[other.seat]])
        s = me.state
        if s["phase"] == "play" and s["trick"] and actor not in refused:
            led = s["trick"][0][1]
            off = [c for c in s["hand"] if c[1] != led]
            if off and any(c[1] == led for c in s["hand"]):
                m = me.act(off[0])
                assert m["type"] == "error" and m["reason"] == "follow-suit", m
                assert m["params"] == {"suit": SUITS.index(led)}
                assert m["message"] == translator(langs[actor]).render(FOLLOW_SUIT, m["params"])
                refused[actor] = m
        if s["phase"] == "play" and actor not in held:  # a card another seat holds: never named back
            theirs = other.state["hand"][0]
            m = me.act(theirs)
            assert m["type"] == "error" and m["reason"] == "you-do-not-hold" and "params" not in m
            assert m["message"] == translator(langs[actor]).gettext("you do not hold that card")
            assert theirs not in json.dumps(m) and translator(langs[actor]).card(parse_card(theirs)) not in m["message"]
            held[actor] = m
        m = me.act(s["legal"][-1] if s["phase"] == "doubling" else s["legal"][0])
        assert m["type"] == "ack", m
        for p in players:
            p.barrier()
    assert held and {langs[s] for s in refused} >= {"fr", "it"}, (refused, held)
    texts = {langs[s]: m["message"] for s, m in refused.items()}
    assert len(set(texts.values())) == len(texts)  # the same refusal, in different words


def test_a_refusal_naming_a_card_the_seat_may_not_see_hides_it_in_every_language() -> None:
    e = IllegalAction.of(YOU_DO_NOT_HOLD, card=parse_card("QH"))
    for lang, queen in (("en", "Q♥"), ("fr", "D♥"), ("it", "D♥")):
        hidden = refusal(e, lang, lambda c: False, lambda t: t)
        assert queen not in hidden["message"] and "…" in hidden["message"] and "card" not in hidden["params"]
        assert hidden["reason"] == "you-do-not-hold"
        shown = refusal(e, lang, lambda c: True, lambda t: t)
        assert queen in shown["message"] and shown["params"] == {"card": parse_card("QH")}


def test_a_hint_says_why_in_the_players_language(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        data = c.post("/api/play", json={"rules": "classic", "name": "Giulia"}).json()
        p = seat(c, data["id"], data["token"], "hello", "it")
        while not (p.state and p.state["to_act"] == p.seat and p.state["legal"]):
            p.recv()
        p.send({"type": "hint"})
        h = p.until(lambda m: m["type"] in ("hint", "error"))
        assert h["type"] == "hint" and h["text"] in p.state["legal"], h
        assert h["reason"].startswith(("Su smazzate immaginate", "È l'unica", "Le regole pratiche")), h["reason"]
        assert "average" not in h["reason"]
