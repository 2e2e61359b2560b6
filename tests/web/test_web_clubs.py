"""Clubs (issue 32): creating one, invitation links, roles, a club's tables (a private club's hidden from outsiders
on every path that shows a table), the season's leaderboard and its close, past matches, a deleted account's
clubs, the refusals, and the migration 0006 → 0007.

Through the real app (Starlette's TestClient), one browser's session at a time in its cookie jar; clients come
from chosen addresses.  SQLite, and PostgreSQL where the ``db_url`` fixture gives it.
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.error
import urllib.request
from datetime import timedelta
from typing import Any

import pytest
from conftest import postgres_url, redis_url, reset_postgres
from sqlalchemy import select, text
from test_web_accounts import PASSWORD, SHORT, sign_up, use_session
from test_web_private import CREATOR, FRIEND, STRANGER, client, post
from test_web_protocol import play_out
from webhelpers import Server
from wsclient import ORIGIN, Player

from barbu import ratings
from barbu.cli.main import main as barbu
from barbu.web import Settings
from barbu.web.accounts.service import COOKIE, fold
from barbu.web.accounts.store import user_by_key
from barbu.web.clubs import store as clubstore
from barbu.web.clubs.service import CLUBS_PER_DAY, club_description, club_name, season_board, slug_of
from barbu.web.db.storage import Store, now
from barbu.web.profiles.history import Finished, SeatResult, record

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
THIRD = "192.0.2.77"


class People:
    """Accounts of one test and their sessions: ``as_(name)`` makes the client that person's browser."""

    def __init__(self, c: Any) -> None:
        self.c, self.sessions = c, {}

    def add(self, name: str, address: str = CREATOR) -> None:
        self.c.cookies.clear()
        r = sign_up(self.c, name, address=address)
        assert r.status_code == 201, r.text
        self.sessions[name] = self.c.cookies.get(COOKIE)

    def as_(self, name: str | None) -> Any:
        use_session(self.c, self.sessions[name] if name else None)
        return self.c


def new_club(c: Any, name: str = "Les Jeudis", public: bool = False, description: str = "") -> str:
    r = post(c, "/api/clubs", {"name": name, "public": public, "description": description})
    assert r.status_code == 201, r.text
    return r.json()["club"]["slug"]


def invite(c: Any, slug: str, hours: int | None = 24) -> str:
    r = post(c, f"/api/clubs/{slug}/invites", {"hours": hours})
    assert r.status_code == 201, r.text
    assert r.json()["url"] == f"/clubs/join#key={r.json()['key']}"
    return r.json()["key"]


def join(c: Any, key: str, address: str = FRIEND) -> Any:
    return post(c, "/api/clubs/join", {"key": key}, address)


def club_id(c: Any, slug: str) -> int:
    with c.app.state.lobby.store.engine.connect() as conn:
        club = clubstore.club_by_slug(conn, slug)
        assert club is not None
        return club.id


def user_id(c: Any, name: str) -> int:
    with c.app.state.lobby.store.engine.connect() as conn:
        found = user_by_key(conn, fold(name))
        assert found is not None
        return found[0].id


def finished_match(c: Any, slug: str, places: list[tuple[str, int]], rated: bool = True) -> str:
    """A finished club match written as the server writes one at a match's end (`history.record`): each seat an
    account's name or "bot:<strength>", with its place.  Playing dozens of matches would only take longer."""
    store: Store = c.app.state.lobby.store
    tid = secrets.token_urlsafe(6)
    seats = [
        SeatResult("bot", "", who[4:], None, False)
        if who.startswith("bot:")
        else SeatResult("human", who, None, user_id(c, who), False)
        for who, _ in places
    ]
    totals = [-100 * place for _, place in places]  # Salad: the highest total (the fewest points lost) wins
    with store.engine.begin() as conn:
        Store.create_table(conn, tid, SHORT, 7, rated=rated, club_id=club_id(c, slug))
        Store.set_status(conn, tid, "over")
        assert record(conn, Finished(tid, SHORT, "salad", totals, True, seats, rated))
    time.sleep(0.002)  # each match finishes after the last
    return tid


# ------------------------------------------------------------------ the rules, pure
def test_a_clubs_name_description_and_address() -> None:
    assert club_name("  Les   Jeudis ") == ("Les Jeudis", "les jeudis")
    assert club_name("ＢＡＲＢＵ club")[1] == "barbu club"  # NFKC: full-width letters fold to their plain form
    for bad in ("", "   ", "x", "a" * 41, "bell\x07here", "zero\u200bwidth", "---", None, 7):
        with pytest.raises(Exception):
            club_name(bad)
    assert club_description("  Thursdays\r\n\r\n\r\n\r\nat 8  ") == "Thursdays\n\nat 8"
    assert club_description(None) == ""
    with pytest.raises(Exception):
        club_description("x" * 501)
    assert slug_of("Les Jeudis de l'Été!") == "les-jeudis-de-l-ete"
    assert slug_of("Клуб") == "club" and slug_of("A" * 60) == "a" * 32


def test_the_seasons_leaderboard_is_a_rating_from_a_fresh_start() -> None:
    """The same as feeding `barbu.ratings.update` the season's matches in order: people from a newcomer's rating,
    computer players at their anchors; ranked after the minimum, the others apart; deleted players never listed."""

    class Row:
        def __init__(
            self, tid: str, seat: int, uid: int | None, place: int, kind: str = "human", strength: str | None = None
        ) -> None:
            self.table_id, self.seat, self.user_id, self.place, self.kind, self.strength = (
                tid,
                seat,
                uid,
                place,
                kind,
                strength,
            )
            self.game, self.account = "salad", None if uid is None else f"P{uid}"

    rows = []
    for m in range(4):
        rows += [
            Row(f"t{m}", 0, 1, 1),
            Row(f"t{m}", 1, 2, 2 if m < 3 else 3),
            Row(f"t{m}", 2, None, 3 if m < 3 else 2, "bot", "random"),
        ]
    rows += [Row("t9", 0, 3, 1), Row("t9", 1, None, 2), Row("t9", 2, 1, 3)]  # a deleted player (no id) in seat 1
    board = season_board(rows, minimum=3)
    assert [g["game"] for g in board] == ["salad"]
    players = board[0]["players"]
    assert [(p["rank"], p["name"]) for p in players] == [(1, "P1"), (2, "P2")]
    assert [p["name"] for p in board[0]["unranked"]] == ["P3"]  # one match: listed apart
    r = {1: ratings.Rating(), 2: ratings.Rating(), 3: ratings.Rating()}
    bot = ratings.bot_rating("salad", "random")
    for m in range(4):
        r[1], r[2], _ = ratings.update([r[1], r[2], bot], [1, 2 if m < 3 else 3, 3 if m < 3 else 2])
    r[3], _, r[1] = ratings.update([r[3], ratings.Rating(), r[1]], [1, 2, 3])
    assert players[0]["rating"] == ratings.shown(r[1]) and players[0]["matches"] == 5 and players[0]["wins"] == 4
    assert players[1]["rating"] == ratings.shown(r[2]) and players[1]["mean_place"] == 2.25


# ------------------------------------------------------------------ creating and listing
def test_any_account_creates_a_club_and_the_refusals_change_nothing(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        r = post(c, "/api/clubs", {"name": "Les Jeudis"})
        assert r.status_code == 401 and "log in" in r.json()["error"]  # a guest
        people = People(c)
        people.add("Alice")
        r = c.post("/api/clubs", json={"name": "Evil"}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        for body, status, words in (
            ({"name": ""}, 400, "choose a name"),
            ({"name": "x" * 41}, 400, "at most 40"),
            ({"name": "OK", "description": "d" * 501}, 400, "at most 500"),
            ({"name": "OK", "public": "yes"}, 400, "true or false"),
            ({"name": 12}, 400, "choose a name"),
        ):
            r = post(c, "/api/clubs", body)
            assert r.status_code == status and words in r.json()["error"], r.text
        r = post(c, "/api/clubs?lang=fr", {"name": "x" * 41})  # worded in the reader's language
        assert r.json()["error"] == "le nom d'un club a au plus 40 caractères"
        r = post(c, "/api/clubs?lang=it", {"name": ""})
        assert r.json()["error"] == "scegli un nome per il club"
        slug = new_club(c, "Les Jeudis", public=True, description="Thursdays at eight")
        assert slug == "les-jeudis"
        r = post(c, "/api/clubs", {"name": "LES  jeudis"})
        assert r.status_code == 409 and "already a club named" in r.json()["error"]
        assert new_club(c, "Les Jeudis!", public=False) == "les-jeudis-2"  # another name, the same address taken
        new_club(c, "Trois", public=False)
        r = post(c, "/api/clubs", {"name": "One too many"})
        assert CLUBS_PER_DAY == 3 and r.status_code == 429 and "try again in" in r.json()["error"]
        r = c.get("/api/clubs").json()
        assert [x["slug"] for x in r["public"]] == ["les-jeudis"]  # the private club is not listed
        assert {x["slug"]: x["role"] for x in r["mine"]} == {
            "les-jeudis": "owner",
            "les-jeudis-2": "owner",
            "trois": "owner",
        }
        page = c.get("/api/clubs/les-jeudis").json()
        assert page["club"]["description"] == "Thursdays at eight" and page["role"] == "owner"
        assert [m["name"] for m in page["members"]] == ["Alice"] and page["season"]["number"] == 1
        assert c.get("/c/les-jeudis").status_code == 200 and c.get("/clubs").status_code == 200
        c.cookies.clear()
        r = c.get("/api/clubs").json()
        assert r["mine"] is None and [x["slug"] for x in r["public"]] == ["les-jeudis"]
        assert c.get("/api/clubs/les-jeudis").status_code == 200  # a public club's page is public
        missing = c.get("/api/clubs/no-such-club")
        hidden = c.get("/api/clubs/les-jeudis-2")  # private: exactly as if it did not exist
        assert missing.status_code == hidden.status_code == 404 and missing.json() == hidden.json()
        assert c.get("/c/les-jeudis-2").status_code == c.get("/c/no-such-club").status_code == 404
        assert c.get("/c/les-jeudis-2").text == c.get("/c/no-such-club").text


# ------------------------------------------------------------------ invitations and roles
def test_an_invitation_link_its_expiry_and_its_revocation(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        people = People(c)
        for name, address in (("Alice", CREATOR), ("Bruno", FRIEND), ("Carla", STRANGER), ("Dario", THIRD)):
            people.add(name, address)
        slug = new_club(people.as_("Alice"))
        key = invite(c, slug, 24)
        with c.app.state.lobby.store.engine.connect() as conn:  # only the secret's SHA-256 is kept
            stored = [r.secret_hash for r in conn.execute(select(clubstore.INVITES))]
        assert key not in stored and len(stored) == 1 and len(stored[0]) == 64
        people.as_(None)
        preview = post(c, "/api/clubs/invitation", {"key": key}, FRIEND).json()  # a guest sees what it invites to
        assert preview["club"]["name"] == "Les Jeudis" and preview["member"] is False
        assert join(c, key).status_code == 401  # joining takes an account
        people.as_("Bruno")
        r = join(c, key)
        assert r.status_code == 200 and r.json()["club"]["slug"] == slug and r.json()["already"] is False
        assert join(c, key).json()["already"] is True
        assert c.get(f"/api/clubs/{slug}").json()["role"] == "member"
        assert post(c, f"/api/clubs/{slug}/invites", {"hours": 24}, FRIEND).status_code == 403  # a member
        people.as_("Alice")
        invites = c.get(f"/api/clubs/{slug}").json()["invites"]
        assert invites[0]["uses"] == 1 and invites[0]["expires"] is not None and "key" not in invites[0]
        assert post(c, f"/api/clubs/{slug}/invites", {"hours": 0}).status_code == 400
        assert post(c, f"/api/clubs/{slug}/invites", {"hours": "1"}).status_code == 400
        # the link's expiry moved into the past: refused; given "until revoked" again: it works
        lid = invites[0]["id"]
        with c.app.state.lobby.store.engine.begin() as conn:
            clubstore.set_invite_expiry(conn, club_id(c, slug), lid, now() - timedelta(minutes=1))
        people.as_("Carla")
        r = join(c, key, STRANGER)
        assert r.status_code == 410 and "revoked or has expired" in r.json()["error"]
        assert c.get(f"/api/clubs/{slug}").status_code == 404  # still outside
        people.as_("Alice")
        assert post(c, f"/api/clubs/{slug}/invites/{lid}/expiry", {"hours": None}).status_code == 200
        people.as_("Carla")
        assert join(c, key, STRANGER).status_code == 200
        people.as_("Alice")
        assert post(c, f"/api/clubs/{slug}/invites/{lid}/revoke", {}).status_code == 200
        assert post(c, f"/api/clubs/{slug}/invites/{lid}/revoke", {}).status_code == 404
        people.as_("Dario")
        for bad in (key, "", "x" * 500, None, 3):
            r = post(c, "/api/clubs/join", {"key": bad}, THIRD)
            assert r.status_code == 410, r.text
        assert post(c, "/api/clubs/invitation", {"key": key}, THIRD).status_code == 410
        r = c.post("/api/clubs/join", json={"key": key}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        people.as_("Alice")
        assert [m["name"] for m in c.get(f"/api/clubs/{slug}").json()["members"]] == ["Alice", "Bruno", "Carla"]


def test_roles_owner_admins_and_members(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        people = People(c)
        for name, address in (("Alice", CREATOR), ("Bruno", FRIEND), ("Carla", STRANGER), ("Dario", THIRD)):
            people.add(name, address)
        slug = new_club(people.as_("Alice"), public=True)
        key = invite(c, slug, None)
        for name, address in (("Bruno", FRIEND), ("Carla", STRANGER), ("Dario", THIRD)):
            assert join(people.as_(name), key, address).status_code == 200
        # a member tries the owner's and the admins' actions: 403, nothing changes
        people.as_("Dario")
        for path, body in (
            ("role", {"member": "Bruno", "role": "admin"}),
            ("remove", {"member": "Bruno"}),
            ("owner", {"member": "Dario"}),
            ("season", {"season": 1}),
            ("edit", {"public": False}),
            ("delete", {"name": "Les Jeudis"}),
            ("invites", {"hours": 24}),
        ):
            r = post(c, f"/api/clubs/{slug}/{path}", body, THIRD)
            assert r.status_code == 403 and "only the club's owner" in r.json()["error"], (path, r.text)
        people.as_("Alice")
        assert post(c, f"/api/clubs/{slug}/role", {"member": "bruno", "role": "admin"}).status_code == 200
        assert post(c, f"/api/clubs/{slug}/role", {"member": "Bruno", "role": "owner"}).status_code == 400
        assert post(c, f"/api/clubs/{slug}/role", {"member": "Nobody", "role": "admin"}).status_code == 404
        assert post(c, f"/api/clubs/{slug}/leave", {}).status_code == 409  # the owner hands over or deletes
        people.as_("Bruno")  # an admin: makes links, removes plain members, never an admin or the owner
        assert post(c, f"/api/clubs/{slug}/invites", {"hours": 24}, FRIEND).status_code == 201
        assert post(c, f"/api/clubs/{slug}/remove", {"member": "Alice"}, FRIEND).status_code == 403
        assert post(c, f"/api/clubs/{slug}/remove", {"member": "Dario"}, FRIEND).status_code == 200
        assert post(c, f"/api/clubs/{slug}/role", {"member": "Carla", "role": "admin"}, FRIEND).status_code == 403
        people.as_("Carla")
        assert post(c, f"/api/clubs/{slug}/leave", {}, STRANGER).status_code == 200
        assert c.get(f"/api/clubs/{slug}").json()["role"] is None  # a public club: still seen, from outside
        assert post(c, f"/api/clubs/{slug}/leave", {}, STRANGER).status_code == 403
        people.as_("Alice")
        members = c.get(f"/api/clubs/{slug}").json()["members"]
        assert [(m["name"], m["role"]) for m in members] == [("Alice", "owner"), ("Bruno", "admin")]
        assert post(c, f"/api/clubs/{slug}/owner", {"member": "Bruno"}).status_code == 200
        members = c.get(f"/api/clubs/{slug}").json()["members"]
        assert [(m["name"], m["role"]) for m in members] == [("Bruno", "owner"), ("Alice", "admin")]
        assert post(c, f"/api/clubs/{slug}/delete", {"name": "Les Jeudis"}).status_code == 403  # not hers now
        people.as_("Bruno")
        assert post(c, f"/api/clubs/{slug}/edit", {"description": "Mardis", "public": False}, FRIEND).status_code == 200
        club = c.get(f"/api/clubs/{slug}").json()["club"]
        assert club["description"] == "Mardis" and club["public"] is False
        assert post(c, f"/api/clubs/{slug}/delete", {"name": "Les Mardis"}, FRIEND).status_code == 400
        assert post(c, f"/api/clubs/{slug}/delete", {"name": " les jeudis "}, FRIEND).status_code == 200
        assert c.get(f"/api/clubs/{slug}").status_code == 404 and c.get(f"/c/{slug}").status_code == 404
        assert new_club(c, "Les Jeudis") == slug  # the name and the address are free again


# ------------------------------------------------------------------ a private club's tables
def test_a_private_clubs_table_is_as_if_it_did_not_exist_to_outsiders(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        people = People(c)
        for name, address in (("Alice", CREATOR), ("Bruno", FRIEND), ("Olga", STRANGER)):
            people.add(name, address)
        slug = new_club(people.as_("Alice"), public=False)
        key = invite(c, slug)
        assert join(people.as_("Bruno"), key).status_code == 200
        # a rated club table, played to its end by Alice against computer players
        people.as_("Alice")
        r = post(c, f"/api/clubs/{slug}/tables", {"rules": SHORT, "rated": True})
        assert r.status_code == 201 and r.json()["table"]["club_id"] is not None and r.json()["table"]["rated"]
        done, creator = r.json()["id"], r.json()["creator"]
        r = post(c, f"/api/tables/{done}/seats", {"seat": 0, "name": "x"})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        for seat in (1, 2):
            assert (
                post(c, f"/api/tables/{done}/bots", {"seat": seat, "strength": "random", "token": creator}).status_code
                == 200
            )
        table = c.app.state.lobby.tables[done]
        p = Player(c, done, token)
        play_out(p, table)
        p.close()
        for _ in range(400):
            if table.stored_status == "over":
                break
            time.sleep(0.05)
        # and an open one, made by Bruno
        people.as_("Bruno")
        r = post(c, f"/api/clubs/{slug}/tables", {"rules": "classic", "clock": "relaxed"}, FRIEND)
        assert r.status_code == 201
        tid = r.json()["id"]
        assert tid in [t["id"] for t in c.get("/api/tables").json()["tables"]]  # a member sees it in the lobby
        assert c.get(f"/api/clubs/{slug}/tables").json()["tables"][0]["id"] == tid
        board = c.get(f"/api/clubs/{slug}").json()
        assert board["matches"][0]["table"] == done and board["board"][0]["game"] == "salad"
        assert board["board"][0]["unranked"][0]["name"] == "Alice"  # one rated match: not ranked yet
        assert c.get("/api/players/alice").json()["matches"][0]["table"] == done  # a member sees it on her profile

        def nothing_there(who: str | None, address: str) -> None:
            people.as_(who)
            assert tid not in [t["id"] for t in c.get("/api/tables").json()["tables"]]
            for t in (tid, done):
                for path in (
                    f"/api/tables/{t}",
                    f"/api/tables/{t}/record",
                    f"/api/replays/{t}",
                    f"/api/replays/{t}/deals/1",
                ):
                    r, missing = c.get(path), c.get(path.replace(t, "nosuchtab"))
                    assert r.status_code == 404 and r.json() == missing.json(), (path, r.text)
                for page in (f"/t/{t}", f"/t/{t}/replay"):
                    r = c.get(page)
                    assert r.status_code == 404 and r.text == c.get(page.replace(t, "nosuchtab")).text, page
                for path, body in (
                    ("seats", {"seat": 0, "name": "Olga"}),
                    ("bots", {"seat": 1, "strength": "random"}),
                    ("leave", {}),
                    ("end", {}),
                    ("remove", {"seat": 0}),
                ):
                    r = post(c, f"/api/tables/{t}/{path}", body, address)
                    assert r.status_code == 404 and r.json()["error"] == "there is no such table", (path, r.text)
                r = post(c, f"/api/replays/{t}/deals/1/analysis", {}, address)
                assert r.status_code == 404
                with c.websocket_connect(f"/ws/{t}", headers=ORIGIN) as ws:
                    msg = ws.receive_json()
                    assert msg["type"] == "error" and msg["code"] == "no_table"
            assert [m["table"] for m in c.get("/api/players/alice").json()["matches"]] == []
            assert c.get(f"/api/clubs/{slug}/tables").status_code == 404

        nothing_there(None, THIRD)  # a guest
        nothing_there("Olga", STRANGER)  # an account that is not a member
        # Alice leaves; the club made public would show it all; she keeps her own finished match
        people.as_("Alice")
        assert post(c, f"/api/clubs/{slug}/owner", {"member": "Bruno"}).status_code == 200
        assert post(c, f"/api/clubs/{slug}/leave", {}).status_code == 200
        assert c.get(f"/api/tables/{done}").status_code == 200 and c.get(f"/api/replays/{done}").status_code == 200
        assert c.get(f"/api/tables/{tid}").status_code == 404  # the other one is the club's alone
        people.as_("Bruno")
        seat = post(c, f"/api/tables/{tid}/seats", {"seat": 1, "name": "x"}, FRIEND)
        assert seat.status_code == 200
        with c.websocket_connect(f"/ws/{tid}", headers=ORIGIN) as ws:
            ws.send_json({"type": "hello", "token": seat.json()["token"]})
            assert ws.receive_json()["type"] == "welcome"
        assert post(c, f"/api/clubs/{slug}/edit", {"public": True}, FRIEND).status_code == 200
        people.as_("Olga")
        assert c.get(f"/api/tables/{tid}").status_code == 200
        assert tid in [t["id"] for t in c.get("/api/tables").json()["tables"]]


def test_club_tables_are_made_by_members_only(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        people = People(c)
        people.add("Alice")
        people.add("Olga", STRANGER)
        slug = new_club(people.as_("Alice"), public=True)
        for body, words in (
            ({"rules": "nonsense"}, "unknown"),
            ({"rules": "classic", "rated": "yes"}, "true or false"),
            ({"rules": "classic", "clock": "forever"}, "clock"),
        ):
            r = post(c, f"/api/clubs/{slug}/tables", body)
            assert r.status_code == 400 and words in r.json()["error"], r.text
        r = post(c, f"/api/clubs/{slug}/tables", {"rules": "classic", "turn_based": True, "clock": "days"})
        assert r.status_code == 201 and r.json()["table"]["turn_based"] is True
        tid = r.json()["id"]
        people.as_("Olga")
        r = post(c, f"/api/clubs/{slug}/tables", {"rules": "classic"}, STRANGER)
        assert r.status_code == 403 and "members" in r.json()["error"]
        # a public club's table: seen and joined by anyone, a guest too
        people.as_(None)
        assert c.get(f"/api/tables/{tid}").status_code == 200
        assert post(c, f"/api/tables/{tid}/seats", {"seat": 2, "name": "Guest"}, THIRD).status_code == 200
        assert post(c, "/api/clubs/no-such/tables", {"rules": "classic"}).status_code == 401


# ------------------------------------------------------------------ seasons and past matches
def test_the_season_leaderboard_its_close_and_the_next_season(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        people = People(c)
        for name, address in (("Alice", CREATOR), ("Bruno", FRIEND), ("Carla", STRANGER)):
            people.add(name, address)
        slug = new_club(people.as_("Alice"), public=False)
        key = invite(c, slug)
        for name, address in (("Bruno", FRIEND), ("Carla", STRANGER)):
            assert join(people.as_(name), key, address).status_code == 200
        people.as_("Alice")
        for _ in range(3):
            finished_match(c, slug, [("Alice", 1), ("Bruno", 2), ("bot:random", 3)])
        finished_match(c, slug, [("Carla", 1), ("Alice", 2), ("bot:rule", 3)])
        finished_match(c, slug, [("Carla", 2), ("Bruno", 1), ("bot:rule", 3)], rated=False)  # not in the board
        page = c.get(f"/api/clubs/{slug}").json()
        board = page["board"][0]
        assert board["game"] == "salad" and [p["name"] for p in board["players"]] == ["Alice", "Bruno"]
        assert board["players"][0]["matches"] == 4 and board["players"][0]["wins"] == 3
        assert [p["name"] for p in board["unranked"]] == ["Carla"] and page["board_min"] == 3
        assert len(page["matches"]) == 5 and page["matches"][0]["rated"] is False
        assert page["matches"][0]["replay"].endswith("/replay") and page["games"] == ["salad"]
        assert {m["name"]: sorted(m["ratings"]) for m in page["members"]}["Bruno"] == ["salad"]
        # a member cannot close the season; the owner closes the one she sees, once
        people.as_("Bruno")
        assert post(c, f"/api/clubs/{slug}/season", {"season": 1}, FRIEND).status_code == 403
        people.as_("Alice")
        assert post(c, f"/api/clubs/{slug}/season", {"season": 2}).status_code == 409
        assert post(c, f"/api/clubs/{slug}/season", {"season": "1"}).status_code == 400
        r = post(c, f"/api/clubs/{slug}/season", {"season": 1})
        assert r.status_code == 200 and r.json()["season"]["number"] == 2
        assert post(c, f"/api/clubs/{slug}/season", {"season": 1}).status_code == 409  # a second click
        page = c.get(f"/api/clubs/{slug}").json()
        assert page["season"]["number"] == 2 and page["board"] == [] and len(page["matches"]) == 5
        assert [s["number"] for s in page["seasons"]] == [1, 2] and page["seasons"][0]["ended"] is not None
        past = c.get(f"/api/clubs/{slug}/seasons/1").json()
        assert past["board"][0] == board and past["season"]["ended"] == page["seasons"][0]["ended"]
        assert c.get(f"/api/clubs/{slug}/seasons/9").status_code == 404
        assert c.get(f"/api/clubs/{slug}/seasons/x").status_code == 404
        finished_match(c, slug, [("Carla", 1), ("Bruno", 2), ("bot:random", 3)])
        page = c.get(f"/api/clubs/{slug}").json()
        assert [p["name"] for p in page["board"][0]["unranked"]] == ["Carla", "Bruno"]
        assert page["board"][0]["unranked"][0]["matches"] == 1  # from a fresh start
        assert c.get(f"/api/clubs/{slug}/seasons/1").json()["board"][0] == board  # kept as it stood
        # older matches, page by page
        before = page["matches"][2]["finished"]
        older = c.get(f"/api/clubs/{slug}/matches", params={"before": before}).json()
        assert all(m["finished"] < before for m in older["matches"]) and older["more_matches"] is False
        assert c.get(f"/api/clubs/{slug}/matches", params={"before": "yesterday"}).status_code == 400
        people.as_(None)
        assert c.get(f"/api/clubs/{slug}/seasons/1").status_code == 404  # private: nothing from outside
        assert c.get(f"/api/clubs/{slug}/matches", params={"before": before}).status_code == 404


# ------------------------------------------------------------------ a deleted account
def test_a_deleted_account_leaves_its_clubs_to_the_next_in_line(sqlite_url: str, capsys) -> None:
    path = sqlite_url[len("sqlite:///") :]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        people = People(c)
        for name, address in (("Alice", CREATOR), ("Bruno", FRIEND), ("Carla", STRANGER)):
            people.add(name, address)
        first = new_club(people.as_("Alice"), "First")  # will pass to its admin, though he joined last
        second = new_club(c, "Second")  # to its oldest member
        alone = new_club(c, "Alone")  # to nobody: deleted
        keys = {slug: invite(people.as_("Alice"), slug) for slug in (first, second)}
        for name, address in (("Carla", STRANGER), ("Bruno", FRIEND)):
            for slug in (first, second):
                assert join(people.as_(name), keys[slug], address).status_code == 200
        assert (
            post(people.as_("Alice"), f"/api/clubs/{first}/role", {"member": "Bruno", "role": "admin"}).status_code
            == 200
        )
        assert post(c, "/api/account/delete", {"password": PASSWORD}).status_code == 200
        people.as_("Carla")
        assert [(m["name"], m["role"]) for m in c.get(f"/api/clubs/{first}").json()["members"]] == [
            ("Bruno", "owner"),
            ("Carla", "member"),
        ]
        assert [(m["name"], m["role"]) for m in c.get(f"/api/clubs/{second}").json()["members"]] == [
            ("Carla", "owner"),
            ("Bruno", "member"),
        ]
        assert c.get(f"/api/clubs/{alone}").status_code == 404
        # the operator's deletion does the same
        assert barbu(["users", "--db", path, "delete", "carla", "--yes"]) == 0
        capsys.readouterr()
        people.as_("Bruno")
        assert [(m["name"], m["role"]) for m in c.get(f"/api/clubs/{second}").json()["members"]] == [("Bruno", "owner")]
        assert new_club(c, "Alone") == "alone"  # the deleted club's name is free


# ------------------------------------------------------------------ many processes
def web(server: Server, method: str, path: str, body: Any = None, cookie: str | None = None) -> tuple[int, Any, str]:
    """(status, JSON or text, the session cookie set) of a request as a browser sends it, to one process."""
    headers = {"origin": server.base}
    if body is not None:
        headers["content-type"] = "application/json"
    if cookie:
        headers["cookie"] = f"{COOKIE}={cookie}"
    req = urllib.request.Request(
        server.base + path, data=None if body is None else json.dumps(body).encode(), method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            raw, status, got = r.read(), r.status, r.headers.get_all("set-cookie") or []
    except urllib.error.HTTPError as e:
        raw, status, got = e.read(), e.code, []
    token = next((c.split(";")[0].split("=", 1)[1] for c in got if c.startswith(COOKIE + "=")), "")
    try:
        return status, json.loads(raw), token
    except ValueError:
        return status, raw.decode(errors="replace"), token


def ws_first(server: Server, tid: str, cookie: str | None, token: str | None = None) -> dict[str, Any]:
    """The first answer of the table's WebSocket through this process (to a hello with ``token``)."""
    from websockets.sync.client import connect

    headers = {"origin": server.base, **({"cookie": f"{COOKIE}={cookie}"} if cookie else {})}
    from websockets.exceptions import ConnectionClosed

    with connect(f"{server.ws_base}/ws/{tid}", additional_headers=headers) as ws:
        try:
            ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
        except ConnectionClosed:
            pass  # a table the process will not show is refused before any hello: its answer is already here
        return json.loads(ws.recv(timeout=10))


def test_a_private_club_table_through_a_process_that_does_not_own_it(serve: Any) -> None:
    """Two processes on PostgreSQL and Redis: a private club's table made through A (A owns it) is asked for
    through B.  B checks the membership itself, from the shared database, before relaying anything to A."""
    db, broker = postgres_url(), redis_url()
    reset_postgres(db)
    fast = ("--bot-delay", "0", "--grace", "1000", "--lease", "2", "--broker", broker, "--seats-per-address", "0")
    a, b = [serve(*fast, db=db) for _ in range(2)]
    sessions = {}
    for name in ("Alice", "Bruno", "Olga"):
        status, _, sessions[name] = web(a, "POST", "/api/account/signup", {"name": name, "password": PASSWORD})
        assert status == 201 and sessions[name]
    status, made, _ = web(a, "POST", "/api/clubs", {"name": "Les Jeudis", "public": False}, sessions["Alice"])
    slug = made["club"]["slug"]
    _, link, _ = web(a, "POST", f"/api/clubs/{slug}/invites", {"hours": 24}, sessions["Alice"])
    assert web(b, "POST", "/api/clubs/join", {"key": link["key"]}, sessions["Bruno"])[0] == 200
    status, table, _ = web(a, "POST", f"/api/clubs/{slug}/tables", {"rules": "classic"}, sessions["Alice"])
    assert status == 201
    tid = table["id"]
    # an outsider through B: nothing, as for a table that does not exist
    for who in (None, sessions["Olga"]):
        for path in (f"/api/tables/{tid}", f"/t/{tid}", f"/api/replays/{tid}", f"/t/{tid}/replay"):
            assert web(b, "GET", path, cookie=who)[0] == 404, path
        status, said, _ = web(b, "POST", f"/api/tables/{tid}/seats", {"seat": 1, "name": "Olga"}, who)
        assert status == 404 and said == web(b, "POST", "/api/tables/nosuchtab/seats", {"seat": 1}, who)[1]
        assert ws_first(b, tid, who)["code"] == "no_table"
    # a member through B: the table as A plays it, his seat taken there, his WebSocket relayed
    status, info, _ = web(b, "GET", f"/api/tables/{tid}", cookie=sessions["Bruno"])
    assert status == 200 and info["table"]["club_id"] is not None
    status, seat, _ = web(b, "POST", f"/api/tables/{tid}/seats", {"seat": 1, "name": "x"}, sessions["Bruno"])
    assert status == 200 and seat["table"]["seats"][1]["name"] == "Bruno"
    assert ws_first(b, tid, sessions["Bruno"], seat["token"])["type"] == "welcome"
    assert web(b, "GET", f"/api/clubs/{slug}/tables", cookie=sessions["Bruno"])[1]["tables"][0]["id"] == tid
    deadline = time.monotonic() + 10  # the lobby of B lists A's tables as A last published them
    while tid not in [t["id"] for t in web(b, "GET", "/api/tables", cookie=sessions["Bruno"])[1]["tables"]]:
        assert time.monotonic() < deadline, "B never listed the club's table for a member"
        time.sleep(0.3)
    assert tid not in [t["id"] for t in web(b, "GET", "/api/tables", cookie=sessions["Olga"])[1]["tables"]]
    for s in (a, b):
        assert "Traceback" not in s.log(), s.log()[-3000:]


# ------------------------------------------------------------------ the migration
def test_the_migration_to_0007_keeps_every_table_and_account(db_url: str) -> None:
    """A database at 0006 with a table, an account and a result upgrades to 0007 without losing them, and back."""
    from barbu.web.db.storage import make_engine, migrate

    engine = make_engine(db_url)
    migrate(engine, "0006")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO barbu_tables (id, rules, seed, status, created_at) "
            "VALUES ('old1', 'classic', 7, 'over', CURRENT_TIMESTAMP)"
        )
        conn.exec_driver_sql("INSERT INTO barbu_seats (table_id, seat, name, kind) VALUES ('old1', 0, 'Ann', 'human')")
        conn.exec_driver_sql(
            "INSERT INTO barbu_users (name, name_key, skeleton, password_hash, created_at) "
            "VALUES ('Ann', 'ann', 'ann', 'x', CURRENT_TIMESTAMP)"
        )
        conn.exec_driver_sql(
            "INSERT INTO barbu_results (table_id, seat, user_id, name, kind, game, rules, players, "
            "place, points, finished_at) SELECT 'old1', 0, id, 'Ann', 'human', 'classic', 'classic', "
            "4, 1, 12, CURRENT_TIMESTAMP FROM barbu_users WHERE name_key = 'ann'"
        )
    engine.dispose()
    store = Store(db_url)  # upgrades to the newest revision
    rec = store.load_table("old1")
    with store.engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM barbu_results")).scalar_one() == 1
        assert conn.execute(text("SELECT name FROM barbu_users")).scalar_one() == "Ann"
        uid = conn.execute(text("SELECT id FROM barbu_users")).scalar_one()
        cid = clubstore.add_club(conn, "ann-club", "Ann's club", "ann's club", "", True, uid)
        assert clubstore.members(conn, cid)[0].role == "owner" and clubstore.seasons(conn, cid)[0].number == 1
    store.close()
    assert rec is not None and rec.seats[0].name == "Ann" and rec.club_id is None
    from alembic import command
    from alembic.config import Config

    from barbu.web.db.storage import MIGRATIONS

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:  # and down again: the clubs go, the rest stays
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
    with engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM barbu_results")).scalar_one() == 1
        assert conn.execute(text("SELECT rules FROM barbu_tables WHERE id = 'old1'")).scalar_one() == "classic"
    engine.dispose()
