"""The Scottish scoresheet (seed 004): hand-built deals for every glyph, and the booklet's appendix
scoresheet checked through the same scoring code."""

from __future__ import annotations

import random

from scottish_helpers import deal, finish_deal, new_match, play, top_deal

from barbu import CHANCE, Match
from barbu.scottish.scoresheet import (
    FULL_TOTALS,
    Glyph,
    RoundInput,
    build_sheet,
    deal_glyphs,
    ordinal,
    round_problems,
    sheet_from_results,
    sheet_lines,
)

SPADES, HEARTS, DIAMONDS, CLUBS = "AKQJT987.-.-.-", "-.AKQJT987.-.-", "-.-.AKQJT987.-", "-.-.-.AKQJT987"
LOW_HD, HIGH_HD = "-.T987.T987.-", "-.AKQJ.AKQJ.-"


def glyphs(m: Match, k: int = -1) -> set[tuple[int, str, str | None]]:
    return {tuple(g) for g in m.results[k].scottish.glyphs}


def play_deal(m: Match, hands, call: str, script: str = "") -> None:
    deal(m, hands)
    m.apply(call)
    play(m, script)
    finish_deal(m)


# ---------------------------------------------------------------------- the negative calls' glyphs


def test_spiders_first_second_third_choice_and_the_dangly_spider():
    """The Caller (seat 0) holds A K of every suit and so takes every trick: a Spider on each call, FC/SC/TC
    on his first three calls, and a Dangly Spider for the Jack of hearts on his Hearts call."""
    m = new_match(caller=0)
    play_deal(m, top_deal(0), "aces")
    assert glyphs(m) == {(0, "spider", "aces"), (0, "fc", "aces")}
    assert list(m.results[-1].scores) == [-80, 0, 0, 0]
    play_deal(m, top_deal(0), "queens")
    assert glyphs(m) == {(0, "spider", "queens"), (0, "sc", "queens")}
    play_deal(m, top_deal(0), "hearts")
    assert glyphs(m) == {(0, "spider", "hearts"), (0, "tc", "hearts"), (0, "dangly-spider", "hearts")}
    play_deal(m, top_deal(0), "king+tricks")  # the fourth call: no choice letters, and no Rumping Ripple for two
    assert glyphs(m) == {(0, "spider", "king"), (0, "spider", "tricks")}
    play_deal(m, top_deal(0), "double-patience")
    g = glyphs(m)
    assert (0, "constipatience", "patience-1") in g  # nothing else was left
    last = m.results[-1].finishing[-1] == 0
    assert ((0, "cherry-tomato", "patience-1") in g) == last


def test_eggs_for_a_non_caller_but_never_on_the_king():
    m = new_match(caller=0)
    play_deal(m, top_deal(2), "aces")
    assert glyphs(m) == {(2, "egg", "aces")}
    play_deal(m, top_deal(2), "queens+hearts")
    assert glyphs(m) == {(2, "egg", "queens"), (2, "egg", "hearts")}  # a non-caller's Jack of hearts: no spider
    play_deal(m, top_deal(2), "king+tricks")
    assert glyphs(m) == {(2, "egg", "tricks")}
    assert list(m.results[-1].scores) == [0, 0, -180, 0]


def test_rumping_ripple_half_or_more_of_three_calls_in_one_deal():
    m = new_match(caller=0)
    play_deal(m, top_deal(1), "aces+queens+hearts")
    assert glyphs(m) == {(1, "egg", "aces"), (1, "egg", "queens"), (1, "egg", "hearts"), (1, "rumping-ripple", None)}
    # by the numbers: half of Aces (-40), Queens (-30) and Tricks (-40) is enough; a player short on one is not
    g = deal_glyphs(
        ("aces", "queens", "tricks"),
        [(-40, -40, 0, 0), (-30, -15, -15, 0), (-40, -20, -20, 0)],
        caller=None,
        deal_in_round=1,
        won=[0] * 4,
        tricks=(),
        finishing=(),
        double_offered=False,
        forced=False,
    )
    assert g == (Glyph(0, "rumping-ripple"),)


def test_piranha_the_king_of_hearts_won_with_an_eight():
    m = new_match(caller=0)
    hands = [DIAMONDS, SPADES, HEARTS, CLUBS]
    play_deal(m, hands, "king", "8S KH 7C 7D")  # seat 1 leads the 8 of spades; nobody can follow
    assert glyphs(m) == {(1, "piranha", "king")}
    assert list(m.results[-1].scores) == [0, -100, 0, 0] and len(m.results[-1].tricks) == 1
    m = new_match(caller=0)
    play_deal(m, hands, "king", "9S KH 7C 7D")  # a 9 is no piranha
    assert glyphs(m) == set() and list(m.results[-1].scores) == [0, -100, 0, 0]


def test_spider_and_piranha_the_caller_wins_his_own_king_with_an_eight():
    m = new_match(caller=0)
    play_deal(m, ["8.-.AKQJT98.-", "AKQJT97.-.7.-", HEARTS, CLUBS], "king", "7S KH 7C 8S")
    assert glyphs(m) == {(0, "spider", "king"), (0, "piranha", "king"), (0, "fc", "king")}


# ---------------------------------------------------------------------- the Patience glyphs

BANANA_HANDS = [SPADES, LOW_HD, HIGH_HD, CLUBS]  # the Caller (0) goes out first with a run of all his spades
BANANA = "pass; JH; JC; lay 7S 8S 9S TS JS QS KS AS"
TOMATO_HANDS = [LOW_HD, SPADES, CLUBS, HIGH_HD]  # the Caller (0) is stuck behind seat 3's Jacks: fourth
TOMATO = "lay 7S 8S 9S TS JS QS KS AS; lay 7C 8C 9C TC JC QC KC AC; JH; TH; QH; 9H; KH; 8H; AH; 7H; lay JD QD KD AD"


def test_banana_a_single_patience_won_when_the_double_was_open():
    m = new_match(caller=0)
    play_deal(m, BANANA_HANDS, "patience", BANANA)
    r = m.results[-1]
    assert r.finishing[0] == 0 and r.scores[0] == 120
    assert glyphs(m) == {(0, "banana", "patience-1")}


def test_beef_tomato_fourth_in_a_patience_chosen_freely():
    m = new_match(caller=0)
    play_deal(m, TOMATO_HANDS, "patience", TOMATO)
    assert m.results[-1].finishing == (1, 2, 3, 0)
    assert list(m.results[-1].scores) == [0, 120, 60, 30]
    assert glyphs(m) == {(0, "beef-tomato", "patience-1")}


def test_fruit_bowl_banana_and_tomato_in_one_round():
    m = new_match(caller=0)
    play_deal(m, BANANA_HANDS, "patience", BANANA)
    play_deal(m, TOMATO_HANDS, "patience", TOMATO)
    assert glyphs(m) == {(0, "beef-tomato", "patience-2")}
    play_deal(m, top_deal(1), "the lot")
    sheet = sheet_from_results(m.results)
    rnd = sheet.rounds[0]
    assert rnd.complete and Glyph(0, "fruit-bowl") in rnd.glyphs
    assert Glyph(0, "banana", "patience-1") in rnd.glyphs


def test_constipatience_and_cherry_tomato_when_only_patience_is_left():
    m = new_match(caller=0)
    play_deal(m, top_deal(1), "the lot")
    play_deal(m, TOMATO_HANDS, "patience", TOMATO)
    assert glyphs(m) == {(0, "constipatience", "patience-1"), (0, "cherry-tomato", "patience-1")}
    play_deal(m, BANANA_HANDS, "patience", BANANA)  # won, but forced: no Banana (the Double was not open)
    assert glyphs(m) == {(0, "constipatience", "patience-2")}


def test_virgin_round_and_full_participation():
    """The Caller (0) takes all of The Lot, then comes second in Double Patience: points in all seven
    columns.  Seat 3 takes nothing and goes out first: a Virgin Round."""
    m = new_match(caller=0)
    play_deal(m, top_deal(0), "the lot")
    play_deal(
        m,
        [SPADES, LOW_HD, HIGH_HD, CLUBS],
        "double-patience",
        "pass; JH; lay 7C 8C 9C TC JC QC KC AC; lay 7S 8S 9S TS JS QS KS AS",
    )
    assert m.results[-1].finishing[:2] == (3, 0)
    rnd = sheet_from_results(m.results).rounds[0]
    assert rnd.complete
    assert rnd.cells[0] == (-80, -100, -60, -100, -80, 60, 60) and rnd.totals[0] == -300
    assert rnd.cells[3] == (0, 0, 0, 0, 0, 120, 120)
    round_level = {g for g in rnd.glyphs if g.name in ("virgin-round", "full-participation", "fruit-bowl")}
    assert round_level == {Glyph(3, "virgin-round"), Glyph(0, "full-participation")}
    assert round_problems(rnd.cells) == []


# ---------------------------------------------------------------------- the booklet's appendix

HERO, BUOY, LIEF, FRINGE = range(4)
APPENDIX = [  # Aces, KHearts, Queens, Hearts, Tricks, Pat. 1, Pat. 2 — and the TOTAL the booklet writes
    (
        1,
        HERO,
        [
            ((-20, 0, 0, -50, -10, 120, 0), 40),
            ((0, -100, -15, -10, -10, 0, 60), -75),
            ((0, 0, -30, -40, -10, 30, 30), -20),
            ((-60, 0, -15, 0, -50, 60, 120), 55),
        ],
    ),
    (
        2,
        BUOY,
        [
            ((0, 0, -15, 0, -10, 120, 120), 215),
            ((-20, 0, -15, -80, -10, 60, 60), -5),
            ((-60, 0, -30, -10, -60, 30, 30), -100),
            ((0, -100, 0, -10, 0, 0, 0), -110),
        ],
    ),
    (
        3,
        LIEF,
        [
            ((0, 0, -15, -60, -20, 30, 120), 55),
            ((0, -100, -30, -40, -40, 0, 30), -180),
            ((-40, 0, 0, 0, 0, 60, 60), 80),
            ((-40, 0, -15, 0, -20, 120, 0), 45),
        ],
    ),
    (
        4,
        FRINGE,
        [
            ((-40, 0, -15, 0, 0, 30, 30), 5),
            ((0, 0, 0, -100, -50, 60, 60), -30),
            ((-40, 0, 0, 0, -30, 0, 0), -70),
            ((0, -100, -45, 0, 0, 120, 120), 95),
        ],
    ),
    (
        5,
        None,
        [
            ((-60, -100, -60, -70, -70, 0, 30), -330),
            ((-20, 0, 0, -30, -10, 120, 120), 180),
            ((0, 0, 0, 0, 0, 60, 0), 60),
            ((0, 0, 0, 0, 0, 30, 60), 90),
        ],
    ),
]
RUNNING = {3: (255, -80, -120, -55), 4: (310, -260, -40, -10), 5: (315, -290, -110, 85)}  # as the booklet writes


def test_the_booklets_appendix_scoresheet_adds_up():
    rounds = [RoundInput(1, k, caller, tuple(cells for cells, _ in rows)) for k, caller, rows in APPENDIX]
    sheet = build_sheet(rounds)
    (st,) = sheet.sets
    for (k, _, rows), r in zip(APPENDIX, st.rounds):
        assert list(r.totals) == [total for _, total in rows], f"round {k}"
        assert round_problems(r.cells) == [], f"round {k}"  # every column adds up to its call's total
    for k, running in RUNNING.items():  # "Running Total" is written before round k: after round k-1
        assert st.rounds[k - 2].running == running
    assert st.totals == (-15, -110, -50, 175)
    assert [ordinal(p) for p in st.positions] == ["2nd", "4th", "3rd", "1st"]
    text = "\n".join(sheet_lines(sheet, ["Hero", "Buoy", "Lief", "Fringe"]))
    assert "Set position: Hero 2nd  Buoy 4th  Lief 3rd  Fringe 1st" in text
    # the overall running scores carry the earlier sets: the booklet's +465 -6800 +1305 +5030
    before = (480, -6690, 1355, 4855)
    assert build_sheet(rounds, start=before).sets[0].overall == (465, -6800, 1305, 5030)


def test_the_appendix_choice_letters_through_the_glyph_code():
    """Lief's FC -40 (Aces, his first call), Buoy's SC -80 on Hearts, Fringe's TC -45 on Queens."""
    none = dict(won=[0] * 4, tricks=(), finishing=(), double_offered=False, forced=False)
    assert Glyph(LIEF, "fc", "aces") in deal_glyphs(("aces",), [(0, 0, -40, -40)], LIEF, 1, **none)
    assert Glyph(BUOY, "sc", "hearts") in deal_glyphs(("hearts",), [(0, -80, -10, -10)], BUOY, 2, **none)
    assert Glyph(FRINGE, "tc", "queens") in deal_glyphs(("queens",), [(-15, 0, 0, -45)], FRINGE, 3, **none)
    assert not deal_glyphs(("queens",), [(-15, 0, 0, -45)], FRINGE, 4, **none)  # a fourth call has no letters
    assert not deal_glyphs(("queens",), [(-15, -15, 0, -30)], FRINGE, 1, **none) == ()  # -30 is half: FC
    assert round_problems([(0,) * 7] * 4) == [
        f"{n} adds up to +0, not {t:+d}"
        for n, t in zip(("Aces", "KHearts", "Queens", "Hearts", "Tricks", "Pat. 1", "Pat. 2"), FULL_TOTALS)
    ]


def test_sheet_of_a_played_match_matches_the_engines_totals():
    m = Match("scottish(sets=2)", seed=11)
    rng = random.Random(11)
    while not m.is_over:
        m.play_chance() if m.to_act() == CHANCE else m.apply(rng.choice(m.legal_actions()))
    sheet = sheet_from_results([r.public() for r in m.results])
    assert len(sheet.sets) == 2 and all(st.complete and len(st.rounds) == 5 for st in sheet.sets)
    assert sheet.sets[-1].overall == tuple(m.totals) == sheet.rounds[-1].running
    for r in sheet.rounds:
        assert round_problems(r.cells) == []
    assert sum(st.totals[0] for st in sheet.sets) == m.totals[0]
