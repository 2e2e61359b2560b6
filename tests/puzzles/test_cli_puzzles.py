"""``barbu puzzles make / show / check`` end to end on a tiny run, and a player's own puzzles from a record."""

from __future__ import annotations

import pytest
from inprocess import barbu

from barbu.arena.runners import InProcess, LocalPool
from barbu.puzzles.check import verify
from barbu.puzzles.find import positions
from barbu.puzzles.library import read
from barbu.puzzles.make import jobs_for, make
from barbu.puzzles.mine import from_record
from barbu.records.barbu import write_record
from barbu.solver.position import state_of


def test_make_show_check_on_a_tiny_run(tmp_path):
    out = tmp_path / "p.jsonl.gz"
    args = ["puzzles", "make", "--selfplay", "1", "--rules", "classic", "--workers", "1"]
    made = barbu(*args, "--exact-cards", "5", "--samples", "20", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert "Puzzles found" in made.stdout and "Positions rejected" in made.stdout and "a forced card" in made.stdout
    puzzles = read(out)
    assert puzzles and f"{len(puzzles)} puzzles written" in made.stdout
    again = barbu(*args, "--out", str(out))
    assert again.returncode == 2 and "exists: give --force" in again.stderr
    shown = barbu("puzzles", "show", str(out), puzzles[0].id)
    assert shown.returncode == 0 and puzzles[0].id in shown.stdout and "Each other card costs" in shown.stdout
    assert barbu("puzzles", "show", str(out), "000000000000").returncode == 2
    checked = barbu("puzzles", "check", str(out))
    assert checked.returncode == 0 and f"{len(puzzles)} of {len(puzzles)} puzzles proved again" in checked.stdout
    french = barbu("puzzles", "show", str(out), puzzles[0].id, "--lang", "fr")
    assert french.returncode == 0 and "Puzzle" not in french.stdout.splitlines()[0]


def test_a_player_s_costliest_cards_become_his_puzzles(tmp_path, classic_match):
    path = tmp_path / "match.jsonl"
    write_record(classic_match, path)
    mine = from_record(path, 0, limit=3, exact_cards=5)
    assert 1 <= len(mine) <= 3
    for p in mine:
        assert p.source.startswith("mine:match/") and p.seat == 0
        assert verify(p) == []
    # each was a card the player got wrong, and the costliest come first
    played = {}
    for pos in positions(str(classic_match.rules), [str(a) for a in classic_match.history], 5):
        played[(pos.deal, state_of(pos.match))] = (pos.match, pos.played)
    lost = []
    for p in mine:
        m = p.match()
        source, card = played[(p.source_deal, state_of(m))]
        assert card not in p.solution
        lost.append(dict(p.costs)[card])
    assert lost == sorted(lost, reverse=True)
    assert from_record(path, 0, limit=1, exact_cards=5) == mine[:1]


def test_records_of_a_folder_are_mined_and_an_unreadable_one_is_skipped(tmp_path, classic_match):
    folder = tmp_path / "records"
    folder.mkdir()
    write_record(classic_match, folder / "a.jsonl")
    (folder / "junk.jsonl").write_text("not a record\n")
    out = tmp_path / "p.jsonl"
    made = barbu(
        "puzzles",
        "make",
        "--from",
        str(folder),
        "--kind",
        "open",
        "--exact-cards",
        "5",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    assert made.returncode == 0, made.stderr
    assert "skipped" in made.stderr and "junk.jsonl" in made.stderr
    puzzles = read(out)
    assert puzzles and {p.source for p in puzzles} == {"record:a.jsonl"} and {p.kind for p in puzzles} == {"open"}
    nothing = barbu("puzzles", "make", "--out", str(tmp_path / "q.jsonl"))
    assert nothing.returncode == 2 and "nothing to mine" in nothing.stderr


def test_a_pool_of_processes_makes_the_same_file_as_one_process():
    jobs = jobs_for([], 1, ["classic", "french"], "rule", 3, ("open",), exact_cards=5)
    with InProcess() as here, LocalPool(2) as pool:
        alone, pooled = make(jobs, here), make(jobs, pool)
    assert alone.puzzles and pooled.puzzles == alone.puzzles and pooled.tally == alone.tally


def test_merge_keeps_each_puzzle_once(tmp_path):
    from barbu.puzzles.library import load, write

    shipped = load()[:6]
    write(tmp_path / "a.jsonl", shipped[:4])
    write(tmp_path / "b.jsonl.gz", shipped[2:])
    out = tmp_path / "all.jsonl.gz"
    merged = barbu("puzzles", "merge", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl.gz"), "--out", str(out))
    assert merged.returncode == 0, merged.stderr
    assert read(out) == shipped
    assert barbu("puzzles", "merge", str(tmp_path / "a.jsonl"), "--out", str(out)).returncode == 2


def test_a_cluster_that_does_not_answer_is_refused_in_plain_words(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "p.jsonl"
    made = barbu(
        "puzzles", "make", "--selfplay", "1", "--rules", "classic", "--dask", "tcp://127.0.0.1:1", "--out", str(out)
    )
    assert made.returncode == 2 and "no Dask scheduler answers at tcp://127.0.0.1:1" in made.stderr
    assert not out.exists()
