"""`barbu score` for scripts, end to end in subprocesses on a temporary SQLite database:
import, list, add, show, export (JSON and CSV, read back), delete; clear errors and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from barbu.scorekeeper import new_keeper
from barbu.scorekeeper.exchange import from_csv, from_json, to_json

SRC = Path(__file__).resolve().parent.parent / "src"


def run(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC), XDG_CONFIG_HOME=str(tmp_path / "config"), COLUMNS="160")
    return subprocess.run([sys.executable, "-m", "barbu", "score", "--db", str(tmp_path / "kept.db"), *args],
                          capture_output=True, text=True, cwd=tmp_path, env=env, input=stdin, timeout=120)


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
    ids = [w for line in out.stdout.splitlines() for w in line.replace("│", " ").split()
           if len(w) == 16 and all(c in "0123456789abcdef" for c in w)]
    assert len(ids) == 1, out.stdout
    return ids[0]


def test_import_list_add_show_export_delete(tmp_path, game_file):
    assert "No kept game" in run(tmp_path, "list").stdout
    out = run(tmp_path, "import", str(game_file))
    assert out.returncode == 0, out.stderr
    assert "1 deal(s)" in out.stdout
    book = only_id(tmp_path)
    assert "friday" in run(tmp_path, "list").stdout

    out = run(tmp_path, "add", book, "--entry", json.dumps(
        {"contract": "no-queens", "doubles": [[3, 0]], "outcome": {"QS": 1, "QH": 1, "QD": 2, "QC": 3}}))
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
    out = run(tmp_path, "add", book, "--entry", '{"contract": "trumps", "trump": "S", "doubles": [], '
                                               '"outcome": {"tricks": [3, 3, 3, 3]}}')
    assert out.returncode == 1
    assert "deal 2: Tricks each player took add up to 12, not 13" in out.stderr
    out = run(tmp_path, "add", book, "--entry", "{not json")
    assert out.returncode == 2 and "--entry is not JSON" in out.stderr
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
    out = run(tmp_path, stdin="")
    assert out.returncode == 2 and "needs a terminal" in out.stderr
