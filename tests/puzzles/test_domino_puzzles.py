"""Domino and Success puzzles (`barbu.puzzles.layout_find`): found in a real self-play match, each proved again
by `check.verify` (a fresh layout solver), rebuilt in a fresh match at the same layout position, themed "block"
only where the solution leaves more of the others without a card to lay; a tampered puzzle is refused; the
text of ``barbu puzzles show`` and the terminal's table show one."""

from __future__ import annotations

import dataclasses
import random
import re
from functools import cache
from pathlib import Path

import pytest
from tuikit import screen_text

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match
from barbu.classic.state import DOMINO_PLAY
from barbu.cli.puzzles_make import puzzle_text
from barbu.puzzles.check import verify
from barbu.puzzles.find import Tally, decisions, solver_view
from barbu.puzzles.layout_find import (
    action_text,
    find_layout,
    in_reach,
    layout_judge,
    layout_margin,
    moves_of,
    stuck,
)
from barbu.puzzles.model import OPEN, Puzzle
from barbu.solver.layout import LayoutSolver, layout_spec_of, layout_state_of, legal_moves
from barbu.tui.puzzle_app import PuzzleApp
from barbu.tui.puzzle_screen import PuzzleAnswer, PuzzleScreen
from barbu.tui.puzzle_series import RatedSeries
from barbu.tui.puzzle_store import PuzzleStore


@cache
def played(rules: str, seed: int) -> tuple[str, tuple[str, ...]]:
    """A whole match between rule players: its ruleset and actions, as a record holds them."""
    m = Match(rules, seed)
    play_out(m, [agent_for(m, "rule", seed * 1000 + s) for s in range(m.n)])
    return str(m.rules), tuple(str(a) for a in m.history)


@cache
def found(rules: str = "classic", seed: int = 1) -> tuple[list[Puzzle], Tally]:
    tally = Tally()
    r, actions = played(rules, seed)
    return find_layout(r, actions, f"selfplay:{seed}", tally), tally


def test_a_classic_match_gives_domino_puzzles_each_proved_again() -> None:
    puzzles, tally = found()
    assert puzzles and tally.rejected["forced"] > 0  # the lone pass and the lone card are never puzzles
    for p in puzzles:
        assert p.contract == "domino" and p.kind == OPEN and p.line == () and p.share is None
        assert verify(p) == [], p.id
        m = p.match()
        assert m.phase == DOMINO_PLAY and m.to_act() == p.seat
        assert min(c for _, c in p.costs) >= layout_margin(layout_spec_of(m)) == 10  # 45/20/5/-5: 10 apart
        assert p.theme in ("block", "lay")


def test_the_rebuilt_position_is_the_source_position() -> None:
    """Each puzzle's actions, fed to a fresh match, reach the layout the source match had at that decision."""
    r, actions = played("classic", 1)
    sources = {(pos.deal, pos.actions): pos for pos in decisions(r, actions, in_reach)}
    for p in found()[0]:
        src = sources[(p.source_deal, p.actions[1:])]  # the rebuild puts its first-dealer draw first
        assert solver_view(p.match()) == solver_view(src.match)


def test_only_one_best_move_by_the_margin_makes_a_puzzle() -> None:
    """Every reach position of the match judged again: the kept ones are exactly those with one best class
    and every other move at least the margin off."""
    r, actions = played("classic", 1)
    solvers: dict = {}
    kept = {p.actions[1:] for p in found()[0]}
    for pos in decisions(r, actions, in_reach):
        spec, state = layout_spec_of(pos.match), layout_state_of(pos.match)
        solver = solvers.setdefault(spec, LayoutSolver(spec))
        j = layout_judge(spec, state, solver)
        if j.reason is None:
            best = {m for m, v in j.values if v == j.values[0][1]}
            group = next(g for g in moves_of(spec, state, solver) if j.solution[0] in g)
            assert best <= set(group) and min(c for _, c in j.costs) >= layout_margin(spec)
        if j.reason in ("forced", "two-best", "all-equal", "small-margin"):
            assert pos.actions not in kept


def test_the_block_theme_is_what_the_solution_does() -> None:
    puzzles = found()[0] + found("classic", 2)[0]
    assert {p.theme for p in puzzles} == {"block", "lay"}
    for p in puzzles:
        m = p.match()
        spec, state = layout_spec_of(m), layout_state_of(m)
        move = {action_text(x): x for x in legal_moves(spec, state)}
        after = stuck(spec, state, move[p.solution[0]])
        fewer = any(stuck(spec, state, move[a]) < after for a, _ in p.costs)
        assert (p.theme == "block") == fewer


def test_a_tampered_domino_puzzle_is_refused() -> None:
    p = found()[0][0]
    swapped = dataclasses.replace(p, solution=(p.costs[0][0],), costs=((p.solution[0], p.costs[0][1]),))
    assert verify(swapped)
    assert any("costs" in x for x in verify(dataclasses.replace(p, costs=((p.costs[0][0], 1),) + p.costs[1:])))
    assert verify(dataclasses.replace(p, value=p.value + 5)) == [f"the value is {p.value}, not {p.value + 5}"]


def test_a_french_match_gives_success_puzzles() -> None:
    puzzles, _ = found("french", 1)
    success = [p for p in puzzles if p.contract == "success"]
    assert success and all(verify(p) == [] for p in success)


def test_barbu_puzzles_show_prints_the_layout() -> None:
    p = found()[0][0]
    text = "\n".join(puzzle_text(p))
    assert "Layout:" in text and "Each other card costs:" in text and "Domino" in text


@pytest.mark.asyncio
async def test_the_terminal_table_shows_the_rows_and_judges_the_move(tmp_path: Path) -> None:
    p = next(q for q in found()[0] + found("classic", 2)[0] if q.theme == "block")
    app = PuzzleApp(RatedSeries(PuzzleStore(tmp_path), [p], random.Random(1)), delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(400):
            await pilot.pause()
            if isinstance(app.screen, PuzzleScreen) and app.screen.waiting_for_human:
                break
        text = screen_text(app)
        assert "Domino" in text and "Find the best card" in text
        await pilot.press(*p.solution[0].lower(), "enter")
        for _ in range(400):
            await pilot.pause()
            if isinstance(app.screen, PuzzleAnswer):
                break
        answer = " ".join(screen_text(app).split())
        assert "Puzzle 1: solved" in answer and "Blocking" in answer


def test_every_theme_is_worded_by_each_front_end() -> None:
    """The CLI, the terminal and the web page each word every theme a puzzle may have (``block`` and ``lay``
    included), else a Domino puzzle's answer would fail to show."""
    from barbu.cli.puzzles_make import THEME_WORDS
    from barbu.puzzles.model import THEMES
    from barbu.tui.puzzle_words import THEMES as TUI_THEMES

    js = (Path(__file__).parents[2] / "src/barbu/web/static/js/puzzles.js").read_text(encoding="utf-8")
    for theme in THEMES:
        assert theme in THEME_WORDS and theme in TUI_THEMES
        said = re.findall(rf'(?<![\w-])"?{re.escape(theme)}"?: \(\) =>', js)
        assert len(said) == 2, theme  # its line and its name
