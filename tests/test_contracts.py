"""The seven classic contracts on hand-built deals (RULES.md §0, §1; seed 001).

Every expected score is worked out by hand in the comments from the play
written next to it.  Scoring tests use ``undoubled_negative=play`` so that a
deal nobody doubles is played and the scores equal the base points.
"""

from __future__ import annotations

import pytest
from helpers import (
    D0,
    D0_PLAY,
    D0Q,
    D0Q_PLAY,
    D1,
    D1_PLAY,
    FULL_SUITS,
    H1,
    H1_KING_PLAY,
    H1_KING_REST,
    H1_PLAY,
    H2,
    H2_PLAY,
    H2_REST,
    TR,
    cards,
    domino_rounds,
    legal_cards,
    play,
    snapshot,
    start_deal,
    words,
)

from barbu import PASS, CardSet, IllegalAction, Match

PLAY = "classic(undoubled_negative=play)"
NOBODY_DOUBLES = "pass; pass; pass; pass"
TOTALS = {
    "no-tricks": -26,
    "no-hearts": -30,
    "no-queens": -24,
    "no-king": -20,
    "no-last-two": -30,
    "trumps": 65,
    "domino": 65,
}


def played(
    rules: str, hands, contract: str, text: str, *, trump: str | None = None, rank: str | None = None, dealer: int = 0
) -> Match:
    """Deal, declare, nobody doubles, play `text`."""
    m = start_deal(rules, dealer, hands, contract=contract, trump=trump, rank=rank, doubles=NOBODY_DOUBLES)
    assert m.phase_name in ("play", "domino")
    assert m.to_act() == dealer, "the declarer has the first turn"
    play(m, text)
    return m


def last(m: Match):
    assert m.results, "the deal has not ended"
    return m.results[-1]


def check_result(m: Match, contract: str, scores: tuple[int, ...], tricks: int | None = None) -> None:
    r = last(m)
    assert r.contract == contract
    assert r.played
    assert r.base == scores
    assert r.scores == scores  # nobody doubled
    assert sum(r.scores) == TOTALS[contract]
    assert m.totals == list(scores)
    assert m.phase_name == "deal" and m.deal_no == 1
    if tricks is not None:
        assert len(r.tricks) == tricks


# ---------------------------------------------------------------------------------------------
# The deals (D0, D0Q, D1, H1, H2, TR, FULL_SUITS) and their plays live in helpers.py.
#
# D0: seat 0 "5432.876.JT9.AKQ", 1 "AKQ.5432.876.JT9", 2 "JT9.AKQ.5432.876",
# 3 "876.JT9.AKQ.5432".  In D0_PLAY everybody follows suit in tricks 1-12, and the
# holder of A K Q of the suit led wins: spades -> 1, hearts -> 2, diamonds -> 3,
# clubs -> 0.  Winners: 1 2 3 0 | 1 2 3 0 | 1 2 3 0 | and trick 13 (2S 2H 2D 2C, seat 0
# leads) goes to seat 0 at no-trump.  Tricks: seat 0 4, the others 3.

# ---------------------------------------------------------------------------------------------
# No tricks: -2 per trick.


def test_no_tricks_d0():
    m = played(PLAY, D0, "no-tricks", D0_PLAY)
    # seat 0: tricks 4 8 12 13 -> 4 tricks -8; the others 3 tricks each -6.
    check_result(m, "no-tricks", (-8, -6, -6, -6), tricks=13)
    assert m.tricks_won == [4, 3, 3, 3]
    assert m.winners == [1, 2, 3, 0] * 3 + [0]


def test_no_tricks_d1():
    m = played(PLAY, D1, "no-tricks", D1_PLAY)
    # seat 0 takes tricks 1-11 (-22), seat 1 trick 12 (-2), seat 2 trick 13 (-2).
    check_result(m, "no-tricks", (-22, -2, -2, 0), tricks=13)


# ---------------------------------------------------------------------------------------------
# No hearts: A♥ -6, other hearts -2.


def test_no_hearts_h1():
    m = played(PLAY, H1, "no-hearts", H1_PLAY)
    # seat 0: Q 9 6 3 2 -> -10; seat 1: A J 8 5 -> -6-2-2-2 = -12; seat 2: K T 7 4 -> -8.
    check_result(m, "no-hearts", (-10, -12, -8, 0), tricks=13)


def test_no_hearts_d1():
    m = played(PLAY, D1, "no-hearts", D1_PLAY)
    # seat 0: Q J T 9 8 on tricks 1-5 -> -10; seat 1 trick 12: 2 K 5 6 -> -8;
    # seat 2 trick 13: 4 A 7 3 -> -6-2-2-2 = -12.  Tricks 12 and 13 are led by players
    # holding only hearts, so the heart leads are allowed.
    check_result(m, "no-hearts", (-10, -8, -12, 0), tricks=13)


# ---------------------------------------------------------------------------------------------
# No queens: -6 each.


def test_no_queens_d0q():
    m = played(PLAY, D0Q, "no-queens", D0Q_PLAY)
    # Q♠ -> 1, Q♦ -> 3, Q♣ -> 0 (trick 12), Q♥ -> 0 (trick 13): -12, -6, 0, -6.
    check_result(m, "no-queens", (-12, -6, 0, -6), tricks=13)


def test_no_queens_d1_stops_when_all_queens_are_taken():
    # Q♥ (trick 1), Q♠ (3), Q♦ (4), Q♣ (7) all go to seat 0: the deal stops after trick 7.
    m = played(PLAY, D1, "no-queens", " ".join(words(D1_PLAY)[:28]))
    check_result(m, "no-queens", (-24, 0, 0, 0), tricks=7)


# ---------------------------------------------------------------------------------------------
# No King of hearts: -20.


def test_no_king_h1_stops_when_the_king_is_taken():
    m = played(PLAY, H1, "no-king", H1_KING_PLAY)
    check_result(m, "no-king", (0, 0, -20, 0), tricks=5)
    # The remaining cards stay in the hands; the record keeps the dealt hands.
    assert [str(CardSet(h)) for h in m.hands] == ["876.-.32.KQJ", "QJ.-.876.432", "32.-.QJ.9876", "-.98765432.-.-"]
    assert last(m).hands == tuple(CardSet.parse(h).mask for h in H1)


def test_no_king_d1_stops_after_trick_12():
    m = played(PLAY, D1, "no-king", "")
    tricks = words(D1_PLAY)
    for i in range(0, 48, 4):
        assert m.phase_name == "play"
        play(m, " ".join(tricks[i : i + 4]))
    # Trick 12 (2H KH 5H 6H) gives the K♥ to seat 1: the deal is decided, trick 13 is not played.
    check_result(m, "no-king", (0, -20, 0, 0), tricks=12)
    assert [str(CardSet(h)) for h in m.hands] == ["-.3.-.-", "-.4.-.-", "-.A.-.-", "-.7.-.-"]


# ---------------------------------------------------------------------------------------------
# No last two: trick 12 -10, trick 13 -20.


def test_no_last_two_d1():
    m = played(PLAY, D1, "no-last-two", D1_PLAY)
    check_result(m, "no-last-two", (0, -10, -20, 0), tricks=13)


def test_no_last_two_d0():
    m = played(PLAY, D0, "no-last-two", D0_PLAY)
    # Trick 12 (clubs) and 13 both go to seat 0.
    check_result(m, "no-last-two", (-30, 0, 0, 0), tricks=13)


# ---------------------------------------------------------------------------------------------
# Trumps: +5 per trick.


@pytest.mark.parametrize(
    "trump, scores",
    [
        # Trick 13 is 2S (led by 0) 2H 2D 2C; the holder of the trump 2 wins it (he is void in
        # spades and must trump; nobody can overtrump).  Tricks 1-12 go 1 2 3 0 as at no-trump.
        ("S", (20, 15, 15, 15)),
        ("H", (15, 20, 15, 15)),
        ("D", (15, 15, 20, 15)),
        ("C", (15, 15, 15, 20)),
    ],
)
def test_trumps_d0(trump, scores):
    m = played(PLAY, D0, "trumps", D0_PLAY, trump=trump)
    check_result(m, "trumps", scores, tricks=13)
    assert last(m).trump == "SHDC".index(trump)


def test_trumps_d1_spades():
    # Seat 0 leads eleven trumps (seats 1 and 2 must play their only trump under the ace);
    # tricks 12 and 13 are plain hearts: K♥ (seat 1), A♥ (seat 2).  55 + 5 + 5.
    m = played(PLAY, D1, "trumps", D1_PLAY, trump="S")
    check_result(m, "trumps", (55, 5, 5, 0), tricks=13)


HAND3 = "AD KD QD JD TD 9D 8D 8C 7C 6C 5C 4C 2C"
SEAT2_SPADES = "AS KS QS JS TS 9S 8S 7S 6S 5S"

# (card to play, legal set before it under classic, under italian)
TR_STEPS = [
    # Trick 1: trumps led.  Seat 1 must head the trick (9 T J Q K over the 5); under italian any
    # trump.  Seat 2 cannot beat the 9: any trump.  Seat 3 has no trump: any card.
    ("5H", "4S 3S 2S AH 8H 5H 4H 7D 6D 5D 4D 3D 2D", None),
    ("9H", "9H TH JH QH KH", "3H 9H TH JH QH KH"),
    ("2H", "2H 6H 7H", None),
    ("2C", HAND3, None),
    # Trick 2: seat 1 (9♥ won) leads a club.  Seat 2 is void and nobody has trumped: must trump.
    # Seat 3 follows suit.  Seat 0 is void and the trick is trumped (6♥): must overtrump.
    ("3C", "3H TH JH QH KH AC KC QC JC TC 9C 3C", None),
    ("6H", "6H 7H", None),
    ("4C", "8C 7C 6C 5C 4C", None),
    ("8H", "8H AH", None),
    # Trick 3: seat 0 (8♥ won) leads a diamond.  Seat 1 void, no trump yet: any trump.
    # Seat 2 void, trick trumped by Q♥, his 7♥ cannot overtrump: any card.
    ("2D", "4S 3S 2S AH 4H 7D 6D 5D 4D 3D 2D", None),
    ("QH", "3H TH JH QH KH", None),
    ("5S", SEAT2_SPADES + " 7H", None),
    ("8D", "AD KD QD JD TD 9D 8D", None),
    # Trick 4: seat 1 (Q♥ won) leads the 3♥.  Seat 2 must head it with his 7♥; seat 3 has no
    # trump; seat 0 must beat the 7: only the A♥ (italian: 4♥ too).
    ("3H", "3H TH JH KH AC KC QC JC TC 9C", None),
    ("7H", "7H", None),
    ("AD", "AD KD QD JD TD 9D 7C 6C 5C 8C", None),
    ("AH", "AH", "4H AH"),
]
TR_WINNERS = [1, 0, 1, 0]


@pytest.mark.parametrize("rules", ["classic", "classic(trump_rules=italian)"])
def test_trump_rules_trick_by_trick(rules):
    italian = "italian" in rules
    m = start_deal(rules, 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass")
    winners = []
    for i, (card, classic_legal, italian_legal) in enumerate(TR_STEPS):
        expected = italian_legal if italian and italian_legal else classic_legal
        assert legal_cards(m) == set(expected.split()), f"step {i} ({card})"
        play(m, card)
        if i % 4 == 3:
            winners.append(m.to_act())
    assert winners == TR_WINNERS


def test_italian_trump_rules_differ_only_when_trumps_are_led():
    a = start_deal("classic", 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass")
    b = start_deal(
        "classic(trump_rules=italian)", 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass"
    )
    differ = []
    for i, (card, _, _) in enumerate(TR_STEPS):
        if a.legal_actions() != b.legal_actions():
            differ.append(i)
            assert a.trick and a.trick[0] // 13 == 1, "differs at a trick where trumps were not led"
        play(a, card)
        play(b, card)
    assert differ == [1, 15]


def test_trump_win_goes_to_highest_trump_not_highest_card():
    # Trick 2 of TR: 3♣ led, A♣ not played, 6♥ then 8♥: the 8♥ wins (seat 0).
    m = start_deal("classic", 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass")
    play(m, "5H 9H 2H 2C  3C 6H 4C 8H")
    assert m.winners == [1, 0] and m.to_act() == 0


def test_trumps_led_and_void_in_trumps_any_card():
    m = start_deal("classic", 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass")
    play(m, "5H 9H 2H")
    assert legal_cards(m) == set(HAND3.split())  # seat 3 has no heart: anything


# ---------------------------------------------------------------------------------------------
# Heart-lead ban (No hearts, No King): a heart may be led only with nothing else in hand;
# discarding hearts is always allowed.

HB = ["A.KQJT98765432.-.-", "-.A.AKQJT98765.32", "KQJT98765432.-.4.-", "-.-.32.AKQJT987654"]


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_heart_lead_ban(contract):
    m = start_deal(PLAY, 0, HB, contract=contract, doubles=NOBODY_DOUBLES)
    # Seat 0 holds twelve hearts and the A♠: he must lead the spade.
    assert m.legal_actions() == cards("AS")
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="hearts may not be led"):
        m.apply("KH")
    assert snapshot(m) == before
    play(m, "AS")
    # Seat 1 is void in spades: he may discard his A♥.
    assert "AH" in legal_cards(m) and len(m.legal_actions()) == 13
    play(m, "AH KS 2D")
    assert m.to_act() == 0
    # Now seat 0 holds only hearts: he may lead any of them.
    assert legal_cards(m) == set("KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H".split())
    play(m, "2H")


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two"])
def test_no_heart_lead_ban_in_other_contracts(contract):
    m = start_deal(PLAY, 0, HB, contract=contract, doubles=NOBODY_DOUBLES)
    assert len(m.legal_actions()) == 13


def test_heart_lead_ban_trumps():
    m = start_deal(PLAY, 0, HB, contract="trumps", trump="S", doubles=NOBODY_DOUBLES)
    assert len(m.legal_actions()) == 13


def test_heart_lead_ban_later_lead():
    # D0 at No hearts: after trick 1 seat 1 leads and holds hearts and other suits.
    m = start_deal(PLAY, 0, D0, contract="no-hearts", doubles=NOBODY_DOUBLES)
    play(m, "5S AS JS 8S")
    assert m.to_act() == 1
    assert legal_cards(m) == set("KS QS 8D 7D 6D JC TC 9C".split())
    with pytest.raises(IllegalAction, match="hearts may not be led"):
        m.apply("5H")


# ---------------------------------------------------------------------------------------------
# Early end and stop_when_decided.


def test_no_hearts_stops_when_all_hearts_are_taken():
    m = played(PLAY, H2, "no-hearts", H2_PLAY)
    check_result(m, "no-hearts", (-30, 0, 0, 0), tricks=5)
    assert all(len(CardSet(h)) == 8 for h in m.hands)


def test_no_hearts_without_stop_plays_13_tricks():
    m = played("classic(undoubled_negative=play, stop_when_decided=false)", H2, "no-hearts", H2_PLAY)
    assert m.phase_name == "play" and not m.results
    play(m, H2_REST)
    check_result(m, "no-hearts", (-30, 0, 0, 0), tricks=13)


def test_no_king_without_stop_plays_13_tricks():
    m = played("classic(undoubled_negative=play, stop_when_decided=false)", H1, "no-king", H1_KING_PLAY)
    assert m.phase_name == "play" and not m.results
    play(m, H1_KING_REST)
    check_result(m, "no-king", (0, 0, -20, 0), tricks=13)


def test_no_queens_d0_stops_after_the_fourth_queen():
    # D0_PLAY gives Q♠ Q♥ Q♦ Q♣ to 1 2 3 0 in tricks 9-12; trick 13 is never played.
    m = played(PLAY, D0, "no-queens", " ".join(D0_PLAY.split()[:48]))
    check_result(m, "no-queens", (-6, -6, -6, -6), tricks=12)
    assert [str(CardSet(h)) for h in m.hands] == ["2.-.-.-", "-.2.-.-", "-.-.2.-", "-.-.-.2"]


def test_no_queens_without_stop_plays_13_tricks():
    m = played(
        "classic(undoubled_negative=play, stop_when_decided=false)", D0, "no-queens", " ".join(D0_PLAY.split()[:48])
    )
    assert m.phase_name == "play" and not m.results
    play(m, "2S 2H 2D 2C")
    check_result(m, "no-queens", (-6, -6, -6, -6), tricks=13)


@pytest.mark.parametrize(
    "contract, trump, scores",
    [
        ("no-tricks", None, (-22, -2, -2, 0)),
        ("no-last-two", None, (0, -10, -20, 0)),
        ("trumps", "S", (55, 5, 5, 0)),
    ],
)
def test_never_stops_early(contract, trump, scores):
    # D1: seat 0 has won 11 tricks when only 8 cards are left; nothing stops before trick 13.
    m = start_deal(PLAY, 0, D1, contract=contract, trump=trump, doubles=NOBODY_DOUBLES)
    tricks = words(D1_PLAY)
    for i in range(0, 52, 4):
        assert m.phase_name == "play", f"stopped after {i // 4} tricks"
        play(m, " ".join(tricks[i : i + 4]))
    check_result(m, contract, scores, tricks=13)


# ---------------------------------------------------------------------------------------------
# Domino: 45 / 20 / 5 / -5 by finishing order.


def test_domino_full_suits_dealer_2():
    # Declarer 2 plays first, then 3, 0, 1; each has a card every turn, so they go out in that
    # order on the 13th round: 2 -> 45, 3 -> 20, 0 -> 5, 1 -> -5.  After the third player is out
    # the deal stops (seat 1 still holds his 2♥).
    seq = domino_rounds(2, "789TJQKA65432")
    m = played(PLAY, FULL_SUITS, "domino", " ".join(seq[:51]), rank="7", dealer=2)
    check_result(m, "domino", (5, -5, 45, 20))
    assert last(m).finishing == (2, 3, 0, 1)
    assert last(m).rank == 5  # ranks count from the two: 2 -> 0, ..., 7 -> 5
    assert [str(CardSet(h)) for h in m.hands] == ["-.-.-.-", "-.2.-.-", "-.-.-.-", "-.-.-.-"]


def test_domino_without_stop_plays_every_card():
    seq = domino_rounds(2, "789TJQKA65432")
    m = played(
        "classic(undoubled_negative=play, stop_when_decided=false)",
        FULL_SUITS,
        "domino",
        " ".join(seq[:51]),
        rank="7",
        dealer=2,
    )
    assert m.phase_name == "domino" and m.to_act() == 1
    assert m.legal_actions() == cards("2H")
    play(m, "2H")
    check_result(m, "domino", (5, -5, 45, 20))
    assert last(m).finishing == (2, 3, 0, 1)
    assert len(last(m).tricks) == 52


# DOM2: seat 0 (declarer) has the spades but the 7♥; seat 1 has the hearts and the 7♠.
DOM2 = ["AKQJT9865432.7.-.-", "7.AKQJT9865432.-.-", "-.-.AKQJT98765432.-", "-.-.-.AKQJT98765432"]


def test_domino_passes_change_the_finishing_order():
    m = start_deal(PLAY, 0, DOM2, contract="domino", rank="7", doubles=NOBODY_DOUBLES)
    # Seat 0 holds no 7♠; his only card of the starting rank is the 7♥, which he must play.
    assert m.legal_actions() == cards("7H")
    play(m, "7H")
    assert legal_cards(m) == {"7S", "6H", "8H"}
    play(m, "8H 7D 7C")
    # Seat 1 keeps the 7♠ back: seat 0 has no card that fits and must pass, round after round.
    hearts = "9 T J Q K A 6 5 4 3 2".split()
    diamonds_clubs = "8 9 T J Q K A 6 5 4 3 2".split()
    for i in range(11):
        assert m.to_act() == 0 and m.legal_actions() == (PASS,)
        play(m, f"pass {hearts[i]}H {diamonds_clubs[i]}D {diamonds_clubs[i]}C")
    # Round 13: seat 0 passes again, seat 1 plays the 7♠ and is out first; seats 2 and 3 play
    # their last card; only seat 0 is left.
    assert m.legal_actions() == (PASS,)
    play(m, "pass 7S 2D 2C")
    check_result(m, "domino", (-5, 45, 20, 5))
    assert last(m).finishing == (1, 2, 3, 0)
    assert len(m.domino_passes) == 12


def test_domino_declarer_without_the_rank_passes_first():
    # Swap 7♠ and 8♥: the declarer holds no 7 at all; the starting rank need not be held.
    hands = ["AKQJT9865432.8.-.-", "7.AKQJT9765432.-.-", FULL_SUITS[2], FULL_SUITS[3]]
    m = start_deal(PLAY, 0, hands, contract="domino", rank="7", doubles=NOBODY_DOUBLES)
    assert m.to_act() == 0
    assert m.legal_actions() == (PASS,)
    before = snapshot(m)
    with pytest.raises(IllegalAction):
        m.apply("8H")
    with pytest.raises(IllegalAction):
        m.apply("AS")
    assert snapshot(m) == before
    play(m, "pass")
    # Seat 1 holds 7♠ and 7♥: he must play one, a pass is refused and changes nothing.
    assert m.to_act() == 1 and legal_cards(m) == {"7S", "7H"}
    before = snapshot(m)
    with pytest.raises(IllegalAction, match="pass only when you cannot play"):
        m.apply("pass")
    assert snapshot(m) == before
    play(m, "7S 7D 7C")
    # The 7♠ is down: seat 0 can now go on with 8♠ or 6♠ (and the 8♥ waits for the 7♥).
    assert legal_cards(m) == {"6S", "8S"}


@pytest.mark.parametrize(
    "ace, rank, after",
    [
        ("high", "2", {"3S"}),  # no wrap: the ace does not go below the two
        ("high", "K", {"QS", "AS"}),  # the ace follows the king
        ("high", "A", {"KS"}),  # ... and nothing follows the ace
        ("low", "2", {"AS", "3S"}),  # the ace goes below the two
        ("low", "K", {"QS"}),  # nothing follows the king
        ("low", "A", {"2S"}),
    ],
)
def test_domino_ace(ace, rank, after):
    rules = "classic(undoubled_negative=play, domino_ace=low)" if ace == "low" else PLAY
    m = start_deal(rules, 0, FULL_SUITS, contract="domino", rank=rank, doubles=NOBODY_DOUBLES)
    assert m.legal_actions() == cards(rank + "S")
    play(m, f"{rank}S {rank}H {rank}D {rank}C")
    assert legal_cards(m) == after


def test_domino_ace_high_only_after_king():
    m = start_deal(PLAY, 0, FULL_SUITS, contract="domino", rank="Q", doubles=NOBODY_DOUBLES)
    play(m, "QS QH QD QC")
    assert legal_cards(m) == {"JS", "KS"}
    with pytest.raises(IllegalAction, match="cannot be placed"):
        m.apply("AS")
    play(m, "KS KH KD KC")
    assert legal_cards(m) == {"JS", "AS"}


def test_domino_ace_low_full_deal():
    # Ranks up from the 7 to the K, then down to the 2 and the ace last.
    seq = domino_rounds(0, "789TJQK65432A")
    m = played("classic(undoubled_negative=play, domino_ace=low)", FULL_SUITS, "domino", " ".join(seq[:51]), rank="7")
    check_result(m, "domino", (45, 20, 5, -5))
    assert last(m).finishing == (0, 1, 2, 3)


def test_domino_ace_high_refuses_ace_after_two():
    m = start_deal(PLAY, 0, FULL_SUITS, contract="domino", rank="3", doubles=NOBODY_DOUBLES)
    play(m, "3S 3H 3D 3C 2S 2H 2D 2C")
    assert legal_cards(m) == {"4S"}
    with pytest.raises(IllegalAction, match="cannot be placed"):
        m.apply("AS")


def test_domino_must_play_when_able_has_no_pass():
    m = start_deal(PLAY, 0, FULL_SUITS, contract="domino", rank="7", doubles=NOBODY_DOUBLES)
    assert PASS not in m.legal_actions()
    with pytest.raises(IllegalAction, match="pass only when you cannot play"):
        m.apply(PASS)
