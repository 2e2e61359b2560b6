"""Records replay exactly; malformed records name their line; the CLI commands work end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bhelpers import play_until
from inprocess import Ran
from inprocess import barbu as in_process

from barbu.agents.besigue import SearchAgent, solve_endgame
from barbu.besigue import BesigueGame
from barbu.besigue.text import text_form
from barbu.core.errors import RecordError
from barbu.core.game import Game
from barbu.games import open_game
from barbu.records.besigue import read_record, record_lines, replay_lines, write_record


def finished(rules: str = "besigue(target=600)", seed: int = 9) -> BesigueGame:
    g = BesigueGame(rules, seed)
    play_until(g)
    return g


def test_record_round_trip(tmp_path: Path) -> None:
    g = finished()
    path = tmp_path / "b.jsonl"
    write_record(g, path)
    rep = read_record(path)
    assert rep.consistent and rep.game.totals == g.totals and rep.game.log == g.log
    assert [r["scores"] for r in rep.game.results] == [r["scores"] for r in g.results]
    assert "Game over" in text_form(rep.game)


def test_record_of_the_english_rules_round_trips() -> None:
    g = finished("besigue-english(target=500)", 3)
    rep = replay_lines(json.dumps(x) for x in record_lines(g))
    assert rep.consistent and rep.game.totals == g.totals


def test_malformed_records_name_the_line() -> None:
    g = finished()
    lines = [json.dumps(x) for x in record_lines(g)]
    bad = list(lines)
    bad[5] = "{not json"
    with pytest.raises(RecordError, match="line 6"):
        replay_lines(bad)
    bad = list(lines)
    obj = json.loads(bad[4])
    obj["action"] = "play 6S"
    bad[4] = json.dumps(obj)
    with pytest.raises(RecordError, match="line 5"):
        replay_lines(bad)
    tampered = [json.loads(x) for x in lines]
    deal = next(x for x in tampered if x["type"] == "deal")
    deal["scores"] = [deal["scores"][0] + 10, deal["scores"][1]]
    rep = replay_lines(json.dumps(x) for x in tampered)
    assert not rep.consistent and "deal 1" in rep.inconsistencies[0]


def test_open_game_registry_serves_both_houses() -> None:
    b = open_game("besigue-english", 1)
    m = open_game("classic", 1)
    assert isinstance(b, BesigueGame) and isinstance(b, Game) and isinstance(m, Game)
    assert b.n == 2 and m.n == 4


def test_endgame_solver_matches_brute_force() -> None:
    # seat 0 holds AS 7D, seat 1 TS 8D; clubs trumps; aces score (types: AS=7, 7D=16, TS=6, 8D=17)
    values = solve_endgame(((7, 16), (6, 17)), 0, (), 3, (7,), False, 2)
    # lead AS: seat 0 wins AS+TS (10), then 8D beats 7D and seat 1 takes the last trick (10) → 0
    # lead 7D: 8D wins it; seat 1 must lead TS into AS: seat 0 wins 10 + 10 for the last trick → +20
    assert values == {7: 0, 16: 20}
    v2 = solve_endgame(((7, 15), (6, 17)), 0, (), 3, (7,), False, 2)  # AS, AD vs TS, 8D
    assert v2[7] == 30 and v2[15] == 30


def test_search_agent_solves_the_last_tricks_exactly() -> None:
    g = BesigueGame("besigue", 8)
    play_until(g, lambda g: not (g.stock or g.phase != "play" or g.to_act() == -1))
    s = g.to_act()
    assert s is not None
    action = SearchAgent(1).act(g.view(s))
    assert action in g.legal_actions()


def run(*args: str, cwd: Path) -> Ran:
    """The command run in this process, in the folder `cwd` (`tests/inprocess.py`: a process a command cost 1.3 s
    of processor, ten times here)."""
    return in_process(*args, cwd=cwd)


def test_cli_end_to_end(tmp_path: Path) -> None:
    r = run("rules", "besigue", cwd=tmp_path)
    assert r.returncode == 0 and "brisques" in r.stdout and "double bésigue" in r.stdout
    r = run("rules", cwd=tmp_path)
    assert r.returncode == 0 and "besigue-english" in r.stdout
    r = run(
        "selfplay",
        "--rules",
        "besigue(target=300)",
        "--bots",
        "rule,search(samples=2, seconds=0.05)",
        "--seed",
        "3",
        "--out",
        "g.jsonl",
        "--text",
        "g.txt",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "g.jsonl").exists() and "Deal 1" in (tmp_path / "g.txt").read_text()
    r = run("replay", "g.jsonl", cwd=tmp_path)
    assert r.returncode == 0 and "consistent" in r.stdout
    r = run("show", "g.jsonl", "--deal", "1", cwd=tmp_path)
    assert r.returncode == 0 and "trick 1:" in r.stdout
    r = run("arena", "--rules", "besigue", "--bots", "rule,random", "--deals", "6", "--workers", "1", cwd=tmp_path)
    assert r.returncode == 0 and "95% interval" in r.stdout
    r = run("selfplay", "--rules", "besigue(hand=7)", cwd=tmp_path)
    assert r.returncode == 2 and "hand cannot be '7'" in r.stderr and "Traceback" not in r.stderr
    r = run("selfplay", "--rules", "besigue", "--bots", "rule,rule,rule", cwd=tmp_path)
    assert r.returncode == 2 and "2 players" in r.stderr
    r = run("selfplay", "--rules", "besigue", "--players", "4", cwd=tmp_path)
    assert r.returncode == 2 and "2 players, not 4" in r.stderr
    (tmp_path / "bad.jsonl").write_text(
        (tmp_path / "g.jsonl").read_text().replace('"action": "play', '"action": "plya', 1)
    )
    r = run("replay", "bad.jsonl", cwd=tmp_path)
    assert r.returncode == 2 and "line" in r.stderr and "Traceback" not in r.stderr


def test_view_to_dict_is_plain_data_and_hides_the_opponents_hand() -> None:
    from barbu.besigue.cards import card_text
    from barbu.core.game import RenderableView

    g = BesigueGame("besigue", 21)
    g.play_chance()
    g.play_chance()
    seat = g.to_act()
    assert seat is not None
    view = g.view(seat)
    assert isinstance(view, RenderableView)
    data = json.loads(json.dumps(view.to_dict()))
    assert sorted(data["hand"]) == sorted(card_text(c) for c in g.hands[seat])
    assert data["opponent_hand"] == 9 and data["opponent_known"] == [] and data["legal"]
    assert all(g.parse_action(t) in g.legal_actions() for t in data["legal"])
    other = g.view(1 - seat).to_dict()
    assert other["legal"] == [] and sorted(other["hand"]) == sorted(card_text(c) for c in g.hands[1 - seat])
    assert view.visible_cards() == set(g.hands[seat]) | {g.stock[-1]}


def _engine_minimax(g: BesigueGame, me: int) -> int:
    """(me − other) points to the end of the deal, by trying every legal card in the engine itself."""
    if g.phase != "play":
        r = g.results[-1]["scores"]
        return r[me] - r[1 - me]
    seat = g.to_act()
    values = []
    for a in g.legal_actions():
        g.apply(a)
        values.append(_engine_minimax(g, me))
        g.undo()
    return max(values) if seat == me else min(values)


@pytest.mark.parametrize("seed", range(12))
def test_endgame_solver_agrees_with_the_engine(seed: int) -> None:
    import random as _random

    from bhelpers import endgame

    from barbu.besigue.cards import card_text, type_of

    rng = _random.Random(seed)
    deck = [card_text(c) for c in range(64)]
    rng.shuffle(deck)
    k = rng.randrange(1, 4)
    rules = rng.choice(["besigue", "besigue(endgame=must_win, brisques=aces_and_tens)"])
    g = endgame(deck[:k], deck[k : 2 * k], trump=rng.randrange(4), leader=rng.randrange(2), rules=rules)
    g.won = [[], []]
    me = g.to_act()
    assert me is not None
    ranks = (7, 6) if "aces_and_tens" in rules else (7,)
    hands = (tuple(type_of(c) for c in g.hands[0]), tuple(type_of(c) for c in g.hands[1]))
    values = solve_endgame(hands, me, (), g.trump, ranks, "must_win" in rules, k)
    assert max(values.values()) == _engine_minimax(g, me)
    for a in g.legal_actions():
        g.apply(a)
        assert values[a.card] == -_engine_minimax(g, 1 - me)  # every card's value is exact
        g.undo()
