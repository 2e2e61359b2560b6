"""The puzzles on the server (`barbu.web.puzzles`, `barbu.web.routes.puzzles`): what is sent before and after an
answer, the refusals, the ratings of accounts and guests, the day's puzzle, the streak, the profile, and the store
on SQLite and PostgreSQL.

The puzzles are real ones: the sample library's open puzzles and "single" ones found by the engine's finder
(`barbu.puzzles.find`) in the same deals, written to a file the server is given (``puzzles_file``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import pytest
from test_web_accounts import FAST, PASSWORD, finish_rated, log_in, sign_up
from test_web_private import client, post

from barbu.puzzles import find, library
from barbu.puzzles.model import OPEN, SINGLE, Puzzle
from barbu.web import Settings
from barbu.web.db.storage import make_engine, migrate
from barbu.web.puzzles import store as S
from barbu.web.puzzles.service import Puzzles, row_of

CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


def some_puzzles() -> list[Puzzle]:
    """A few of the library's classic open puzzles, and two single ones the finder proves in one of their deals."""
    opened = [p for p in library.load() if p.kind == OPEN]
    singles: list[Puzzle] = []
    for p in opened[:6]:
        singles += [q for q in find.find(p.rules, list(p.actions), "test", kinds=(SINGLE,), samples=40)]
        if len(singles) >= 2:
            break
    assert singles, "the finder found no single puzzle in the library's first deals"
    return opened[:12] + singles[:2]


@pytest.fixture(scope="module")
def puzzles_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Puzzle]]:
    found = some_puzzles()
    path = tmp_path_factory.mktemp("puzzles") / "puzzles.jsonl"
    library.write(path, found)
    return path, found


@pytest.fixture(scope="module")
def c(puzzles_file: tuple[Path, list[Puzzle]], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("puzzles-db") / "web.db"
    settings = Settings(db_url=f"sqlite:///{db}", signups_per_hour=0, puzzles_file=str(puzzles_file[0]), **FAST)
    with client(settings) as tc:
        yield tc


def offer(c: Any, address: str, **body: Any) -> Any:
    return post(c, "/api/puzzles/offer", {"mode": "rated", **body}, address)


def answer(c: Any, address: str, pid: str, card: str) -> Any:
    return post(c, "/api/puzzles/answer", {"id": pid, "card": card}, address)


def by_id(found: list[Puzzle]) -> dict[str, Puzzle]:
    return {p.id: p for p in found}


def wrong_card(p: Puzzle) -> str:
    return p.costs[-1][0]


def test_a_single_puzzle_sends_neither_the_other_hands_nor_the_answer_before_it_is_answered(
    c: Any, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    single = next(p for p in puzzles_file[1] if p.kind == SINGLE)
    c.cookies.clear()
    page = c.get(f"/puzzles/{single.id}")
    assert page.status_code == 200 and single.id in page.text
    r = offer(c, "10.1.0.1", id=single.id)
    assert r.status_code == 200, r.text
    body = r.json()
    text = r.text
    seen = set(body["puzzle"]["state"]["hand"]) | {
        c for t in body["puzzle"]["state"].get("tricks", []) for c in t["cards"]
    }
    seen |= set(body["puzzle"]["state"]["trick"])
    assert body["puzzle"]["hands"] is None and body["result"] is None
    assert set(CARD.findall(text)) <= seen, sorted(set(CARD.findall(text)) - seen)  # no card of another hand
    for secret in ("solution", "costs", "theme", "share", "samples", "replay", "actions", "source"):
        assert f'"{secret}"' not in text, secret
    # answered: then the solution, the costs, the share of the sampled deals
    done = answer(c, "10.1.0.1", single.id, single.solution[0])
    assert done.status_code == 200, done.text
    res = done.json()["result"]
    assert res["solved"] and res["solution"] == list(single.solution) and res["samples"] == single.samples
    assert res["costs"] == [list(x) for x in single.costs] and res["theme"] == single.theme
    assert "hands" not in done.text  # nor afterwards: a single puzzle never shows the other hands


def test_an_open_puzzle_shows_every_hand_and_rates_a_solved_then_a_failed_answer(
    c: Any, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    puzzles = by_id(puzzles_file[1])
    c.cookies.clear()
    first = offer(c, "10.1.0.2", kind=OPEN)
    assert first.status_code == 200, first.text
    assert "barbu_daily" in first.cookies  # a guest is known by the signed cookie made here
    body = first.json()
    p = puzzles[body["puzzle"]["id"]]
    assert p.kind == OPEN and len(body["puzzle"]["hands"]) == body["puzzle"]["players"]
    assert '"solution"' not in first.text and '"costs"' not in first.text
    assert body["player"]["rating"] == 1000 and body["player"]["answers"] == 0
    up = answer(c, "10.1.0.2", p.id, p.solution[0]).json()
    assert up["result"]["solved"] and up["result"]["after"] > up["result"]["before"] == 1000
    assert up["player"]["rating"] == up["result"]["after"]
    second = offer(c, "10.1.0.2", kind=OPEN).json()
    q = puzzles[second["puzzle"]["id"]]
    assert q.id != p.id  # one attempt a puzzle: an answered one is not offered again
    down = answer(c, "10.1.0.2", q.id, wrong_card(q)).json()
    assert not down["result"]["solved"] and down["result"]["after"] < down["result"]["before"]
    assert down["result"]["answer"] == wrong_card(q) and down["result"]["solution"] == list(q.solution)
    assert down["result"]["line"] == [step.to_dict() for step in q.line]  # a line's rest, once answered
    me = c.get("/api/puzzles/me").json()
    assert [h["puzzle"] for h in me["history"]] == [p.id, q.id] and me["player"]["answers"] == 2


def test_refusals_a_second_answer_one_not_offered_an_unknown_id_a_card_that_is_not_one_a_malformed_body(
    c: Any, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    c.cookies.clear()
    body = offer(c, "10.1.0.3").json()
    p = by_id(puzzles_file[1])[body["puzzle"]["id"]]
    legal = body["puzzle"]["state"]["legal"]
    not_legal = next(x for x in ("2C", "3D", "AS", "KH", "QS") if x not in legal)
    r = answer(c, "10.1.0.3", p.id, not_legal)
    assert (r.status_code, r.json()["code"]) == (400, "puzzle-not-a-card")
    assert answer(c, "10.1.0.3", p.id, p.solution[0]).status_code == 200
    again = answer(c, "10.1.0.3", p.id, p.solution[0])  # the same POST replayed
    assert (again.status_code, again.json()["code"]) == (409, "puzzle-answered")
    other = next(x for x in puzzles_file[1] if x.id != p.id)
    never = answer(c, "10.1.0.3", other.id, other.solution[0])
    assert (never.status_code, never.json()["code"]) == (409, "puzzle-not-offered")
    unknown = offer(c, "10.1.0.3", id="0123456789ab")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "puzzle-not-found")
    assert c.get("/puzzles/not-an-id").status_code == 404
    for bad in ({"id": 12, "card": "QH"}, {"id": p.id, "card": ["QH"]}, {"id": p.id}):
        r = post(c, "/api/puzzles/answer", bad, "10.1.0.3")
        assert r.status_code in (400, 404) and r.json()["code"].startswith("puzzle-"), r.text
    r = c.post("/api/puzzles/answer", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "code" in r.json()
    for hostile in (b"[1, 2]", b'"QH"', b"null", b'{"id": "' + b"A" * 5000 + b'", "card": "QH"}'):
        r = c.post("/api/puzzles/answer", content=hostile, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500 and "code" in r.json(), r.text  # refused in words, never a traceback
    for body in ({"mode": None}, {"mode": "rated", "id": "ABCDEF012345"}, {"kind": "x" * 500}, {"theme": 3}):
        r = post(c, "/api/puzzles/offer", body, "10.1.0.3")
        assert 400 <= r.status_code < 500 and r.json()["code"].startswith("puzzle-"), r.text
    r = offer(c, "10.1.0.3", mode="everything")
    assert (r.status_code, r.json()["code"]) == (400, "puzzle-bad-mode")
    r = offer(c, "10.1.0.3", family=["classic"])
    assert (r.status_code, r.json()["code"]) == (400, "puzzle-bad-choice")
    r = offer(c, "10.1.0.3", mode="mine")
    assert (r.status_code, r.json()["code"]) == (401, "puzzle-not-yours")
    fr = c.post("/api/puzzles/answer", json={"id": p.id, "card": p.solution[0]}, headers={"accept-language": "fr"})
    assert fr.json()["code"] == "puzzle-answered" and "déjà" in fr.json()["error"], fr.text


def test_the_daily_puzzle_is_the_same_for_two_players_and_an_account_is_rated_on_his_profile(
    c: Any, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    seen = []
    for address in ("10.1.0.4", "10.1.0.5"):
        c.cookies.clear()
        r = offer(c, address, mode="daily")
        assert r.status_code == 200, r.text
        seen.append(r.json()["puzzle"]["id"])
    assert seen[0] == seen[1]
    c.cookies.clear()
    assert sign_up(c, "Solveur").status_code in (200, 201)
    daily = offer(c, "10.1.0.6", mode="daily").json()
    p = by_id(puzzles_file[1])[daily["puzzle"]["id"]]
    assert daily["rated"] and daily["day"]
    done = answer(c, "10.1.0.6", p.id, p.solution[0]).json()
    again = offer(c, "10.1.0.6", mode="daily").json()  # a reload shows the result, not a second try
    assert again["result"]["solved"] and again["result"]["after"] == done["result"]["after"]
    prof = c.get("/api/puzzles/players/Solveur").json()
    assert prof["player"]["rating"] == done["result"]["after"] and len(prof["history"]) == 1
    assert prof["own"] == []  # his own page: his puzzles (none yet)
    c.cookies.clear()
    assert c.get("/api/puzzles/players/Solveur").json()["own"] is None  # not to others
    assert c.get("/api/puzzles/players/nobody-here").status_code == 404


def test_a_streak_rises_until_the_first_mistake_and_keeps_the_best(
    c: Any, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    puzzles = by_id(puzzles_file[1])
    c.cookies.clear()
    assert post(c, "/api/puzzles/streak", {}, "10.1.0.7").status_code == 200
    first = offer(c, "10.1.0.7", mode="streak").json()
    assert not first["rated"]
    p = puzzles[first["puzzle"]["id"]]
    one = answer(c, "10.1.0.7", p.id, p.solution[0]).json()
    assert one["player"]["streak"] == 1 and one["result"]["before"] is None  # a streak is not rated
    second = offer(c, "10.1.0.7", mode="streak").json()
    q = puzzles[second["puzzle"]["id"]]
    assert q.id != p.id and second["difficulty"] >= 0
    two = answer(c, "10.1.0.7", q.id, wrong_card(q)).json()
    assert two["player"]["streak"] == 0 and two["player"]["best_streak"] == 1 and two["player"]["rating"] == 1000


def test_a_finished_match_gives_each_account_seated_his_own_puzzles(c: Any) -> None:
    """The table's end (`app.with_puzzles`): the account's costliest decisions found in the background
    (`barbu.puzzles.mine`), his own on his profile and at /puzzles/mine, with the table's replay; not for others."""
    c.cookies.clear()
    assert sign_up(c, "Miner").status_code in (200, 201)
    tid = finish_rated(c)
    puzzles: Puzzles = c.app.state.puzzles
    futures.wait(list(puzzles.mining))
    prof = c.get("/api/puzzles/players/Miner").json()
    own = prof["own"]
    assert own and all(x["solved"] is None and x["family"] == "salad" for x in own), own
    mine = offer(c, "10.1.0.8", mode="mine").json()
    assert mine["puzzle"]["id"] in {x["id"] for x in own} and mine["mode"] == "mine" and not mine["rated"]
    assert mine["puzzle"]["hands"] is not None  # his own deal: every hand shown
    with puzzles.engine().connect() as conn:
        stored = S.puzzle(conn, mine["puzzle"]["id"])
    assert stored is not None
    p = Puzzle.from_dict(json.loads(stored.body))
    res = answer(c, "10.1.0.8", p.id, p.solution[0]).json()["result"]
    assert res["solved"] and res["replay"] == f"/t/{tid}/replay#deal={p.source_deal}&move=0"
    assert res["before"] is None  # his own puzzles are practice: no rating moves
    assert c.get("/api/puzzles/players/Miner").json()["own"][0]["solved"] in (True, None)
    c.cookies.clear()
    r = offer(c, "10.1.0.9", id=p.id)  # another's own puzzle is not there for a stranger
    assert (r.status_code, r.json()["code"]) == (404, "puzzle-not-found")
    assert c.get("/api/puzzles/players/Miner").json()["own"] is None
    c.cookies.clear()
    assert log_in(c, "Miner").status_code == 200
    library_one = offer(c, "10.1.0.8").json()["puzzle"]  # a library puzzle answered too
    assert answer(c, "10.1.0.8", library_one["id"], library_one["state"]["legal"][0]).status_code == 200
    assert post(c, "/api/account/delete", {"password": PASSWORD}, "10.1.0.8").status_code == 200
    with puzzles.engine().connect() as conn:  # his attempts, his rating and his own puzzles went with his account
        assert S.puzzle(conn, p.id) is None and S.history(conn, f"u:{stored.owner_id}") == []
        assert stored.owner_id is not None and S.solver_of_user(conn, stored.owner_id) is None


def test_the_store_loads_a_library_once_and_settles_an_answer_once(
    db_url: str, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    """On SQLite and PostgreSQL: the library added once (a second load adds nothing and keeps ratings), an
    attempt offered once and answered once."""
    engine = make_engine(db_url)
    try:
        migrate(engine)
        rows = [row_of(p) for p in puzzles_file[1]]
        assert S.add_puzzles(engine, rows) == len(rows)
        assert S.add_puzzles(engine, rows) == 0
        pid = rows[0]["id"]
        first = S.offer(engine, "g:x", pid, "rated")
        assert S.offer(engine, "g:x", pid, "daily").offered_at == first.offered_at  # the same attempt
        with engine.begin() as conn:
            assert S.answer(conn, "g:x", pid, "QH", True)
            assert not S.answer(conn, "g:x", pid, "QH", True)
            assert not S.answer(conn, "g:y", pid, "QH", True)
            S.rate_puzzle(conn, pid, S.Rating(30.0, 7.0, 1), True)
        assert S.add_puzzles(engine, rows) == 0
        with engine.connect() as conn:
            kept = S.puzzle(conn, pid)
            assert kept is not None and kept.rating.mu == 30.0 and kept.solved == 1
            assert [a.puzzle_id for a in S.history(conn, "g:x")] == [pid]
            assert sum(n for *_, n in S.choices(conn)) == len(rows)
            near = S.candidates(conn, "g:x", {"kind": OPEN}, 25.0)
            assert pid not in {x.id for x in near} and {x.kind for x in near} == {OPEN}  # offered once only
            assert [x.id for x in S.harder(conn, "g:y", 29.0)] == [pid]  # the only one rated above 29
            assert S.open_attempt(conn, "g:x", "rated") is None  # answered
        with engine.begin() as conn:  # a solver's row made, then written over (locked on PostgreSQL)
            S.save_solver(conn, S.Solver("g:x", S.Rating(27.0, 8.0, 1), 1, 1, 30.0, 1), None)
            locked = S.solver(conn, "g:x", lock=True)
            S.save_solver(conn, S.Solver("g:x", locked.rating, 1, 0, 0.0, 1), None)
        with engine.connect() as conn:
            assert S.solver(conn, "g:x") == S.Solver("g:x", S.Rating(27.0, 8.0, 1), 1, 0, 0.0, 1)
            assert S.solver(conn, "g:new").rating == S.NEWCOMER
        json.loads(kept.body)
    finally:
        engine.dispose()


def test_two_processes_share_the_solvers_state_and_an_answer_counts_once(
    db_url: str, puzzles_file: tuple[Path, list[Puzzle]]
) -> None:
    """Two servers' services on one database (SQLite or PostgreSQL): the puzzle offered by one is answered on the
    other, and the same answer sent again to the first is refused; nothing is held in a process."""
    from barbu.web.common.errors import WebError
    from barbu.web.db.storage import Store

    stores = [Store(db_url), Store(db_url, run_migrations=False)]
    try:
        one, two = (Puzzles(lambda s=s: s, str(puzzles_file[0])) for s in stores)
        shown = one.offer("g:both", None, "rated", filters={"kind": OPEN})
        p = by_id(puzzles_file[1])[shown["puzzle"]["id"]]
        done = two.answer("g:both", None, p.id, p.solution[0])
        assert done["result"]["solved"] and done["player"]["answers"] == 1
        with pytest.raises(WebError) as refused:
            one.answer("g:both", None, p.id, p.solution[0])
        assert refused.value.code == "puzzle-answered"
        assert one.me("g:both")["player"] == done["player"]
        again = one.offer("g:both", None, "rated", p.id)
        assert again["result"]["after"] == done["result"]["after"]
    finally:
        for s in stores:
            s.close()


def test_a_server_without_puzzles_says_so_in_words(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_text("", encoding="utf-8")
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'web.db'}", puzzles_file=str(empty))
    with client(settings) as tc:
        for mode in ("daily", "rated", "streak"):
            r = offer(tc, "10.1.0.20", mode=mode)
            assert (r.status_code, r.json()["code"]) == (404, "puzzle-none-left"), r.text
