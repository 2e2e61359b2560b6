"""Whatever a form or a file sends, the keeper answers with a plain refusal or a scored deal, never a crash."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from barbu.scorekeeper import KeeperError, new_keeper

leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.text(max_size=6),
    st.sampled_from(
        [
            "AH",
            "KH",
            "QS",
            "S",
            "none",
            "7",
            "J",
            "no-king",
            "trumps",
            "domino",
            "salad",
            "king+queens",
            "patience",
            "Joker",
            "Bridge",
            "2S",
            "5S",
        ]
    ),
)
value = st.recursive(
    leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=12,
)
outcome = st.dictionaries(
    st.sampled_from(
        [
            "tricks",
            "hearts",
            "AH",
            "KH",
            "QS",
            "QH",
            "QD",
            "QC",
            "last",
            "order",
            "longest",
            "rows",
            "piranha",
            "melds",
            "sevens",
            "brisques",
        ]
    ),
    value,
    max_size=6,
)
entry = st.fixed_dictionaries(
    {},
    optional={
        "contract": value,
        "trump": value,
        "rank": value,
        "doubles": value,
        "set_aside": value,
        "dealer": value,
        "cuts": value,
        "outcome": st.one_of(outcome, value),
    },
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["classic", "italian", "french(players=5)", "scottish", "besigue", "salad(players=3)"]),
    st.lists(entry, min_size=1, max_size=4),
)
def test_any_entry_is_scored_or_refused_in_plain_words(rules, entries):
    k = new_keeper(
        rules, [f"P{s}" for s in range(2 if rules == "besigue" else 5 if "5" in rules else 3 if "3" in rules else 4)]
    )
    for e in entries:
        before = (k.to_dict(), k.totals)
        try:
            k.needs(e)
        except KeeperError as err:
            assert str(err)
        try:
            k.add(e)
        except KeeperError as err:
            assert str(err) and (k.to_dict(), k.totals) == before


counts = st.lists(st.integers(-1, 14), min_size=3, max_size=5)
seat = st.integers(-1, 4)
plausible = st.fixed_dictionaries(
    {},
    optional={
        "tricks": counts,
        "hearts": counts,
        "longest": counts,
        "AH": seat,
        "KH": seat,
        "QS": seat,
        "QH": seat,
        "QD": seat,
        "QC": seat,
        "JH": seat,
        "TH": seat,
        "last": st.lists(seat, max_size=3),
        "order": st.lists(seat, max_size=5),
        "piranha": st.booleans(),
        "rows": st.lists(st.sampled_from(["AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D", "x", ""]), max_size=4),
    },
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["classic(ravage_city=true,chinese_poker=true)", "italian", "salad", "french"]), st.data())
def test_plausible_outcomes_are_scored_or_refused_in_plain_words(rules, data):
    k = new_keeper(rules, ["A", "B", "C", "D"])
    contract = data.draw(st.sampled_from([key for key, _ in k.needs().contracts]))
    e = {"contract": contract, "outcome": data.draw(plausible)}
    need = k.needs({"contract": contract})
    if need.ask == "trump":
        e["trump"] = "S"
    if need.ask == "rank":
        e["rank"] = "7"
    if k.rules.doubling != "none":
        e["doubles"] = data.draw(st.sampled_from([[], [[1, 0]], [[1, 0, True], [2, 3]]]))
    try:
        r = k.add(e)
    except KeeperError as err:
        assert str(err) and not k.results
    else:
        assert len(k.results) == 1 and r.scores == tuple(k.totals)
