"""The guided first deal's API and pages, in-process: each lesson played through in the three languages, a
wrong card refused with its lesson (and an illegal one with the engine's reason too), malformed bodies
refused in plain words with no traceback, and nothing of another seat's hand in any reply (the leak oracle
reads every card named anywhere in a reply and compares it with what the learner's seat may see).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from leak_oracle import cards_named, current_visible
from starlette.testclient import TestClient
from wsclient import ORIGIN, app_client

from barbu.guide.lesson import KEYS, SEAT, LessonPlay
from barbu.web import Settings
from barbu.web.routes.learn import MAX_ACTIONS

LANGS = ("en", "fr", "it")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with app_client(Settings(db_url=sqlite_url)) as c:
        yield c


def learn(c: TestClient, lesson: str, actions: list[str], lang: str = "en") -> dict[str, Any]:
    r = c.post(f"/api/learn?lang={lang}", json={"lesson": lesson, "actions": actions})
    assert r.status_code == 200, r.text
    return r.json()


def the_match(lesson: str, actions: list[str]) -> Any:
    """The model's own match after ``actions`` (each taken or refused, the others' moves between)."""
    play = LessonPlay(lesson)
    play.advance()
    for a in actions:
        play.act(a)
        play.advance()
    return play.match


def assert_no_leak(reply: dict[str, Any], lesson: str, actions: list[str]) -> None:
    """No card in the reply but what seat 0 may see now (what it sees only grows during a deal, so the
    frames before this point are held to the same).  The contracts' rules texts are the same in every reply
    and name no deal's card: left out, as the rules page would be."""
    seen = current_visible(the_match(lesson, actions), SEAT)
    named = cards_named(repr({k: v for k, v in reply.items() if k != "table"}))
    assert named & ~seen == 0, f"{lesson} after {actions}: hidden cards named {bin(named & ~seen)}"


def play_through(c: TestClient, lesson: str, lang: str) -> list[dict[str, Any]]:
    """Every reply of a lesson played as it asks, each checked by the leak oracle."""
    actions: list[str] = []
    replies = [learn(c, lesson, actions, lang)]
    while not replies[-1]["finished"]:
        state = replies[-1]["state"]
        assert replies[-1]["your_turn"] and state["expected"], replies[-1]
        assert set(state["expected"]) <= set(state["legal"])
        actions = replies[-1]["actions"] + [state["expected"][0]]
        replies.append(learn(c, lesson, actions, lang))
        assert replies[-1]["refused"] is None and replies[-1]["actions"] == actions
        assert replies[-1]["frames"], "the learner's own move is shown, then the others'"
        assert_no_leak(replies[-1], lesson, actions)
        assert len(actions) <= 10
    return replies


@pytest.mark.parametrize("lang", LANGS)
def test_each_lesson_is_played_through_and_points_to_the_next(client: TestClient, lang: str) -> None:
    texts = []
    for i, key in enumerate(KEYS):
        replies = play_through(client, key, lang)
        last = replies[-1]
        assert last["lesson"] == key and last["number"] == i + 1 and last["total"] == len(KEYS)
        assert last["next"] == (KEYS[i + 1] if i + 1 < len(KEYS) else None)
        assert last["text"] and last["title"] and not last["your_turn"]
        assert last["state"]["legal"] is None and last["state"]["expected"] == []
        texts += [r["text"] for r in replies]
    if lang == "fr":
        assert any("\u00a0:" in t for t in texts)  # French, typeset the French way
        assert not any(" :" in t for t in texts)
    if lang != "en":
        english = [r["text"] for key in KEYS for r in play_through(client, key, "en")]
        assert sum(a != b for a, b in zip(texts, english)) == len(texts), "every step worded in the page's language"


def test_the_first_reply_shows_the_moves_before_the_learners_turn(client: TestClient) -> None:
    first = learn(client, "no-queens", [])
    assert first["your_turn"] and first["state"]["phase"] == "play"
    # North chose the contract and led, East followed: each move a frame, the last one the table as it is now
    assert [f["trick"] for f in first["frames"]][-2:] == [["KD"], ["KD", "9D"]]
    assert first["frames"][-1]["trick"] == first["state"]["trick"]
    for f in first["frames"]:
        assert "hand" not in f and "legal" not in f


def test_a_wrong_card_is_refused_with_its_lesson_and_stays_in_the_hand(client: TestClient) -> None:
    before = learn(client, "no-queens", [])
    wrong = learn(client, "no-queens", ["AD"])  # legal, but it takes the trick
    assert wrong["refused"]["code"] == "lesson" and wrong["refused"]["message"] is None
    assert "A♦" in wrong["refused"]["lesson"]
    assert wrong["actions"] == [] and wrong["frames"] == []
    assert "AD" in wrong["state"]["hand"] and wrong["state"]["trick"] == before["state"]["trick"]
    assert_no_leak(wrong, "no-queens", ["AD"])

    illegal = learn(client, "no-queens", ["2S"], "fr")  # a spade on a diamond lead: the engine refuses
    assert illegal["refused"]["code"] == "follow-suit"
    assert illegal["refused"]["message"].startswith("vous devez fournir")
    assert illegal["refused"]["lesson"] and illegal["actions"] == [] and "2S" in illegal["state"]["hand"]


def test_a_card_not_held_is_refused_without_naming_another_hand(client: TestClient) -> None:
    reply = learn(client, "no-queens", ["5C"])  # North holds it
    assert reply["refused"]["code"] == "you-do-not-hold"
    assert "5♣" not in reply["refused"]["message"] and "…" in reply["refused"]["message"]
    assert_no_leak(reply, "no-queens", ["5C"])


def test_a_wrong_decision_is_refused_with_its_lesson(client: TestClient) -> None:
    reply = learn(client, "trumps", ["contract no-tricks"], "it")
    assert reply["refused"]["code"] == "lesson" and reply["state"]["phase"] == "declare"
    assert reply["refused"]["lesson"] and reply["state"]["expected"] == ["contract trumps"]
    reply = learn(client, "doubling", ["double 1 2 3"])
    assert reply["refused"]["code"] == "lesson" and reply["actions"] == []


@pytest.mark.parametrize(
    "action",
    [
        "",
        " ",
        "zz",
        "double 9",
        "double",
        "contract",
        "contract nothing",
        "trump X",
        "rank Z",
        "rank 8",
        "AD AD",
        "\u0000",
        "pass",
        "hidden",
        "10♦",
        "TD TD",
        "♦",
    ],
)
def test_odd_actions_are_refused_in_words(client: TestClient, action: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        reply = learn(client, "no-queens", [action])
    assert reply["refused"] is not None or len(reply["actions"]) == 1  # taken, in the engine's notation ("TD")
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_refused_actions_between_accepted_ones_change_nothing(client: TestClient) -> None:
    plain = learn(client, "no-queens", ["TD", "QS"])
    noisy = learn(client, "no-queens", ["AD", "TD", "zz", "QS"])
    assert noisy["actions"] == plain["actions"] == ["TD", "QS"]
    assert noisy["state"] == plain["state"]


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"lesson": "nothing"}, 400, "there is no lesson 'nothing'"),
        ({"lesson": 3}, 400, "name the lesson by its key"),
        ({"lesson": ["trumps"]}, 400, "name the lesson by its key"),
        ({"lesson": "trumps", "actions": "AS"}, 400, "the actions must be a list of texts"),
        ({"lesson": "trumps", "actions": [1, 2]}, 400, "the actions must be a list of texts"),
        ({"lesson": "trumps", "actions": [None]}, 400, "the actions must be a list of texts"),
        ({"lesson": "trumps", "actions": {"a": 1}}, 400, "the actions must be a list of texts"),
        ({"lesson": "trumps", "actions": ["AS"] * (MAX_ACTIONS + 1)}, 400, f"at most {MAX_ACTIONS} actions"),
        ({"lesson": "trumps", "actions": ["A" * 41]}, 400, "at most 40 characters"),
        ([1, 2], 400, "the request must be a JSON object"),
        ("trumps", 400, "the request must be a JSON object"),
    ],
)
def test_malformed_bodies_get_a_400_in_plain_words(
    client: TestClient, body: Any, status: int, words: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        r = client.post("/api/learn", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text
    assert "Traceback" not in r.text
    assert not [x for x in caplog.records if x.exc_info or x.levelno >= logging.ERROR]


def test_errors_come_in_the_pages_language_and_bad_transport_is_refused(client: TestClient) -> None:
    client.cookies.set("barbu_lang", "fr")  # what the page's language sets: its requests carry it
    r = client.post("/api/learn", json={"lesson": "trumps", "actions": "AS"})
    client.cookies.clear()
    assert r.status_code == 400 and r.json()["error"].startswith("les actions doivent être une liste")
    r = client.post("/api/learn", json={"lesson": "nothing"}, headers={"accept-language": "it"})
    assert r.status_code == 400 and "nothing" in r.json()["error"] and "there is no lesson" not in r.json()["error"]
    r = client.post("/api/learn", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]
    r = client.post("/api/learn", content=b'{"lesson": "trumps"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/learn", json={"lesson": "trumps"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post(
        "/api/learn", content=b'{"actions": ["' + b"x" * 100_000 + b'"]}', headers={"content-type": "application/json"}
    )
    assert r.status_code == 413
    assert client.get("/api/learn").status_code == 405


def test_the_pages(client: TestClient) -> None:
    lobby = client.get("/", headers={"accept-language": "fr"})
    assert (
        'href="/learn"' in lobby.text and "Apprendre à jouer" in lobby.text and "vous découvrez le Barbu" in lobby.text
    )
    for lang, words in (("en", "Learn to play"), ("fr", "Apprendre à jouer"), ("it", "Impara a giocare")):
        page = client.get(f"/learn?lang={lang}")
        assert page.status_code == 200 and f'<html lang="{lang}">' in page.text and words in page.text
        assert 'data-lesson="no-queens"' in page.text
        # the Barbu table's own page (table.html), fed by the lesson's transport (learn_table.js)
        assert "/static/js/learn_table.js" in page.text and all(
            f'id="{x}"' in page.text for x in ("felt", "hand", "side")
        )
    page = client.get("/learn/domino", headers=ORIGIN)
    assert page.status_code == 200 and 'data-lesson="domino"' in page.text
    assert client.get("/learn/nothing").status_code == 404


def test_a_fault_of_ours_is_said_plainly_and_logged_without_a_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("barbu.web.routes.learn.lesson_json", broken)
    with caplog.at_level(logging.INFO):
        r = client.post("/api/learn?lang=it", json={"lesson": "trumps"})
    assert r.status_code == 500 and r.json()["error"] and "Traceback" not in r.text and "a bug" not in r.text
    assert [x for x in caplog.records if "learn" in x.getMessage()] and not [x for x in caplog.records if x.exc_info]
