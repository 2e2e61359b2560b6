"""Computer players' seeds: drawn from a key of their own (never from the table's seed or the deals' key),
kept server-side while the match is played, published with the record when it is over, so that anyone can
replay every computer player's decisions exactly."""

from __future__ import annotations

import hashlib
import hmac
import io

from test_web_replay import FAST, finished_table
from wsclient import app_client

from barbu.agents import make_agent
from barbu.core.game import CHANCE
from barbu.games import open_game
from barbu.records.barbu import read_record
from barbu.web import Settings


def published_seed(secret: bytes, seat: int, version: int) -> int:
    """What the record's header says a computer player's seed is: HMAC-SHA256(key, seat ‖ version), 8 bytes."""
    msg = seat.to_bytes(2, "big") + version.to_bytes(8, "big")
    return int.from_bytes(hmac.new(secret, msg, hashlib.sha256).digest()[:8], "big")


def test_the_computer_players_key_is_published_with_the_record_and_replays_their_moves(sqlite_url: str) -> None:
    with app_client(Settings(db_url=sqlite_url, **FAST)) as c:
        r = c.post("/api/tables", json={"rules": "classic(rotation=quick)"})
        tid = r.json()["id"]
        assert c.get(f"/api/tables/{tid}/record").status_code == 409  # nothing while it is played
        assert "secret" not in r.text and "seed" not in r.text
        tid = finished_table(c, "salad(players=3)")
        text = c.get(f"/api/tables/{tid}/record").text
    record = read_record(io.StringIO(text))
    key = record.header["computer_players"]
    assert key["method"] == "hmac-sha256" and len(key["secret"]) == 64
    assert key["secret"] != record.header["chance"]["secret"]  # independent of the deals' key
    secret = bytes.fromhex(key["secret"])
    # Every computer player's decision, replayed from the published key, is the one it made.
    game = open_game(str(record.rules), record.seed)
    agents: dict[int, object] = {}
    checked = 0
    for _, action_text in record.actions:
        actor = game.to_act()
        action = game.parse_action(action_text)
        if actor != CHANCE:
            if actor not in agents:  # made at its first decision, then kept for the match
                agents[actor] = make_agent("random", published_seed(secret, actor, len(game.history)))
            assert agents[actor].act(game.view(actor)) == action
            checked += 1
        game.apply(action)
    assert checked > 100 and game.is_over
