"""The replay of a finished match (``/t/{id}/replay``, ``/replay``): its data, its refusals, its analysis.

In-process through Starlette's TestClient, SQLite storage, computer players at full speed.
"""

from __future__ import annotations

import io
import json
import time

import pytest
from wsclient import ORIGIN, app_client

from barbu.analysis import review_match
from barbu.records.barbu import read_record
from barbu.web import Settings
from barbu.web.replay.service import Analyses, Job, Source, decision_json

FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=10_000, rate=10_000.0)
RULES = "salad(players=3)"
SAMPLES = 8


def settings(url: str, **extra) -> Settings:
    return Settings(db_url=url, analysis_samples=SAMPLES, analysis_seconds=60.0, **FAST, **extra)


def finished_table(c, rules: str = RULES) -> str:
    r = c.post("/api/tables", json={"rules": rules})
    assert r.status_code == 201, r.text
    tid, creator = r.json()["id"], r.json()["creator"]
    for s in range(r.json()["table"]["players"]):
        assert (
            c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "random", "token": creator}).status_code
            == 200
        )
    for _ in range(1200):
        if c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over":
            return tid
        time.sleep(0.05)
    pytest.fail("the computer table did not finish")


def analysis(c, rid: str, deal: int) -> dict:
    """Ask for a deal's analysis until it is done (the page polls the same way)."""
    seen = set()
    for _ in range(2400):
        r = c.post(f"/api/replays/{rid}/deals/{deal}/analysis", headers=ORIGIN)
        assert r.status_code == 200, r.text
        body = r.json()
        seen.add(body["state"])
        if body["state"] == "done":
            return body
        assert body["state"] in ("queued", "running") and body["deal"] == deal
        time.sleep(0.05)
    pytest.fail(f"deal {deal} was never weighed (states seen: {seen})")


def test_a_finished_tables_replay_shows_every_hand_move_by_move(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        tid = finished_table(c)
        assert c.get(f"/t/{tid}/replay").status_code == 200
        record = read_record(io.StringIO(c.get(f"/api/tables/{tid}/record").text))
        o = c.get(f"/api/replays/{tid}").json()
        assert o["players"] == 3 and o["over"] and o["table"] == tid
        assert len(o["deals"]) == o["total_deals"] == len(record.stated)
        assert [d["scores"] for d in o["deals"]] == [line["scores"] for _, line in record.stated]
        assert o["totals"] == record.result["totals"]
        deal = c.get(f"/api/replays/{tid}/deals/2").json()
        frames = deal["frames"]
        assert deal["deals"] == len(o["deals"])
        first = frames[0]
        assert first["step"] == 0 and first["seat"] is None
        dealt = [c for h in first["hands"] for c in h]
        assert all(first["hands"]) and len(dealt) == len(set(dealt))
        # every later frame is one move: a card played leaves its player's hand and lands in the trick
        for before, after in zip(frames, frames[1:]):
            assert after["step"] == before["step"] + 1
            if after["action"] in before["hands"][after["seat"]]:
                assert after["action"] not in after["hands"][after["seat"]]
                assert after["action"] in after["trick"]["cards"]
        played = [f["action"] for f in frames[1:] if f["action"] in frames[0]["hands"][f["seat"]]]
        assert sorted(played) == sorted(
            c
            for h in frames[0]["hands"]
            for c in h
            if c not in frames[-1]["hands"][0] + frames[-1]["hands"][1] + frames[-1]["hands"][2]
        )
        assert frames[-1]["state"]["totals"] == o["deals"][1]["totals"]
        assert c.get(f"/api/replays/{tid}/deals/{len(o['deals']) + 1}").status_code == 404
        bad = c.get(f"/api/replays/{tid}/deals/two")
        assert bad.status_code == 400 and "number" in bad.json()["error"]


def test_an_unfinished_tables_replay_is_refused_and_sends_no_hand(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        r = c.post("/api/tables", json={"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        c.post(f"/api/tables/{tid}/seats", json={"seat": 0, "name": "Ann"})
        for s in (1, 2, 3):
            c.post(f"/api/tables/{tid}/bots", json={"seat": s, "strength": "random", "token": creator})
        for url, method in (
            (f"/api/replays/{tid}", "GET"),
            (f"/api/replays/{tid}/deals/1", "GET"),
            (f"/api/replays/{tid}/deals/1/analysis", "POST"),
        ):
            r = c.request(method, url, headers=ORIGIN)
            assert r.status_code == 409, (url, r.text)
            assert "when the match is over" in r.json()["error"] and "hands" not in r.text
        fr = c.get(f"/api/replays/{tid}", headers={"accept-language": "fr"}).json()["error"]
        assert "partie" in fr or "match" in fr
        assert c.get("/api/replays/nosuchtable").status_code == 404
        assert c.get("/api/replays/u" + "0" * 24).status_code == 404  # an upload never made


# Every deal played to its last card: the search player's rollout of a move that ends a deal early plays the
# next deal, dealt from an unseeded generator, so its values would differ from one run to the next.
PLAYED_OUT = "salad(players=3, stop_when_decided=false)"


def test_the_analysis_of_a_deal_is_the_reviews_and_is_kept(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        tid = finished_table(c, PLAYED_OUT)
        done = analysis(c, tid, 1)
        record = read_record(io.StringIO(c.get(f"/api/tables/{tid}/record").text))
        review = review_match(
            str(record.rules), record.seed, [t for _, t in record.actions], deals={1}, samples=SAMPLES, seconds=60.0
        )
        assert done["decisions"] == [decision_json(d) for d in review.decisions]
        assert done["decisions"], "no decision was weighed"
        assert done["totals"] == [round(review.total_cost(s), 2) for s in range(3)]
        for s, steps in enumerate(done["costliest"]):
            assert steps == [d.step for d in review.costliest(s, 3) if d.cost]
        again = c.post(f"/api/replays/{tid}/deals/1/analysis", headers=ORIGIN)
        assert again.json() == done  # kept: answered at once
        foreign = c.post(f"/api/replays/{tid}/deals/1/analysis", headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403


def test_a_record_file_uploaded_is_replayed_like_a_table(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        tid = finished_table(c)
        text = c.get(f"/api/tables/{tid}/record").text
        r = c.post("/api/replays", json={"record": text}, headers=ORIGIN)
        assert r.status_code == 201, r.text
        rid = r.json()["id"]
        assert r.json()["url"] == f"/replay/{rid}" and c.get(f"/replay/{rid}").status_code == 200
        mine, table = c.get(f"/api/replays/{rid}").json(), c.get(f"/api/replays/{tid}").json()
        assert mine["deals"] == table["deals"] and mine["table"] is None
        assert c.get(f"/api/replays/{rid}/deals/1").json() == c.get(f"/api/replays/{tid}/deals/1").json()
        for body, words in (
            ({"record": "not a record"}, "not a barbu record"),
            ({"record": ""}, "choose a record"),
            ({"record": text.splitlines()[0]}, "no finished deal"),
        ):
            r = c.post("/api/replays", json=body, headers=ORIGIN)
            assert r.status_code == 400 and words in r.json()["error"], r.text
        assert c.get("/replay").status_code == 200


def test_the_analysis_runs_one_deal_per_match_and_refuses_beyond_its_queue(sqlite_url: str) -> None:
    src = Source("t1", RULES, 1, (), ("", "", ""))
    other = Source("t2", RULES, 1, (), ("", "", ""))
    busy = Analyses(SAMPLES, 1.0, queue=2)
    busy.jobs["t1"] = Job(1)
    assert busy.request(src, 1)["state"] == "queued"  # the same deal: its progress
    with pytest.raises(Exception, match="being weighed"):
        busy.request(src, 2)
    busy.jobs["t3"] = Job(1)
    with pytest.raises(Exception, match="other matches"):
        busy.request(other, 1)
    with app_client(settings(sqlite_url, analysis_queue=0)) as c:
        tid = finished_table(c)
        r = c.post(f"/api/replays/{tid}/deals/1/analysis", headers=ORIGIN)
        assert r.status_code == 503 and "try again" in r.json()["error"]


def test_a_bad_table_replay_page_is_not_found(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        assert c.get("/t/nosuchtable/replay").status_code == 404


def test_a_besigue_match_is_replayed_with_both_hands_and_no_analysis(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url)) as c:
        tid = finished_table(c, "besigue")
        o = c.get(f"/api/replays/{tid}").json()
        assert o["game"] == "besigue" and o["players"] == 2 and o["over"]
        record = c.get(f"/api/tables/{tid}/record").text
        stated = [json.loads(line) for line in record.splitlines() if json.loads(line)["type"] == "deal"]
        assert [d["scores"] for d in o["deals"]] == [d["scores"] for d in stated]
        frames = c.get(f"/api/replays/{tid}/deals/1").json()["frames"]
        assert frames[0]["step"] == 0 and len(frames[0]["hands"][0]) == len(frames[0]["hands"][1]) > 0
        for before, after in zip(frames, frames[1:]):
            assert after["step"] == before["step"] + 1
            if after["action"].startswith("play ") and not after["action"].endswith("*"):
                card = after["action"].split()[1]
                assert card in after["trick"]["cards"]
                assert (
                    before["hands"][after["seat"]].count(card) == after["hands"][after["seat"]].count(card) + 1
                    or after["state"]["stock"] < before["state"]["stock"]
                )  # a card drawn after the trick
        assert frames[-1]["state"]["totals"] == o["deals"][0]["totals"]
        r = c.post(f"/api/replays/{tid}/deals/1/analysis", headers=ORIGIN)
        assert r.status_code == 409 and "for the Barbu games" in r.json()["error"]
        up = c.post("/api/replays", json={"record": record}, headers=ORIGIN)
        assert up.status_code == 201, up.text
        assert c.get(f"/api/replays/{up.json()['id']}").json()["deals"] == o["deals"]


def test_bad_replay_requests_get_words_and_change_nothing(sqlite_url: str) -> None:
    with app_client(settings(sqlite_url, max_import=4096)) as c:
        tid = finished_table(c)
        record = c.get(f"/api/tables/{tid}/record").text
        lines = record.splitlines()
        illegal = "\n".join(lines[:3] + ['{"type": "action", "actor": 0, "action": "ZZ"}'])
        cases = [
            (b"not json", "application/json", 400),
            (b"[1, 2]", "application/json", 400),
            (b'{"record": 5}', "application/json", 400),
            (b'{"record": "x"}', "text/plain", 415),
            (json.dumps({"record": "x" * 5000}).encode(), "application/json", 413),
            (json.dumps({"record": illegal}).encode(), "application/json", 400),
        ]
        for body, kind, status in cases:
            r = c.post("/api/replays", content=body, headers={**ORIGIN, "content-type": kind})
            assert r.status_code == status, (body[:40], r.text)
            assert r.json()["error"], r.text
        r = c.post("/api/replays", json={"record": record[:4000]}, headers={"origin": "https://evil.example"})
        assert r.status_code == 403
        for path, status in (
            (f"/api/replays/{tid}/deals/0", 404),
            (f"/api/replays/{tid}/deals/-1", 400),
            (f"/api/replays/{tid}/deals/99999", 400),
            (f"/api/replays/{tid}/deals/1e3", 400),
            ("/api/replays/" + "a" * 500, 404),
            (f"/api/replays/{tid}/deals/4000", 404),
        ):
            r = c.get(path)
            assert r.status_code == status and r.json()["error"], (path, r.text)
        analyses = c.app.state.analyses
        assert not analyses.uploads and not analyses.jobs  # nothing kept, nothing started


def test_a_record_saved_by_barbu_play_keeps_its_players_names(sqlite_url: str) -> None:
    """The header `barbu play` writes (`tui.session`): the replay names the seats as the game did."""
    import random

    from barbu.agents import make_agent
    from barbu.classic.match import CHANCE, Match
    from barbu.records.barbu import record_lines
    from barbu.web.tables.actor import dumps

    m = Match("classic(rotation=quick)", 4)
    bots = [make_agent("random", s) for s in range(4)]
    rng = random.Random(4)
    while len(m.results) < 2:
        actor = m.to_act()
        m.apply(m.sample_chance(rng) if actor == CHANCE else bots[actor].act(m.view(actor)))
    names = ["Ann", "rule 1", "rule 2", "search 3"]
    text = "".join(dumps(line) + "\n" for line in record_lines(m, {"players_names": names, "tui": {"seat": 0}}))
    with app_client(settings(sqlite_url)) as c:
        r = c.post("/api/replays", json={"record": text}, headers=ORIGIN)
        assert r.status_code == 201, r.text
        o = c.get(f"/api/replays/{r.json()['id']}").json()
        assert o["names"] == names and len(o["deals"]) == 2 and not o["over"]
        assert c.get(f"/api/replays/{r.json()['id']}/deals/2").status_code == 200


def test_a_stopping_server_ends_the_analysis_under_way() -> None:
    import random

    from barbu.agents import make_agent
    from barbu.classic.match import CHANCE, Match
    from barbu.web.replay.service import Stopped

    m = Match(PLAYED_OUT, 2)
    bots = [make_agent("random", s) for s in range(3)]
    rng = random.Random(2)
    while not m.results:
        actor = m.to_act()
        m.apply(m.sample_chance(rng) if actor == CHANCE else bots[actor].act(m.view(actor)))
    src = Source("t", PLAYED_OUT, 2, tuple(str(a) for a in m.history), ("", "", ""))
    analyses = Analyses(SAMPLES, 60.0)
    job = Job(1)
    analyses.close()
    with pytest.raises(Stopped):
        analyses._review(src, job)
    assert job.step == 0  # stopped before weighing anything
