"""What a seat or a spectator is sent, built from the engine's views."""

from __future__ import annotations

import json
import random

import pytest
from leak_oracle import cards_named

from barbu.classic.chinese import Arrangements
from barbu.classic.match import CHANCE, Match
from barbu.web.tables.views import LEGAL_LIMIT, public_state, redact, scoresheet, view_json


def chinese_deal_half_arranged() -> Match:
    m = Match("classic(chinese_poker=true)", seed=11)
    while m.to_act() == CHANCE:
        m.play_chance()
    m.apply("contract chinese-poker")
    while m.phase_name == "doubling":
        m.apply("pass")
    for _ in range(2):
        m.apply(Arrangements(m.hands[m.to_act()])[0])
    return m


def test_rows_stay_face_down_for_everyone_but_their_owner() -> None:
    m = chinese_deal_half_arranged()
    views = [m.view(s) for s in range(4)]
    first = m.declarer
    own = view_json(m, views, first, full=True, actors=[CHANCE] * len(m.history))
    other = view_json(m, views, (first + 3) % 4, full=True, actors=[CHANCE] * len(m.history))
    watcher = view_json(m, views, None, full=True, actors=[CHANCE] * len(m.history))
    arranged = [e["action"] for e in own["log"] if e["action"].startswith("arrange")]
    assert len(arranged) == 1 and cards_named(arranged[0]) == m.hands[first]
    assert sum(e["action"] == "hidden" for e in other["log"]) == 2
    assert sum(e["action"] == "hidden" for e in watcher["log"]) == 2
    assert watcher["hand"] is None and watcher["legal"] is None


def test_too_many_choices_are_counted_not_listed() -> None:
    m = chinese_deal_half_arranged()
    seat = m.to_act()
    state = view_json(m, [m.view(s) for s in range(4)], seat)
    assert state["legal"] is None and state["legal_count"] == len(Arrangements(m.hands[seat])) > LEGAL_LIMIT
    assert len(state["hand"]) == 13


def test_a_seat_gets_its_legal_actions_as_text_and_others_get_none() -> None:
    m = Match("classic", seed=3)
    while m.to_act() == CHANCE:
        m.play_chance()
    views = [m.view(s) for s in range(4)]
    actor = m.to_act()
    assert view_json(m, views, actor)["legal"] == [str(a) for a in m.legal_actions()]
    assert view_json(m, views, (actor + 1) % 4)["legal"] is None


def test_error_texts_keep_only_the_cards_the_reader_sees() -> None:
    qh, ts = 1 << 23, 1 << 8  # Q♥ and 10♠
    text = "like QH or TS, Q♥ or 10♠, and 'arrange AKQJT.-.-.- -.AKQJT.-.- -.-.AKQ.-'"
    assert redact(text, 0) == "like … or …, … or …, and 'arrange … … …'"
    assert redact(text, qh | ts).startswith("like QH or TS, Q♥ or 10♠")


def test_the_scoresheet_names_no_card() -> None:
    m = Match("classic", seed=4)
    while len(m.results) < 3:
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(m.legal_actions()[-1])
    sheet = scoresheet(m)
    assert len(sheet["deals"]) == 3 and cards_named(json.dumps(sheet)) == 0
    assert sheet["deals"][-1]["totals"] == m.totals_after(3)


PRESET_CASES = [
    "classic",
    "classic(chinese_poker=true)",
    "italian",
    "french(players=3)",
    "french(players=6)",
    "salad(players=5)",
    "scottish",
]


@pytest.mark.parametrize("rules", PRESET_CASES)
def test_the_shared_part_of_a_state_is_the_same_from_every_seat(rules: str) -> None:
    """The server builds `public_state` once per move from seat 0's view and sends it to everyone:
    that is sound only if every seat's own view gives exactly the same."""
    m = Match(rules, seed=5)
    rng = random.Random(5)
    checked = 0
    while m.to_act() is not None and checked < 600:
        views = m.views()
        for full in (False, True):
            first = public_state(m, views[0], full)
            for v in views[1:]:
                assert public_state(m, v, full) == first, f"{rules}: seat {v.seat} at action {len(m.history)}"
        if m.to_act() == CHANCE:
            m.play_chance()
        else:
            m.apply(rng.choice(m.legal_actions()))
        checked += 1


@pytest.mark.parametrize(
    "rules, ranks",
    [("classic", "23456789TJQKA"), ("italian(domino_ace=low)", "A23456789TJQK"), ("scottish", "789TJQKA")],
)
def test_domino_rows_come_with_the_ranks_they_may_hold(rules: str, ranks: str) -> None:
    """The browser lays each Domino or Patience card at its rank's place in a row of these ranks."""
    m = Match(rules, seed=3)
    rng = random.Random(3)
    while m.to_act() is not None:
        if m.to_act() == CHANCE:
            m.play_chance()
            continue
        legal = m.legal_actions()
        rows = [a for a in legal if str(a) in ("contract domino", "contract patience")]
        m.apply(rows[0] if rows else rng.choice(legal))
        state = public_state(m, m.view(0))
        if "rows" in state and any(state["rows"]):
            assert state["row_ranks"] == ranks
            for row in state["rows"]:  # each row runs along these ranks without a gap
                placed = [ranks.index(c[0]) for c in row]
                assert placed == list(range(placed[0], placed[0] + len(placed))) if placed else True
            return
    pytest.fail("no Domino or Patience was played")
