"""The rules guide: built from the rulesets, complete for every preset, its worked example the engine's."""

from __future__ import annotations

import html
import re

import pytest
from starlette.testclient import TestClient

from barbu.besigue.ruleset import OPTIONS as BESIGUE_OPTIONS
from barbu.besigue.ruleset import PRESETS as BESIGUE_PRESETS
from barbu.classic.match import Business, Match, settle
from barbu.classic.ruleset import OPTIONS, presets
from barbu.guide import Table, as_text, contract_summary, rules_guide
from barbu.web import Settings, create_app

RULESETS = [p.name for p in presets()] + [
    "classic(ravage_city=true, chinese_poker=true, rotation=quick)",
    "salad(players=5)",
    "french(players=3)",
]


#: The identifiers of a ruleset text: what is typed on the command line, never what a person reads on a rules page.
IDENTIFIERS = (
    {*OPTIONS, *BESIGUE_OPTIONS, "true", "false"}
    | {str(v) for spec in OPTIONS.values() for v in spec.choices or () if not str(v).isdigit()}
    | {
        v
        for allowed, _, _ in BESIGUE_OPTIONS.values()
        if isinstance(allowed, tuple)
        for v in allowed
        if not v.isdigit()
    }
)
#: A rules page of every preset, and of a table whose options differ from its preset's.
PAGES = (
    [p.name for p in presets()]
    + list(BESIGUE_PRESETS)
    + [
        "classic(rotation=quick, heart_lead=until_broken, doubling=none, undoubled_negative=play, trump_rules=italian, "
        "domino_ace=low)",
        "besigue(hand=8, seven=exchange, brisques=aces_and_tens, endgame=must_win)",
    ]
)


def identifiers_in(text: str) -> set[str]:
    """Identifiers written with an underscore (``heart_lead``, ``never_unless_only_hearts``), as typed."""
    return {w for w in re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", text) if w in IDENTIFIERS}


def page_text(page: str) -> str:
    """What a person reads on a page: its text without the markup (addresses and attributes left out)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def option_cells(page: str) -> list[tuple[str, str]]:
    """The option and value cells of a rules page's table of options (the last table of the page)."""
    table = page.rsplit('<div class="rules-table">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>", 1)[1], flags=re.S)
    cells = [[html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", r, flags=re.S)] for r in rows]
    return [(c[0], c[1]) for c in cells]


#: Words a translation may share with English: names, numbers, and French words that are English ones too.
SAME_IN_ENGLISH = {"Ravage City", "brisques", "no", "Bésigue"}
#: Options whose identifier is itself the word a person of that language reads.
AS_TYPED = {"en": {"players", "rotation", "doubling", "brisques"}, "fr": {"brisques"}, "it": set()}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One server for every rules page of this module."""
    db = tmp_path_factory.mktemp("rules") / "r.db"
    with TestClient(create_app(Settings(db_url=f"sqlite:///{db}"))) as c:
        yield c


@pytest.mark.parametrize("text", PAGES)
def test_the_rules_pages_show_options_in_words_in_every_language(text: str, site) -> None:
    """The rules pages word every option and value in the reader's language: no identifier as typed, in
    English, French or Italian (issue 30)."""
    pages = {lang: site.get(f"/rules/{text}", params={"lang": lang}) for lang in ("en", "fr", "it")}
    english = option_cells(pages["en"].text)
    assert english
    for lang, page in pages.items():
        assert page.status_code == 200
        shown = page_text(page.text)
        assert not identifiers_in(shown), (lang, identifiers_in(shown))
        cells = option_cells(page.text)
        assert len(cells) == len(english)
        for (name, value), (e_name, e_value) in zip(cells, english):
            for cell, e_cell in ((name, e_name), (value, e_value)):
                assert cell not in IDENTIFIERS or cell in AS_TYPED[lang], (lang, cell)
                if lang != "en" and not cell.replace("\u202f", "").replace(".", "").isdigit():
                    assert cell != e_cell or cell in SAME_IN_ENGLISH, (lang, cell)
    if text == "classic":
        assert ("leading hearts", "never, unless you hold only hearts") in english
        assert ("entame à cœur", "jamais, sauf si vous n'avez que des cœurs") in option_cells(pages["fr"].text)
        assert ("attacco a cuori", "mai, a meno di avere solo cuori") in option_cells(pages["it"].text)


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
    assert "seed 00" not in text_form and not identifiers_in(text_form)


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
    assert words == [
        "seat 1 doubled you, redoubled by you: you pay 24 to seat 1",
        "seat 1 doubled seat 2: seat 2 pays 6 to seat 1",
    ]
