"""French (Marie-Luce) with Success, Chinese poker, Ravage City and Barbù a sei colpi."""

import random
from fractions import Fraction

import pytest
from helpers import draw_for, play_out, start_deal

from barbu import CHANCE, PASS, Card, CardSet, Deal, IllegalAction, Match, Ruleset, RulesetError
from barbu.classic.chinese import Arrange, Arrangements, fouled, parse_arrange, rank_of, score_arrangements
from barbu.classic.contracts import classic_contracts, french_contracts, score_tricks
from barbu.classic.sampler import sample_hands
from barbu.classic.series import italian_six_bonus, placement_points
from barbu.records.barbu import read_record, replay, write_record


def mask(text: str) -> int:
    return CardSet.parse(text).mask


# ------------------------------------------------------------------ French
def french(key: str):
    return {c.key: c for c in french_contracts()}[key]


def test_french_salad_example_155():
    """Seed 000: a last trick of 3♥ Q♥ 10♣ 4♠ costs 10 + 100 + 25 + 10 + 10 = 155."""
    won = [mask("3H QH TC 4S"), 0, 0, 0]
    winners = [1] * 12 + [0]
    assert score_tricks(french("salad"), 4, won, [1, 12, 0, 0], winners)[0] == 155


def test_french_lowest_total_wins_and_penalties_are_positive():
    m = play_out("french(players=3)", 1)
    assert len(m.results) == 21
    best, worst = m.standings()[0], m.standings()[-1]
    assert best[1] <= worst[1]
    assert not m.rules.family_spec.highest_wins


def test_french_rules_refuse_doubling_options():
    with pytest.raises(RulesetError, match="doubling does not apply to the french family"):
        Ruleset.parse("french(doubling=classic)")
    assert Ruleset.parse("french").heart_lead == "first_trick"


def test_french_first_trick_heart_ban_only_on_the_first_trick():
    deck = sorted(range(52))
    # Seat 0 (the chooser) holds hearts and clubs: he may not lead a heart to the first trick.
    h0 = mask("-.AKQJT.-.AKQJT987")
    rest = [c for c in deck if not h0 >> c & 1]
    hs = [h0] + [sum(1 << c for c in rest[i * 13 : (i + 1) * 13]) for i in range(3)]
    m = Match("french")
    m.apply(draw_for(0))
    m.apply(Deal(tuple(hs)))
    m.apply("no-hearts")
    assert {str(c) for c in m.legal_actions()} == {f"{r}C" for r in "AKQJT987"}
    with pytest.raises(IllegalAction, match="first trick"):
        m.apply("AH")


def test_french_king_set_aside_forbids_the_challenge_and_forces_a_redeal():
    m = Match("french(players=5)")
    m.apply(draw_for(0, 5))
    kh, c2 = Card.parse("KH"), Card.parse("2C")
    cards = [c for c in range(52) if c not in (kh, c2)]
    hands = tuple(sum(1 << c for c in cards[i * 10 : (i + 1) * 10]) for i in range(5))
    m.apply(Deal(hands))
    v = m.view(3)
    assert v.set_aside == (1 << kh) | (1 << c2)
    assert v.out_of_play & v.set_aside == v.set_aside
    assert "no-king" not in {a.contract for a in m.legal_actions()}
    with pytest.raises(IllegalAction, match="set aside"):
        m.apply("no-king")
    # Sampling never gives anybody a set-aside card.
    for _ in range(20):
        for h in sample_hands(v, random.Random(_)):
            assert not h & v.set_aside
    # A chooser left with only the King challenge while the King is set aside: the deal is redealt.
    m2 = Match("french(players=5)")
    m2.apply(draw_for(0, 5))
    m2.contracts_left[0] = {"no-king"}
    m2.apply(Deal(hands))
    assert m2.phase_name == "deal" and m2.to_act() == CHANCE and m2.deal_no == 0


SUITED = ["AKQJT98765432.-.-.-", "-.AKQJT98765432.-.-", "-.-.AKQJT98765432.-", "-.-.-.AKQJT98765432"]


def test_success_first_card_free_then_rows_from_its_rank():
    m = start_deal("french", 0, SUITED, contract="success")
    assert m.phase_name == "domino" and m.rank is None
    assert len(m.legal_actions()) == 13  # the chooser opens with any card
    m.apply("7S")
    assert m.rank == Card.parse("7S").rank
    assert [str(c) for c in m.legal_actions()] == ["7H"]  # only the 7 of hearts fits
    with pytest.raises(IllegalAction):
        m.apply(PASS)  # must play when able


def test_success_ace_gives_another_card_and_two_out_end_it():
    m = start_deal("french", 0, SUITED, contract="success")
    m.apply("7S")
    for s in "HDC":
        m.apply(f"7{s}")
    # Each seat climbs its row 8..K, then the ace.
    for r in "89TJQK":
        for s in "SHDC":
            m.apply(f"{r}{s}")
    m.apply("AS")
    assert m.to_act() == 0  # the ace: seat 0 may lay one more card, or pass
    assert PASS in m.legal_actions() and Card.parse("6S") in m.legal_actions()
    m.apply("6S")
    assert m.to_act() == 1
    m.apply("AH")
    assert m.to_act() == 1 and PASS in m.legal_actions()
    m.apply(PASS)  # declining says nothing about the hand
    assert m.view(2).cant_hold[1] == 0
    for s in "DC":
        m.apply(f"A{s}")
        m.apply(f"6{s}")
    # Seat 1 must now lay his 6 (a pass is only free right after an ace), then everyone goes down.
    for card in "5S 6H 5D 5C  4S 5H 4D 4C  3S 4H 3D 3C  2S 3H 2D".split():
        m.apply(card)
    r = m.results[-1]
    # Seat 0 went out first, then seat 2 (seat 1 lost a card's tempo by passing after his ace).
    assert r.finishing == (0, 2)
    assert r.base == (-100, 0, -50, 0)


# ------------------------------------------------------------------ Chinese poker
@pytest.mark.parametrize(
    "better,worse",
    [
        ("AKQJT.-.-.-", "A.A.A.AK"),  # straight flush > four of a kind
        ("2.2.2.23", "AK.AK.A.-"),  # four of a kind > full house
        ("AK.AK.A.-", "AKQJ9.-.-.-"),  # full house > flush
        ("76532.-.-.-", "A.K.Q.JT"),  # flush > straight
        ("6.5.4.32", "5.4.3.A2"),  # a six-high straight > the wheel
        ("5.4.3.A2", "A.A.A.KQ"),  # the wheel is a straight: > three of a kind
        ("A.A.A.KQ", "AK.AK.-.Q"),  # three of a kind > two pair
        ("AK.AK.-.Q", "A.A.K.QJ"),  # two pair > one pair
        ("A.A.K.QJ", "A.K.Q.J9"),  # one pair > high card
        ("A.A.K.QJ", "A.A.K.QT"),  # kickers decide
        ("2.2.2.-", "A.A.K.-"),  # front rows: three of a kind > pair
        ("A.A.-.2", "K.K.-.A"),  # a higher pair
        ("2.2.-.3", "A.K.Q.-"),  # pair > high card
    ],
)
def test_poker_ranking(better, worse):
    assert rank_of(mask(better)) > rank_of(mask(worse))


def test_fouled_arrangements_lose_every_row():
    strong = Arrange(mask("AK.A.A.A"), mask("-.KQJ92.-.-"), mask("-.-.Q2.Q"))  # quads, flush, pair
    weak = Arrange(mask("2.2.4.57"), mask("7.8.9.TQ"), mask("Q.3.4.-"))  # pair, high card, high card
    foul = Arrange(mask("2.3.5.7"), mask("A.A.K.Q"), mask("-.-.-.AKQ"))  # middle pair beats back
    assert not fouled(strong) and not fouled(weak) and fouled(foul)
    # strong beats weak on every row; both beat the fouled hand; two fouled hands tie.
    assert score_arrangements([strong, weak, foul, foul]) == [36, 24, 0, 0]


def test_chinese_poker_in_the_engine():
    r = Ruleset.parse("classic(chinese_poker=true)")
    assert "chinese-poker" in {c.key for c in classic_contracts(chinese_poker=True)}
    m = start_deal(str(r), 0, SUITED, contract="chinese-poker")
    assert m.phase_name == "doubling"
    # A positive contract: non-dealers may double only the dealer.
    assert {frozenset(a.targets) for a in m.legal_actions()} == {frozenset(), frozenset({0})}
    for call in ("double 0", "double 0", "double 0", "pass"):
        m.apply(call)
    assert m.phase_name == "arrange" and m.to_act() == 0
    legal = m.legal_actions()
    assert isinstance(legal, Arrangements) and len(legal) == 72072
    with pytest.raises(IllegalAction, match="5, 5 and 3"):
        m.apply(Arrange(mask("AKQJ.-.-.-"), mask("T9876.-.-.-"), mask("5432.-.-.-")))
    with pytest.raises(IllegalAction, match="exactly the 13 cards"):
        m.apply(Arrange(mask("-.AKQJT.-.-"), mask("T9876.-.-.-"), mask("432.-.-.-")))
    m.apply(parse_arrange("arrange AKQJT.-.-.- 98765.-.-.- 432.-.-.-"))
    # The next seat's view does not show seat 0's rows.
    v = m.view(1)
    assert all(str(a) == "HIDDEN" for a in v.deal_actions if "arrange" in str(a) or str(a) == "HIDDEN")
    assert not any(isinstance(a, Arrange) for a in v.deal_actions)
    m.apply("arrange -.AKQJT.-.- -.98765.-.- -.432.-.-")
    m.apply("arrange -.-.AKQJT.- -.-.98765.- -.-.432.-")
    m.apply("arrange -.-.-.98765 -.-.-.AKQJT -.-.-.432")  # middle beats back: fouled
    res = m.results[-1]
    # Three identical straight-flush/straight-flush/high-card hands tie among themselves; each beats the
    # fouled seat 3 on three rows: +12 each.
    assert res.base == (12, 12, 12, 0)
    # 1, 2 and 3 doubled the dealer 0: 1 and 2 tie with him; 3 pays him the difference, 12.
    assert res.scores == (24, 12, 12, -12)
    assert sum(res.scores) == sum(res.base)


def test_chinese_poker_matches_and_records():
    m = play_out("classic(chinese_poker=true, ravage_city=true)", 3)
    assert len(m.results) == 36


# ------------------------------------------------------------------ Ravage City
@pytest.mark.parametrize(
    "suits,expected",
    [
        (["AKQJT.-.-.-", "-.AKQ.-.-", "-.-.AKQ.-", "-.-.-.AKQ"], [-24, 0, 0, 0]),
        (["AKQJT.-.-.-", "-.AKQJT.-.-", "-.-.AKQ.-", "-.-.-.AKQ"], [-12, -12, 0, 0]),
        (["AKQ.-.-.-", "-.AKQ.-.-", "-.-.AKQ.-", "-.-.-.AK"], [-8, -8, -8, 0]),
        (["AKQ.-.-.-", "-.AKQ.-.-", "-.-.AKQ.-", "-.-.-.AKQ"], [-6, -6, -6, -6]),
    ],
)
def test_ravage_city_ties_split(suits, expected):
    rc = {c.key: c for c in classic_contracts(ravage_city=True)}["ravage-city"]
    won = [mask(s) for s in suits]
    assert score_tricks(rc, 4, won, [0, 0, 0, 0], []) == expected


def test_ravage_city_values_and_36():
    cs = {c.key: c.total(4, 13, (1 << 52) - 1) for c in classic_contracts(ravage_city=True)}
    assert cs == {
        "no-tricks": -39,
        "no-hearts": -30,
        "no-queens": -32,
        "no-king": -21,
        "no-last-two": -30,
        "trumps": 91,
        "domino": 85,
        "ravage-city": -24,
    }
    assert sum(cs.values()) == 0
    rc36 = {c.key: c for c in classic_contracts(ravage_city=True, ravage_value=36)}["ravage-city"]
    assert rc36.total(4, 13, (1 << 52) - 1) == -36


# ------------------------------------------------------------------ Barbù a sei colpi
def test_italian_six_seed_example():
    """-200 over the six deals in third place: -200 + 110 - 25 = -115 (seat 2, not the dealer)."""
    series = [-50, -90, -200, -300]
    bonus = italian_six_bonus(series, dealer=0)
    assert series[2] + bonus[2] == -115


def test_italian_six_dealer_penalties():
    # Dealer 0 third: small penalty, 75 shared 25 each.
    assert italian_six_bonus([-150, -50, -100, -200], 0) == [110 - 25 - 75, 110 + 50 + 25, 110 + 25 + 25, 110 - 50 + 25]
    # Dealer fourth: large penalty.
    assert italian_six_bonus([-300, -50, -100, -200], 0)[0] == 110 - 50 - 150
    # Dealer tied for second and third with one other: only one opponent strictly above, no penalty.
    b = italian_six_bonus([-100, -50, -100, -200], 0)
    assert b[0] == 110 and b[2] == 110  # (25 - 25) / 2 = 0 each
    # Tied for third and fourth with two opponents above: the small penalty.
    assert italian_six_bonus([-200, -50, -100, -200], 0)[0] == 110 - Fraction(75, 2) - 75


def test_placement_shares_are_exact():
    assert placement_points([10, 10, 10, 0]) == [Fraction(50, 3)] * 3 + [-50]
    assert placement_points([0, 0, 0, 0]) == [0, 0, 0, 0]
    assert sum(placement_points([5, 5, 1, 1])) == 0


def test_italian_six_matches_are_zero_sum(tmp_path):
    m = play_out("italian-six", 2)
    assert len(m.results) == 24
    assert sum(m.totals) == 0
    assert sum(1 for r in m.results if r.series) == 4
    path = tmp_path / "six.jsonl"
    write_record(m, path)
    rep = replay(read_record(path))
    assert rep.consistent and rep.match.totals == m.totals


def test_italian_six_totals_are_the_seeds():
    m = Match("italian-six")
    totals = {c.key: c.total(4, 13, m.deck) for c in m.contracts}
    assert totals == {
        "no-king": -100,
        "no-hearts": -130,
        "no-queens": -80,
        "no-last-two": -100,
        "no-tricks": -130,
        "domino": 100,
    }
    assert sum(totals.values()) == -440
