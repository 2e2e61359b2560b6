"""The short match on the server: "short" in the lobby's two ways to start a match, refused when it is not a
flag, and a rated short match moving the ratings by its share of a full one."""

from __future__ import annotations

from typing import Any

import pytest
from wsclient import Player, app_client

from barbu.web import Settings

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)


def test_play_and_new_table_start_a_short_match_of_each_game(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = c.post("/api/play", json={"rules": "classic", "name": "Ann", "short": True, "strength": "random"})
        assert r.status_code == 201, r.text
        table = r.json()["table"]
        assert table["rules"] == "classic(double_obligation=1, contracts_each=2)" and table["total_deals"] == 8
        p = Player(c, r.json()["id"], r.json()["token"])
        state = p.state
        if state is None or state["declarer"] < 0:
            state = p.until(lambda m: m.get("state") is not None and m["state"]["declarer"] >= 0)["state"]
        chosen = state["contract"] is not None and state["deal_number"] == 1  # a computer may have chosen already
        assert state["deal_number"] == 1 or state["contract"] is None
        assert state["series_left"] == 2 - chosen and len(state["contracts_left"]) == 7 - chosen  # two, from seven
        r = c.post("/api/play", json={"rules": "besigue", "name": "Ann", "short": True, "strength": "random"})
        assert r.status_code == 201 and r.json()["table"]["rules"] == "besigue(target=500)"
        r = c.post("/api/tables", json={"rules": "salad", "players": 5, "short": True})
        assert r.status_code == 201 and r.json()["table"]["rules"] == "salad(players=5, contracts_each=2)"
        r = c.post("/api/tables", json={"rules": "scottish", "short": True})  # one Set is its shortest match
        assert r.status_code == 201 and r.json()["table"]["rules"] == "scottish"
        r = c.post("/api/play", json={"rules": "classic", "name": "Ann"})
        assert r.json()["table"]["rules"] == "classic"  # full unless asked


@pytest.mark.parametrize("bad", ["yes", 1, None, [True]])
def test_a_short_that_is_not_a_flag_is_refused_in_words(sqlite_url: str, bad: Any) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = c.post("/api/play", json={"rules": "classic", "name": "Ann", "short": bad})
        assert r.status_code == 400 and r.json()["code"] == "short-flag"
        assert r.json()["error"] == '"short" is true or false'


def test_a_rated_short_match_moves_ratings_by_its_share(tmp_path: Any) -> None:
    from sqlalchemy import select

    from barbu.games import short_rules
    from barbu.web.accounts.store import RATINGS, add_user, subject_of
    from barbu.web.db.storage import Store
    from barbu.web.profiles.history import Finished, SeatResult, record

    store = Store(f"sqlite:///{tmp_path / 'web.db'}", True)
    with store.engine.begin() as conn:
        users = [add_user(conn, n, n.lower(), n.lower(), "-") for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")]

    def winner_mu(table: str, rules: str, uids: list[int]) -> float:
        people = [SeatResult("human", str(u), None, u, False, f"home-{u}") for u in uids]
        with store.engine.begin() as conn:
            assert record(conn, Finished(table, rules, "salad", [30, 20, 10], True, people, True))
        with store.engine.connect() as conn:
            q = select(RATINGS.c.mu).where(RATINGS.c.subject == subject_of(uids[0]), RATINGS.c.game == "salad")
            return float(conn.execute(q).scalar_one())

    full = winner_mu("full", "salad(players=3)", users[:3]) - 25.0
    short = winner_mu("short", short_rules("salad(players=3)"), users[3:]) - 25.0
    assert full > 0 and short == pytest.approx(full * 2 / 6)  # Salad: two contracts of six
