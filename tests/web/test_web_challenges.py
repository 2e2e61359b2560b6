"""Challenges (`barbu.web.challenges`) on one in-process server shared by the module, each test with its own
accounts: two players challenged who both accept sit at the new table (its welcome names their seats); a decline,
a lapse (swept) and a cancel are told to the others in words; a burst of challenges meets the open and hourly
limits exactly; a block keeps two players from challenging each other (either way), from one table and from each
other's chat; a guest, oneself, a player twice, a player who is not there are refused."""

from __future__ import annotations

import json
import secrets
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, Iterator

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient
from wsclient import ORIGIN, Player, app_client

from barbu.web import Settings
from barbu.web.challenges import service as challenges
from barbu.web.challenges.store import CHALLENGES
from barbu.web.db.storage import now

PASSWORD = "Quiet lanterns 7 over the moor"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    limits = dict(tables_per_hour=0, bot_tables_per_address=0, open_tables_per_address=0, seats_per_address=0)
    db = f"sqlite:///{tmp_path_factory.mktemp('challenges') / 'web.db'}"
    s = Settings(db_url=db, bot_delay=0, deal_pause=0, signups_per_hour=0, grace=600, **limits)
    with app_client(s) as c:
        yield c


def signup(c: TestClient, stem: str) -> tuple[str, str]:
    name = f"{stem}{secrets.token_hex(2)}"
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD}, headers=ORIGIN)
    assert r.status_code == 201, r.text
    sid = r.cookies["barbu_session"]
    c.cookies.clear()
    return name, sid


def as_(sid: str | None, lang: str = "en") -> dict[str, str]:
    return {**ORIGIN, "accept-language": lang} | ({"cookie": f"barbu_session={sid}"} if sid else {})


def post(c: TestClient, path: str, sid: str | None, body: dict[str, Any] | None = None, lang: str = "en") -> Any:
    c.cookies.clear()
    return c.post(path, json=body or {}, headers=as_(sid, lang))


def get(c: TestClient, path: str, sid: str | None) -> Any:
    c.cookies.clear()
    return c.get(path, headers=as_(sid))


def challenge(c: TestClient, sid: str | None, players: list[str], **more: Any) -> Any:
    return post(c, "/api/challenges", sid, {"players": players, "rules": "classic", "clock": "none"} | more)


def notices(c: TestClient, sid: str) -> list[dict[str, Any]]:
    r = get(c, "/api/notices", sid)
    assert r.status_code == 200, r.text
    return list(r.json()["notices"])


def challenge_notices(c: TestClient, sid: str, cid: int) -> list[dict[str, Any]]:
    return [n for n in notices(c, sid) if n["kind"] == "challenge" and n["params"].get("id") == cid]


def test_two_challenged_accept_and_all_three_sit_at_the_table(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    c, sc = signup(client, "Cy")
    r = challenge(client, sa, [b, c.upper()], bots=True, rated=True)  # a name as anyone spells it
    assert r.status_code == 201, r.text
    ch = r.json()
    cid = ch["id"]
    assert ch["state"] == "open" and [i["name"] for i in ch["invited"]] == [b, c]
    assert [i["answer"] for i in ch["invited"]] == ["waiting", "waiting"] and ch["me"]["challenger"]
    told = challenge_notices(client, sb, cid)
    assert [n["link"] for n in told] == [f"/challenges/{cid}"] and told[0]["params"]["name"] == a
    assert get(client, f"/api/challenges/{cid}", sc).json()["me"] == {"challenger": False, "answer": "waiting"}
    _, sd = signup(client, "Dan")  # a stranger to it: as if it were not there
    assert get(client, f"/api/challenges/{cid}", sd).status_code == 404
    assert post(client, f"/api/challenges/{cid}/accept", sd).status_code == 404
    assert post(client, f"/api/challenges/{cid}/accept", sa).json()["code"] == "challenge-not-asked"
    first = post(client, f"/api/challenges/{cid}/accept", sb)
    assert first.status_code == 200 and first.json()["state"] == "open" and first.json()["table"] is None
    assert post(client, f"/api/challenges/{cid}/accept", sb).json()["code"] == "challenge-not-open"  # once
    last = post(client, f"/api/challenges/{cid}/accept", sc).json()
    assert last["state"] == "accepted" and last["table"].startswith("/t/")
    tid = last["table"].removeprefix("/t/")
    table = get(client, f"/api/tables/{tid}", sa).json()["table"]
    assert [s.get("name") for s in table["seats"][:3]] == [a, b, c]
    assert table["seats"][3]["kind"] == "bot" and table["rated"]
    for name, sid, seat in ((a, sa, 0), (b, sb, 1), (c, sc, 2)):  # each told, and each sits there at once
        assert challenge_notices(client, sid, cid)[0]["link"] == f"/t/{tid}"
        p = Player(client, tid, headers=as_(sid))
        assert p.seat == seat, (name, p.seat)
        p.close()
    assert post(client, f"/api/challenges/{cid}/cancel", sa).json()["code"] == "challenge-not-open"


def test_a_decline_is_told_to_the_others_in_words(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    c, sc = signup(client, "Cy")
    cid = challenge(client, sa, [b, c], rules="salad", seats=3).json()["id"]
    assert post(client, f"/api/challenges/{cid}/accept", sc).json()["state"] == "open"
    ended = post(client, f"/api/challenges/{cid}/decline", sb).json()
    assert ended["state"] == "declined" and ended["ended_by"] == b and ended["table"] is None
    for sid in (sa, sc):
        told = challenge_notices(client, sid, cid)
        assert told[0]["params"] == {"name": b, "id": cid, "state": "declined"}
    assert len(challenge_notices(client, sb, cid)) == 1  # the one who declined: only his invitation
    assert post(client, f"/api/challenges/{cid}/accept", sc).json()["code"] == "challenge-not-open"


def test_a_lapsed_challenge_is_swept_and_told(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    cid = challenge(client, sa, [b], rules="besigue").json()["id"]
    store = client.app.state.services.lobby.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:  # its ten minutes are over
        conn.execute(update(CHALLENGES).where(CHALLENGES.c.id == cid).values(expires_at=now() - timedelta(seconds=1)))
    service: Any = client.app.state.services.challenges  # type: ignore[attr-defined]
    portal: Any = client.portal
    assert portal.call(service.sweep) >= 1
    assert post(client, f"/api/challenges/{cid}/accept", sb).json()["code"] == "challenge-not-open"
    assert get(client, f"/api/challenges/{cid}", sb).json()["state"] == "expired"
    for sid in (sa, sb):
        assert challenge_notices(client, sid, cid)[0]["params"]["state"] == "expired"
    assert portal.call(service.sweep) == 0  # each told once


def test_the_challenger_cancels_and_the_challenged_are_told(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    cid = challenge(client, sa, [b], rules="besigue").json()["id"]
    assert post(client, f"/api/challenges/{cid}/cancel", sb).json()["code"] == "challenge-not-yours"
    assert post(client, f"/api/challenges/{cid}/cancel", sa).json()["state"] == "cancelled"
    assert challenge_notices(client, sb, cid)[0]["params"] == {"name": a, "id": cid, "state": "cancelled"}
    assert post(client, f"/api/challenges/{cid}/decline", sb).json()["code"] == "challenge-not-open"


def test_refused_in_words(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    guest = challenge(client, None, [b])
    assert guest.status_code == 401
    assert challenge(client, sa, [a]).json()["code"] == "challenge-self"
    assert challenge(client, sa, [b, b.lower()]).json()["code"] == "challenge-players-distinct"
    assert challenge(client, sa, []).json()["code"] == "challenge-players-needed"
    assert challenge(client, sa, ["x", "y", "z", "w"]).json()["code"] == "challenge-players-needed"
    missing = challenge(client, sa, ["Nobody" + secrets.token_hex(3)], rules="besigue")
    assert missing.status_code == 404 and missing.json()["code"] == "social-no-such-player"
    assert challenge(client, sa, [b]).json()["code"] == "challenge-seats-left"  # classic seats four
    assert challenge(client, sa, [b, "p", "q"], rules="besigue").json()["code"] == "challenge-too-many-players"
    assert challenge(client, sa, [b], rules="nonsense").status_code == 400
    assert challenge(client, sa, [b], bots="yes").json()["code"] == "challenge-bots-flag"
    french = post(client, "/api/challenges", sa, {"players": [a], "rules": "classic"}, lang="fr").json()
    assert french["code"] == "challenge-self" and french["error"] != "you cannot challenge yourself"
    assert get(client, "/api/challenges/999999", sa).status_code == 404
    assert get(client, "/api/challenges/x", sa).status_code == 404


def test_a_burst_meets_the_open_and_hourly_limits_exactly(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, _ = signup(client, "Bob")
    hour = now().hour

    def burst(n: int) -> list[Any]:
        def one(_: int) -> Any:
            return client.post(
                "/api/challenges", json={"players": [b], "rules": "besigue"}, headers=as_(sa), cookies=None
            )

        with ThreadPoolExecutor(8) as pool:
            return list(pool.map(one, range(n)))

    made: list[int] = []
    for round_ in range(3):  # 10 open at once, 30 an hour (the third burst meets both at once)
        answers = burst(14)
        codes = [r.json().get("code", "made") for r in answers]
        assert codes.count("made") == challenges.OPEN_MAX, codes
        refused = {"challenge-too-many-open"} | ({"challenge-too-many-hour"} if round_ == 2 else set())
        assert set(codes) - {"made"} <= refused, codes
        assert all(r.status_code == 429 for r in answers if r.status_code != 201)
        ids = [r.json()["id"] for r in answers if r.status_code == 201]
        made += ids
        for cid in ids:  # room for more open ones
            assert post(client, f"/api/challenges/{cid}/cancel", sa).status_code == 200
    answers = burst(5)
    if now().hour == hour:  # the hour's count starts again on the hour
        assert {r.json()["code"] for r in answers} == {"challenge-too-many-hour"}
        assert answers[0].status_code == 429 and "30" in answers[0].json()["error"]
    assert len(made) == 3 * challenges.OPEN_MAX


def test_a_block_keeps_them_from_challenging_sitting_and_chatting(client: TestClient) -> None:
    """Issue 45: a blocked player can neither challenge, nor sit at a table with, nor write to the blocker."""
    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    c, sc = signup(client, "Cy")
    # before the block: a table they share, Ann, Bob and Cy seated, and a challenge waiting
    made = post(client, "/api/tables", None, {"rules": "classic"}).json()
    tid = made["id"]
    tokens = {}
    for seat, sid in enumerate((sa, sb, sc)):
        r = post(client, f"/api/tables/{tid}/seats", sid, {"seat": seat})
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    post(client, f"/api/tables/{tid}/bots", None, {"seat": 3, "strength": "random", "token": made["creator"]})
    assert post(client, "/api/blocks/block", sa, {"name": b}).status_code == 200
    for sid, other in ((sb, a), (sa, b)):  # either way, saying no more than that
        r = challenge(client, sid, [other], rules="besigue")
        assert r.status_code == 403 and r.json()["code"] == "challenge-cannot"
        assert r.json()["error"] == f"you cannot challenge {other}"
    r = challenge(client, sc, [a, b], rules="salad", seats=3)  # nor can a third bring them to one table
    assert r.json()["code"] == "challenge-cannot"
    # sitting down: refused at a table where the blocker sits
    tid2 = post(client, "/api/tables", None, {"rules": "classic"}).json()["id"]
    assert post(client, f"/api/tables/{tid2}/seats", sa, {"seat": 0}).status_code == 200
    assert post(client, f"/api/tables/{tid2}/seats", sb, {"seat": 1}).json()["code"] == "blocked-at-table"
    # writing: what Bob says at the table they already shared reaches Cy, never Ann
    pa, pb, pc = (Player(client, tid, tokens[i], headers=as_(sid)) for i, sid in enumerate((sa, sb, sc)))
    pb.send({"type": "chat", "id": "b1", "text": "from the blocked one"})
    assert pb.until(lambda m: m["type"] == "ack")["id"] == "b1"
    assert pc.until(lambda m: m["type"] == "chat")["text"] == "from the blocked one"
    pc.send({"type": "chat", "id": "c1", "phrase": "thanks"})
    pa.until(lambda m: m["type"] == "chat" and m.get("phrase") == "thanks")  # after Bob's, in order
    assert all(m.get("text") != "from the blocked one" for m in pa.log if m["type"] == "chat")
    for p in (pa, pb, pc):
        p.close()


def test_the_pages(client: TestClient) -> None:
    a, sa = signup(client, "Ann")
    b, _ = signup(client, "Bob")
    cid = challenge(client, sa, [b], rules="besigue").json()["id"]
    for path in ("/challenges/new?to=" + b, f"/challenges/{cid}"):
        r = get(client, path, sa)
        assert r.status_code == 200 and "challenge.js" in r.text
    assert json.loads(get(client, f"/api/challenges/{cid}", sa).text)["rules"] == "besigue"
    # Rated is a choice made knowing what it turns off (issue 43), in the reader's language
    page = get(client, f"/challenges/new?to={b}&lang=fr", sa).text
    assert 'id="challenge-rated" aria-describedby="challenge-rated-help"' in page
    assert "les conseils et les coups repris sont coupés pour toute la partie" in page.split("challenge-rated-help")[2]


def test_a_challenges_end_told_in_each_readers_words() -> None:
    from barbu.web.notices.words import worded

    assert worded("challenge", {"name": "Bob", "id": 1}, "en")[1] == "Bob challenges you to a table"
    assert worded("challenge", {"name": "Bob", "id": 1, "state": "declined"}, "en")[1] == "Bob declined the challenge"
    assert worded("challenge", {"name": "Bob", "id": 1, "state": "declined"}, "fr")[1] == "Bob a refusé le défi"
    assert "scaduta" in worded("challenge", {"name": "Ann", "id": 1, "state": "expired"}, "it")[1]


def test_no_room_for_the_table_leaves_the_last_answer_to_give_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from barbu.web.common.errors import WebError
    from barbu.web.tables.refusals import SERVER_FULL

    a, sa = signup(client, "Ann")
    b, sb = signup(client, "Bob")
    cid = challenge(client, sa, [b], rules="besigue").json()["id"]
    lobby: Any = client.app.state.services.lobby  # type: ignore[attr-defined]

    async def full(*args: Any, **kwargs: Any) -> Any:
        raise WebError(SERVER_FULL)

    with monkeypatch.context() as m:
        m.setattr(lobby, "create", full)
        r = post(client, f"/api/challenges/{cid}/accept", sb)
        assert r.status_code == 503 and r.json()["code"] == "server-full", r.text
    again = get(client, f"/api/challenges/{cid}", sb).json()
    assert again["state"] == "open" and again["me"]["answer"] == "waiting"
    assert post(client, f"/api/challenges/{cid}/accept", sb).json()["state"] == "accepted"
