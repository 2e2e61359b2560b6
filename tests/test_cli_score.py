"""`barbu score` for scripts, end to end on a temporary SQLite database: import, list, add, show, export (JSON and
CSV, read back), delete; clear errors and exit codes.

The commands run in this process (`tests/inprocess.py`): a process per command cost 1.3 s of processor to start,
40 times here (37 s of the module's 38), and what these tests check is the commands, not a process starting;
`test_the_app_needs_a_terminal` still starts one, where the process's terminal is the point."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inprocess import Ran, barbu

from barbu.scorekeeper import new_keeper
from barbu.scorekeeper.exchange import from_csv, from_json, to_json

SRC = Path(__file__).resolve().parent.parent / "src"


def run(tmp_path: Path, *args: str) -> Ran:
    return barbu("score", "--db", str(tmp_path / "kept.db"), *args, config=tmp_path / "config", columns=160)


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    k = new_keeper("classic", ["Ann", "Bob", "Cy", "Di"], 0)
    k.add({"contract": "no-hearts", "doubles": [[1, 0, True], [2, 3]], "outcome": {"hearts": [3, 5, 0, 5], "AH": 1}})
    path = tmp_path / "friday.json"
    path.write_text(to_json(k), encoding="utf-8")
    return path


def only_id(tmp_path: Path) -> str:
    out = run(tmp_path, "list")
    assert out.returncode == 0, out.stderr
    ids = [
        w
        for line in out.stdout.splitlines()
        for w in line.replace("│", " ").split()
        if len(w) == 16 and all(c in "0123456789abcdef" for c in w)
    ]
    assert len(ids) == 1, out.stdout
    return ids[0]


def test_import_list_add_show_export_delete(tmp_path, game_file):
    assert "No kept game" in run(tmp_path, "list").stdout
    out = run(tmp_path, "import", str(game_file))
    assert out.returncode == 0, out.stderr
    assert "1 deal(s)" in out.stdout
    book = only_id(tmp_path)
    assert "friday" in run(tmp_path, "list").stdout

    out = run(
        tmp_path,
        "add",
        book,
        "--entry",
        json.dumps({"contract": "no-queens", "doubles": [[3, 0]], "outcome": {"QS": 1, "QH": 1, "QD": 2, "QC": 3}}),
    )
    assert out.returncode == 0, out.stderr
    assert "deal 2 added" in out.stdout and "Ann 16" in out.stdout

    show = run(tmp_path, "show", book[:6])  # a unique start of the id is enough
    assert show.returncode == 0, show.stderr
    for words in ("No hearts", "No queens", "B⇄A", "Standings", "Totals over the game", "2 of 28 deals"):
        assert words in show.stdout

    out = run(tmp_path, "export", book, "--format", "json")
    assert out.returncode == 0
    assert from_json(out.stdout).totals == [16, -42, 4, -32]
    csv_path = tmp_path / "out.csv"
    out = run(tmp_path, "export", book, "--format", "csv", "-o", str(csv_path))
    assert out.returncode == 0 and csv_path.exists()
    assert from_csv(csv_path.read_text(encoding="utf-8")).totals == [16, -42, 4, -32]

    # a CSV reads back in as a second game
    out = run(tmp_path, "import", str(csv_path), "--title", "copy")
    assert out.returncode == 0, out.stderr
    assert "2 deal(s)" in out.stdout

    out = run(tmp_path, "delete", book)
    assert out.returncode == 2 and "--yes" in out.stderr
    out = run(tmp_path, "delete", book, "--yes")
    assert out.returncode == 0
    assert "copy" in run(tmp_path, "list").stdout and "friday" not in run(tmp_path, "list").stdout


def test_refusals_are_plain_and_change_nothing(tmp_path, game_file):
    run(tmp_path, "import", str(game_file))
    book = only_id(tmp_path)
    out = run(
        tmp_path,
        "add",
        book,
        "--entry",
        '{"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [3, 3, 3, 3]}}',
    )
    assert out.returncode == 1
    assert "deal 2: Tricks each player took add up to 12, not 13" in out.stderr
    out = run(tmp_path, "add", book, "--entry", "{not json")
    assert out.returncode == 2 and "--entry: not valid JSON" in out.stderr
    out = run(tmp_path, "show", "nosuchgame")
    assert out.returncode == 1 and "there is no such game" in out.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "barbu-scorekeeper", "version": 1, "rules": "classic", "names": ["a", "b"]}')
    out = run(tmp_path, "import", str(bad))
    assert out.returncode == 1 and "played by 4 players" in out.stderr
    out = run(tmp_path, "import", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "cannot read" in out.stderr
    # nothing changed: still one game of one deal
    assert len(from_json(run(tmp_path, "export", book).stdout).entries) == 1


def test_the_app_needs_a_terminal(tmp_path):
    """A process of its own, its input not a terminal: what a script that forgot a subcommand meets."""
    env = dict(os.environ, PYTHONPATH=str(SRC), XDG_CONFIG_HOME=str(tmp_path / "config"))
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "score", "--db", str(tmp_path / "kept.db")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        input="",
        timeout=120,
    )
    assert out.returncode == 2 and "needs a terminal" in out.stderr


def test_a_game_started_on_the_web_page_is_claimed_with_its_key(tmp_path, game_file):
    from barbu.web.db.storage import sqlite_url
    from barbu.web.scorebooks.store import Scorebooks

    books = Scorebooks.open(sqlite_url(tmp_path / "kept.db"))
    book, key = books.create(json.loads(game_file.read_text()), "phone game", "a-browser-id")
    assert "No kept game" in run(tmp_path, "list").stdout  # another owner's
    out = run(tmp_path, "claim", book.id, "wrong-key")
    assert out.returncode == 1 and "lets you read the game, not change it" in out.stderr
    out = run(tmp_path, "claim", book.id, key)
    assert out.returncode == 0, out.stderr
    assert "phone game" in run(tmp_path, "list").stdout
    out = run(
        tmp_path,
        "add",
        book.id,
        "--entry",
        json.dumps({"contract": "no-king", "doubles": [[1, 0]], "outcome": {"KH": 2}}),
    )
    assert out.returncode == 0, out.stderr
    assert len(books.get(book.id).data["entries"]) == 2


def test_print_writes_the_games_sheet_as_pdf_and_html(tmp_path, game_file):
    run(tmp_path, "import", str(game_file))
    book = only_id(tmp_path)
    out = run(tmp_path, "print", book, "--format", "pdf", "-o", str(tmp_path / "sheet.pdf"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    out = run(tmp_path, "print", book, "--format", "html", "-o", str(tmp_path / "sheet.html"))
    assert out.returncode == 0, out.stderr
    html = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    assert "Ann" in html and "No hearts" in html


def test_a_played_record_is_kept_and_prints_the_same_sheet_as_barbu_replay(tmp_path):
    """``barbu score import`` takes a played match record: its deals as counted, the record's totals, and
    the printed sheet is the very sheet ``barbu replay --sheet`` writes from the record."""
    from barbu import Match
    from barbu.agents.play import agent_for, play_out
    from barbu.records.barbu import write_record

    m = Match("classic(rotation=quick)", seed=8)
    play_out(m, [agent_for(m, "rule", seed=s) for s in range(4)])
    rec = tmp_path / "played.jsonl"
    write_record(m, rec, {"names": ["Ann", "Bob", "Cy", "Di"]})
    out = run(tmp_path, "import", str(rec))
    assert out.returncode == 0, out.stderr
    assert "28 deal(s)" in out.stdout
    book = only_id(tmp_path)
    out = run(tmp_path, "export", book, "--format", "json", "-o", str(tmp_path / "kept.json"))
    assert out.returncode == 0, out.stderr
    kept = from_json((tmp_path / "kept.json").read_text(encoding="utf-8"))
    assert kept.names == ["Ann", "Bob", "Cy", "Di"] and kept.totals == m.totals and kept.is_over
    out = run(tmp_path, "print", book, "--format", "html", "-o", str(tmp_path / "kept.html"))
    assert out.returncode == 0, out.stderr
    replayed = barbu("replay", str(rec), "--sheet", str(tmp_path / "replayed.html"))
    assert replayed.returncode == 0, replayed.stderr
    assert (tmp_path / "kept.html").read_text(encoding="utf-8") == (tmp_path / "replayed.html").read_text(
        encoding="utf-8"
    )


def test_a_record_that_contradicts_its_play_is_not_kept_and_a_besigue_record_is(tmp_path):
    from barbu import Match
    from barbu.agents.play import agent_for, play_out
    from barbu.records.barbu import record_lines

    m = Match("classic", seed=2)
    play_out(m, [agent_for(m, "random", seed=s) for s in range(4)])
    lines = record_lines(m)
    deal = next(x for x in lines if x["type"] == "deal")
    deal["scores"] = [s + 1 for s in deal["scores"]]  # a score written wrong by hand
    (tmp_path / "bad.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = run(tmp_path, "import", str(tmp_path / "bad.jsonl"))
    assert out.returncode != 0 and "contradicts its own play" in out.stderr, out.stderr
    besigue = tmp_path / "b.jsonl"
    assert barbu("selfplay", "--rules", "besigue", "--seed", "1", "--out", str(besigue)).returncode == 0
    out = run(tmp_path, "import", str(besigue))
    assert out.returncode == 0 and "(besigue," in out.stdout, out.stderr
    book = only_id(tmp_path)  # the contradicting record was not kept: only the Bésigue game is
    out = run(tmp_path, "print", book, "--format", "html", "-o", str(tmp_path / "kept.html"))
    assert out.returncode == 0, out.stderr
    replayed = barbu("replay", str(besigue), "--sheet", str(tmp_path / "replayed.html"))
    assert replayed.returncode == 0, replayed.stderr
    assert (tmp_path / "kept.html").read_text(encoding="utf-8") == (tmp_path / "replayed.html").read_text(
        encoding="utf-8"
    )
