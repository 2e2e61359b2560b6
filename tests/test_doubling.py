"""The classic doubling procedure (RULES.md §1, seed 001 "Doubling").

Expected settlements are worked out by hand: for each pair with business the
lower of the two deal scores pays the higher the difference, twice if redoubled.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from helpers import (
    D0,
    D0_PLAY,
    D0Q,
    D0Q_PLAY,
    FULL_SUITS,
    dbl,
    deal,
    domino_rounds,
    finish_deal,
    new_match,
    play,
    snapshot,
    start_deal,
)

from barbu import Business, Double, IllegalAction, Match

NEG = ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two"]


def subsets(seats, must=None):
    out = set()
    for k in range(len(seats) + 1):
        for c in combinations(seats, k):
            if must is None or must in c:
                out.add(dbl(*c))
    return out


def plain(m: Match) -> set[Double]:
    """The legal doubling actions as a set (each legal action appears once)."""
    acts = m.legal_actions()
    assert len(set(acts)) == len(acts), "a legal action is listed twice"
    return set(acts)


def business(m: Match) -> set[Business]:
    return set(m.business.values())


# ---------------------------------------------------------------------------------------------
# Order of the round.


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("contract", ["no-queens", "trumps", "domino"])
def test_order_dealers_left_first_dealer_last(dealer, contract):
    m = start_deal(
        "classic",
        dealer,
        D0,
        contract=contract,
        trump="S" if contract == "trumps" else None,
        rank="7" if contract == "domino" else None,
    )
    assert m.phase_name == "doubling"
    order = []
    while m.phase_name == "doubling":
        order.append(m.to_act())
        # Everybody doubles the dealer (the dealer himself passes) so that the deal is played.
        m.apply(dbl(dealer) if m.to_act() != dealer else dbl())
    assert order == [(dealer + i) % 4 for i in (1, 2, 3, 4)]
    assert m.phase_name in ("play", "domino") and m.to_act() == dealer


# ---------------------------------------------------------------------------------------------
# Who may double whom.


def test_negative_contract_non_dealer_may_double_anyone():
    m = start_deal("classic", 0, D0, contract="no-queens")
    assert m.to_act() == 1
    assert plain(m) == subsets([0, 2, 3])
    assert m.parse_action("maximum") == dbl(0, 2, 3)


def test_dealer_can_only_redouble():
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="pass; pass; pass")
    assert m.to_act() == 0
    assert m.legal_actions() == (dbl(),)
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="dealer never doubles"):
        m.apply(dbl(1))
    with pytest.raises(IllegalAction, match="dealer never doubles"):
        m.apply(dbl(1, 2, 3))
    assert snapshot(m) == before
    # The dealer's "maximum" redoubles what he received: here nothing, so it is a pass.
    assert m.parse_action("maximum") == dbl()
    m.apply(dbl())
    # Nobody doubled a negative contract: not played.
    assert m.results[-1].played is False

    m = start_deal("classic", 0, D0, contract="no-queens", doubles="double 0; pass; double 0 1")
    assert set(m.legal_actions()) == subsets([1, 3])
    assert m.parse_action("maximum") == dbl(1, 3)


@pytest.mark.parametrize("contract", ["trumps", "domino"])
def test_positive_contract_only_the_dealer(contract):
    m = start_deal(
        "classic",
        0,
        D0,
        contract=contract,
        trump="H" if contract == "trumps" else None,
        rank="7" if contract == "domino" else None,
    )
    for seat in (1, 2, 3):
        assert m.to_act() == seat
        assert set(m.legal_actions()) == {dbl(), dbl(0)}
        before = snapshot(m)
        for bad in (dbl((seat % 3) + 1), dbl(0, (seat % 3) + 1)):
            with pytest.raises(IllegalAction, match="only the dealer may be doubled"):
                m.apply(bad)
        with pytest.raises(IllegalAction):
            m.apply("family")
        assert snapshot(m) == before
        assert m.parse_action("maximum") == dbl(0)
        m.apply("maximum" if seat != 2 else "pass")
    # The dealer may redouble either double received.
    assert set(m.legal_actions()) == subsets([1, 3])
    m.apply("redouble 3")
    assert business(m) == {Business(1, 0), Business(3, 0, True)}


def test_cannot_double_oneself_or_a_missing_seat():
    m = start_deal("classic", 0, D0, contract="no-queens")
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="yourself"):
        m.apply(dbl(1))
    with pytest.raises(IllegalAction, match="no seat 7"):
        m.apply(dbl(7))
    assert snapshot(m) == before


# ---------------------------------------------------------------------------------------------
# Answers, redoubles, the second chance, maximum, family.


def test_a_double_answered_is_a_redouble():
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="double 2")
    # Seat 2 may redouble 1 (the only way to "double" him now) and double 0 or 3.
    assert plain(m) == subsets([0, 1, 3])
    m.apply("double 1")
    assert business(m) == {Business(1, 2, True)}
    m.apply("pass")
    m.apply("pass")
    # 1 and 2 are redoubled with each other and nobody has a late double: play starts.
    assert m.phase_name == "play"


def test_both_double_the_table_are_redoubled():
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    assert m.parse_action("table") == dbl(0, 2, 3)
    m.apply("maximum")
    # Seat 2: double 0 and 3, and "doubling" 1 back is a redouble.
    assert m.parse_action("maximum") == dbl(0, 1, 3)
    m.apply("maximum")
    assert m.parse_action("maximum") == dbl(0, 1, 2)
    m.apply("maximum")
    assert m.parse_action("maximum") == dbl(1, 2, 3)
    m.apply("maximum")
    assert business(m) == {
        Business(1, 0, True),
        Business(1, 2, True),
        Business(1, 3, True),
        Business(2, 0, True),
        Business(2, 3, True),
        Business(3, 0, True),
    }
    assert m.phase_name == "play"
    play(m, D0Q_PLAY)
    r = m.results[-1]
    assert r.base == (-12, -6, 0, -6)
    # Every pair redoubled: s_i = b_i + 2 * sum_j (b_i - b_j) = 9 b_i - 2 * (-24).
    assert r.scores == (-60, -6, 48, -6)
    assert sum(r.scores) == -24


def test_second_chance_for_doubles_received_after_ones_turn():
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    m.apply("pass")  # seat 1
    m.apply("double 1")  # seat 2 doubles 1 (after 1's turn)
    m.apply("double 1 2")  # seat 3 doubles 1 and 2 (both after their turns)
    assert m.to_act() == 0
    assert m.legal_actions() == (dbl(),)  # nobody doubled the dealer
    m.apply("pass")
    # Second chance, in seat order: seat 1 (doubled by 2 and 3), then seat 2 (doubled by 3).
    assert m.phase_name == "doubling" and m.to_act() == 1
    assert set(m.legal_actions()) == subsets([2, 3])
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="only redouble"):
        m.apply(dbl(0))  # no new double after the round
    assert snapshot(m) == before
    m.apply("redouble 3")
    assert m.to_act() == 2
    assert set(m.legal_actions()) == subsets([3])
    m.apply("double 3")  # answering 3's double is the redouble
    assert m.phase_name == "play"
    assert business(m) == {Business(2, 1), Business(3, 1, True), Business(3, 2, True)}
    play(m, D0Q_PLAY)
    # base (-12, -6, 0, -6).  2x1: 0 - (-6) = 6 -> s2 +6, s1 -6.  3x1 xx: 0 -> nothing.
    # 3x2 xx: -6 - 0 = -6, x2 = -12 -> s3 -12, s2 +12.
    assert m.results[-1].scores == (-12, -12, 18, -18)


def test_no_second_chance_for_doubles_received_before_ones_turn():
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    m.apply("double 3")  # seat 1 doubles 3 before 3's turn
    m.apply("double 0")  # seat 2
    m.apply("pass")  # seat 3 declines to redouble
    m.apply("pass")  # dealer declines
    assert m.phase_name == "play"
    assert business(m) == {Business(1, 3), Business(2, 0)}


def test_second_chance_round_is_skipped_when_nothing_is_late():
    m = start_deal("classic", 0, D0, contract="no-tricks", doubles="double 0; pass; pass")
    assert m.to_act() == 0
    m.apply("redouble 1")
    assert m.phase_name == "play"
    assert business(m) == {Business(1, 0, True)}


def test_maximum_leaves_nobody_who_could_double_later():
    """A non-dealer's maximum doubles every other player, so any later "double" on him is an answer:
    a redouble.  That is why no standing order is needed and maximum is just a target set."""
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    m.apply("maximum")  # seat 1: doubles 0 2 3
    m.apply("double 1")  # seat 2 answers: a redouble
    m.apply("pass")  # seat 3
    m.apply("pass")  # dealer
    # Seat 1 is not asked again: nothing was doubled on him after his turn.
    assert m.phase_name == "play"
    assert business(m) == {Business(1, 0), Business(1, 2, True), Business(1, 3)}


def test_maximum_in_the_second_round_redoubles_only_late_doubles():
    m = start_deal("classic", 0, D0Q, contract="no-queens", doubles="pass; double 1; pass; pass")
    assert m.to_act() == 1 and m.phase_name == "doubling"
    assert m.parse_action("maximum") == dbl(2)
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="only redouble"):
        m.apply(dbl(2, 3))
    assert snapshot(m) == before


def test_family_doubles_the_two_other_non_dealers():
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    assert m.parse_action("family") == dbl(2, 3)
    assert m.parse_action("flanks") == dbl(2, 3)
    m.apply("family")
    # For seat 2, "family" means 1 and 3; 1 doubled him first, so that part is a redouble.
    assert m.parse_action("family") == dbl(1, 3)
    m.apply("family")
    assert business(m) == {Business(1, 2, True), Business(1, 3), Business(2, 3)}
    m = start_deal("classic", 2, D0Q, contract="no-queens")
    assert m.to_act() == 3 and m.parse_action("family") == dbl(0, 1)


# ---------------------------------------------------------------------------------------------
# Settlement.


def test_settlement_single_and_redoubled_no_tricks():
    # D0 at No tricks: base (-8, -6, -6, -6).  Seat 1 doubles the dealer: 1 is 2 better.
    m = start_deal("classic", 0, D0, contract="no-tricks", doubles="double 0; pass; pass; pass")
    play(m, D0_PLAY)
    assert m.results[-1].scores == (-10, -4, -6, -6)
    m = start_deal("classic", 0, D0, contract="no-tricks", doubles="double 0; pass; pass; redouble 1")
    play(m, D0_PLAY)
    assert m.results[-1].scores == (-12, -2, -6, -6)
    assert m.results[-1].doubles == (Business(1, 0, True),)


def test_settlement_mixed_doubles_no_queens():
    m = start_deal("classic", 0, D0Q, contract="no-queens")
    assert m.to_act() == 1
    m.apply("double 0 2")
    assert m.to_act() == 2
    assert plain(m) == subsets([0, 1, 3])
    m.apply("double 1 3")  # redoubles 1, doubles 3
    assert m.to_act() == 3
    assert set(m.legal_actions()) == subsets([0, 1, 2])
    m.apply("double 0")  # does not redouble 2
    assert m.to_act() == 0
    assert set(m.legal_actions()) == subsets([1, 3])
    m.apply("redouble 1")
    assert m.phase_name == "play"
    play(m, D0Q_PLAY)
    r = m.results[-1]
    assert r.doubles == (Business(1, 0, True), Business(1, 2, True), Business(2, 3), Business(3, 0))
    assert r.base == (-12, -6, 0, -6)
    # 1x0 xx: -6 - -12 = 6, x2 = 12 -> s1 +12, s0 -12.   1x2 xx: -6 - 0 = -6, x2 -> s1 -12, s2 +12.
    # 2x3: 0 - -6 = 6 -> s2 +6, s3 -6.                  3x0: -6 - -12 = 6 -> s3 +6, s0 -6.
    assert r.scores == (-30, -6, 18, -6)
    assert m.totals == [-30, -6, 18, -6]


def test_settlement_trumps():
    # D0 with clubs trumps: base (15, 15, 15, 20).  Seat 3 doubles the dealer, who redoubles:
    # 20 - 15 = 5, x2 = 10 -> s3 +10, s0 -10.
    m = start_deal("classic", 0, D0, contract="trumps", trump="C", doubles="pass; pass; double 0; redouble 3")
    play(m, D0_PLAY)
    assert m.results[-1].base == (15, 15, 15, 20)
    assert m.results[-1].scores == (5, 15, 15, 30)


def test_settlement_domino():
    # Full suits, dealer 2, from the 7: seat 2 out first, then 3, 0, 1: base (5, -5, 45, 20).
    # 3x2: 20 - 45 = -25 -> s3 -25, s2 +25.  0x2 xx: 5 - 45 = -40, x2 = -80 -> s0 -80, s2 +80.
    m = start_deal(
        "classic", 2, FULL_SUITS, contract="domino", rank="7", doubles="double 2; double 2; pass; redouble 0"
    )
    play(m, " ".join(domino_rounds(2, "789TJQKA65432")[:51]))
    r = m.results[-1]
    assert r.base == (5, -5, 45, 20)
    assert r.scores == (-75, -5, 150, -5)
    assert sum(r.scores) == 65


@pytest.mark.parametrize(
    "calls",
    [
        "double 0; pass; pass; pass",
        "maximum; pass; pass; pass",
        "double 3; double 1; double 0 1 2; redouble 3; pass; redouble 3",
        "pass; double 0 3; double 2; redouble 2",
        "maximum; maximum; maximum; maximum",
        "family; pass; double 1 2; pass; redouble 3",
    ],
)
def test_doubles_keep_the_table_total(calls):
    m = start_deal("classic", 0, D0Q, contract="no-queens", doubles=calls)
    assert m.phase_name == "play"
    play(m, D0Q_PLAY)
    r = m.results[-1]
    assert r.base == (-12, -6, 0, -6)
    assert sum(r.scores) == sum(r.base) == -24
    # Each pair's transfer, worked out from the record of doubles.
    expect = list(r.base)
    for b in r.doubles:
        d = (r.base[b.doubler] - r.base[b.doubled]) * (2 if b.redoubled else 1)
        expect[b.doubler] += d
        expect[b.doubled] -= d
    assert r.scores == tuple(expect)


# ---------------------------------------------------------------------------------------------
# No doubles, no play.


@pytest.mark.parametrize(
    "contract, each, dealer_gets",
    [
        ("no-tricks", -9, 1),  # -26: -9 x 3 = -27, the dealer +1
        ("no-hearts", -10, 0),  # -30
        ("no-queens", -8, 0),  # -24
        ("no-king", -7, 1),  # -20: -7 x 3 = -21, the dealer +1
        ("no-last-two", -10, 0),  # -30
    ],
)
@pytest.mark.parametrize("dealer", [0, 2])
def test_undoubled_negative_split(contract, each, dealer_gets, dealer):
    m = start_deal("classic", dealer, D0, contract=contract, doubles="pass; pass; pass; pass")
    expected = tuple(dealer_gets if s == dealer else each for s in range(4))
    r = m.results[-1]
    assert r.played is False and r.tricks == ()
    assert r.base == r.scores == expected
    assert m.totals == list(expected)
    assert m.phase_name == "deal" and m.deal_no == 1 and m.dealer == dealer


@pytest.mark.parametrize("contract", NEG)
def test_undoubled_negative_play(contract):
    m = start_deal("classic(undoubled_negative=play)", 0, D0, contract=contract, doubles="pass; pass; pass; pass")
    assert m.phase_name == "play" and m.to_act() == 0 and not m.results


@pytest.mark.parametrize("contract", ["trumps", "domino"])
def test_undoubled_positive_is_played(contract):
    m = start_deal(
        "classic",
        0,
        D0,
        contract=contract,
        trump="S" if contract == "trumps" else None,
        rank="7" if contract == "domino" else None,
        doubles="pass; pass; pass; pass",
    )
    assert m.phase_name in ("play", "domino") and not m.results


# ---------------------------------------------------------------------------------------------
# The obligation: each non-dealer doubles the dealer at least twice in the dealer's seven deals.


def negotiate(m: Match, contract: str, calls: list[str]) -> None:
    m.apply(contract)
    if contract == "trumps":
        m.apply("trump S")
    if contract == "domino":
        m.apply("rank 7")
    for c in calls:
        m.apply(c)


def test_obligation_forces_the_last_deals():
    m = new_match("classic", 0)
    # Deal 1: Trumps, seat 1 doubles the dealer (he then owes 1; seats 2 and 3 owe 2).
    deal(m, D0)
    negotiate(m, "trumps", ["double 0", "pass", "pass", "pass"])
    finish_deal(m)
    # Deals 2-5: Domino, then three negative contracts nobody doubles (split, not played).
    for contract in ["domino", "no-tricks", "no-hearts", "no-queens"]:
        deal(m, D0)
        negotiate(m, contract, [])
        for seat in (1, 2, 3):
            assert m.to_act() == seat
            assert not m.must_double_dealer(seat)
            assert dbl() in m.legal_actions()
            m.apply("pass")
        m.apply("pass")
        if contract == "domino":
            finish_deal(m)
        assert m.deal_no == {"domino": 2, "no-tricks": 3, "no-hearts": 4, "no-queens": 5}[contract]
    assert m.dbl_count[0] == [0, 1, 0, 0]

    # Deal 6 (No King; two deals left): seats 2 and 3 still owe 2, so they are forced now;
    # seat 1 owes 1 and is not.
    deal(m, D0)
    negotiate(m, "no-king", [])
    assert [m.doubles_owed(s) for s in (1, 2, 3)] == [1, 2, 2]
    assert m.to_act() == 1 and not m.must_double_dealer(1)
    assert dbl() in m.legal_actions()
    m.apply("pass")
    for seat, call in ((2, "double 0"), (3, "double 0 1")):
        assert m.to_act() == seat and m.must_double_dealer(seat)
        acts = m.legal_actions()
        assert acts and all(0 in a.targets for a in acts)
        assert set(acts) == {dbl(0, *rest) for k in range(3) for rest in combinations(sorted({1, 2, 3} - {seat}), k)}
        before = snapshot(m)
        with pytest.raises(IllegalAction, match="must double the dealer"):
            m.apply("pass")
        with pytest.raises(IllegalAction, match="must double the dealer"):
            m.apply("family")
        assert snapshot(m) == before
        m.apply(call)
    m.apply("pass")
    finish_deal(m)

    # Deal 7 (No last two; one deal left): everybody owes exactly 1 and is forced.
    deal(m, D0)
    negotiate(m, "no-last-two", [])
    assert [m.doubles_owed(s) for s in (1, 2, 3)] == [1, 1, 1]
    for seat in (1, 2, 3):
        assert m.to_act() == seat and m.must_double_dealer(seat)
        acts = m.legal_actions()
        assert all(0 in a.targets for a in acts)
        m.apply(dbl(0))
    assert set(m.legal_actions()) == subsets([1, 2, 3])
    m.apply("pass")
    finish_deal(m)
    assert m.dbl_count[0] == [0, 2, 2, 2]

    # The series is over: seat 1 deals and declares; nobody owes him anything yet.
    assert m.deal_no == 7 and m.dealer == 1 and m.declarer == 1
    deal(m, D0)
    m.apply("no-queens")
    assert [m.doubles_owed(s) for s in (2, 3, 0)] == [2, 2, 2]
    assert m.to_act() == 2 and not m.must_double_dealer(2) and dbl() in m.legal_actions()


def test_obligation_counts_only_doubles_of_the_dealer():
    # Every non-dealer doubling the dealer (by maximum or by name) counts once.
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="maximum; maximum; double 0; redouble 1 2 3")
    assert m.dbl_count[0] == [0, 1, 1, 1]
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="double 2 3; double 1; pass; pass")
    assert m.dbl_count[0] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# Illegal doubling actions change nothing.


@pytest.mark.parametrize(
    "calls, bad, reason",
    [
        ("", dbl(1), "yourself"),
        ("", dbl(0, 9), "no seat 9"),
        ("pass; pass; pass", dbl(2), "dealer never doubles"),
        ("double 0; pass; pass", dbl(1, 2), "dealer never doubles"),  # may redouble 1, not double 2
        ("pass; double 1; pass; pass", dbl(3), "only redouble"),  # second round: no new double
    ],
)
def test_illegal_doubles_leave_the_state_unchanged(calls, bad, reason):
    m = start_deal("classic", 0, D0, contract="no-hearts", doubles=calls or None)
    before = snapshot(m)
    with pytest.raises(IllegalAction, match=reason):
        m.apply(bad)
    assert snapshot(m) == before
    assert m.legal_actions() == before["legal"] and m.history == before["history"]
    assert m.totals == before["totals"]


def test_illegal_redouble_in_the_second_round_of_an_early_double():
    # Seat 2 was doubled by 1 before his turn and did not redouble; later 3 doubles him.
    # In the second round he may redouble 3 only.
    m = start_deal("classic", 0, D0, contract="no-hearts", doubles="double 2; pass; double 2; pass")
    assert m.to_act() == 2
    assert set(m.legal_actions()) == {dbl(), dbl(3)}
    before = snapshot(m)
    with pytest.raises(IllegalAction):
        m.apply(dbl(1))
    with pytest.raises(IllegalAction):
        m.apply(dbl(1, 3))
    assert snapshot(m) == before
