"""The Scottish 32-card game (seed 004, RULES.md §5): the Unused Pack, the Caller's partition, the
Silly Round's cuts and pass-ons, Patience, and the booklet's worked example, fed cut by cut."""

from __future__ import annotations

from itertools import combinations

import pytest
from scottish_helpers import (
    BLACK,
    RED,
    SUITS_DEAL,
    cut,
    deal,
    draw_for,
    finish_deal,
    hands_of,
    new_match,
    play,
    to_silly_round,
    top_deal,
)

from barbu import CHANCE, CardSet, Declare, IllegalAction, Match, ParseError
from barbu.core.actions import PASS, PassOn
from barbu.core.cards import JACK, PIQUET_DECK
from barbu.scottish.match import RoundState, call_choices
from barbu.scottish.pack import (
    BRIDGE,
    JOKER,
    PACK,
    Cut,
    PackDraw,
    draw_value,
    draw_winner,
    format_pack,
    pack_card,
    parse_pack,
    valid_draw,
)
from barbu.scottish.silly import DIRECTIONS, cut_step

NEGATIVES = ("aces", "king", "queens", "hearts", "tricks")
ALL_CALLS = frozenset(NEGATIVES + ("patience-1", "patience-2"))


# ---------------------------------------------------------------------- the Unused Pack


def test_the_unused_pack_has_23_cards_and_ranks_bridge_joker_then_numbers():
    assert len(PACK) == 23 and PACK.count(JOKER) == 2 and PACK.count(BRIDGE) == 1
    assert sorted({c for c in PACK if c < 20}) == list(range(20))
    assert draw_value(BRIDGE) > draw_value(JOKER) > draw_value(pack_card(6, 0)) > draw_value(pack_card(2, 3))
    for text in ("4S", "6h", "2♣", "Joker", "bridge"):
        assert format_pack(parse_pack(text)).lower() == {"2♣": "2c"}.get(text, text).lower()
    with pytest.raises(ParseError):
        parse_pack("7S")  # a 7 is in the 32-card deck, not in the Unused Pack


def test_draw_highest_card_wins_and_ties_draw_again():
    assert draw_winner((pack_card(2, 0), pack_card(6, 1), pack_card(5, 0), pack_card(3, 3))) == 1
    assert (
        draw_winner((pack_card(6, 0), pack_card(6, 1), pack_card(5, 0), pack_card(3, 3))) is None
    )  # suits don't count
    assert draw_winner((JOKER, JOKER, pack_card(5, 0), pack_card(3, 3))) is None
    assert draw_winner((JOKER, JOKER, BRIDGE, pack_card(3, 3))) == 2
    assert not valid_draw((JOKER, JOKER, JOKER, BRIDGE), 4) and not valid_draw((1, 1, 2, 3), 4)
    m = Match("scottish", seed=1)
    tie = PackDraw((pack_card(6, 0), pack_card(6, 1), pack_card(5, 0), pack_card(3, 3)))
    m.apply(tie)
    assert m.phase_name == "draw" and m.to_act() == CHANCE  # everybody draws again
    m.apply("draw 2S Joker 4H 6C")
    assert m.phase_name == "deal" and m.dealer == m.declarer == 1
    with pytest.raises(IllegalAction):
        Match("scottish").apply(PackDraw((JOKER, JOKER, JOKER, 1)))


# ---------------------------------------------------------------------- the Caller's partition


def brute_force_can_finish(negs: frozenset[str], pats: int, big: int, treble: bool) -> bool:
    """Is there a way to group the calls left so that the round has two groups of 2+ or one of 3+?"""
    if not negs and not pats:
        return treble or big >= 2
    groups = [frozenset(g) for k in range(1, len(negs) + 1) for g in combinations(sorted(negs), k)]
    for g in groups:
        if brute_force_can_finish(negs - g, pats, big + (len(g) >= 2), treble or len(g) >= 3):
            return True
    if pats >= 1 and brute_force_can_finish(negs, pats - 1, big, treble):
        return True
    return pats == 2 and brute_force_can_finish(negs, 0, big + 1, treble)


def offered_by_brute_force(negs: frozenset[str], pats: int, big: int, treble: bool) -> set[str]:
    out = set()
    for k in range(1, len(negs) + 1):
        for g in combinations([c for c in NEGATIVES if c in negs], k):
            if brute_force_can_finish(negs - set(g), pats, big + (k >= 2), treble or k >= 3):
                out.add("+".join(g))
    if pats >= 1 and brute_force_can_finish(negs, pats - 1, big, treble):
        out.add("patience")
    if pats == 2 and brute_force_can_finish(negs, 0, big + 1, treble):
        out.add("double-patience")
    return out


def test_caller_is_offered_exactly_the_groups_that_keep_a_legal_partition():
    """Every round state reachable by legal calls: the engine offers what an exhaustive search allows."""
    seen = set()
    stack = [RoundState(first_caller=0, dealer=0)]
    while stack:
        st = stack.pop()
        key = (st.calls_left, st.big, st.treble)
        if key in seen:
            continue
        seen.add(key)
        negs = frozenset(c for c in NEGATIVES if c in st.calls_left)
        pats = sum(1 for p in ("patience-1", "patience-2") if p in st.calls_left)
        offered = set(call_choices(st))
        assert offered == offered_by_brute_force(negs, pats, st.big, st.treble), key
        assert offered or not st.calls_left, f"a dead end: {key}"
        for g in offered:
            if g == "patience":
                used = {"patience-1" if "patience-1" in st.calls_left else "patience-2"}
            elif g == "double-patience":
                used = {"patience-1", "patience-2"}
            else:
                used = set(g.split("+"))
            stack.append(
                RoundState(
                    calls_left=st.calls_left - used,
                    big=st.big + (len(used) >= 2),
                    treble=st.treble or len(used) >= 3,
                    first_caller=0,
                    dealer=0,
                )
            )
    assert len(seen) > 50


def test_partition_examples_by_hand():
    start = RoundState(first_caller=0, dealer=0)
    assert len(call_choices(start)) == 31 + 2  # every group of negatives, a Patience, Double Patience
    # Aces, King, Queens played singly: Hearts or Patience alone would leave at most one Double possible.
    st = RoundState(calls_left=frozenset({"hearts", "tricks", "patience-1", "patience-2"}), first_caller=0, dealer=0)
    assert set(call_choices(st)) == {"hearts+tricks", "double-patience"}
    # One Double made: a second one is needed, or a Treble.
    st = RoundState(calls_left=frozenset({"queens", "hearts", "patience-1"}), big=1, first_caller=0, dealer=0)
    assert set(call_choices(st)) == {"queens+hearts", "patience"}
    # A Treble made: anything goes.
    st = RoundState(calls_left=frozenset({"tricks", "patience-1", "patience-2"}), treble=True, first_caller=0, dealer=0)
    assert set(call_choices(st)) == {"tricks", "patience", "double-patience"}


def test_an_illegal_group_is_refused_with_the_reason_and_nothing_changes():
    m = new_match(caller=2)
    for call in ("aces", "king", "queens"):
        deal(m, SUITS_DEAL)
        m.apply(call)
        finish_deal(m)
    deal(m, SUITS_DEAL)
    before = (m.phase_name, m.to_act(), list(m.history), m.legal_actions())
    with pytest.raises(IllegalAction, match="two groups of two or more, or one group of three"):
        m.apply("hearts")
    with pytest.raises(IllegalAction, match="already been played"):
        m.apply("aces+tricks")
    with pytest.raises(ParseError):
        m.apply("hearts+spades")
    assert (m.phase_name, m.to_act(), list(m.history), m.legal_actions()) == before
    assert {a.contract for a in m.legal_actions()} == {"hearts+tricks", "double-patience"}
    m.apply("hearts tricks")  # words, any order
    assert m.contract.key == "hearts+tricks" and m.contract.parts == ("hearts", "tricks")


def test_call_texts():
    m = new_match()
    deal(m, SUITS_DEAL)
    for text, key in (
        ("king+queens", "king+queens"),
        ("queens, king", "king+queens"),
        ("call the lot", "aces+king+queens+hearts+tricks"),
        ("double", "double-patience"),
        ("patience", "patience"),
        ("contract aces+hearts", "aces+hearts"),
        ("KH", "king"),
    ):
        assert m.parse_action(text) == Declare(key)
        assert m.parse_action(str(Declare(key))) == Declare(key)


def test_the_caller_deals_every_deal_of_his_round_and_his_left_leads():
    m = new_match(caller=1)
    deal(m, SUITS_DEAL)
    assert m.to_act() == 1 and m.dealer == 1
    m.apply("aces+king+queens+hearts+tricks")
    assert m.to_act() == 2  # the Caller's left leads
    finish_deal(m)
    assert m.dealer == 1 and m.phase_name == "deal"
    deal(m, SUITS_DEAL)
    m.apply("patience")
    finish_deal(m)
    deal(m, SUITS_DEAL)
    assert [a.contract for a in m.legal_actions()] == ["patience"]
    m.apply("patience")
    finish_deal(m)
    assert m.dealer == m.declarer == 2 and m.phase_name == "deal"  # the next Player Round: the Caller's left


# ---------------------------------------------------------------------- the calls' values


@pytest.mark.parametrize(
    "call,expected",
    [
        ("aces", [0, -80, 0, 0]),
        ("king", [0, -100, 0, 0]),
        ("queens", [0, -60, 0, 0]),
        ("hearts", [0, -100, 0, 0]),
        ("tricks", [0, -80, 0, 0]),
        # a combination scores every call at once: the Ace of hearts counts as an ace and as a heart
        ("aces+hearts", [0, -180, 0, 0]),
        ("aces+king+queens+hearts+tricks", [0, -420, 0, 0]),
    ],
)
def test_negative_calls_score_the_booklet_values(call, expected):
    m = new_match(caller=0)
    deal(m, top_deal(1))  # seat 1 wins every trick
    m.apply(call)
    finish_deal(m)
    r = m.results[-1]
    assert list(r.scores) == expected
    assert [sum(p) for p in r.scottish.parts] == [
        {"aces": -80, "king": -100, "queens": -60, "hearts": -100, "tricks": -80}[c] for c in r.scottish.calls
    ]


def test_hearts_count_ten_each_and_the_jack_thirty():
    m = new_match(caller=3)
    deal(m, ["AK.AK.AK.AK", "QJ.QJ.QJ.QJ", "T9.T9.T9.T9", "87.87.87.87"])
    m.apply("hearts")
    assert m.to_act() == 0  # seat 0 leads and wins every trick: seat 1's hearts are forced out under them
    finish_deal(m)
    assert list(m.results[-1].scores) == [-100, 0, 0, 0]
    assert m.results[-1].scottish.parts == ((-100, 0, 0, 0),)


def test_patience_scores_120_60_30_0_and_double_patience_twice():
    m = new_match(caller=0)
    deal(m, ["AKQJT987.-.-.-", "-.T987.T987.-", "-.AKQJ.AKQJ.-", "-.-.-.AKQJT987"])
    m.apply("double-patience")
    assert m.rank == JACK and m.to_act() == 1
    assert m.legal_actions() == (PASS,)  # no Jack: chap
    play(m, "pass; JH; lay 7C 8C 9C TC JC QC KC AC; lay 7S 8S 9S TS JS QS KS AS")
    assert m.results == []  # two out: play goes on until three are
    finish_deal(m)
    r = m.results[-1]
    assert r.finishing[:2] == (3, 0) and len(r.finishing) == 4
    expected = {3: 240, 0: 120}
    third, fourth = r.finishing[2], r.finishing[3]
    expected.update({third: 60, fourth: 0})
    assert list(r.scores) == [expected[s] for s in range(4)]
    assert r.scottish.calls == ("patience-1", "patience-2")
    assert r.scottish.parts == (tuple(x // 2 for x in r.scores),) * 2


# ---------------------------------------------------------------------- Patience


def patience_match(hands, call="patience", caller=0):
    m = new_match(caller=caller)
    deal(m, hands)
    m.apply(call)
    return m


def test_patience_opens_with_a_jack_builds_in_suit_and_chaps_only_when_unable():
    m = patience_match(["AKQJT987.-.-.-", "-.T987.T987.-", "-.AKQJ.AKQJ.-", "-.-.-.AKQJT987"])
    assert m.to_act() == 1 and m.legal_actions() == (PASS,)
    m.apply("pass")
    assert {str(a) for a in m.legal_actions()} == {"JH", "JD"}  # seat 2: only Jacks open a row
    with pytest.raises(IllegalAction, match="opens with its Jack"):
        m.apply("QH")
    m.apply("JH")
    legal3 = {str(a) for a in m.legal_actions()}
    assert "JC" in legal3 and "QC" not in legal3
    assert "lay 7C 8C 9C TC JC QC KC AC" in legal3  # the whole hand is one run through the Jack: out at once
    m.apply("JC")
    # seat 0 holds every spade: the Jack, or the whole hand as one run through it
    assert {str(a) for a in m.legal_actions()} == {"JS", "lay 7S 8S 9S TS JS QS KS AS"}
    m.apply("JS")
    assert {str(a) for a in m.legal_actions()} == {"TH"}  # seat 1: the 10 of hearts under the Jack
    with pytest.raises(IllegalAction, match="you may chap only when you cannot play"):
        m.apply("pass")
    m.apply("TH")
    assert {str(a) for a in m.legal_actions()} == {"QH", "JD"}
    with pytest.raises(IllegalAction, match="next in rank"):
        m.apply("KH")


def test_player_round_runs_and_sets_only_to_go_out():
    m = patience_match(["AKQJ.-.AKQJ.-", "-.T987.-.T987", "T987.-.T987.-", "-.AKQJ.-.AKQJ"])
    play(m, "pass; pass; JH; JS")
    # seat 1: 10-9-8-7 of hearts is a run that fits, but not his whole hand: single cards only
    assert {str(a) for a in m.legal_actions()} == {"TH"}
    with pytest.raises(IllegalAction, match="only to go out"):
        m.apply("lay 7H 8H 9H TH")
    play(m, "TH; TS; JC; QS;  TC; 9S; QH; KS;  9C; 8S; KH; AS;  8C; 7S; AH; JD;  7C; TD; QC; QD")
    assert m.to_act() == 1 and m.hands[1] == CardSet.parse("-.987.-.-").mask
    assert {str(a) for a in m.legal_actions()} == {"9H", "lay 7H 8H 9H"}  # the last cards: out at once
    m.apply("lay 9h 8h 7h")
    assert m.finished == [1] and m.layout[1] == (5, 12)
    assert m.trick_log[-1] == (1, (20, 19, 18))  # laid 9, 8, 7: each next to the row in turn
    assert m.to_act() == 2


def test_groups_that_fit_by_hand():
    from barbu.core.cards import Card
    from barbu.scottish.patience import group_fits, lay_options

    def mask(text):
        return CardSet.parse(text).mask

    # rows: spades 8..J, hearts 8..J, diamonds unopened, clubs J..A
    layout = [(6, 9), (6, 9), None, (9, 12)]
    assert group_fits(mask("7.7.-.-"), layout)  # two 7s under two 8s: out on a pair
    assert not group_fits(mask("7.-.-.T"), layout)  # not one rank, not one suit
    assert group_fits(mask("-.-.QJT.-"), layout)  # an unopened suit: a run through its Jack
    assert not group_fits(mask("-.-.KQ.-"), layout)  # no Jack: the run cannot start
    assert group_fits(mask("Q.-.-.T9"), layout) is False
    assert group_fits(mask("-.-.-.T98"), layout)  # down from the Jack
    assert group_fits(mask("-.-.J.-"), layout) is False  # one card is not a group
    assert lay_options(mask("7.7.-.-"), layout, anytime=False) == [mask("7.7.-.-")]
    assert lay_options(mask("7.7.A.-"), layout, anytime=False) == []
    found = {str(CardSet(g)) for g in lay_options(mask("7.7.QJ.T9"), layout, anytime=True)}
    assert found == {"7.7.-.-", "-.-.QJ.-", "-.-.-.T9"}
    assert Card.parse("JD") in [Card(c) for c in range(52) if mask("-.-.J.-") >> c & 1]


def test_silly_round_lays_runs_and_sets_at_any_time():
    m = to_silly_round()
    m.apply(draw_for(0))
    deal(m, ["AKQJT987.-.-.-", "-.T987.T987.-", "-.AKQJ.AKQJ.-", "-.-.-.AKQJT987"])
    m.apply(cut("bridge"))  # Double Patience on the first deal
    m.apply(RED)  # no pass-on
    assert m.phase_name == "domino" and m.to_act() == 1
    m.apply("pass")
    legal = {str(a) for a in m.legal_actions()}
    assert {"lay JH JD", "lay JH QH", "lay JH QH KH", "lay JH QH KH AH", "lay JD QD KD AD"} <= legal
    m.apply("lay JH JD")  # a pair of Jacks in one turn
    m.apply("JC")
    m.apply("lay JS QS KS")  # a run, not to go out
    assert {str(a) for a in m.legal_actions()} >= {"lay 9H TH", "lay 7H 8H 9H TH", "lay 9D TD"}
    with pytest.raises(IllegalAction, match="run in one suit or cards of one rank"):
        m.apply("lay 9H TD")


# ---------------------------------------------------------------------- the Silly Round's cuts


def test_first_deal_cuts_by_hand():
    full = ALL_CALLS
    assert cut_step(BRIDGE, (), full, True).calls == ("patience-1", "patience-2")
    assert cut_step(JOKER, (), full, True).calls == NEGATIVES
    two = pack_card(2, 0)
    assert cut_step(two, (), full, True) == ("more", (2,), ())
    assert cut_step(pack_card(4, 1), (2,), full, True).calls == ("aces",)  # 4 is not next to 2: Aces only
    assert cut_step(pack_card(3, 1), (2,), full, True) == ("more", (2, 3), ())
    assert cut_step(pack_card(6, 1), (2, 3), full, True) == ("more", (2, 3, 6), ())  # contiguous: 6-2
    assert cut_step(pack_card(5, 1), (2, 3), full, True).calls == ("aces", "king")
    assert cut_step(BRIDGE, (2, 3), full, True).calls == ("aces", "king")
    assert cut_step(JOKER, (2, 3), full, True).calls == NEGATIVES
    assert cut_step(pack_card(2, 3), (2,), full, True).calls == ("patience-1",)  # the same number again
    assert cut_step(pack_card(2, 3), (2,), full, False).calls == ("aces",)  # …on the first deal only
    assert cut_step(pack_card(6, 0), (2, 3, 4, 5), full, True).calls == NEGATIVES  # the group is complete


def test_later_deal_cuts_by_hand():
    left = frozenset({"aces", "queens", "patience-2"})  # 2 and 4 left: not adjacent
    assert cut_step(pack_card(3, 0), (), left, False).calls == ("patience-2",)  # a played number
    assert cut_step(BRIDGE, (), left, False).calls == ("patience-2",)  # Double impossible: the remaining Single
    assert cut_step(pack_card(2, 0), (), left, False) == ("more", (2,), ())  # a Joker could still bring the 4
    assert cut_step(pack_card(4, 0), (2,), left, False).calls == ("aces",)
    assert cut_step(JOKER, (2,), left, False).calls == ("aces", "queens")
    assert cut_step(JOKER, (), left, False).calls == ("aces", "queens")
    left = frozenset({"aces", "tricks"})  # 2 and 6 are adjacent; no Patience left
    assert cut_step(pack_card(6, 2), (2,), left, False).calls == ("aces", "tricks")
    assert cut_step(pack_card(4, 0), (), left, False).kind == "again"  # a played number, no Patience: cut again
    assert cut_step(BRIDGE, (), left, False).kind == "again"
    left = frozenset({"patience-1", "patience-2"})
    assert cut_step(JOKER, (), left, False).kind == "again"  # no negative left: cut again
    assert cut_step(pack_card(5, 0), (), left, False).calls == ("patience-1",)
    assert cut_step(BRIDGE, (), left, False).calls == ("patience-1", "patience-2")


def passes_of(m: Match) -> list[int]:
    return [d for d, _ in m.pass_log]


def choose_all(m: Match) -> dict[int, int]:
    """Every seat passes its three lowest cards; returns what each passed."""
    gave = {}
    while m.phase_name == "pass-on":
        s = m.to_act()
        trio = sorted(CardSet(m.hands[s]))[:3]
        gave[s] = sum(1 << c for c in trio)
        m.apply("pass-on " + " ".join(str(c) for c in trio), seat=s)
    return gave


def test_booklet_worked_example_cut_by_cut():
    """The booklet's Silly Round example (players 1-4 are seats 0-3): cuts 3 4 6 / 3 / Bridge / 6 3 / Joker
    give King of hearts + Queens, Single Patience, the remaining Single Patience, Tricks, Aces + Hearts, with
    the example's pass-ons (two left; one right; opposite then left; none; one right)."""
    m = to_silly_round()
    m.apply(draw_for(0))  # player 1 deals first
    deals = []

    def new_deal():
        hands = [m.sample_chance().hands[s] for s in range(4)]
        m.apply(m.sample_chance())
        deals.append(hands)

    # Deal 1: dealer 1 (seat 0), Cutter 4 (seat 3), player 2 (seat 1) leads.
    new_deal()
    v = m.view(0).scottish
    assert m.dealer == 0 and v.cutter == 3
    for c in (cut(3), cut(4), cut(6)):
        m.apply(c)
    assert m.contract.key == "king+queens" and m.calls == ("king", "queens")
    m.apply(BLACK)
    before = list(m.hands)
    gave = choose_all(m)
    assert [m.hands[s] for s in range(4)] == [(before[s] & ~gave[s]) | gave[(s - 1) % 4] for s in range(4)]
    m.apply(BLACK)
    choose_all(m)
    m.apply(RED)
    assert passes_of(m) == [1, 1] and m.phase_name == "play" and m.to_act() == 1
    finish_deal(m)
    # Deal 2: dealer 2 (seat 1), Cutter 1 (seat 0); a played number: Single Patience.
    new_deal()
    assert m.dealer == 1 and m.view(2).scottish.cutter == 0
    m.apply(cut(3, 1))
    assert m.contract.key == "patience" and m.calls == ("patience-1",)
    m.apply(BLACK)
    choose_all(m)
    m.apply(RED)
    assert passes_of(m) == [3] and m.phase_name == "domino" and m.to_act() == 2
    finish_deal(m)
    # Deal 3: dealer 3 (seat 2), Cutter 2 (seat 1); the Bridge, but only one Patience is left.
    new_deal()
    m.apply(cut("bridge"))
    assert m.calls == ("patience-2",)
    m.apply(BLACK)
    choose_all(m)
    m.apply(BLACK)
    choose_all(m)
    m.apply(RED)
    assert passes_of(m) == [2, 1] and m.to_act() == 3
    finish_deal(m)
    # Deal 4: dealer 4 (seat 3), Cutter 3 (seat 2); the pass-ons are cut before the calls now.
    new_deal()
    assert m.phase_name == "cut" and m.cut_for == "passes"
    m.apply(RED)
    assert m.cut_for == "calls"
    m.apply(cut(6))
    m.apply(cut(3))  # already played: the group stops
    assert m.calls == ("tricks",) and m.to_act() == 0
    finish_deal(m)
    # Deal 5: dealer 1 (seat 0), Cutter 4 (seat 3): two calls left, so not known to be the last: pass-ons.
    new_deal()
    m.apply(BLACK)
    choose_all(m)
    m.apply(RED)
    m.apply(cut("joker"))
    assert m.calls == ("aces", "hearts") and passes_of(m) == [3] and m.to_act() == 1
    finish_deal(m)
    assert m.is_over  # Silly Round complete, and the one Set with it
    silly = [r for r in m.results if r.scottish.silly]
    assert [r.contract for r in silly] == ["king+queens", "patience", "patience", "tricks", "aces+hearts"]
    assert [r.dealer for r in silly] == [0, 1, 2, 3, 0]
    assert [r.scottish.pass_count for r in silly] == [2, 1, 2, 0, 1]


def play_silly_deal_singly(m: Match, call_cuts: list[Cut], passes: int) -> None:
    """Deal, cut the calls and `passes` black cuts (then red when fewer than 3), in the deal's order."""
    m.apply(m.sample_chance())
    k = m.view(0).scottish.state.deals + 1
    order = ["calls", "passes"] if k <= 3 else ["passes", "calls"]
    for stage in order:
        if stage == "calls":
            for c in call_cuts:
                m.apply(c)
        elif m.phase_name == "cut" and m.cut_for == "passes":
            for i in range(passes):
                m.apply(BLACK)
                before = list(m.hands)
                gave = choose_all(m)
                d = m.pass_log[-1][0]
                assert [m.hands[s] for s in range(4)] == [(before[s] & ~gave[s]) | gave[(s - d) % 4] for s in range(4)]
            if passes < 3:
                m.apply(RED)
    finish_deal(m)


def test_pass_on_directions_for_every_deal_and_pass():
    """Seven deals, one call each, three pass-ons on each of deals 1-6: the booklet's table of directions
    (left 1, right 3, opposite 2), and no pass-on on the seventh, known to be the last."""
    m = to_silly_round()
    m.apply(draw_for(2))
    plan = [[cut(2), cut(4)], [cut(3), cut(5)], [cut(4), cut(6)], [cut(5), cut("bridge")], [cut(6)], [cut(2)], []]
    expected_calls = [("aces",), ("king",), ("queens",), ("hearts",), ("tricks",), ("patience-1",), ("patience-2",)]
    for k, cuts in enumerate(plan, start=1):
        play_silly_deal_singly(m, cuts, passes=3 if k <= 6 else 0)
        r = m.results[-1]
        assert r.scottish.calls == expected_calls[k - 1]
        assert [d for d, _ in r.scottish.passes] == (list(DIRECTIONS[k]) if k <= 6 else [])
        assert r.dealer == (2 + k - 1) % 4
    assert DIRECTIONS == {1: (1, 1, 1), 2: (3, 3, 3), 3: (2, 1, 2), 4: (1, 1, 1), 5: (3, 3, 3), 6: (2, 3, 2)}
    assert m.is_over


def test_no_pass_on_when_the_deal_is_known_to_be_the_last():
    m = to_silly_round()
    m.apply(draw_for(1))
    m.apply(m.sample_chance())
    m.apply(cut("joker"))  # The Lot: the Double Patience is all that is left
    m.apply(RED)
    finish_deal(m)
    m.apply(m.sample_chance())
    m.apply(cut("bridge"))  # deal 2: the calls are cut first; nothing would be left after them
    assert m.phase_name == "domino", "no pass-on cut on the known last deal"
    finish_deal(m)
    assert m.is_over and [r.scottish.calls for r in m.results[-2:]] == [NEGATIVES, ("patience-1", "patience-2")]


def test_pass_on_choices_and_their_texts():
    m = to_silly_round()
    m.apply(draw_for(0))
    deal(m, SUITS_DEAL)
    m.apply(cut("joker"))
    m.apply(BLACK)
    assert m.to_act() == 1  # the dealer's left chooses first
    legal = m.legal_actions()
    assert len(legal) == 56 and len(set(legal)) == 56
    assert PassOn(CardSet.parse("-.AKQ.-.-").mask) in legal and PassOn(CardSet.parse("A.KQ.-.-").mask) not in legal
    before = (list(m.hands), list(m.history))
    for bad, msg in (
        ("pass-on AH KH", "three cards"),
        ("pass-on AS KH QH", "do not hold"),
        ("pass-on AH AH KH", "named twice"),
    ):
        with pytest.raises((IllegalAction, ParseError), match=msg):
            m.apply(bad)
    assert (list(m.hands), list(m.history)) == before
    a = m.parse_action("pass-on 7H 8H 9H")
    assert a == PassOn(CardSet.parse("-.987.-.-").mask) and m.parse_action(str(a)) == a
    m.apply(a)
    v2 = m.view(2)
    assert v2.scottish.chosen == (1,)
    from barbu.classic.view import HIDDEN

    assert v2.deal_actions[-1] is HIDDEN  # seat 1's choice stays face down for seat 2
    assert m.view(1).deal_actions[-1] == a  # but seat 1 knows it


def test_cut_and_draw_texts():
    m = to_silly_round()
    d = m.parse_action("draw 4S joker 2h bridge")
    assert d == PackDraw((pack_card(4, 0), JOKER, pack_card(2, 1), BRIDGE)) and m.parse_action(str(d)) == d
    m.apply(d)
    assert m.dealer == 3
    deal(m, SUITS_DEAL)
    for text, card in (("cut 5D", pack_card(5, 2)), ("cut Joker", JOKER), ("cut bridge", BRIDGE)):
        assert m.parse_action(text) == Cut(card) and str(Cut(card)).lower() == text.lower()
    with pytest.raises(IllegalAction):
        m.apply(PASS)  # a cut is chance's to make, not a seat's: the wrong kind of action


def test_the_32_card_deal():
    m = new_match()
    assert m.deck == PIQUET_DECK and m.hand_size == 8
    for h in m.sample_chance().hands:
        assert h.bit_count() == 8 and not h & ~PIQUET_DECK
    from barbu import Deal

    with pytest.raises(IllegalAction, match="8 different cards"):
        m.apply(Deal((CardSet.parse("AKQJT9876.-.-.-").mask,) + hands_of(SUITS_DEAL)[1:]))
    with pytest.raises(IllegalAction, match="only cards of the deck"):
        m.apply(Deal((CardSet.parse("AKQJT982.-.-.-").mask,) + hands_of(SUITS_DEAL)[1:]))


def test_pass_cut_jokers_and_bridge_cut_again_and_a_last_call_needs_no_cut():
    m = to_silly_round()
    m.apply(draw_for(3))
    for cuts in ([cut(2), cut(4)], [cut(3), cut(5)], [cut("joker")]):  # Aces; King; Queens + Hearts + Tricks
        m.apply(m.sample_chance())
        for c in cuts:
            m.apply(c)
        m.apply(RED)
        finish_deal(m)
    assert m.state.calls_left == {"patience-1", "patience-2"}
    m.apply(m.sample_chance())  # deal 4: the pass-ons first, since two calls are left
    assert m.phase_name == "cut" and m.cut_for == "passes"
    m.apply(cut("joker"))
    m.apply(cut("bridge"))
    assert m.phase_name == "cut" and m.cut_for == "passes" and m.pass_count == 0  # cut again, twice
    m.apply(cut(6, 3))  # a black six (clubs): pass-on
    assert m.phase_name == "pass-on"
    choose_all(m)
    m.apply(cut(4, 2))  # a red four (diamonds): no more
    assert m.cut_for == "calls"
    m.apply(cut(2))  # Aces were played: a Single Patience
    assert m.calls == ("patience-1",)
    finish_deal(m)
    m.apply(m.sample_chance())  # deal 5: one call left: known to be the last, and nothing to cut
    assert m.phase_name == "domino" and m.calls == ("patience-2",) and m.cuts == []
    finish_deal(m)
    assert m.is_over
