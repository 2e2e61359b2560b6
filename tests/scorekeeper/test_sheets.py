"""The score sheet's layout model: every number read from the engine's deal results, laid out as on paper."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import play_out as random_match

from barbu.agents.play import agent_for, play_out
from barbu.besigue import BesigueGame
from barbu.besigue.ruleset import BesigueRules
from barbu.classic.ruleset import ruleset
from barbu.core.errors import BarbuError
from barbu.scorekeeper.sheet import blank_sheets, points, sheet_for
from barbu.scottish.scoresheet import sheet_from_results

BARBU_RULES = [
    "classic",
    "classic(rotation=quick)",
    "classic(ravage_city=true, chinese_poker=true)",
    "italian",
    "italian-six",
    "salad(players=5)",
    "salad(players=3)",
    "french",
    "french(players=6)",
    "french(players=3, rotation=dealer)",
]
NAMES = ["Anna", "Bernard", "Carla", "Dario", "Eve", "Fabio"]


def deal_rows(sheet):
    return [r for b in sheet.blocks for r in b.rows if r.kind == "deal"]


@pytest.mark.parametrize("text", BARBU_RULES)
def test_barbu_sheet_totals_are_the_matchs(text):
    m = random_match(text, 7)
    n = m.n
    sheet = sheet_for(m.rules, NAMES[:n], m.results)
    assert sheet.totals == tuple(points(x) for x in m.totals)
    best = m.standings()[0]
    assert sheet.standings[0].name == NAMES[best[0]] and sheet.standings[0].total == points(best[1])
    rows = deal_rows(sheet)
    assert sorted(r.number for r in rows) == list(range(1, m.total_deals + 1))
    by_number = {r.number: r for r in rows}
    for r in m.results:  # each played row carries the deal's own points
        assert [c.text for c in by_number[r.number].cells] == [points(x, signed=True) for x in r.scores]
    assert sheet.chart[0] == (0.0,) * n and sheet.chart[-1] == tuple(float(x) for x in m.totals)
    assert len(sheet.chart) == m.total_deals + 1
    assert not any(r.kind == "open" for b in sheet.blocks for r in b.rows)  # a finished game fills every box


@pytest.mark.parametrize("text", ["classic", "salad(players=5)", "italian-six"])
def test_dealer_rotation_has_a_block_per_series_listing_every_contract_in_order(text):
    m = random_match(text, 3)
    contracts = [c.name for c in m.contracts]
    for k in (0, 5, len(m.results)):  # blank, half-filled, finished: the same rows
        sheet = sheet_for(m.rules, NAMES[: m.n], m.results[:k])
        assert len(sheet.blocks) == m.n
        first = m.results[0].dealer if k else 0
        for i, b in enumerate(sheet.blocks):
            assert [r.label for r in b.rows if r.kind in ("deal", "open")] == contracts
            assert b.title.startswith(NAMES[(first + i) % m.n])
        assert len(deal_rows(sheet)) == k
        assert sum(r.kind == "open" for b in sheet.blocks for r in b.rows) == m.total_deals - k


def test_a_series_running_total_is_the_match_total_after_that_series():
    m = random_match("classic", 11)
    sheet = sheet_for(m.rules, NAMES[:4], m.results)
    for i, b in enumerate(sheet.blocks):
        running = next(r for r in b.rows if r.label == "Running total")
        assert [c.text for c in running.cells] == [points(x) for x in m.totals_after(7 * (i + 1))]


def test_italian_six_series_points_are_on_the_sheet():
    m = random_match("italian-six", 5)
    sheet = sheet_for(m.rules, NAMES[:4], m.results)
    ends = [r for r in m.results if r.series]
    assert len(ends) == 4
    series_rows = [r for b in sheet.blocks for r in b.rows if r.label == "Series points"]
    assert [[c.text for c in row.cells] for row in series_rows] == [[points(x, True) for x in r.series] for r in ends]


def test_quick_rotation_keeps_the_grid_of_crosses_and_the_deal_by_deal_rows():
    m = random_match("french(players=4)", 2)
    half = m.results[:9]
    sheet = sheet_for(m.rules, NAMES[:4], half)
    g = sheet.grid
    assert g is not None and g.columns == tuple(c.name for c in m.contracts)
    crosses = {(s, c) for s, row in enumerate(g.marks) for c, mark in enumerate(row) if mark}
    keys = [c.key for c in m.contracts]
    assert crosses == {(r.declarer, keys.index(r.contract)) for r in half}
    rows = [r for r in sheet.blocks[0].rows]
    assert len(rows) == m.total_deals
    assert [r.number for r in rows] == list(range(1, m.total_deals + 1))
    assert [r.kind for r in rows].count("open") == m.total_deals - 9
    # the running totals under the points, deal by deal
    assert [c.running for c in rows[8].cells] == [points(x) for x in m.totals_after(9)]
    assert sheet.standings == ()  # not over: no standings yet
    assert "Lowest total wins." in sheet.legend  # French: highest_wins is False


def test_french_standings_put_the_lowest_total_first():
    m = random_match("french(players=3)", 4)
    sheet = sheet_for(m.rules, NAMES[:3], m.results)
    assert sheet.standings[0].total == points(min(m.totals))


def test_doubles_and_trumps_are_written_on_the_deal_row():
    m = random_match("classic", 9)
    sheet = sheet_for(m.rules, NAMES[:4], m.results)
    rows = {r.number: r for r in deal_rows(sheet)}
    doubled = next(r for r in m.results if r.doubles)
    b = doubled.doubles[0]
    assert f"{NAMES[b.doubler][:3]} ×{NAMES[b.doubled][:3]}" in rows[doubled.number].detail
    trumps = next(r for r in m.results if r.trump is not None)
    assert "♠♥♦♣"[trumps.trump] in rows[trumps.number].detail


def test_scottish_sheet_is_the_scoresheet_modules():
    m = random_match("scottish", 6)
    sheet = sheet_for(m.rules, NAMES[:4], m.results)
    expected = sheet_from_results(m.results, 4)
    rows = [r for r in sheet.blocks[0].rows if r.kind == "deal"]
    want = [
        [points(x, True) if x else "·" for x in rnd.cells[s]] + [points(rnd.totals[s], True), points(rnd.running[s])]
        for rnd in expected.sets[0].rounds
        for s in range(4)
    ]
    assert [[c.text for c in r.cells] for r in rows] == want
    assert sheet.totals == tuple(points(x) for x in expected.sets[-1].overall)
    assert sheet.totals == tuple(points(x) for x in m.totals)
    glyphs = [g for rnd in expected.sets[0].rounds for g in rnd.glyphs if g.call]
    shown = " ".join(c.glyphs for r in rows for c in r.cells)
    for g in glyphs:  # every glyph of a call sits beside its points
        assert g.name.split("-")[0].lower() in shown.lower()


def test_blank_scottish_sheet_has_every_round_of_every_set():
    sheet = sheet_for(ruleset("scottish(sets=2)"), None)
    assert len(sheet.blocks) == 2
    headings = [r.label for r in sheet.blocks[1].rows if r.kind == "heading"]
    assert headings[:5] == [f"Player Round {k}" for k in range(1, 5)] + ["Silly Round (cut calls)"]


def besigue_game(seed: int) -> BesigueGame:
    g = BesigueGame("besigue", seed)
    return play_out(g, [agent_for(g, "random", seed + s) for s in (0, 1)])


def test_besigue_sheet_reads_each_deals_melds_brisques_and_totals():
    g = besigue_game(3)
    sheet = sheet_for(g.rules, ["Anna", "Bernard"], g.results)
    rows = deal_rows(sheet)
    assert len(rows) == len(g.results) and not any(r.kind == "open" for r in sheet.blocks[0].rows)
    assert sheet.totals == tuple(points(x) for x in g.totals)
    assert [name for name, _ in sheet.groups] == ["Anna", "Bernard"]
    width = len(sheet.columns) // 2
    assert sheet.columns[:width] == ("Declarations", "7s", "Brisques", "Last", "Deal", "Total")
    for row, r in zip(rows, g.results):
        for s in (0, 1):
            melds, sevens, brisques, last, deal, total = (c.text for c in row.cells[s * width : (s + 1) * width])
            assert deal == points(r["scores"][s]) and total == points(r["totals"][s])
            assert brisques == points(r["brisques"][s])
            assert (last == "10") == (r["last_trick"] == s)
            for kind, value in r["melds"][s]:
                assert f"{value}" in melds
            # the parts written on the sheet add up to the deal score
            parts = sum(v for _, v in r["melds"][s]) + sum(int(x) for x in (sevens, brisques, last) if x != "—")
            assert parts == r["scores"][s]
    assert sheet.standings[0].total == points(max(g.totals))
    blank = sheet_for(BesigueRules(), None)
    assert all(r.kind == "open" for r in blank.blocks[0].rows) and len(blank.blocks[0].rows) >= 10


def test_notes_are_shown_on_their_deal_and_the_rest_at_the_foot():
    m = random_match("classic", 1)
    flag = "Bernard did not double the dealer as the obligation required"
    sheet = sheet_for(m.rules, NAMES[:4], m.results[:10], {3: [flag], 99: ["a note for no deal on the sheet"]})
    row = next(r for r in deal_rows(sheet) if r.number == 3)
    assert row.notes == (flag,)
    assert sheet.notes == ("Deal 99: a note for no deal on the sheet",)


def test_a_deal_nobody_doubled_says_not_played_once_and_is_no_warning():
    from barbu.scorekeeper import Keeper
    from barbu.tui.score_sheet import flag_lines, sheet_rows

    k = Keeper("classic", NAMES[:4], first=0)
    k.add({"contract": "no-king", "doubles": []})  # not played: the keeper notes it
    k.add({"contract": "no-queens", "doubles": [[1, 0]], "outcome": {"QS": 1, "QH": 2, "QD": 3, "QC": 3}})
    assert k.flags[1]  # the note is kept (the web page tells it apart by its code)
    sheet = sheet_for(k.rules, k.names, k.results, k.flags)
    first = next(r for r in deal_rows(sheet) if r.number == 1)
    assert "not played" in first.detail and first.notes == () and sheet.notes == ()
    assert flag_lines(k) == [] and not any(row.flagged for row in sheet_rows(k))
    for key in ("no-hearts", "no-tricks", "no-last-two", "trumps", "domino"):  # nobody doubles Anna
        k.add(
            {"contract": key, "doubles": []}
            if key not in ("trumps", "domino")
            else {
                "contract": key,
                "doubles": [],
                **(
                    {"trump": "S", "outcome": {"tricks": [4, 3, 3, 3]}}
                    if key == "trumps"
                    else {"rank": "J", "outcome": {"order": [1, 2, 3]}}
                ),
            }
        )
    assert flag_lines(k) and any("obligation" in line for line in flag_lines(k))
    assert any(row.flagged for row in sheet_rows(k))
    assert any("obligation" in n for r in deal_rows(sheet_for(k.rules, k.names, k.results, k.flags)) for n in r.notes)


def test_names_must_match_the_player_count():
    with pytest.raises(BarbuError, match="4 names"):
        sheet_for(ruleset("classic"), ["Anna", "Bernard"])
    assert sheet_for(ruleset("classic"), None).names == ("", "", "", "")  # a blank sheet: names written in
    m = random_match("classic", 1)
    assert sheet_for(m.rules, None, m.results[:1]).names == ("South", "West", "North", "East")  # places, never numbers


def test_points_are_written_as_on_paper():
    assert points(25, signed=True) == "+25" and points(-110) == "-110" and points(0, signed=True) == "0"
    assert points(Fraction(25, 2)) == "12½" and points(Fraction(-1, 3)) == "-⅓"
    assert points(Fraction(7, 5)) == "7/5"


def test_blank_sheets_cover_every_preset_and_player_count():
    combos = blank_sheets()
    assert ("classic", 4) in combos and ("besigue", 2) in combos and ("besigue-english", 2) in combos
    assert {k for p, k in combos if p == "french"} == {3, 4, 5, 6}
    assert {k for p, k in combos if p == "salad"} == {3, 4, 5, 6}
