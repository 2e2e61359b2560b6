"""Accounts (issue 32): sign up, log in and out, sessions, the account's own changes, the operator's commands,
seats that belong to a player, rated matches, profiles, leaderboards, and the refusals.

Through the real app (Starlette's TestClient), clients from chosen addresses; SQLite, and PostgreSQL
where the ``db_url`` fixture gives it.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from sqlalchemy import select
from test_web_private import CREATOR, FRIEND, STRANGER, client, post
from test_web_protocol import play_out
from wsclient import Player

from barbu.cli.main import main as barbu
from barbu.ratings import bot_rating
from barbu.web import Settings
from barbu.web.accounts.service import COOKIE, account_name, skeleton
from barbu.web.accounts.store import RATINGS, RESULTS, SESSIONS
from barbu.web.db.storage import Store

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
SHORT = "salad(players=3)"  # the shortest match of the house: a rated match against the computer in a test
PASSWORD = "correct horse battery"


def sign_up(c: Any, name: str, password: str = PASSWORD, address: str = CREATOR) -> Any:
    return post(c, "/api/account/signup", {"name": name, "password": password}, address)


def log_in(c: Any, name: str, password: str = PASSWORD, address: str = CREATOR) -> Any:
    return post(c, "/api/account/login", {"name": name, "password": password}, address)


def use_session(c: Any, token: str | None) -> None:
    """This browser's cookie jar holds that session cookie alone (another browser, or a forged cookie)."""
    c.cookies.clear()
    if token is not None:
        c.cookies.set(COOKIE, token)


def me(c: Any) -> Any:
    return c.get("/api/account").json()["user"]


def test_names_are_folded_and_lookalikes_share_a_skeleton() -> None:
    assert account_name("  Zoë   Dupont ") == ("Zoë Dupont", "zoë dupont", "zoedupont")
    assert skeleton("Alice") == skeleton("AIice") == skeleton("A.lice") == skeleton("ALICE")
    assert skeleton("Bob") != skeleton("Rob")
    for bad in ("Bot 2", "Computer", "x", "", "a" * 30, "Аlice", "Al<i>ce", "-Ann", 42, None):
        with pytest.raises(Exception):
            account_name(bad)


def test_sign_up_log_out_log_in_and_the_cookie(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        assert me(c) is None
        r = sign_up(c, "Alice")
        assert r.status_code == 201, r.text
        assert r.json()["user"]["name"] == "Alice" and r.json()["user"]["profile"] == "/u/Alice"
        cookie = r.headers["set-cookie"]
        assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # reached over plain HTTP here
        assert me(c)["name"] == "Alice"
        token = c.cookies.get(COOKIE)
        store = c.app.state.lobby.store
        with store.engine.connect() as conn:  # only the session id's hash is stored
            stored = [r.id_hash for r in conn.execute(select(SESSIONS))]
        assert token not in stored and len(stored) == 1
        assert post(c, "/api/account/logout", {}).status_code == 200
        assert me(c) is None
        use_session(c, token)  # the old session is gone for good
        assert me(c) is None
        c.cookies.clear()
        assert log_in(c, "alice").status_code == 200  # names are case-insensitive
        assert me(c)["name"] == "Alice"


def test_a_taken_or_lookalike_name_is_refused_at_sign_up_only(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        c.cookies.clear()
        for name, words in (("ALICE", "taken"), ("AIice", "looks too much like"), ("Bot", "computer players")):
            r = sign_up(c, name, address=FRIEND)
            assert r.status_code in (400, 409) and words in r.json()["error"], r.text
        assert sign_up(c, "Bob", password="Bob", address=FRIEND).status_code == 400  # too short
        r = sign_up(c, "Roberto1", password="ROBERTO1", address=FRIEND)
        assert r.status_code == 400 and "other than your user name" in r.json()["error"], r.text
        r = sign_up(c, "Carol", password="carolcarol".upper(), address=FRIEND)
        assert r.status_code == 400 and "a repeat" in r.json()["error"], r.text
        assert sign_up(c, "Carol", password="Carol deals the cards", address=FRIEND).status_code == 201


def test_logging_in_never_says_whether_a_name_exists_and_is_throttled(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        c.cookies.clear()
        wrong = log_in(c, "Alice", "not the password", address=STRANGER)
        missing = log_in(c, "Nobody", "not the password", address=STRANGER)
        assert wrong.status_code == missing.status_code == 401
        assert wrong.json() == missing.json()
        for _ in range(4):
            assert log_in(c, "Alice", "still wrong!", address=STRANGER).status_code == 401
        r = log_in(c, "Alice", PASSWORD, address=STRANGER)  # that address waits now, even with the right password
        # 30 s from the failure that set it; a second may pass on a loaded machine before this attempt
        assert r.status_code == 429 and re.search("try again in (30|29) seconds", r.json()["error"]), r.text
        r = log_in(c, "Nobody", "x" * 9, address=FRIEND)  # and a name without an account behaves the same
        for _ in range(5):
            r = log_in(c, "Nobody", "x" * 9, address=FRIEND)
        assert r.status_code == 429
        assert me(c) is None
        assert log_in(c, "Alice", PASSWORD, address=FRIEND).status_code == 200  # the owner elsewhere is not locked out


def test_state_changing_requests_check_the_origin_and_a_forged_cookie_is_nobody(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = c.post(
            "/api/account/signup",
            json={"name": "Alice", "password": PASSWORD},
            headers={"origin": "https://evil.example"},
        )
        assert r.status_code == 403 and COOKIE not in r.headers.get("set-cookie", "")
        assert sign_up(c, "Alice").status_code == 201
        r = c.post("/api/account/logout", json={}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and me(c)["name"] == "Alice"
        use_session(c, "A" * 43)
        assert me(c) is None
        r = post(c, "/api/account/password", {"old": PASSWORD, "new": "another password"})
        assert r.status_code == 401 and "log in" in r.json()["error"]


def test_change_password_and_log_out_everywhere_end_the_other_sessions(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        first = c.cookies.get(COOKIE)
        c.cookies.clear()
        assert log_in(c, "Alice").status_code == 200
        r = post(c, "/api/account/password", {"old": "wrong password", "new": "another password"})
        assert r.status_code == 403
        assert post(c, "/api/account/password", {"old": PASSWORD, "new": "another password"}).status_code == 200
        assert me(c)["name"] == "Alice"  # this browser stays logged in
        second = c.cookies.get(COOKIE)
        use_session(c, first)
        assert me(c) is None  # the other one is out
        use_session(c, second)
        assert post(c, "/api/account/logout-all", {}).status_code == 200
        use_session(c, second)
        assert me(c) is None
        assert log_in(c, "Alice", PASSWORD).status_code == 401
        assert log_in(c, "Alice", "another password").status_code == 200


def test_sign_ups_from_one_address_are_limited(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, signups_per_hour=2, **FAST)) as c:
        assert sign_up(c, "Ann", address=STRANGER).status_code == 201
        assert sign_up(c, "Ben", address=STRANGER).status_code == 201
        r = sign_up(c, "Cid", address=STRANGER)
        assert r.status_code == 429 and "try again in" in r.json()["error"]
        assert sign_up(c, "Cid", address=FRIEND).status_code == 201


def stored_over(table: Any) -> None:
    """Wait until the finished match is stored as over, with its results (written by the table's actor)."""
    for _ in range(400):
        if table.stored_status == "over":
            return
        time.sleep(0.05)
    pytest.fail("the finished match was not stored as over")


def finish_rated(c: Any, strength: str = "random") -> str:
    """Play a rated match against computer players to its end, as the logged-in browser; its table id."""
    r = post(c, "/api/play", {"rules": SHORT, "strength": strength, "rated": True})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["table"]["rated"] is True
    table = c.app.state.lobby.tables[tid]
    p = Player(c, tid, r.json()["token"])
    play_out(p, table)
    p.close()
    stored_over(table)
    return tid


def test_a_rated_match_against_the_computer_rates_the_player_and_shows_on_his_profile(db_url: str) -> None:
    with client(Settings(db_url=db_url, **FAST)) as c:
        r = post(c, "/api/play", {"rules": SHORT, "strength": "random", "rated": True})
        assert r.status_code == 401 and "log in" in r.json()["error"]  # a guest plays unrated, as before
        assert post(c, "/api/play", {"rules": SHORT, "strength": "random"}).status_code == 201
        assert sign_up(c, "Alice").status_code == 201
        tid = finish_rated(c)
        profile = c.get("/api/players/alice").json()
        assert profile["name"] == "Alice"
        game = profile["matches"][0]
        assert game["table"] == tid and game["rated"] and game["players"] == 3 and game["game"] == "salad"
        assert {s["name"] for s in game["seats"]} >= {"Alice"} and game["replay"] == f"/t/{tid}/replay"
        assert [s["computer"] for s in game["seats"]] == [False, True, True]
        assert profile["ratings"]["salad"]["matches"] == 1 and profile["ratings"]["salad"]["provisional"]
        assert len(profile["rating_history"]["salad"]) == 1
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["seats"][0]["account"] and info["seats"][0]["rating"]["matches"] == 1
        assert info["seats"][1]["rating"] is not None  # a computer player is rated too, and its rating moves
        seed = bot_rating("salad", "random")
        with c.app.state.lobby.store.engine.connect() as conn:
            row = conn.execute(select(RATINGS).where(RATINGS.c.subject == "bot:random")).one()
        assert row.matches == seed.matches + 1 and row.mu != seed.mu
        data = c.get("/api/account/data").json()
        assert data["account"]["name"] == "Alice" and data["matches"][0]["table"] == tid
        assert "password" not in str(data).lower()
        assert c.get("/api/players/nobody").status_code == 404
        board = c.get("/api/leaderboards/salad").json()
        assert [p["name"] for p in board["players"]] == ["Alice"]  # listed from the first rated match,
        assert board["players"][0]["provisional"] and board["established"] == 5  # marked provisional until 5
        assert c.get("/api/leaderboards/poker").status_code == 404


def test_a_rated_table_seats_only_accounts_and_a_seat_follows_its_account(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        made = post(c, "/api/tables", {"rules": "classic", "rated": True}).json()
        tid = made["id"]
        r = post(c, f"/api/tables/{tid}/seats", {"seat": 0, "name": "whatever"})
        assert r.status_code == 200, r.text
        assert r.json()["table"]["seats"][0]["name"] == "Alice"  # an account plays under its name
        again = post(c, f"/api/tables/{tid}/seats", {"seat": 1, "name": "Alice2"})
        assert again.status_code == 409
        session = c.cookies.get(COOKIE)
        c.cookies.clear()
        r = post(c, f"/api/tables/{tid}/seats", {"seat": 1, "name": "Guest"}, FRIEND)
        assert r.status_code == 403 and "rated" in r.json()["error"]
        # another browser, logged in as Alice, with no credential: the seat is hers
        use_session(c, session)
        p = Player(c, tid)
        assert p.seat == 0
        p.close()
        c.cookies.clear()
        p = Player(c, tid)  # a guest watches
        assert p.seat is None
        p.close()


def test_a_deleted_account_leaves_its_matches_under_a_deleted_player(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        tid = finish_rated(c)
        assert post(c, "/api/account/delete", {"password": "wrong password"}).status_code == 403
        r = post(c, "/api/account/delete", {"password": PASSWORD})
        assert r.status_code == 200 and me(c) is None
        assert c.get("/api/players/alice").status_code == 404
        store = c.app.state.lobby.store
        with store.engine.connect() as conn:
            rows = list(conn.execute(select(RESULTS).where(RESULTS.c.table_id == tid).order_by(RESULTS.c.seat)))
        assert rows[0].user_id is None and rows[0].name is None and rows[0].kind == "human"
        assert sign_up(c, "Alice", address=FRIEND).status_code == 201  # the name is free again


def test_a_guest_claims_the_finished_matches_he_played_from_this_browser(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = post(c, "/api/play", {"rules": SHORT, "strength": "random", "name": "Guesty"})
        tid, token = r.json()["id"], r.json()["token"]
        table = c.app.state.lobby.tables[tid]
        p = Player(c, tid, token)
        play_out(p, table)
        p.close()
        stored_over(table)
        assert sign_up(c, "Alice").status_code == 201
        r = post(
            c,
            "/api/account/claim",
            {
                "tables": [
                    {"id": tid, "token": token},
                    {"id": tid, "token": "nope"},
                    {"id": "nosuchtable", "token": token},
                ]
            },
        )
        assert r.status_code == 200 and r.json()["claimed"] == [tid]
        profile = c.get("/api/players/Alice").json()
        assert [m["table"] for m in profile["matches"]] == [tid] and not profile["matches"][0]["rated"]
        assert post(c, "/api/account/claim", {"tables": [{"id": tid, "token": token}]}).json()["claimed"] == []


def test_the_operators_commands(sqlite_url: str, tmp_path, capsys) -> None:
    path = sqlite_url[len("sqlite:///") :]
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        c.cookies.clear()
        assert barbu(["users", "--db", path, "list"]) == 0
        assert "Alice" in capsys.readouterr().out
        assert barbu(["users", "--db", path, "reset-password", "ALICE", "--url", "http://cards.test"]) == 0
        link = [w for w in capsys.readouterr().out.split() if "#key=" in w][0]
        key = link.split("#key=")[1]
        assert link.startswith("http://cards.test/account/reset#key=")
        r = post(c, "/api/account/reset", {"key": key, "password": "a brand new one"})
        assert r.status_code == 200 and me(c)["name"] == "Alice"
        assert post(c, "/api/account/reset", {"key": key, "password": "once more please"}).status_code == 410
        assert barbu(["users", "--db", path, "ban", "alice"]) == 0
        assert me(c) is None  # logged out everywhere
        r = log_in(c, "Alice", "a brand new one")
        assert r.status_code == 403 and "closed" in r.json()["error"]
        assert barbu(["users", "--db", path, "ban", "alice", "--lift"]) == 0
        assert log_in(c, "Alice", "a brand new one").status_code == 200
        assert barbu(["users", "--db", path, "delete", "nobody", "--yes"]) == 2
        assert barbu(["users", "--db", path, "delete", "alice", "--yes"]) == 0
        assert me(c) is None
        capsys.readouterr()
        assert barbu(["users", "--db", path, "list"]) == 0
        assert "Alice" not in capsys.readouterr().out


def test_the_migration_keeps_every_table_of_an_older_database(db_url: str) -> None:
    """A database at the previous revision, with a table and its seats, upgrades without losing them."""
    from barbu.web.db.storage import make_engine, migrate

    engine = make_engine(db_url)
    migrate(engine, "0005")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO barbu_tables (id, rules, seed, status, created_at) "
            "VALUES ('old1', 'classic', 7, 'open', CURRENT_TIMESTAMP)"
        )
        conn.exec_driver_sql("INSERT INTO barbu_seats (table_id, seat, name, kind) VALUES ('old1', 0, 'Ann', 'human')")
    engine.dispose()
    store = Store(db_url)  # upgrades to the newest revision
    rec = store.load_table("old1")
    store.close()
    assert rec is not None and rec.seats[0].name == "Ann" and rec.seats[0].user_id is None and not rec.rated


def test_a_player_who_leaves_a_rated_match_is_placed_last(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        alice = c.cookies.get(COOKIE)
        made = post(c, "/api/tables", {"rules": SHORT, "rated": True}).json()
        tid = made["id"]
        token = post(c, f"/api/tables/{tid}/seats", {"seat": 0}).json()["token"]
        use_session(c, None)
        assert sign_up(c, "Bob", address=FRIEND).status_code == 201
        bob = c.cookies.get(COOKIE)
        assert post(c, f"/api/tables/{tid}/seats", {"seat": 1}, FRIEND).status_code == 200
        use_session(c, alice)
        assert (
            post(c, f"/api/tables/{tid}/bots", {"seat": 2, "strength": "random", "token": made["creator"]}).status_code
            == 200
        )
        table = c.app.state.lobby.tables[tid]
        use_session(c, None)
        assert sign_up(c, "Carol", address=STRANGER).status_code == 201  # a third account: not Bob
        r = post(c, f"/api/tables/{tid}/leave", {}, STRANGER)
        assert r.status_code == 403
        # Bob leaves from his own account (on a browser without the seat's credential)
        use_session(c, bob)
        r = post(c, f"/api/tables/{tid}/leave", {}, FRIEND)
        assert r.status_code == 200 and r.json()["outcome"] == "stand_in", r.text
        use_session(c, alice)
        p = Player(c, tid, token)
        play_out(p, table)
        p.close()
        stored_over(table)
        with c.app.state.lobby.store.engine.connect() as conn:
            rows = list(conn.execute(select(RESULTS).where(RESULTS.c.table_id == tid).order_by(RESULTS.c.seat)))
        assert rows[1].left and rows[1].place == 3 and rows[1].rated and rows[1].name == "Bob"
        assert c.get("/api/players/bob").json()["ratings"]["salad"]["matches"] == 1


def test_the_profile_counts_what_the_analysis_found_his_decisions_cost(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, analysis_samples=8, analysis_seconds=60.0, **FAST)
    with client(settings) as c:
        assert sign_up(c, "Alice").status_code == 201
        tid = finish_rated(c)
        stats = c.get("/api/players/alice").json()["stats"][0]
        assert stats["game"] == "salad" and stats["analysis"] is None  # nothing weighed yet
        deals = sum(k["declarer"]["deals"] + k["other"]["deals"] for k in stats["contracts"])
        assert deals == c.app.state.lobby.tables[tid].match.total_deals  # every deal, by contract
        assert all(k["name"] and k["name"] != k["contract"] for k in stats["contracts"])  # in words
        for _ in range(2400):
            r = c.post(f"/api/replays/{tid}/deals/1/analysis", headers={"origin": "http://testserver"})
            assert r.status_code == 200, r.text
            if r.json()["state"] == "done":
                break
            time.sleep(0.05)
        mine = [d for d in r.json()["decisions"] if d["seat"] == 0]
        for _ in range(100):
            analysis = c.get("/api/players/alice").json()["stats"][0]["analysis"]
            if analysis:
                break
            time.sleep(0.05)
        assert analysis["deals"] == 1 and analysis["decisions"] == len(mine)
        assert analysis["costly"] == sum(1 for d in mine if d["cost"] >= 0.5)
        assert analysis["months"][0]["decisions"] == len(mine)


def test_the_session_cookie_is_secure_over_https(sqlite_url: str) -> None:
    from starlette.testclient import TestClient

    from barbu.web import create_app

    with TestClient(create_app(Settings(db_url=sqlite_url, **FAST)), base_url="https://testserver") as c:
        r = c.post(
            "/api/account/signup",
            json={"name": "Alice", "password": PASSWORD},
            headers={"origin": "https://testserver"},
        )
        assert r.status_code == 201, r.text
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
        r = c.post("/api/account/logout", json={}, headers={"origin": "http://testserver"})  # the wrong scheme
        assert r.status_code == 403


def test_a_private_tables_match_shows_on_its_players_profile_to_himself_only(sqlite_url: str) -> None:
    with client(Settings(db_url=sqlite_url, **FAST)) as c:
        assert sign_up(c, "Alice").status_code == 201
        made = post(c, "/api/tables", {"rules": SHORT, "private": True}).json()
        tid = made["id"]
        token = post(c, f"/api/tables/{tid}/seats", {"seat": 0, "invite": made["invite"]}).json()["token"]
        for seat in (1, 2):
            assert (
                post(
                    c, f"/api/tables/{tid}/bots", {"seat": seat, "strength": "random", "token": made["creator"]}
                ).status_code
                == 200
            )
        table = c.app.state.lobby.tables[tid]
        p = Player(c, tid, token)
        play_out(p, table)
        p.close()
        stored_over(table)
        assert [m["table"] for m in c.get("/api/players/alice").json()["matches"]] == [tid]
        alice = c.cookies.get(COOKIE)
        use_session(c, None)
        others = c.get("/api/players/alice").json()
        assert others["matches"] == [] and tid not in str(others)
        assert others["stats"][0]["matches"] == 1  # the figures count it, without saying which table
        use_session(c, alice)
