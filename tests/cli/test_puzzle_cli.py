"""``barbu puzzle`` from the command line, line by line (input piped, as a script or a screen reader gives it):
a rated puzzle, the day's puzzle rated once, a streak, your own puzzles from a record, French words, refusals in
plain words, an unreadable puzzle file left as it is; and once end to end in a process of its own."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from barbu.classic.match import CHANCE, Match
from barbu.cli.main import main as barbu
from barbu.games import short_rules
from barbu.puzzles import library
from barbu.puzzles.mine import from_record
from barbu.puzzles.model import Puzzle
from barbu.records.barbu import write_record
from barbu.tui.puzzle_series import RatedSeries, StreakSeries
from barbu.tui.puzzle_store import PuzzleStore

DAY = "2026-11-29"


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """barbu's data folder, in this test's own folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    return tmp_path / "share" / "barbu"


def typed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))


def flat(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def right(p: Puzzle) -> list[str]:
    """The cards that solve a puzzle, its line's included, as typed."""
    return [p.solution[0], *(step.solution[0] for step in p.line)]


def test_a_rated_puzzle_line_by_line(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    chosen = library.choose(library.load(), kind="open")
    first = RatedSeries(PuzzleStore(tmp_path / "elsewhere"), chosen, random.Random(7)).next()
    assert first is not None
    typed(monkeypatch, "help", "zz", *(card.lower() for card in right(first)), "q")
    assert barbu(["puzzle", "--kind", "open", "--seed", "7"]) == 0
    out = flat(capsys.readouterr().out)
    assert "Rated puzzles · puzzle 1" in out and "Every hand is shown" in out
    assert "Type a card" in out and "Not allowed: 'zz' is not a card" in out
    assert "is the best card" in out and "Your puzzle rating: 1000 →" in out
    kept = PuzzleStore(data).read()
    assert [(a.puzzle, a.solved, a.mode) for a in kept.history] == [(first.id, True, "rated")]


def test_the_daily_puzzle_is_rated_the_first_time_only(data: Path, monkeypatch, capsys) -> None:
    today = library.daily(DAY, library.load())
    for _ in range(2):
        typed(monkeypatch, *right(today))
        assert barbu(["puzzle", "--daily", "--date", DAY]) == 0
    out = flat(capsys.readouterr().out)
    assert out.count("Puzzle of the day") == 2 and out.count("is the best card") == 2
    assert "only the first answer is rated" in out and "No more puzzles here." in out
    assert "solved 0 of 0 · best streak 0" in out and "solved 1 of 1" in out  # where you stand, before each run
    assert PuzzleStore(data).read().daily == {DAY: {"puzzle": today.id, "solved": True}}


def test_a_streak_ends_at_the_first_mistake(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    series = StreakSeries(PuzzleStore(tmp_path / "elsewhere"), library.load(), random.Random(3))
    first = series.next()
    assert first is not None
    series.answer(first, first.solution[0], True, 0)
    second = series.next()  # what the command offers next, after the first is solved
    assert second is not None
    typed(monkeypatch, *right(first), "", second.costs[0][0], "")
    assert barbu(["puzzle", "--streak", "--seed", "3"]) == 0
    out = flat(capsys.readouterr().out)
    assert "Puzzle streak · puzzle 2" in out and "this puzzle is not rated" in out
    assert "Streak: 1 · best 1" in out and "Streak over at 1 · best 1" in out and "No more puzzles here." in out
    assert PuzzleStore(data).read().best_streak == 1


def finished_match(path: Path) -> None:
    m = Match(short_rules("classic"), 11)
    rng = random.Random(11)
    while not m.is_over:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    write_record(m, path, {"tui": {"seat": 2}})


def test_your_own_puzzles_from_a_record(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    record = tmp_path / "played.jsonl"
    finished_match(record)
    mine = from_record(record, 2)  # the seat the record says you played
    assert mine
    typed(monkeypatch, mine[0].solution[0], "q")
    assert barbu(["--lang", "fr", "puzzle", "--mine", str(record)]) == 0
    captured = capsys.readouterr()
    out = flat(captured.out)
    assert "Problèmes tirés de votre partie · problème 1" in out and "Votre carte :" in out
    assert "Tiré de votre propre partie" in out and "ce problème n'est pas classé" in out
    assert "décisions les plus coûteuses" in captured.err
    assert [a.mode for a in PuzzleStore(data).read().history] == ["mine"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--daily", "--contract", "no-queens"], "the same for everyone: --daily takes no --family"),
        (["--contract", "no-such-contract"], "No puzzle matches what you asked for. The puzzles here have contract:"),
        (["--mine", "missing.jsonl"], "missing.jsonl"),
        (["--file", "missing.jsonl.gz"], "cannot read the puzzles in missing.jsonl.gz"),
    ],
)
def test_refusals_in_plain_words(args, words, data: Path, monkeypatch, capsys) -> None:
    typed(monkeypatch)
    assert barbu(["puzzle", *args]) == 2
    assert words in flat(capsys.readouterr().err)


def test_an_unknown_theme_is_refused_by_the_parser(data: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        barbu(["puzzle", "--theme", "no-theme"])
    assert stopped.value.code == 2 and "invalid choice: 'no-theme'" in capsys.readouterr().err


def test_an_unreadable_puzzle_file_is_said_and_kept(data: Path, monkeypatch, capsys) -> None:
    data.mkdir(parents=True)
    (data / "puzzles.json").write_text('{"version": 1, "rating": ', encoding="utf-8")
    typed(monkeypatch, "as")
    assert barbu(["puzzle"]) == 2
    err = flat(capsys.readouterr().err)
    assert "puzzles.json cannot be read" in err and "It was left as it is" in err
    assert (data / "puzzles.json").read_text(encoding="utf-8") == '{"version": 1, "rating": '


def test_barbu_puzzle_end_to_end(tmp_path: Path) -> None:
    """The installed command, input piped: the plain puzzles, the answer kept in the data folder."""
    today = library.daily(DAY, library.load())
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share")}
    done = subprocess.run(
        [sys.executable, "-m", "barbu", "puzzle", "--daily", "--date", DAY, "--lang", "it"],
        input=today.costs[-1][0] + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = flat(done.stdout)
    assert "Problema del giorno" in out and "Non la migliore" in out and "Il tuo punteggio nei problemi" in out
    assert (tmp_path / "share" / "barbu" / "puzzles.json").is_file()


def test_a_missing_library_names_the_terminal_extra() -> None:
    from barbu.cli.extras import missing_extra

    for name in ("openskill", "platformdirs", "textual"):
        said = missing_extra(ModuleNotFoundError(f"No module named {name!r}", name=name), "puzzle")
        assert said is not None and "barbu[terminal]" in said and "barbu puzzle --plain" in said


def test_a_library_file_of_your_own_chosen_by_contract(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    """``--file`` reads what ``barbu puzzles make`` writes (JSON Lines, gzip), and the filters choose in it."""
    puzzles = library.load()
    contract = puzzles[0].contract
    path = tmp_path / "mine.jsonl.gz"
    library.write(path, puzzles[:10])
    chosen = library.choose(puzzles[:10], contract=contract)
    first = RatedSeries(PuzzleStore(tmp_path / "elsewhere"), chosen, random.Random(2)).next()
    assert first is not None
    typed(monkeypatch, first.costs[0][0], "q")
    assert barbu(["puzzle", "--file", str(path), "--contract", contract, "--seed", "2"]) == 0
    assert "Not the best" in flat(capsys.readouterr().out)
    assert [(a.puzzle, a.mode, a.rated) for a in PuzzleStore(data).read().history] == [(first.id, "file", True)]


def test_a_line_line_by_line(data: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    """A puzzle of several cards: the others' replies told between them, every card asked."""
    line = next(p for p in library.load() if p.line and p.line[0].replies)
    path = tmp_path / "line.jsonl"
    library.write(path, [line])
    typed(monkeypatch, *right(line))
    assert barbu(["puzzle", "--file", str(path)]) == 0
    out = flat(capsys.readouterr().out)
    assert "Right: " in out and "Now your next card." in out and f"Card 2 of {len(line.line) + 1} to find." in out
    assert out.count(" plays ") >= len(line.line[0].replies) and "is the best card" in out
    assert [a.solved for a in PuzzleStore(data).read().history] == [True]
