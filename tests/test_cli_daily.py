"""``barbu play --daily``: the day's deals in the terminal, the same as the local server's (the daily secret of its
database), compared offline with the computer players' own results, and saying so."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from barbu.cli.daily import daily_secret_at
from barbu.cli.main import main as barbu
from barbu.duplicate.daily import BoardPlay, daily_set

DAY = "2026-11-27"


def first_moves(db: Path, game: str) -> list[str]:
    """Every move of a player who always takes his first choice (the computer answers alike every time)."""
    dset = daily_set(daily_secret_at(str(db)), DAY, game)
    moves = []
    for k in range(dset.size):
        b = BoardPlay(dset, k)
        while not b.done:
            move = str(b.match.legal_actions()[0])
            moves.append(move)
            b.play(move)
    return moves


def test_play_daily_in_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    db = tmp_path / "web.db"
    moves = first_moves(db, "italian")
    assert daily_secret_at(str(db)) == daily_secret_at(str(db))  # kept in the database, made once
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\n" + "\n".join(moves) + "\n"))
    assert barbu(["--lang", "en", "play", "--daily", "--rules", "italian", "--date", DAY, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "compared with the computer players' own result in your seat" in out
    assert "The daily deals of 2026-11-27, Italian Barbù:" in out  # the game in words, not its key 'italian'
    assert out.count("the computer in your seat scored") == 7
    assert "on your own cards:" in out and "over 7 deals" in " ".join(out.split())


def test_play_daily_refusals(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "web.db")
    assert barbu(["play", "--daily", "--rules", "besigue-english", "--db", db]) == 2
    assert barbu(["play", "--daily", "--date", "27/11/2026", "--db", db]) == 2
    out = capsys.readouterr().out
    assert "no daily deals" in out.lower() and "YYYY-MM-DD" in out


def test_play_daily_stops_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("AS\nquit\n"))
    assert barbu(["play", "--daily", "--date", DAY, "--db", str(tmp_path / "web.db")]) == 1
    assert "not finished" in capsys.readouterr().out


def test_play_the_scottish_daily_deals_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Seven boards, Patience ones included: a lay is typed like any move ("lay 8S 8C")."""
    db = tmp_path / "web.db"
    dset = daily_set(daily_secret_at(str(db)), DAY, "scottish")
    moves = []
    for k in range(dset.size):
        b = BoardPlay(dset, k)
        while not b.done:
            legal = b.match.legal_actions()
            move = str(next((a for a in legal if str(a).startswith("lay ")), legal[0]))
            moves.append(move)
            b.play(move)
    monkeypatch.setattr(sys, "stdin", io.StringIO("lay 7S 7S\n" + "\n".join(moves) + "\n"))
    assert (
        barbu(["--lang", "en", "play", "--daily", "--plain", "--rules", "scottish", "--date", DAY, "--db", str(db)])
        == 0
    )
    out = capsys.readouterr().out
    assert out.count("the computer in your seat scored") == 7 and "over 7 deals" in " ".join(out.split())
    assert "Contract: Double Patience" in out and "Contract: Aces" in out


def test_play_the_besigue_daily_deals_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Four deals, the computer's moves told as they come, a refused card changing nothing, each deal compared
    with the computer's own result in the person's seat."""
    db = tmp_path / "web.db"
    dset = daily_set(daily_secret_at(str(db)), DAY, "besigue")
    moves = []
    for k in range(dset.size):
        b = BoardPlay(dset, k)
        while not b.done:
            move = str(b.match.legal_actions()[-1])
            moves.append(move)
            b.play(move)
    monkeypatch.setattr(sys, "stdin", io.StringIO("play 7S 8S\n" + "\n".join(moves) + "\n"))
    assert (
        barbu(["--lang", "en", "play", "--daily", "--plain", "--rules", "besigue", "--date", DAY, "--db", str(db)]) == 0
    )
    out = capsys.readouterr().out
    assert "each the first of a fresh game" in out and "Not allowed:" in out and "computer: " in out
    assert out.count("the computer in your seat scored") == 4 and "over 4 deals" in " ".join(out.split())
    assert "you deal; the computer leads first" in out and "you are the elder hand" in out
    assert "Scores this deal: you" in out and "(to 1" not in out  # one deal alone: no game's totals or target


def test_play_daily_leaves_no_database_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """Without --db the daily secret lives in the person's data folder (issue 43, finding 10); a folder where the
    local server keeps its barbu-web.db plays the server's deals."""
    here, data = tmp_path / "here", tmp_path / "data"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert barbu(["play", "--daily", "--plain", "--date", DAY]) == 1
    assert list(here.iterdir()) == []
    kept = data / "barbu" / "barbu-web.db"
    assert kept.is_file()
    assert daily_secret_at(None) == daily_secret_at(str(kept))  # the same deals on every run
    server = here / "barbu-web.db"
    secret = daily_secret_at(str(server))  # a local server's database here: its deals are the ones played
    assert secret != daily_secret_at(str(kept)) and daily_secret_at(None) == secret
