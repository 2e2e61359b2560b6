"""Table limits that hold (issue 29): checked and counted atomically, per address before they are global,
with a share kept for "Play against the computer"; per-hour counts kept in the database across restarts."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

from sqlalchemy import select
from test_web_private import client, post

from barbu.classic.ruleset import Ruleset
from barbu.web import Settings
from barbu.web.common.errors import WebError
from barbu.web.db.creations import KEPT_GAME, TABLE
from barbu.web.db.storage import CREATIONS, Store
from barbu.web.tables.lobby import Lobby

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
CLASSIC = Ruleset.parse("classic")


async def _burst(lobby: Lobby, addresses: list[str], reserved: bool = False) -> list[object]:
    return await asyncio.gather(
        *(lobby.create(CLASSIC, address=a, reserved=reserved) for a in addresses), return_exceptions=True
    )


def test_concurrent_creations_never_pass_the_limits(sqlite_url: str) -> None:
    """Many creations at once, each awaiting its write: the limits count the ones not yet written."""

    async def run() -> None:
        lobby = Lobby(
            Settings(
                db_url=sqlite_url,
                max_tables=40,
                play_reserve=0.25,
                open_tables_per_address=3,
                tables_per_hour=0,
                **FAST,
            )
        )
        await lobby.start()
        try:
            # 200 addresses at once: the lobby's share (30 of 40) and not one more.
            made = await _burst(lobby, [f"10.0.{i // 250}.{i % 250}" for i in range(200)])
            ok = [m for m in made if not isinstance(m, BaseException)]
            refused = [m for m in made if isinstance(m, WebError)]
            assert len(ok) == 30 and len(refused) == 170
            assert all(e.status == 503 and "or play against the computer" in str(e) for e in refused)
            # "Play against the computer" still finds room, up to the server's whole limit.
            made = await _burst(lobby, [f"10.1.0.{i}" for i in range(30)], reserved=True)
            assert sum(not isinstance(m, BaseException) for m in made) == 10
            assert all(
                e.status == 503 and "as many tables as it can hold" in str(e) for e in made if isinstance(e, WebError)
            )
            assert sum(t.status != "over" for t in lobby.tables.values()) == 40
        finally:
            await lobby.close()

    asyncio.run(run())


def test_one_address_holds_a_few_unfinished_tables_before_the_server_is_full(sqlite_url: str) -> None:
    async def run() -> None:
        lobby = Lobby(Settings(db_url=sqlite_url, max_tables=100, open_tables_per_address=3, tables_per_hour=0, **FAST))
        await lobby.start()
        try:
            made = await _burst(lobby, ["192.0.2.1"] * 20)
            assert sum(not isinstance(m, BaseException) for m in made) == 3
            refusal = next(m for m in made if isinstance(m, WebError))
            assert refusal.status == 429 and "3 unfinished tables" in str(refusal)
            made = await _burst(lobby, ["192.0.2.1"], reserved=True)  # the per-address cap counts both kinds
            assert isinstance(made[0], WebError) and made[0].status == 429
            assert not isinstance((await _burst(lobby, ["192.0.2.2"]))[0], BaseException)  # another address
            # A finished table does not count any more.
            next(t for t in lobby.tables.values() if t.creator_address == "192.0.2.1").status = "over"
            assert not isinstance((await _burst(lobby, ["192.0.2.1"]))[0], BaseException)
        finally:
            await lobby.close()

    asyncio.run(run())


def test_play_against_the_computer_works_when_the_lobby_is_full(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, max_tables=5, play_reserve=0.2, tables_per_hour=0, **FAST)
    with client(settings) as c:
        for i in range(4):
            assert post(c, "/api/tables", {"rules": "classic"}, f"198.51.100.{i}").status_code == 201
        r = post(c, "/api/tables", {"rules": "classic"}, "198.51.100.9")
        assert r.status_code == 503 and "play against the computer" in r.json()["error"]
        fr = c.post(
            "/api/tables",
            json={"rules": "classic"},
            headers={"x-test-address": "198.51.100.9", "accept-language": "fr"},
        )
        assert fr.status_code == 503 and "contre l'ordinateur" in fr.json()["error"]
        r = post(c, "/api/play", {"rules": "classic", "name": "Newcomer"}, "198.51.100.9")
        assert r.status_code == 201, r.text
        r = post(c, "/api/play", {"rules": "classic", "name": "Late"}, "198.51.100.10")
        assert r.status_code == 503 and "as many tables as it can hold" in r.json()["error"]


def test_per_hour_counts_survive_a_restart(db_url: str) -> None:
    settings = Settings(db_url=db_url, tables_per_hour=2, kept_games_per_hour=1, **FAST)
    game = {"rules": "classic", "names": ["Ann", "Bob", "Cat", "Dan"], "first": 0}
    with client(settings) as c:
        for _ in range(2):
            assert post(c, "/api/tables", {"rules": "classic"}, "203.0.113.5").status_code == 201
        assert post(c, "/api/score", game, "203.0.113.5").status_code == 201
    with client(settings) as c:  # a new process on the same database
        r = post(c, "/api/tables", {"rules": "classic"}, "203.0.113.5")
        assert r.status_code == 429 and "2 tables this hour" in r.json()["error"]
        r = post(c, "/api/play", {"rules": "classic", "name": "Ann"}, "203.0.113.5")
        assert r.status_code == 429
        r = post(c, "/api/score", game, "203.0.113.5")
        assert r.status_code == 429 and "1 games this hour" in r.json()["error"]
        assert post(c, "/api/tables", {"rules": "classic"}, "203.0.113.6").status_code == 201  # another address
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(select(CREATIONS)).all()
        kinds = sorted(r.kind for r in rows)
        assert kinds == sorted(["key", KEPT_GAME, TABLE, TABLE, TABLE])
        assert all("203.0.113" not in r.address_hash and len(r.address_hash) == 64 for r in rows)
        key = store.creations_key()
        assert key == store.creations_key() and len(key) == 32  # made once, kept
        # An hour later the rows are swept, the key stays.
        old = datetime.now(timezone.utc) - timedelta(hours=2)
        with store.engine.begin() as conn:
            Store.add_creation(conn, "0" * 64, TABLE, old)
        assert len(store.creations_since(old - timedelta(minutes=1))) == 5
        with store.engine.begin() as conn:
            Store.sweep_creations(conn, datetime.now(timezone.utc) - timedelta(hours=1))
        assert len(store.creations_since(old - timedelta(minutes=1))) == 4
        assert store.creations_key() == key
    finally:
        store.close()
