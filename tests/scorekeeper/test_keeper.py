"""The scorekeeper: the seeds' worked examples entered as a table counts them, whole played games entered
deal by deal, every refusal, corrections and undo."""

from __future__ import annotations

import pytest

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match
from barbu.scorekeeper import BesigueKeeper, Keeper, KeeperError, keeper_from_dict, new_keeper
from barbu.scorekeeper.exchange import from_csv, from_json, from_match, to_csv, to_json
from barbu.scorekeeper.fromplay import entries_from_actions
from barbu.scottish.pack import BRIDGE, format_pack
from barbu.scottish.scoresheet import sheet_from_results

A, B, C, D = range(4)
NAMES = ["Anna", "Bruno", "Carla", "Dario"]


# ---------------------------------------------------------------------- seed 002: contro and surcontro
def test_italian_contro_on_the_king_of_hearts():
    """a deals; b and c double d; d takes the King of hearts: d -60, b and c +20 each, a nothing."""
    k = Keeper("italian", NAMES, first=A)
    r = k.add({"contract": "no-king", "doubles": [[B, D], [C, D]], "outcome": {"KH": D}})
    assert r.scores == (0, 20, 20, -60)


def test_italian_surcontro_on_the_king_of_hearts():
    """The same deal with d redoubling both: d -100, b and c +40 each."""
    k = Keeper("italian", NAMES, first=A)
    r = k.add({"contract": "no-king", "doubles": [[B, D, True], [C, D, True]], "outcome": {"KH": D}})
    assert r.scores == (0, 40, 40, -100)


def test_italian_hearts_with_doubles_split_between_players():
    """b doubles a, c and d; a takes no heart, b the A and K, c the rest: a and d +8, c -48, b -4."""
    k = Keeper("italian", NAMES, first=A)
    out = {"hearts": [0, 2, 11, 0], "AH": B, "KH": B, "QH": C, "JH": C, "TH": C}
    r = k.add({"contract": "no-hearts", "doubles": [[B, A], [B, C], [B, D]], "outcome": out})
    assert r.scores == (8, -4, -48, 8)


def test_italian_six_third_place_with_minus_two_hundred_scores_minus_115():
    """Seed 002: a player at -200 after the six deals, third, scores -200 + 110 - 25 = -115."""
    k = Keeper("italian-six", NAMES, first=A)
    deals = [
        {"contract": "no-king", "outcome": {"KH": C}},
        {"contract": "no-last-two", "outcome": {"last": [C, C]}},
        {"contract": "no-hearts", "outcome": {"hearts": [0, 13, 0, 0]}},
        {"contract": "no-tricks", "outcome": {"tricks": [0, 0, 0, 13]}},
        {"contract": "no-queens", "outcome": {"QS": D, "QH": D, "QD": D, "QC": D}},
        {"contract": "domino", "rank": "7", "outcome": {"order": [A, B, C]}},
    ]
    for e in deals:
        k.add({**e, "doubles": []})
    series = [sum(r.scores[s] for r in k.results) for s in range(4)]
    assert series == [60, -90, -200, -210]
    assert k.totals == [60 + 110 + 50, -90 + 110 + 25, -115, -210 + 110 - 50]
    assert k.flags  # nobody doubled the dealer: the obligation is flagged, not refused


# ---------------------------------------------------------------------- seed 000: the 155-point trick
def test_french_salad_last_trick_with_the_queen_and_three_of_hearts_scores_155():
    k = Keeper("french", NAMES, first=A)
    out = {"tricks": [1, 4, 4, 4], "hearts": [2, 11, 0, 0], "QH": A, "KH": B, "QS": C, "QD": C, "QC": C, "last": [A]}
    r = k.add({"contract": "salad", "outcome": out})
    assert r.scores[A] == 10 + 100 + 25 + 10 + 10 == 155
    assert sum(r.scores) == 13 * 10 + 100 + 13 * 10 + 4 * 25 + 100


# ---------------------------------------------------------------------- seed 004: the appendix sheet
HERO, BUOY, LIEF, FRINGE = range(4)
APPENDIX = [  # (caller, per player: Aces, KHearts, Queens, Hearts, Tricks, Pat. 1, Pat. 2), as in the booklet
    (
        HERO,
        [
            (-20, 0, 0, -50, -10, 120, 0),
            (0, -100, -15, -10, -10, 0, 60),
            (0, 0, -30, -40, -10, 30, 30),
            (-60, 0, -15, 0, -50, 60, 120),
        ],
    ),
    (
        BUOY,
        [
            (0, 0, -15, 0, -10, 120, 120),
            (-20, 0, -15, -80, -10, 60, 60),
            (-60, 0, -30, -10, -60, 30, 30),
            (0, -100, 0, -10, 0, 0, 0),
        ],
    ),
    (
        LIEF,
        [
            (0, 0, -15, -60, -20, 30, 120),
            (0, -100, -30, -40, -40, 0, 30),
            (-40, 0, 0, 0, 0, 60, 60),
            (-40, 0, -15, 0, -20, 120, 0),
        ],
    ),
    (
        FRINGE,
        [
            (-40, 0, -15, 0, 0, 30, 30),
            (0, 0, 0, -100, -50, 60, 60),
            (-40, 0, 0, 0, -30, 0, 0),
            (0, -100, -45, 0, 0, 120, 120),
        ],
    ),
    (
        None,
        [
            (-60, -100, -60, -70, -70, 0, 30),
            (-20, 0, 0, -30, -10, 120, 120),
            (0, 0, 0, 0, 0, 60, 0),
            (0, 0, 0, 0, 0, 30, 60),
        ],
    ),
]
CALLS = ("aces", "king", "queens", "hearts", "tricks", "patience-1", "patience-2")


def _answers(call: str, cells: list[tuple[int, ...]]) -> dict:
    """What the table counted for one call, read back from the booklet's cells."""
    col = [row[CALLS.index(call)] for row in cells]
    if call == "aces":
        seats = [s for s in range(4) for _ in range(-col[s] // 20)]
        return dict(zip(("AS", "AH", "AD", "AC"), seats))
    if call == "king":
        return {"KH": col.index(-100), "piranha": False}
    if call == "queens":
        seats = [s for s in range(4) for _ in range(-col[s] // 15)]
        return dict(zip(("QS", "QH", "QD", "QC"), seats))
    if call == "hearts":
        for jack in range(4):
            counts = [(-p - (20 if s == jack else 0)) // 10 for s, p in enumerate(col)]
            if col[jack] <= -30 and sum(counts) == 8 and min(counts) >= 0:
                return {"hearts": counts, "JH": jack}
        raise AssertionError(col)
    if call == "tricks":
        return {"tricks": [-p // 10 for p in col]}
    order = sorted(range(4), key=lambda s: -col[s])
    return {"order": order[:3]}


NUMBER = {"aces": "2S", "king": "3S", "queens": "4S", "hearts": "5S", "tricks": "6S"}


def _cuts_for_single_call(k: Keeper, left: list[str]) -> list[str]:
    """Silly Round cuts that call one thing: a call's number then the Bridge (or, once the negatives are
    played, a played number for a Single Patience), and pass-on cuts that stop at once."""
    cuts: list[str] = []
    negatives = [c for c in left if c in NUMBER]
    number = NUMBER[negatives[0]] if negatives else "2S"
    for _ in range(12):
        need = k.needs({"cuts": cuts})
        if need.ask != "cuts":
            return cuts
        if need.cut_for == "calls":
            cuts.append("Bridge" if number in cuts and negatives else number)
            continue
        for card in range(BRIDGE + 1):
            nxt = k.needs({"cuts": cuts + [format_pack(card)]})
            if (nxt.ask, nxt.cut_for) != ("cuts", "passes"):
                cuts.append(format_pack(card))
                break
    raise AssertionError("no cuts found")


def test_the_scottish_appendix_sheet_entered_deal_by_deal():
    k = Keeper("scottish", ["Hero", "Buoy", "Lief", "Fringe"], first=HERO)
    for caller, cells in APPENDIX[:4]:
        assert k.needs().declarer == caller
        k.add(
            {
                "contract": "aces+king+queens",
                "outcome": {**_answers("aces", cells), **_answers("king", cells), **_answers("queens", cells)},
            }
        )
        k.add({"contract": "hearts", "outcome": _answers("hearts", cells)})
        k.add({"contract": "tricks", "outcome": _answers("tricks", cells)})
        k.add({"contract": "patience", "outcome": _answers("patience-1", cells)})
        k.add({"contract": "patience", "outcome": _answers("patience-2", cells)})
    _, cells = APPENDIX[4]
    assert k.needs().ask == "dealer"  # the Silly Round's dealer is drawn
    left = list(CALLS)
    while not k.is_over:
        entry: dict = {"dealer": LIEF} if len(left) == 7 else {}
        cuts = _cuts_for_single_call(keeper_with(k, entry), left)
        call = k.needs({**entry, "cuts": cuts}).contract
        column = next(p for p in ("patience-1", "patience-2") if p in left) if call == "patience" else call
        left.remove(column)
        k.add({**entry, "cuts": cuts, "outcome": _answers(column, cells)})
    (st,) = sheet_from_results(k.results).sets
    for (caller, cells), r in zip(APPENDIX, st.rounds):
        assert [tuple(row) for row in r.cells] == cells
    assert st.totals == (-15, -110, -50, 175)
    assert tuple(k.totals) == (-15, -110, -50, 175)


def keeper_with(k: Keeper, entry: dict) -> Keeper:
    """The keeper as it would be with ``entry``'s dealer already known (the cut search starts after the draw)."""
    if not entry:
        return k

    class _View:
        def needs(self, partial: dict) -> object:
            return k.needs({**entry, **partial})

    return _View()  # type: ignore[return-value]


# ---------------------------------------------------------------------- whole games, every family
PRESETS = [
    "classic",
    "italian",
    "italian-six",
    "salad(players=3)",
    "salad",
    "salad(players=5)",
    "salad(players=6)",
    "french(players=3)",
    "french",
    "french(players=5)",
    "french(players=6)",
    "classic(ravage_city=true,chinese_poker=true)",
    "classic(rotation=quick,undoubled_negative=play)",
    "scottish",
]


@pytest.mark.parametrize("rules", PRESETS)
def test_a_played_game_entered_deal_by_deal_scores_as_it_played(rules):
    m = Match(rules, seed=11)
    play_out(m, [agent_for(m, "random", seed=s) for s in range(m.n)])
    first, entries = entries_from_actions(m.rules, m.history)
    k = Keeper(m.rules, [f"P{s}" for s in range(m.n)], first)
    for e in entries:
        k.add(e)
    assert [r.scores for r in k.results] == [r.scores for r in m.results]
    assert [r.series for r in k.results] == [r.series for r in m.results]
    assert k.totals == m.totals and k.is_over
    assert k.needs().ask == "over"


def test_a_whole_classic_game_of_28_deals_from_a_played_record():
    m = Match("classic", seed=5)
    play_out(m, [agent_for(m, "rule", seed=s) for s in range(4)])
    k = from_match(m, NAMES)
    assert len(k.results) == 28 and k.totals == m.totals
    assert from_json(to_json(k)).totals == m.totals
    assert from_csv(to_csv(k)).totals == m.totals


# ---------------------------------------------------------------------- refusals: nothing changes
def refused(k, entry, *words):
    before = (list(k.entries), k.totals)
    with pytest.raises(KeeperError) as e:
        k.add(entry)
    assert (list(k.entries), k.totals) == before
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


def test_counts_that_do_not_add_up_to_the_deck_are_refused():
    k = Keeper("classic", NAMES, first=A)
    refused(
        k, {"contract": "no-tricks", "doubles": [[B, A]], "outcome": {"tricks": [3, 3, 3, 3]}}, "add up to 12, not 13"
    )
    refused(
        k,
        {"contract": "no-hearts", "doubles": [[B, A]], "outcome": {"hearts": [3, 3, 3, 3], "AH": B}},
        "add up to 12, not 13",
    )
    refused(
        k,
        {"contract": "no-hearts", "doubles": [[B, A]], "outcome": {"hearts": [13, 0, 0, 0], "AH": B}},
        "Bruno took A♥ but has only 0 heart",
    )
    refused(k, {"contract": "no-tricks", "doubles": [[B, A]], "outcome": {"tricks": [14, 0, 0, -1]}}, "at most 13")
    refused(k, {"contract": "domino", "rank": "J", "doubles": [], "outcome": {"order": [B, B, C]}}, "twice")
    refused(
        k,
        {"contract": "no-queens", "doubles": [[B, A]], "outcome": {"QS": 7, "QH": 0, "QD": 0, "QC": 0}},
        "not one of the players",
    )
    refused(k, {"contract": "no-queens", "doubles": [[B, A]], "outcome": {"QS": 1}}, "missing")
    refused(
        k,
        {
            "contract": "no-queens",
            "doubles": [[B, A]],
            "outcome": {"QS": 1, "QH": 0, "QD": 0, "QC": 0, "tricks": [13, 0, 0, 0]},
        },
        "does not need",
    )


def test_salad_cards_must_fit_in_the_tricks_taken():
    k = Keeper("salad", NAMES, first=A)
    out = {"tricks": [0, 4, 4, 5], "hearts": [2, 11, 0, 0], "QH": A, "KH": B, "QS": C, "QD": C, "QC": C, "last": [D]}
    refused(k, {"contract": "salad", "doubles": [], "outcome": out}, "Anna took no trick")
    out2 = dict(out, tricks=[1, 4, 4, 4], last=[A], hearts=[6, 7, 0, 0])
    refused(k, {"contract": "salad", "doubles": [], "outcome": out2}, "not the 6 penalty cards")


def test_doubles_the_rules_do_not_allow_are_refused():
    k = Keeper("classic", NAMES, first=A)
    refused(
        k,
        {"contract": "trumps", "trump": "S", "doubles": [[B, C]], "outcome": {"tricks": [4, 3, 3, 3]}},
        "only the dealer may be doubled",
    )
    refused(k, {"contract": "no-king", "doubles": [[A, B]], "outcome": {"KH": B}}, "the dealer never doubles")
    refused(k, {"contract": "no-king", "doubles": [[B, B]], "outcome": {"KH": B}}, "cannot double himself")
    refused(k, {"contract": "no-king", "doubles": [[B, C], [C, B]], "outcome": {"KH": B}}, "business once")
    k2 = Keeper("french", NAMES, first=A)
    refused(k2, {"contract": "no-king", "doubles": [[B, A]], "outcome": {"KH": B}}, "no doubling")


def test_a_contract_already_played_by_that_declarer_is_refused():
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "no-king", "doubles": [[B, A]], "outcome": {"KH": B}})
    refused(k, {"contract": "no-king", "doubles": [[B, A]], "outcome": {"KH": B}}, "Anna", "already been declared")


def test_the_doubling_obligation_is_tracked_and_a_deal_that_breaks_it_is_flagged():
    """Classic: each player doubles each declarer twice in his seven deals.  Bruno never doubles Anna in her
    first five deals: in the sixth he owes two with two deals left, so a sixth deal without his double is
    flagged (not refused: the keeper records what the table did)."""
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "trumps", "trump": "H", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    k.add({"contract": "domino", "rank": "J", "doubles": [], "outcome": {"order": [A, B, C]}})
    for contract, out in [
        ("no-king", {"KH": B}),
        ("no-queens", {"QS": B, "QH": C, "QD": D, "QC": A}),
        ("no-last-two", {"last": [B, C]}),
    ]:
        k.add({"contract": contract, "doubles": [[C, A], [D, A]], "outcome": out})
    assert k.needs({"contract": "no-tricks"}).owed == {B: 2}  # Carla and Dario doubled her three times
    assert not k.flags
    k.add({"contract": "no-tricks", "doubles": [[C, A]], "outcome": {"tricks": [4, 3, 3, 3]}})
    assert k.flags == {
        6: [
            "Bruno did not double Anna although the obligation required it (2 double(s) still owed with 2 deal(s) left)"
        ]
    }
    assert len(k.results) == 6


def test_set_aside_cards_are_asked_with_three_five_or_six_players():
    k = Keeper("french(players=5)", ["A", "B", "C", "D", "E"], first=0)
    assert k.needs().ask == "set_aside" and k.needs().set_aside == 2
    refused(k, {"contract": "no-king", "outcome": {"KH": 1}}, "no-king" if False else "")
    refused(k, {"set_aside": "2C", "contract": "no-king", "outcome": {"KH": 1}}, "2 card(s) are set aside")
    refused(k, {"set_aside": "KH 2C", "contract": "no-king", "outcome": {"KH": 1}}, "cannot be chosen")
    r = k.add(
        {"set_aside": "QS 2C", "contract": "no-queens", "outcome": {"QH": 1, "QD": 1, "QC": 2}}
    )  # only three queens in play
    assert r.scores == (0, 50, 25, 0, 0)


def test_a_deal_nobody_doubles_in_classic_is_not_played_and_needs_no_outcome():
    k = Keeper("classic", NAMES, first=A)
    assert k.needs({"contract": "no-king", "doubles": []}).ask == "done"
    r = k.add({"contract": "no-king", "doubles": []})
    assert not r.played and sum(r.scores) == -20
    assert "not played" in k.flags[1][0]


def test_a_complete_entry_still_names_its_own_dealer_declarer_and_contract():
    # The preview of a complete deal must not show the next deal's dealer (quick rotation moves every deal,
    # the dealer rotation at the end of a series).
    quick = Keeper("classic(rotation=quick)", NAMES, first=A)
    done = quick.needs({"contract": "no-king", "doubles": [[B, A]], "outcome": {"KH": C}})
    assert (done.ask, done.number, done.dealer, done.declarer) == ("done", 1, A, A)
    assert (done.contract, done.contract_name) == ("no-king", "No King of hearts")
    quick.add({"contract": "no-king", "doubles": [[B, A]], "outcome": {"KH": C}})
    done = quick.needs({"contract": "no-tricks", "doubles": []})  # not played: scored at once
    assert (done.ask, done.number, done.dealer, done.declarer) == ("done", 2, B, B)
    series = Keeper("classic", NAMES, first=A)
    for key in ("no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two", "domino"):
        series.add(
            {"contract": key, "doubles": []}
            if key != "domino"
            else {"contract": key, "rank": "J", "doubles": [], "outcome": {"order": [B, C, D, A]}}
        )
    last = series.needs({"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    assert (last.ask, last.number, last.dealer, last.declarer) == ("done", 7, A, A)


# ---------------------------------------------------------------------- corrections and undo
def test_edit_delete_and_undo_recompute_every_total():
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    k.add({"contract": "no-king", "doubles": [[C, A]], "outcome": {"KH": A}})
    assert k.totals == [20 - 40, 15, 15 + 20, 15]
    k.replace(0, {"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [1, 4, 4, 4]}})
    assert k.totals == [5 - 40, 20, 20 + 20, 20]
    k.delete(0)
    assert k.totals == [-40, 0, 20, 0] and len(k.results) == 1
    k.undo()
    assert k.totals == [5 - 40, 20, 20 + 20, 20]
    k.undo()
    k.undo()
    assert k.totals == [20, 15, 15, 15]
    k.undo()
    assert k.totals == [0, 0, 0, 0]
    with pytest.raises(KeeperError, match="nothing to undo"):
        k.undo()


def test_a_correction_that_breaks_a_later_deal_is_refused_and_changes_nothing():
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "trumps", "trump": "S", "doubles": [], "outcome": {"tricks": [4, 3, 3, 3]}})
    k.add({"contract": "no-king", "doubles": [[C, A]], "outcome": {"KH": A}})
    before = k.to_dict(), k.totals
    with pytest.raises(KeeperError) as e:
        k.replace(0, {"contract": "no-king", "doubles": [], "outcome": {}})
    assert e.value.deal == 2 and "already been declared" in str(e.value)
    assert (k.to_dict(), k.totals) == before
    with pytest.raises(KeeperError, match="no deal 5"):
        k.delete(4)


def test_the_json_form_is_checked_again_when_read():
    k = Keeper("classic", NAMES, first=A)
    k.add({"contract": "no-king", "doubles": [[C, A]], "outcome": {"KH": A}})
    data = k.to_dict()
    data["entries"][0]["outcome"]["KH"] = 9
    with pytest.raises(KeeperError, match="deal 1"):
        keeper_from_dict(data)
    with pytest.raises(KeeperError, match="not valid JSON"):
        from_json("{oops")
    with pytest.raises(KeeperError, match="first row"):
        from_csv("a,b\n1,2\n")
    with pytest.raises(KeeperError, match="4 players"):
        new_keeper("classic", ["x", "y"])
    with pytest.raises(KeeperError, match="name of his own"):
        new_keeper("classic", ["x", "y", "x", "z"])


# ---------------------------------------------------------------------- Bésigue
def test_besigue_kept_to_the_target():
    k = new_keeper("besigue", ["Ann", "Bob"], 0)
    assert isinstance(k, BesigueKeeper) and k.needs().ask == "outcome"
    r = k.add(
        {
            "outcome": {
                "melds": [{"quint": 1, "marriage": 1}, {"bezique": 1}],
                "sevens": [1, 0],
                "brisques": [5, 3],
                "last": [1],
            }
        }
    )
    assert r["scores"] == [250 + 20 + 10 + 50, 40 + 30 + 10]
    refused(k, {"outcome": {"melds": [{}, {}], "sevens": [0, 0], "brisques": [5, 4], "last": 0}}, "not 8")
    refused(
        k,
        {"outcome": {"melds": [{"fourteen": 1}, {}], "sevens": [0, 0], "brisques": [4, 4], "last": 0}},
        "not a declaration",
    )
    k.add(
        {"outcome": {"melds": [{"double-bezique": 1, "quint": 1}, {}], "sevens": [0, 0], "brisques": [4, 4], "last": 0}}
    )
    assert k.results[-1]["dealer"] == 1 and k.totals == [330 + 800, 80 + 40]
    assert k.is_over and k.needs().ask == "over"
    assert from_csv(to_csv(k)).totals == k.totals and from_json(to_json(k)).totals == k.totals


def test_a_kept_game_prints_on_the_same_sheet_as_a_played_one():
    """The −115 series above, kept at a table: its sheet shows the series points and the keeper's flags."""
    from barbu.scorekeeper.sheet import sheet_for
    from barbu.scorekeeper.textsheet import render_text

    k = Keeper("italian-six", NAMES, first=A)
    for e in [
        {"contract": "no-king", "outcome": {"KH": C}},
        {"contract": "no-last-two", "outcome": {"last": [C, C]}},
        {"contract": "no-hearts", "outcome": {"hearts": [0, 13, 0, 0]}},
        {"contract": "no-tricks", "outcome": {"tricks": [0, 0, 0, 13]}},
        {"contract": "no-queens", "outcome": {"QS": D, "QH": D, "QD": D, "QC": D}},
        {"contract": "domino", "rank": "7", "outcome": {"order": [A, B, C]}},
    ]:
        k.add({**e, "doubles": []})
    text = render_text(sheet_for(k.rules, k.names, k.results, k.flags))
    assert "-115" in text  # Carla's running total after Anna's series
    assert "did not double Anna although the obligation required it" in text
