"""The clock at every table (issue 29): a time per move and a bank; the stand-in plays when they run out.

The clock's rules are tested with the moment passed in (`barbu.web.tables.clock`); the table's use of
them in-process, with tiny clocks ("0.2+0.3": a fifth of a second per move) so that a player who
never moves costs the test half a second per decision.  Nothing here asserts how long anything took.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from wsclient import Player, app_client

from barbu.web import Settings
from barbu.web.common.errors import WebError
from barbu.web.tables.clock import AWAY_AFTER, CHOICES, DEFAULT, Clock, Turn, is_away, parse

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0, grace=1000.0)
TINY = "0.2+0.3"


# ---------------------------------------------------------------- the clock's rules
def test_named_choices_and_the_stored_form_read_back() -> None:
    assert parse("normal") == CHOICES["normal"] == parse(" Normal ")
    assert parse("quick").per_move < parse("normal").per_move < parse("relaxed").per_move
    for name, clock in CHOICES.items():
        assert parse(str(clock)) == clock, name
    assert str(Clock(0.2, 0.3)) == TINY and parse(TINY) == Clock(0.2, 0.3)
    assert parse("20+0") == Clock(20, 0)
    assert parse("none") is None and parse(None) is None and parse("off") is None
    assert DEFAULT in CHOICES
    assert Clock.stored(None) is None and Clock.stored("25+180") == Clock(25, 180)
    assert Clock.stored("garbage") is None  # an unreadable stored text is no clock, never a crash


@pytest.mark.parametrize(
    "bad",
    [
        12,
        1.5,
        True,
        [],
        {},
        "",
        "fast",
        "20",
        "20+",
        "+20",
        "-1+10",
        "0+10",
        "1e3+10",
        "nan+1",
        "inf+inf",
        "20+120+3",
        "601+0",
        "10+3601",
        "10+\ud800",
        "1" * 40,
    ],
)
def test_bad_clocks_are_refused_in_words(bad: Any) -> None:
    with pytest.raises(WebError) as e:
        parse(bad)
    assert "clock" in str(e.value)


def test_a_turn_spends_the_move_then_the_bank() -> None:
    t = Turn(seat=1, version=7, per_move=10, bank=30)
    assert not t.running() and t.left(100) == 40  # paused: time does not pass
    t.resume(100)
    assert t.move_left(104) == 6 and t.bank_left(104) == 30
    t.pause(104)
    assert t.left(1000) == 36  # a pause (a disconnection) costs nothing
    t.resume(1000)
    assert t.move_left(1006) == 0 and t.bank_left(1011) == 25
    assert not t.expired(1035.9) and t.expired(1036)
    assert t.public(1011) == {"seat": 1, "version": 7, "running": True, "move_left": 0.0, "bank_left": 25.0}


def test_away_after_timeouts_in_a_row() -> None:
    assert not is_away(0) and not is_away(AWAY_AFTER - 1) and is_away(AWAY_AFTER)


# ---------------------------------------------------------------- creating a table with a clock
@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        yield c


def seat_players(
    c: TestClient, rules: str, clock: str | None, humans: tuple[int, ...], bots: tuple[int, ...] = ()
) -> tuple[str, dict[int, str]]:
    body: dict[str, Any] = {"rules": rules}
    if clock is not None:
        body["clock"] = clock
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid, creator = r.json()["id"], r.json()["creator"]
    tokens = {}
    for s in humans:
        r = c.post(f"/api/tables/{tid}/seats", json={"seat": s, "name": f"Ann{s}" if s == 0 else f"Bob{s}"})
        assert r.status_code == 200, r.text
        tokens[s] = r.json()["token"]
    for s in bots:
        r = c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "rule", "token": creator})
        assert r.status_code == 200, r.text
    return tid, tokens


def test_tables_with_people_get_a_clock_by_default_and_may_choose(client: TestClient) -> None:
    r = client.post("/api/tables", json={"rules": "classic"})
    clock = r.json()["table"]["clock"]
    assert clock["text"] == str(CHOICES[DEFAULT]) and clock["turn"] is None
    assert clock["banks"] == [None] * 4  # nobody seated yet
    r = client.post("/api/tables", json={"rules": "besigue", "clock": "quick"})
    assert r.json()["table"]["clock"]["text"] == str(CHOICES["quick"])
    r = client.post("/api/tables", json={"rules": "classic", "clock": "15+90"})
    assert r.json()["table"]["clock"]["per_move"] == 15
    tid = r.json()["id"]
    assert client.app.state.lobby.store.load_table(tid).clock == "15+90"
    for none in ("none", None):
        r = client.post("/api/tables", json={"rules": "classic", "clock": none})
        assert r.status_code == 201 and r.json()["table"]["clock"] is None


def test_play_against_the_computer_has_no_clock(client: TestClient) -> None:
    r = client.post("/api/play", json={"rules": "besigue", "name": "Ann"})
    assert r.status_code == 201 and r.json()["table"]["clock"] is None


@pytest.mark.parametrize("bad", ["fast", "0+10", "10+99999", 30, ["normal"], "1e9+1"])
def test_a_bad_clock_is_refused_in_the_readers_language_and_creates_nothing(client: TestClient, bad: Any) -> None:
    before = len(client.app.state.lobby.tables)
    r = client.post("/api/tables", json={"rules": "classic", "clock": bad}, headers={"accept-language": "fr"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert "horloge" in error or "pendule" in error, error
    r = client.post("/api/tables", json={"rules": "classic", "clock": bad}, headers={"accept-language": "it"})
    assert r.status_code == 400 and "orologio" in r.json()["error"]
    assert len(client.app.state.lobby.tables) == before


# ---------------------------------------------------------------- at the table
def wait_for(p: Player, pred, answer: Player | None = None) -> dict[str, Any]:
    """Read ``p``'s messages until one satisfies ``pred``; ``answer`` plays its own turns meanwhile."""
    while True:
        if answer is not None:
            play_if_my_turn(answer)
        m = p.recv()
        if pred(m):
            return m


def play_if_my_turn(p: Player) -> None:
    st = p.state
    if st and st.get("to_act") == p.seat and st.get("legal") and getattr(p, "sent_for", None) != st["version"]:
        p.sent_for = st["version"]
        p.send({"type": "act", "action": st["legal"][0], "version": st["version"]})


def wait_turn(p: Player, other: Player, after: int = -1) -> None:
    """Until it is ``p``'s turn after version ``after`` (``other`` playing his own meanwhile), ``p`` holding its state."""
    other.barrier()  # ``other`` holds the state as it was sent so far
    while other.state["to_act"] != p.seat or other.state["version"] <= after:
        wait_for(other, lambda m: "state" in m, answer=other)
    version = other.state["version"]
    while not (p.state and p.state["version"] == version):
        p.recv()


@pytest.mark.parametrize("rules", ["besigue(target=100)", "classic(rotation=quick)"])
def test_a_connected_player_who_never_moves_the_clock_plays_for_him_and_the_table_finishes(
    client: TestClient, rules: str
) -> None:
    players = 2 if rules.startswith("besigue") else 4
    tid, tokens = seat_players(client, rules, TINY, humans=(0,), bots=tuple(range(1, players)))
    ann = Player(client, tid, tokens[0])  # connected, and never moves
    notices = []
    while True:
        m = ann.recv()
        if m["type"] == "notice":
            notices.append(m)
        if m["type"] == "table" and m["table"]["status"] == "over":
            break
    assert [n["code"] for n in notices] == ["clock_out", "clock_away"]  # then the stand-in plays at once
    assert notices[0]["message"] == "Your time ran out: the computer plays this move for you."
    table = client.app.state.lobby.tables[tid]
    assert table.match.is_over
    assert table.actors.count(0) > 2  # every decision of seat 0 was played for him


def test_timeouts_in_a_row_make_a_seat_away_and_acting_brings_it_back(sqlite_url: str) -> None:
    # The computer players wait long before a move here: a seat away by the clock has time to act.
    with app_client(Settings(db_url=sqlite_url, **{**FAST, "bot_delay": 30.0})) as c:
        tid, tokens = seat_players(c, "besigue", TINY, humans=(0, 1))
        ann = Player(c, tid, tokens[0])
        bob = Player(c, tid, tokens[1], headers={"origin": "http://testserver", "accept-language": "fr"})
        first = wait_for(bob, lambda m: m["type"] == "notice", answer=bob)
        assert first["code"] == "clock_out" and first["seat"] == 0
        assert first["message"] == "Temps écoulé\u00a0: l'ordinateur joue pour Ann0."
        away = wait_for(bob, lambda m: m["type"] == "notice", answer=bob)
        assert away["code"] == "clock_away"
        timed_out = bob.state["version"]  # the stand-in is playing this decision for her now
        clock = wait_for(bob, lambda m: m["type"] == "clock")["clock"]
        assert clock["away"] == [0] and clock["banks"][0] == 0
        table = c.app.state.lobby.tables[tid]
        assert table.seats[0].timeouts == AWAY_AFTER
        # Ann's next turn: the stand-in would play it after the computers' delay; she acts first.
        wait_turn(ann, bob, after=timed_out)
        answer = ann.act(ann.state["legal"][0])
        assert answer["type"] == "ack", (answer, ann.state)
        back = wait_for(bob, lambda m: m["type"] == "clock" and not m["clock"]["away"], answer=bob)
        assert back["clock"]["away"] == []
        assert table.seats[0].timeouts == 0
        assert c.app.state.lobby.store.load_table(tid).seats[0].timeouts == 0  # stored: she is back


def test_saying_back_stops_the_stand_in(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **{**FAST, "bot_delay": 30.0})) as c:
        tid, tokens = seat_players(c, "besigue", TINY, humans=(0, 1))
        ann = Player(c, tid, tokens[0])
        bob = Player(c, tid, tokens[1])
        for _ in range(AWAY_AFTER):
            wait_for(ann, lambda m: m["type"] == "notice", answer=bob)
        ann.send({"type": "back"})
        # Every clock message since she went away names her away; the answer to "back" does not.
        m = wait_for(ann, lambda m: m["type"] == "clock")
        while m["clock"]["away"] == [0]:
            m = wait_for(ann, lambda m: m["type"] == "clock")
        assert m["clock"]["away"] == []


def test_a_disconnected_players_time_stands_still(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        tid, tokens = seat_players(c, "besigue", "2+2", humans=(0, 1))
        ann = Player(c, tid, tokens[0])
        bob = Player(c, tid, tokens[1])
        wait_turn(ann, bob)
        version = ann.state["version"]
        ann.ws.close()
        ann.close()
        paused = wait_for(
            bob, lambda m: m["type"] == "clock" and m["clock"]["turn"] and not m["clock"]["turn"]["running"]
        )
        assert paused["clock"]["turn"]["seat"] == 0
        table = c.app.state.lobby.tables[tid]
        spent = table.turn.elapsed(time.monotonic())
        time.sleep(1.0)  # her grace period: her time does not pass
        assert table.turn.elapsed(time.monotonic()) == spent and not table.turn.running()
        assert bob.barrier() == version and table.seats[0].timeouts == 0
        again = Player(c, tid, tokens[0])  # back: her clock runs again from where it stood
        assert wait_for(again, lambda m: m["type"] == "notice")["code"] == "clock_out"


def test_the_clock_survives_a_restart(sqlite_url: str) -> None:
    settings = Settings(db_url=sqlite_url, **{**FAST, "bot_delay": 30.0})
    with app_client(settings) as c:
        tid, tokens = seat_players(c, "besigue", "0.2+60", humans=(0, 1))
        ann = Player(c, tid, tokens[0])
        bob = Player(c, tid, tokens[1])
        wait_turn(ann, bob)
        time.sleep(0.5)  # beyond her 0.2 s: the bank pays the rest
        assert ann.act(ann.state["legal"][0])["type"] == "ack"
        table = c.app.state.lobby.tables[tid]
        bank = table.seats[0].bank
        assert bank is not None and bank < 60
        table.seats[1].timeouts = 1  # as if Bob's time had run out once
        c.portal.call(table.call, table.timing.store, table.seats[1])
    with app_client(settings) as c:
        table = c.app.state.lobby.tables[tid]
        assert table.seats[0].bank == bank and table.seats[1].timeouts == 1
        bob = Player(c, tid, tokens[1])
        assert bob.first["table"]["clock"]["banks"][0] == round(bank, 1)


def test_the_lobby_offers_the_servers_clocks() -> None:
    """The lobby's form names the same choices, with the same seconds, as the server's clock."""
    import re
    from pathlib import Path

    import barbu.web as web

    static = Path(web.__file__).with_name("static") / "js" / "lobby.js"
    found = re.search(r"const CLOCKS = \{(.*?)\};", static.read_text()).group(1)
    offered = {name: Clock(float(a), float(b)) for name, a, b in re.findall(r"(\w+): \[(\d+), (\d+)\]", found)}
    assert offered == CHOICES
    page = (Path(web.__file__).with_name("templates") / "index.html").read_text()
    assert set(re.findall(r'<option value="(\w+)"', page.split('id="clock"')[1].split("</select>")[0])) == {
        *CHOICES,
        "none",
    }


def test_back_from_a_spectator_is_refused_in_words(client: TestClient) -> None:
    tid, _ = seat_players(client, "besigue", TINY, humans=(0,))
    watcher = Player(client, tid)
    watcher.send({"type": "back"})
    m = watcher.until(lambda m: m["type"] == "error")
    assert m["message"] == "you have no seat here"
