"""The rules guide: built from the rulesets, complete for every preset, its worked example the engine's."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from barbu.guide import Table, as_text, contract_summary, rules_guide
from barbu.classic.match import Business, Match, settle
from barbu.classic.ruleset import presets
from barbu.web import Settings, create_app

RULESETS = [p.name for p in presets()] + ["classic(ravage_city=true, chinese_poker=true, rotation=quick)",
                                          "salad(players=5)", "french(players=3)"]


@pytest.mark.parametrize("text", RULESETS)
def test_every_preset_has_a_complete_guide_with_every_contract_and_its_values(text: str) -> None:
    guide = rules_guide(text)
    headings = [s.heading for s in guide.sections]
    assert headings[0] == "How a match runs" and "The contracts and what they are worth" in headings
    table = next(b for s in guide.sections for b in s.blocks if isinstance(b, Table) and b.header[0] == "contract")
    m = Match(text)
    assert [r[0] for r in table.rows] == [c.name for c in m.contracts]
    for row in table.rows:
        assert row[1] and row[1] != "no points"
        assert any(ch.isdigit() for ch in row[1]), row
    text_form = as_text(guide)
    assert "seed 00" not in text_form and "heart_lead" not in text_form


def test_values_are_read_from_the_contracts() -> None:
    assert "−6 for each queen" in contract_summary(Match("classic").rules, "no-queens")
    assert "−6 for A♥" in contract_summary(Match("classic").rules, "no-hearts")
    assert "−2 for each other ♥" in contract_summary(Match("classic").rules, "no-hearts")
    assert "1st +45, 2nd +20, 3rd +5, 4th −5" in contract_summary(Match("classic").rules, "domino")
    assert "−8 for each queen" in contract_summary(Match("classic(ravage_city=true)").rules, "no-queens")


def test_the_doubling_example_is_the_engines_settlement() -> None:
    guide = rules_guide("classic")
    doubling = next(s for s in guide.sections if s.heading == "Doubling")
    table = next(b for b in doubling.blocks if isinstance(b, Table))
    taken = [int(x.replace("−", "-").replace("+", "")) for x in table.rows[0][1:]]
    after = [int(x.replace("−", "-").replace("+", "")) for x in table.rows[1][1:]]
    assert after == settle(taken, [Business(1, 0, redoubled=True), Business(1, 2)])
    assert sum(after) == sum(taken)
    assert any("obligation" in b for b in doubling.blocks if isinstance(b, str))
    assert not any(s.heading == "Doubling" for s in rules_guide("french").sections)


def test_the_rules_pages(tmp_path) -> None:
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path / 'r.db'}"))) as c:
        index = c.get("/rules")
        assert index.status_code == 200 and all(f"/rules/{p.name}" in index.text for p in presets())
        page = c.get("/rules/classic")
        assert page.status_code == 200 and "Worked example" in page.text and "−6 for each queen" in page.text
        assert c.get("/rules/classic(rotation=quick)").status_code == 200
        assert c.get("/rules/nonsense").status_code == 404
        assert "<script>" not in c.get("/rules/<script>").text


def test_settlement_words_match_settle() -> None:
    from barbu.guide import settlement_words, settlements
    base = [-12, 0, -6, -6]
    doubles = [Business(1, 0, redoubled=True), Business(1, 2)]
    final = settle(base, doubles)
    moved = [0] * 4
    for payer, receiver, amount, _ in settlements(base, doubles):
        moved[payer] -= amount
        moved[receiver] += amount
    assert [b + m for b, m in zip(base, moved)] == final
    names = ["you", "seat 1", "seat 2", "seat 3"]
    words = settlement_words(base, doubles, lambda s: names[s])
    assert words == ["seat 1 doubled you, redoubled by you: you pay 24 to seat 1",
                     "seat 1 doubled seat 2: seat 2 pays 6 to seat 1"]
