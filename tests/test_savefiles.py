"""A saved match is never overwritten: new matches get files of their own, saved ones are offered."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from barbu.records.savefiles import SaveError, reserve, saved_matches


def test_new_matches_take_the_next_free_name(tmp_path: Path) -> None:
    base = tmp_path / "barbu-game.jsonl"
    assert reserve(base) == base
    assert reserve(base) == tmp_path / "barbu-game-2.jsonl"
    assert reserve(base) == tmp_path / "barbu-game-3.jsonl"
    assert all(p.exists() for p in (base, tmp_path / "barbu-game-2.jsonl"))


def test_a_name_the_player_chose_is_refused_if_it_exists(tmp_path: Path) -> None:
    mine = tmp_path / "mine.jsonl"
    mine.write_text("precious")
    with pytest.raises(SaveError, match="already exists: resume it with barbu play --resume"):
        reserve(mine, exact=True)
    assert mine.read_text() == "precious"
    with pytest.raises(SaveError, match="cannot save the match"):
        reserve(tmp_path / "no-folder" / "x.jsonl", exact=True)


def play_plain(folder: Path, moves: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "barbu", "play", "--plain", "--seed", "2", *args],
                          input=moves, capture_output=True, text=True, timeout=120, cwd=folder)


def test_a_second_barbu_play_in_the_same_folder_never_overwrites_the_first(tmp_path: Path) -> None:
    first = play_plain(tmp_path, "quit\n")
    assert first.returncode == 0, first.stderr
    saved = tmp_path / "barbu-game.jsonl"
    before = saved.read_bytes()
    assert [s.path.name for s in saved_matches(tmp_path)] == ["barbu-game.jsonl"]
    second = play_plain(tmp_path, "quit\n", "--rules", "italian")
    assert second.returncode == 0, second.stderr
    said = " ".join(second.stdout.split())  # the console wraps long lines
    assert "A saved match is here (barbu-game.jsonl: classic" in said
    assert "resume it with barbu play --resume barbu-game.jsonl" in said
    assert "saved to barbu-game-2.jsonl" in said
    assert saved.read_bytes() == before
    assert "italian" in (tmp_path / "barbu-game-2.jsonl").read_text()
    again = play_plain(tmp_path, "quit\n", "--save", "barbu-game.jsonl")
    assert again.returncode == 2 and "barbu-game.jsonl already exists" in " ".join(again.stderr.split())
    assert saved.read_bytes() == before


def test_the_setup_screen_offers_the_saved_match(tmp_path: Path) -> None:
    import asyncio

    from barbu.tui import BarbuApp, Settings
    from barbu.tui.table import TableScreen
    play_plain(tmp_path, "quit\n")

    async def run() -> str:
        app = BarbuApp(Settings(delay=0, save=tmp_path / "barbu-game.jsonl"))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            text = str(app.screen.query_one("#setup-saved").render())
            await pilot.click("#resume-0")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen) or app.table is not None
            assert app.session is not None and app.session.save_path == tmp_path / "barbu-game.jsonl"
            await pilot.press("ctrl+q")
        return text
    text = asyncio.run(run())
    assert "A saved match is waiting: barbu-game.jsonl: classic" in text


def test_a_missing_record_is_not_called_malformed(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "barbu", "replay", str(tmp_path / "nope.jsonl")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "cannot read" in out.stderr and "No such file" in out.stderr
    assert "malformed" not in out.stderr
