"""The double-dummy table on the command line: ``barbu show --deal N --dd`` and ``barbu analyze``.

Small budgets (``--dd-seconds 0.02``: 300,000 positions a cell) keep these quick; the
budget is counted in positions, so the same cells finish on every machine and run.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import Console

from barbu.agents import make_agent
from barbu.analysis.ddtable import Cell, DDTable, Row, dd_table, deal_start
from barbu.classic.match import CHANCE, Match
from barbu.cli.ddview import cell_text, contract_label, render
from barbu.cli.main import main
from barbu.cli.wording import seat_names
from barbu.i18n import use
from barbu.records.barbu import read_record, write_record

GOLDEN = Path(__file__).parent / "golden" / "classic-seed7.jsonl"
SECONDS = 0.02


@pytest.fixture(autouse=True)
def english():
    use("en")
    yield
    use("en")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def golden_start(deal: int = 1) -> tuple[Match, Match]:
    """The golden record's match at deal ``deal``'s first decision, and the whole match replayed."""
    record = read_record(str(GOLDEN))
    actions = [text for _n, text in record.actions]
    start = deal_start(str(record.rules), record.seed, actions, deal)
    whole = Match(str(record.rules), record.seed)
    for text in actions:
        whole.apply(whole.parse_action(text))
    return start, whole


def test_a_cell_says_in_words_what_the_solver_proved_and_no_more():
    assert cell_text(Cell(-8, -8, 0, -26, 0)) == "-8"
    assert cell_text(Cell(-8, -4, 0, -26, 0)) == "at least -8, no more than -4"
    # the least is still the static bound: nothing proved of it
    assert cell_text(Cell(-26, -4, 0, -26, 0)) == "no more than -4"
    assert cell_text(Cell(5, 65, 0, 0, 65)) == "at least 5"
    assert cell_text(Cell(-26, 0, 0, -26, 0)) == "not proved: between -26 and 0"  # never a bare "?"
    assert cell_text(Cell(0, 0, 0, 0, 65)) == "0"  # exact at a bound is still exact


def test_a_cell_in_words_in_french_and_italian():
    from barbu.i18n import current, use

    was = current()
    try:
        use("fr")
        assert cell_text(Cell(-8, -4, 0, -26, 0)) == "au moins -8, au plus -4"
        assert cell_text(Cell(-26, 0, 0, -26, 0)) == "non prouvé\u00a0: entre -26 et 0"
        use("it")
        assert cell_text(Cell(5, 65, 0, 0, 65)) == "almeno 5"
        assert cell_text(Cell(-26, -4, 0, -26, 0)) == "al massimo -4"
    finally:
        use(was)


def test_the_table_marks_the_contract_played_the_declarer_and_the_contracts_left_out():
    start, _whole = golden_start()
    table = DDTable(
        1,
        3,
        tuple(start.hands),
        [
            Row("no-queens", None, [Cell(lo, hi, 0, -24, 0) for lo, hi in ((-6, -6), (-24, -12), (-18, 0), (-24, 0))]),
            Row("trumps", 0, [Cell(lo, hi, 0, 0, 65) for lo, hi in ((0, 0), (0, 65), (10, 20), (0, 65))], chosen=True),
        ],
        ["domino"],
    )
    console = Console(record=True, width=200, color_system=None)
    with seat_names(["South", "West", "North", "East"]):  # as barbu show and barbu analyze name them
        console.print(render(start, table, 0.5))
    text = console.export_text()
    assert "Double-dummy table, deal 1 (declarer: East)" in text and "East ★" in text
    lines = text.splitlines()
    queens = next(x for x in lines if "No queens" in x)
    trumps = next(x for x in lines if "Trumps ♠" in x)
    assert "-6" in queens and "no more than -12" in queens and "at least -18" in queens
    assert queens.rstrip().endswith("not proved: between -24 and 0") and "?" not in queens
    assert trumps.lstrip().startswith("▶") and "at least 10, no more than 20" in trumps
    assert "▶" not in queens
    assert "ran out of its time for a cell (0.5\u00a0s each" in text
    assert "Not in the table, having no trick play: Domino." in text


def test_show_dd_prints_the_deal_and_its_table(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")  # each cell on its line: the words of a range are long
    # the command line's console was made at import, its width read then (80 in a test process without a
    # terminal): widened here too, or a cell proving both bounds wraps onto a second line
    from barbu.cli import common

    monkeypatch.setattr(common.console, "_width", 250)
    code, out, err = run(capsys, "show", str(GOLDEN), "--deal", "1", "--dd", "--dd-seconds", str(SECONDS))
    assert code == 0, err
    assert "Deal 1" in out and "Tricks" in out  # the deal as before
    assert "Double-dummy table, deal 1 (declarer: East, random)" in out
    start, whole = golden_start()
    table = dd_table(start, seconds=SECONDS, chosen=(whole.results[0].contract, whole.results[0].trump))
    # this small budget finishes some cells and not others: both kinds are shown, each as it was proved
    assert any(c.exact for r in table.rows for c in r.cells) and not table.exact
    lines = out.splitlines()
    for row in table.rows:
        label = contract_label(start, row.contract, row.trump, None)
        line = next(
            x for x in lines if x.strip().lstrip("▶ ").startswith(label + " ") or x.strip().lstrip("▶ ") == label
        )
        cells = [cell_text(c) for c in row.cells]
        assert line.split(label, 1)[1].split() == " ".join(cells).split(), (label, line, cells)
        assert line.lstrip().startswith("▶") == row.chosen
    assert sum(r.chosen for r in table.rows) == 1
    assert "what that seat scores at that contract (doubles left out)" in out
    assert "ran out of its time for a cell" in out and "Not in the table, having no trick play: Domino." in out


def test_show_dd_in_french(capsys):
    code, out, err = run(capsys, "--lang", "fr", "show", str(GOLDEN), "--deal", "1", "--dd", "--dd-seconds", "0.005")
    assert code == 0, err
    assert "Table à cartes ouvertes, donne 1 (déclarant : Est, joueur au hasard)" in " ".join(out.split())  # may wrap
    assert "Hors de la table, faute de jeu en plis\u00a0: Réussite." in out


def test_dd_refusals_are_plain_words_and_print_nothing(capsys, tmp_path):
    code, out, err = run(capsys, "show", str(GOLDEN), "--dd")
    assert code == 2 and not out and "--dd shows the double-dummy table of one deal: give it with --deal N" in err
    for bad in ("0", "-1", "soon", "inf"):
        with pytest.raises(SystemExit) as e:
            main(["show", str(GOLDEN), "--deal", "1", "--dd", "--dd-seconds", bad])
        assert e.value.code == 2
        out = capsys.readouterr()
        assert not out.out and "--dd-seconds" in out.err and ("greater than 0" in out.err or "not a number" in out.err)
    code, out, err = run(capsys, "show", str(GOLDEN), "--deal", "99", "--dd")
    assert code == 2 and "there is no deal 99" in err and not out
    scottish = tmp_path / "scottish.jsonl"
    m = Match("scottish", 3)
    bots = [make_agent("random", s) for s in range(4)]
    rng = random.Random(3)
    while not m.results:
        actor = m.to_act()
        m.apply(m.sample_chance(rng) if actor == CHANCE else bots[actor].act(m.view(actor)))
    write_record(m, str(scottish))
    code, out, err = run(capsys, "show", str(scottish), "--deal", "1", "--dd")
    assert code == 2 and not out and "not available for the Scottish game" in err
    besigue = tmp_path / "besigue.jsonl"
    besigue.write_text(
        '{"type": "header", "format": "barbu-record", "version": 1, "game": "besigue", "rules": "besigue", "seed": 1}\n'
    )
    code, out, err = run(capsys, "show", str(besigue), "--deal", "1", "--dd")
    assert code == 2 and not out and "not for Bésigue" in err


def test_analyze_prints_each_weighed_deals_table_unless_told_not_to(capsys):
    common = (
        "analyze",
        str(GOLDEN),
        "--deal",
        "1",
        "--seat",
        "3",
        "--samples",
        "2",
        "--seconds",
        "0.05",
        "--exact-cards",
        "0",
    )
    code, out, err = run(capsys, *common, "--dd-seconds", "0.005")
    assert code == 0, err
    assert out.count("Double-dummy table, deal 1 (declarer: East, random)") == 1
    assert out.index("Deal 1: Trumps") < out.index("Double-dummy table") < out.index("what each decision cost")
    assert "▶ " in out and "Not in the table, having no trick play: Domino." in out
    code, out, err = run(capsys, *common, "--no-dd")
    assert code == 0, err
    assert "Double-dummy" not in out and "Deal 1: Trumps" in out


def test_a_deal_with_no_trick_play_left_says_so():
    start, _whole = golden_start()
    console = Console(record=True, width=100, color_system=None)
    console.print(render(start, DDTable(7, 3, tuple(start.hands), [], ["domino"]), 2.0, "domino"))
    text = console.export_text()
    assert "No contract with trick play was left to the declarer at this deal." in text
    assert "Not in the table, having no trick play: ▶ Domino." in text
    assert "▶ the contract chosen in the game" in text
