"""Private tables and the creator's say (issue 29).

A private table is not listed and seats only the holders of its invitation, whose secret rides after the
link's "#" and in request bodies, never in a URL the server sees; before the match starts the table's
creator may free any seat, and the one removed watches from then on.  Clients come from chosen addresses
(an ASGI wrapper sets each request's client from a test-only header), SQLite storage.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient
from webhelpers import http
from wsclient import OPEN, ORIGIN, Player

from barbu.web import Settings, create_app

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
CREATOR, FRIEND, STRANGER = "198.51.100.1", "198.51.100.2", "203.0.113.9"


def addressed(app: Any) -> Any:
    """The app, each request coming from the address its ``x-test-address`` header names."""

    async def wrapped(scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for k, v in scope.get("headers", []):
                if k == b"x-test-address":
                    scope = {**scope, "client": (v.decode(), 50000)}
        await app(scope, receive, send)

    wrapped.state = app.state  # type: ignore[attr-defined]
    return wrapped


@contextmanager
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(addressed(create_app(settings))) as c:
        try:
            yield c
        finally:
            for p in list(OPEN):  # every WebSocket session closed before the app stops
                p.close()


def post(c: TestClient, path: str, body: dict[str, Any], address: str = CREATOR) -> Any:
    return c.post(path, json=body, headers={"x-test-address": address})


def private_table(c: TestClient, rules: str = "classic") -> dict[str, Any]:
    r = post(c, "/api/tables", {"rules": rules, "private": True})
    assert r.status_code == 201, r.text
    return r.json()


def seat(c: TestClient, tid: str, n: int, name: str, address: str, **extra: Any) -> Any:
    return post(c, f"/api/tables/{tid}/seats", {"seat": n, "name": name, **extra}, address)


def test_a_private_table_is_not_listed_and_seats_only_its_invitation(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        data = private_table(c)
        tid, invite = data["id"], data["invite"]
        assert len(invite) >= 20 and data["invite_url"] == f"/t/{tid}#invite={invite}"
        assert data["table"]["private"] is True and data["url"] == f"/t/{tid}"
        listed = post(c, "/api/tables", {"rules": "classic"}).json()["id"]
        ids = [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert ids == [listed]  # the private table is not there
        assert c.get(f"/api/tables/{tid}").json()["table"]["private"] is True  # its link still shows it
        r = seat(c, tid, 0, "Stranger", STRANGER)
        assert r.status_code == 403 and "private" in r.json()["error"] and "invitation link" in r.json()["error"]
        for wrong in ("x" * 24, invite[:-1], invite + "x", 12, ["a"], "é" * 300):
            r = seat(c, tid, 0, "Stranger", STRANGER, invite=wrong)
            assert r.status_code == 403 and "not valid for this table" in r.json()["error"], (wrong, r.text)
        assert all(s["kind"] == "open" for s in c.get(f"/api/tables/{tid}").json()["table"]["seats"])
        r = seat(c, tid, 0, "Friend", FRIEND, invite=invite)
        assert r.status_code == 200 and r.json()["table"]["seats"][0]["name"] == "Friend"
        # Friends who share a connection all sit with the invitation: no per-address limit at a private table.
        assert seat(c, tid, 1, "Friend two", FRIEND, invite=invite).status_code == 200
        creator = data["creator"]  # the creator seats whom he likes, with or without the invitation
        assert seat(c, tid, 3, "Host", STRANGER, creator=creator).status_code == 200
        fr = c.post(
            f"/api/tables/{tid}/seats",
            json={"seat": 2, "name": "Ami"},
            headers={"x-test-address": FRIEND, "accept-language": "fr"},
        )
        assert fr.status_code == 403 and "privée" in fr.json()["error"]
        r = post(c, "/api/tables", {"rules": "classic", "private": "yes"})
        assert r.status_code == 400 and "true or false" in r.json()["error"]


def test_a_rematch_of_a_private_table_stays_private_with_the_same_invitation(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        data = private_table(c)
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        old = lobby.tables[data["id"]]
        new = c.portal.call(lobby.rematch, old)  # type: ignore[union-attr]
        assert new.invite_hash == old.invite_hash is not None
        assert new.id not in [t["id"] for t in c.get("/api/tables").json()["tables"]]


def test_the_invitation_never_reaches_the_servers_log(serve: Any) -> None:
    """Through a real server and its access log: the secret is in no request line, path or query."""
    with serve("--bot-delay", "0") as srv:
        status, data = http("POST", srv.base + "/api/tables", {"rules": "classic", "private": True})
        assert status == 201
        tid, invite, creator = data["id"], data["invite"], data["creator"]
        page = urllib.request.urlopen(srv.base + data["invite_url"], timeout=10)  # the fragment stays here
        assert page.status == 200
        status, _ = http("POST", f"{srv.base}/api/tables/{tid}/seats", {"seat": 0, "name": "Ann"})
        assert status == 403
        status, got = http("POST", f"{srv.base}/api/tables/{tid}/seats", {"seat": 0, "name": "Ann", "invite": invite})
        assert status == 200
        status, _ = http("POST", f"{srv.base}/api/tables/{tid}/remove", {"seat": 0, "token": creator})
        assert status == 200
        urllib.request.urlopen(f"{srv.base}/api/tables/{tid}", timeout=10).read()
        srv.stop()
        log = srv.log()
        assert f"/t/{tid}" in log and "/seats" in log  # the access log is on, and holds these requests
        assert invite not in log and creator not in log and got["token"] not in log


def test_the_creator_removes_a_player_before_the_start(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = post(c, "/api/tables", {"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        mine = seat(c, tid, 0, "Host", CREATOR).json()["token"]
        theirs = seat(c, tid, 1, "Intruder", STRANGER).json()["token"]
        assert (
            post(c, f"/api/tables/{tid}/bots", {"seat": 2, "strength": "random", "token": creator}).status_code == 200
        )
        intruder = Player(c, tid, theirs, headers={**ORIGIN, "x-test-address": STRANGER})
        intruder.send({"type": "sync"})  # (already said hello in English; a French one below)
        french = Player(c, tid, None, hello=False, headers={**ORIGIN, "x-test-address": STRANGER})
        french.send({"type": "hello", "token": theirs, "lang": "fr"})
        french.until(lambda m: m["type"] == "welcome")
        # Nobody but the creator: not a seated player, not a stranger, not a forged credential.
        for token in (None, "", "x" * 32, mine, theirs, 7):
            r = post(c, f"/api/tables/{tid}/remove", {"seat": 1, "token": token}, STRANGER)
            assert r.status_code == 403 and "only the player who created this table" in r.json()["error"]
        for bad in (None, 9, "1", True):
            r = post(c, f"/api/tables/{tid}/remove", {"seat": bad, "token": creator})
            assert r.status_code == 400 and "there is no seat" in r.json()["error"]
        r = post(c, f"/api/tables/{tid}/remove", {"seat": 3, "token": creator})
        assert r.status_code == 409 and "nobody to remove" in r.json()["error"]
        r = post(c, f"/api/tables/{tid}/remove", {"seat": 1, "token": creator})
        assert r.status_code == 200 and r.json()["table"]["seats"][1]["kind"] == "open"
        told = intruder.until(lambda m: m["type"] == "removed")
        assert told["seat"] == 1 and "removed you from your seat" in told["message"]  # a place, never "seat 1"
        dit = french.until(lambda m: m["type"] == "removed")
        assert "vous a retiré de votre place" in dit["message"] and not re.search(r"\d", dit["message"])
        intruder.send({"type": "act", "action": "deal", "version": 0, "id": "x"})
        assert intruder.until(lambda m: m["type"] == "error")["code"] == "not_seated"  # he watches now
        # His credential holds no seat; his address may not come back, under any name.
        again = Player(c, tid, theirs, headers={**ORIGIN, "x-test-address": STRANGER})
        assert again.seat is None
        r = seat(c, tid, 1, "Someone else", STRANGER)
        assert r.status_code == 403 and "removed you" in r.json()["error"]
        # A computer player can be removed too; the creator's address seats whom it likes.
        assert post(c, f"/api/tables/{tid}/remove", {"seat": 2, "token": creator}).status_code == 200
        assert seat(c, tid, 1, "Guest", CREATOR).status_code == 200
        assert seat(c, tid, 2, "Friend", FRIEND).status_code == 200
        assert seat(c, tid, 3, "Other", "192.0.2.4").status_code == 200  # every seat taken: the match starts
        r = post(c, f"/api/tables/{tid}/remove", {"seat": 2, "token": creator})
        assert r.status_code == 409 and "the match has started" in r.json()["error"]
        assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"
        for p in (intruder, french, again):
            p.close()


def test_one_address_takes_one_seat_at_a_listed_table(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = post(c, "/api/tables", {"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        assert seat(c, tid, 0, "First", STRANGER).status_code == 200
        for n, name in ((1, "Second"), (2, "Third")):
            r = seat(c, tid, n, name, STRANGER)
            assert r.status_code == 429 and "one address may hold 1 seat" in r.json()["error"]
            assert "private table" in r.json()["error"]
        # The creator seats whom he likes, from his address or with his credential from another.
        assert seat(c, tid, 1, "Host", CREATOR).status_code == 200
        assert seat(c, tid, 2, "Host two", CREATOR).status_code == 200
        assert seat(c, tid, 3, "Elsewhere", STRANGER, creator=creator).status_code == 200
    with client(Settings(db_url=sqlite_url, seats_per_address=2, **FAST)) as c:
        tid = post(c, "/api/tables", {"rules": "classic"}).json()["id"]
        assert seat(c, tid, 0, "One", STRANGER).status_code == 200
        assert seat(c, tid, 1, "Two", STRANGER).status_code == 200
        assert seat(c, tid, 2, "Three", STRANGER).status_code == 429


def test_the_page_reads_the_invitation_from_the_fragment(sqlite_url: str) -> None:
    """The page's script takes the secret from location.hash and sends it in the seat request's body."""
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        js = c.get("/static/js/seating.js").text
        assert "location.hash" in js and "invite" in js
        assert "/remove" in js
        lobby_js = c.get("/static/js/lobby.js").text
        assert "private" in lobby_js and "invite_url" in lobby_js
        assert 'id="private"' in c.get("/").text
        assert json.loads(json.dumps(c.get("/api/tables").json()))["tables"] == []
