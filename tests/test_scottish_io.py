"""The Scottish game through records, the command line, the text game, views and the sampler."""

from __future__ import annotations

import argparse
import io
import json
import random
import re

from inprocess import Ran
from inprocess import barbu as in_process
from rich.console import Console
from scottish_helpers import BLACK, RED, cut, deal, draw_for, to_silly_round

from barbu import CHANCE, CardSet, Match
from barbu.classic.sampler import determinize, sample_hands
from barbu.classic.view import HIDDEN
from barbu.cli.textplay import play_in_terminal
from barbu.core.actions import PassOn
from barbu.records.barbu import read_record, replay, text_form, write_record


def random_match(rules: str = "scottish", seed: int = 3) -> Match:
    m = Match(rules, seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.play_chance() if m.to_act() == CHANCE else m.apply(rng.choice(m.legal_actions()))
    return m


def barbu(*args: str, input: str = "") -> Ran:
    """The command run in this process (`tests/inprocess.py`: a process a command cost 1.3 s of processor)."""
    return in_process(*args, input=input)


# ---------------------------------------------------------------------- records


def test_record_round_trip_with_cuts_pass_ons_lays_and_glyphs(tmp_path):
    m = random_match("scottish(sets=2)", 4)
    path = tmp_path / "s.jsonl"
    write_record(m, path)
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    texts = [x["action"] for x in lines if x["type"] == "action"]
    assert any(t.startswith("cut ") for t in texts) and any(t.startswith("pass-on ") for t in texts)
    assert any(t.startswith("draw ") for t in texts) and any(t.startswith("contract ") for t in texts)
    deals = [x for x in lines if x["type"] == "deal"]
    assert all("calls" in d and "round" in d and "glyphs" in d for d in deals)
    rep = replay(read_record(path))
    assert rep.consistent and rep.match.totals == m.totals and rep.match.history == m.history
    # a tampered call column is named
    for d in lines:
        if d["type"] == "deal" and d["number"] == 3:
            call = next(iter(d["calls"]))
            d["calls"][call][0] += 10
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    bad = replay(read_record(path))
    assert not bad.consistent and any("deal 3" in p and "call points" in p for p in bad.inconsistencies)


def test_every_action_text_parses_back_to_the_same_action():
    m = Match("scottish(sets=1)", 8)
    rng = random.Random(8)
    kinds = set()
    while not m.is_over:
        a = m.sample_chance() if m.to_act() == CHANCE else rng.choice(m.legal_actions())
        assert m.parse_action(str(a)) == a, f"{a!r} -> {str(a)!r}"
        kinds.add(type(a).__name__)
        m.apply(a)
    assert {"PackDraw", "Deal", "Declare", "Card", "Cut", "PassOn"} <= kinds


def test_text_form_has_rounds_cuts_pass_ons_and_the_scoresheet():
    m = random_match(seed=6)
    text = text_form(m)
    assert '[Round "set 1, player round 1' in text and '[Round "set 1, silly round, deal 1"]' in text
    assert "[Cuts " in text and "[Call " in text and "% scoresheet" in text and "Set position:" in text
    if any(r.scottish.pass_count for r in m.results):
        assert '[PassOn "' in text


def test_undo_through_a_pass_on_and_a_cut():
    m = to_silly_round()
    m.apply(draw_for(0))
    m.apply(m.sample_chance())
    m.apply(cut("joker"))
    m.apply(BLACK)
    first = m.legal_actions()[5]
    m.apply(first)
    assert m.undo() == first and m.to_act() == 1 and m.pending == [0, 0, 0, 0]
    m.apply(first)
    for _ in range(3):
        m.apply(m.legal_actions()[0])
    assert m.pass_count == 1 and m.phase_name == "cut"
    hands = list(m.hands)
    m.apply(RED)
    assert m.undo() == RED and list(m.hands) == hands and m.phase_name == "cut"
    c = m.clone()
    c.apply(RED)
    assert m.phase_name == "cut" and c.phase_name == "play"


# ---------------------------------------------------------------------- views and the sampler after pass-ons


def test_what_a_seat_knows_after_two_pass_ons_to_the_left():
    """Seat 0 passes A to seat 1 on the first pass and B on the second: B is known to be with seat 1, A with
    seat 1 or passed on by him to seat 2; seat 3 cannot hold either, and nothing else is known."""
    m = to_silly_round()
    m.apply(draw_for(0))  # deal 1: both pass-ons to the left
    deal(m, ["AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987"])
    m.apply(cut("joker"))
    m.apply(BLACK)
    picks = {0: "7S 8S 9S", 1: "7H 8H 9H", 2: "7D 8D 9D", 3: "7C 8C 9C"}
    while m.phase_name == "pass-on":
        m.apply("pass-on " + picks[m.to_act()])
    m.apply(BLACK)
    picks = {0: "TS JS 7C", 1: "TH JH 7S", 2: "TD JD 7H", 3: "TC JC 7D"}
    while m.phase_name == "pass-on":
        m.apply("pass-on " + picks[m.to_act()])
    m.apply(RED)
    v = m.view(0)
    a, b = CardSet.parse("987.-.-.-").mask, CardSet.parse("JT.-.-.7").mask
    assert [p.to for p in v.passes] == [1, 1] and [p.frm for p in v.passes] == [3, 3]
    assert v.passes[0].gave == a and v.passes[1].gave == b
    assert v.passes[0].received == CardSet.parse("-.-.-.987").mask
    assert v.known[1] == b and v.known[2] == v.known[3] == 0
    assert v.private_cant_hold[3] == a | b and v.private_cant_hold[2] == b and v.private_cant_hold[1] == 0
    assert v.unseen == v.deck & ~v.hand & ~b
    # the other seats' choices never show
    hidden = [x for x in v.deal_actions if x is HIDDEN]
    own = [x for x in v.deal_actions if isinstance(x, PassOn)]
    assert len(hidden) == 6 and len(own) == 2
    rng = random.Random(1)
    for _ in range(30):
        hands = sample_hands(v, rng)
        assert hands[0] == v.hand and hands[1] & b == b and not hands[3] & (a | b)
        d = determinize(v, hands)
        assert d.view(0) == v and list(d.hands) == hands


def test_views_never_show_another_seats_pass_on_in_records_of_results():
    m = random_match(seed=12)
    for seat in range(4):
        v = m.view(seat)
        assert all(r.scottish.passes == () and r.hands == () for r in v.results)


# ---------------------------------------------------------------------- the command line and the text game


def test_cli_selfplay_sets_replay_show_rules(tmp_path):
    rec = tmp_path / "g.jsonl"
    out = barbu("selfplay", "--rules", "scottish", "--sets", "2", "--seed", "5", "--out", str(rec))
    assert out.returncode == 0, out.stderr
    assert json.loads(rec.read_text().splitlines()[0])["rules"] == "scottish(sets=2)"
    rep = barbu("replay", str(rec))
    assert rep.returncode == 0 and "consistent" in rep.stdout, rep.stderr
    assert "Set 1" in rep.stdout and "Set 2" in rep.stdout and "KHearts" in rep.stdout and "Set position" in rep.stdout
    assert re.search(r"S1 P1|S1 Silly", rep.stdout)
    show = barbu("show", str(rec))
    assert show.returncode == 0 and "% scoresheet" in show.stdout and "Set position" in show.stdout
    m = replay(read_record(rec)).match
    silly = next(r for r in m.results if r.scottish.silly)
    one = barbu("show", str(rec), "--deal", str(silly.number))
    assert one.returncode == 0 and "Silly Round" in one.stdout and "Cuts:" in one.stdout
    rules = barbu("rules", "scottish")
    assert rules.returncode == 0 and "Double Patience" in rules.stdout and "sets" in rules.stdout
    wrong = barbu("selfplay", "--rules", "classic", "--sets", "2")
    assert wrong.returncode == 2 and "--sets is for the Scottish game" in wrong.stderr


def test_glyph_names_appear_in_replay(tmp_path):
    """Some seed shows glyphs; replay prints their names beside the points."""
    for seed in range(1, 30):
        m = random_match(seed=seed)
        if any(r.scottish.glyphs for r in m.results):
            break
    rec = tmp_path / "g.jsonl"
    write_record(m, rec)
    out = barbu("replay", str(rec))
    names = {g.name for r in m.results for g in r.scottish.glyphs}
    from barbu.scottish.scoresheet import GLYPH_NAMES

    for n in names:
        assert GLYPH_NAMES[n] in out.stdout


def scripted_reader(buf: io.StringIO, rng: random.Random):
    """Answers the text game's prompts from what it printed, like a player reading the screen."""
    pos = [0]

    def read(prompt: str) -> str:
        text = buf.getvalue()[pos[0] :]
        pos[0] = len(buf.getvalue())
        calls = re.findall(r"You may call: (.*)", text)
        if calls:
            return rng.choice(calls[-1].split(", "))
        passon = re.findall(r"like: (pass-on \S+ \S+ \S+)", text)
        if passon:
            return passon[-1]
        may = re.findall(r"You may: (.*)", text)
        if may:
            opts = may[-1].split(" ")
            return "pass" if "pass" in opts else opts[0] if "lay" in may[-1] else rng.choice(opts)
        return "quit"

    return read


def test_text_game_plays_a_scottish_match_to_the_end(tmp_path):
    buf = io.StringIO()
    con = Console(file=buf, width=200, highlight=False)
    save = tmp_path / "t.jsonl"
    args = argparse.Namespace(resume=None, rules="scottish", players=None, seed=9, seat=0, save=str(save), sets=None)
    assert play_in_terminal(args, read=scripted_reader(buf, random.Random(2)), console=con) == 0
    out = buf.getvalue()
    assert "Match over" in out and "Draw from the Unused Pack" in out and "Silly Round" in out
    assert "passes on three cards" in out  # the computer players' pass-ons stay face down
    for line in out.splitlines():
        assert not re.match(r"seat [123]: pass-on", line), line
    rep = replay(read_record(save))
    assert rep.consistent and rep.match.is_over


def test_text_game_help_and_a_refused_call(tmp_path):
    buf = io.StringIO()
    con = Console(file=buf, width=200, highlight=False)
    answers = iter(["help", "hearts+spades", "sheet", "quit"])
    args = argparse.Namespace(
        resume=None, rules="scottish", players=None, seed=4, seat=0, save=str(tmp_path / "x"), sets=None
    )
    m = Match("scottish", 4)
    while m.to_act() == CHANCE:
        m.play_chance()
    args.seat = m.to_act()  # the first Caller
    play_in_terminal(args, read=lambda p: next(answers), console=con)
    out = buf.getvalue()
    assert "pass-on AS KH 7D" in out and "double-patience" in out  # the help names the new actions
    assert "Not allowed" in out and "'spades' is not a call" in out
