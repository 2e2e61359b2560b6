"""A saved match is never overwritten: new matches get files of their own, saved ones are offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from inprocess import Ran
from inprocess import barbu as in_process

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


def first_move(rules: str = "classic") -> str:
    """The person's first decision in `play_plain`'s match (seat 0, seed 2, rule players), typed: a match quit
    before any move is not kept, so each saved match here has one move."""
    from barbu.agents import make_agent
    from barbu.classic.match import CHANCE, Match
    from barbu.core.actions import Declare, Double
    from barbu.play.labels import forced_choice

    m = Match(rules, 2)
    bots = {s: make_agent("rule", 2 * 1000 + s) for s in range(1, m.n)}
    while True:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
        elif actor != 0:
            m.apply(bots[actor].act(m.view(actor)), seat=actor)
        elif (forced := forced_choice(m.legal_actions())) is not None:
            m.apply(forced, seat=0)
        else:
            legal = m.legal_actions()
            passes = [a for a in legal if isinstance(a, Double) and not a.targets]
            action = passes[0] if passes else legal[0]
            return action.contract if isinstance(action, Declare) else str(action)


def play_plain(folder: Path, moves: str, *args: str) -> Ran:
    """``barbu play --plain`` in the folder, the moves typed: run in this process (`tests/inprocess.py`: a process
    a game cost 1.3 s of processor to start)."""
    return in_process("play", "--plain", "--seed", "2", *args, input=moves, cwd=folder)


def test_a_second_barbu_play_in_the_same_folder_never_overwrites_the_first(tmp_path: Path) -> None:
    first = play_plain(tmp_path, f"{first_move()}\nquit\n")
    assert first.returncode == 0, first.stderr
    saved = tmp_path / "barbu-game.jsonl"
    before = saved.read_bytes()
    assert [s.path.name for s in saved_matches(tmp_path)] == ["barbu-game.jsonl"]
    second = play_plain(tmp_path, f"{first_move('italian')}\nquit\n", "--rules", "italian")
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


def test_the_setup_screen_offers_every_saved_match_newest_first(tmp_path: Path) -> None:
    import asyncio
    import os

    from barbu.tui import BarbuApp, Settings
    from barbu.tui.table import TableScreen

    for i, rules in enumerate(("classic", "italian", "salad", "french", "classic")):
        play_plain(tmp_path, f"{first_move(rules)}\nquit\n", "--rules", rules)
    names = ["barbu-game.jsonl", *(f"barbu-game-{i}.jsonl" for i in range(2, 6))]
    for i, name in enumerate(names):  # saved one minute apart, barbu-game-3 last of all
        os.utime(tmp_path / name, (1_790_000_000 + 60 * i,) * 2)
    os.utime(tmp_path / "barbu-game-3.jsonl", (1_790_000_000 + 3600,) * 2)

    async def run() -> tuple[str, list[str]]:
        app = BarbuApp(Settings(delay=0, save=tmp_path / "barbu-game.jsonl"))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            title = str(app.screen.query_one("#setup-title").render())
            listed = app.screen.query_one("#saved-list")
            lines = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
            listed.focus()
            await pilot.press("down", "enter")  # the second newest
            await pilot.pause()
            assert isinstance(app.screen, TableScreen) or app.table is not None
            assert app.session is not None and app.session.save_path == tmp_path / "barbu-game-5.jsonl"
            await pilot.press("ctrl+q")
        return title, lines

    title, lines = asyncio.run(run())
    assert "starts a new match" in " ".join(title.split()).replace("[b]", "").replace("[/b]", "")
    assert len(lines) == 5  # every saved match, not the first three
    assert [line.rsplit(" · ", 1)[1] for line in lines] == [
        "barbu-game-3.jsonl",
        "barbu-game-5.jsonl",
        "barbu-game-4.jsonl",
        "barbu-game-2.jsonl",
        "barbu-game.jsonl",
    ]
    assert "Salad, 0 of 24 deals played" in lines[0]  # the game in words


def test_a_saved_match_is_deleted_from_the_setup_screen_only_when_confirmed(tmp_path: Path) -> None:
    import asyncio

    from barbu.tui import BarbuApp, Settings
    from barbu.tui.dialogs import ConfirmDialog

    play_plain(tmp_path, f"{first_move()}\nquit\n")
    play_plain(tmp_path, f"{first_move('italian')}\nquit\n", "--rules", "italian")

    async def run() -> None:
        app = BarbuApp(Settings(delay=0, save=tmp_path / "barbu-game.jsonl"))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            app.screen.query_one("#saved-list").focus()
            await pilot.press("delete")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("enter")  # Enter is on "Keep it" at first
            await pilot.pause()
            assert len(list(tmp_path.glob("barbu-game*.jsonl"))) == 2
            app.screen.query_one("#saved-list").focus()
            await pilot.press("delete", "y")
            await pilot.pause()
            await pilot.pause()
            assert [p.name for p in tmp_path.glob("barbu-game*.jsonl")] == ["barbu-game.jsonl"]
            listed = app.screen.query_one("#saved-list")
            assert listed.option_count == 1

    asyncio.run(run())


def test_a_missing_record_is_not_called_malformed(tmp_path: Path) -> None:
    out = in_process("replay", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr and "No such file" in out.stderr
    assert "malformed" not in out.stderr
