"""Illegal actions are refused with a reason and change nothing; bad text is a ParseError;
undo restores the state exactly, in every phase."""

from __future__ import annotations

from typing import Callable

import pytest
from helpers import (
    D0,
    D0Q,
    D0Q_PLAY,
    FULL_SUITS,
    H1,
    H1_KING_PLAY,
    TR,
    dbl,
    deal,
    domino_rounds,
    draw_for,
    finish_deal,
    hands_of,
    new_match,
    play,
    snapshot,
    start_deal,
    words,
)

import barbu
from barbu import PASS, Card, CardSet, Deal, Declare, Draw, IllegalAction, Match, NameRank, NameTrump, ParseError

PLAY = "classic(undoubled_negative=play)"


def at_declare() -> Match:
    return start_deal("classic", 0, D0)


def at_trump() -> Match:
    return start_deal("classic", 0, D0, contract="trumps")


def at_rank() -> Match:
    return start_deal("classic", 0, D0, contract="domino")


def at_doubling() -> Match:
    return start_deal("classic", 0, D0, contract="no-queens")


def at_play() -> Match:
    return start_deal("classic", 0, D0, contract="no-tricks", doubles="double 0; pass; pass; pass")


def at_trick1_second() -> Match:
    m = at_play()
    play(m, "5S")
    return m


def at_tr(movesplayed: str) -> Callable[[], Match]:
    def make() -> Match:
        m = start_deal("classic", 0, TR, contract="trumps", trump="H", doubles="double 0; pass; pass; pass")
        play(m, movesplayed)
        return m

    return make


def at_domino() -> Match:
    return start_deal("classic", 0, FULL_SUITS, contract="domino", rank="7", doubles="pass; pass; pass; pass")


def at_domino_second_turn() -> Match:
    m = at_domino()
    play(m, "7S 7H 7D 7C")
    return m


def at_deal() -> Match:
    return new_match("classic", 0)


def at_draw() -> Match:
    return Match("classic", seed=1)


def at_heart_lead() -> Match:
    m = start_deal("classic", 0, D0, contract="no-hearts", doubles="double 0; pass; pass; pass")
    play(m, "5S AS JS 8S")
    return m


def at_second_deal_declare() -> Match:
    m = start_deal("classic", 0, D0, contract="no-queens", doubles="pass; pass; pass; pass")
    deal(m, D0)
    return m


def at_over() -> Match:
    m = Match("classic", seed=3)
    while not m.is_over:
        if m.phase_name in ("draw", "deal"):
            m.play_chance()
        else:
            finish_deal(m)
    return m


ILLEGAL = [
    # (state, action, words the reason must contain)
    ("not your turn (play)", at_play, lambda m: m.apply(Card.parse("AS"), seat=1), "not your turn"),
    ("not your turn (declare)", at_declare, lambda m: m.apply("no-queens", seat=2), "not your turn"),
    ("not your turn (doubling)", at_doubling, lambda m: m.apply(dbl(), seat=0), "not your turn"),
    ("not your turn (chance)", at_deal, lambda m: m.apply(Deal(hands_of(D0)), seat=0), "waiting for chance"),
    ("not your turn (domino)", at_domino, lambda m: m.apply("7S", seat=3), "not your turn"),
    ("card not held", at_play, lambda m: m.apply("AS"), "do not hold"),
    ("card not held, later", at_trick1_second, lambda m: m.apply("5S"), "do not hold"),
    ("card not held (domino)", at_domino, lambda m: m.apply("7H"), "do not hold"),
    ("must follow suit", at_trick1_second, lambda m: m.apply("5H"), "must follow suit"),
    ("must follow suit rather than trump", at_tr("5H 9H 2H 2C 3C 6H"), lambda m: m.apply("AD"), "must follow suit"),
    ("trumps led: must head the trick", at_tr("5H"), lambda m: m.apply("3H"), "higher than every trump"),
    ("void: must trump", at_tr("5H 9H 2H 2C 3C"), lambda m: m.apply("AS"), "must trump"),
    ("must overtrump, not undertrump", at_tr("5H 9H 2H 2C 3C 6H 4C"), lambda m: m.apply("4H"), "overtrump"),
    ("must overtrump, not discard", at_tr("5H 9H 2H 2C 3C 6H 4C"), lambda m: m.apply("2D"), "overtrump"),
    ("heart lead ban", at_heart_lead, lambda m: m.apply("5H"), "hearts may not be led"),
    ("contract already declared", at_second_deal_declare, lambda m: m.apply("no-queens"), "already been declared"),
    (
        "contract already declared (object)",
        at_second_deal_declare,
        lambda m: m.apply(Declare("no-queens")),
        "already been declared",
    ),
    ("unknown contract object", at_declare, lambda m: m.apply(Declare("ravage-city")), "not a contract"),
    ("no-trump not allowed", at_trump, lambda m: m.apply("trump none"), "no-trump is not allowed"),
    ("no-trump not allowed (object)", at_trump, lambda m: m.apply(NameTrump(None)), "no-trump is not allowed"),
    ("bad trump suit", at_trump, lambda m: m.apply(NameTrump(7)), "trump suit"),
    ("bad starting rank", at_rank, lambda m: m.apply(NameRank(13)), "starting rank"),
    ("domino pass when able", at_domino, lambda m: m.apply("pass"), "pass only when you cannot play"),
    (
        "domino pass when able (object)",
        at_domino_second_turn,
        lambda m: m.apply(PASS),
        "pass only when you cannot play",
    ),
    ("domino card that does not fit", at_domino, lambda m: m.apply("8S"), "cannot be placed"),
    ("domino card that does not fit, later", at_domino_second_turn, lambda m: m.apply("5S"), "cannot be placed"),
    (
        "dealer doubles",
        lambda: start_deal("classic", 0, D0, contract="no-queens", doubles="pass; pass; pass"),
        lambda m: m.apply("double 1"),
        "dealer never doubles",
    ),
    (
        "positive: only the dealer",
        lambda: start_deal("classic", 0, D0, contract="trumps", trump="S"),
        lambda m: m.apply("double 2"),
        "only the dealer may be doubled",
    ),
    # Wrong action type for the phase.
    ("declare in play", at_play, lambda m: m.apply(Declare("no-queens")), "time to play a card"),
    ("double in play", at_play, lambda m: m.apply(dbl(1)), "time to play a card"),
    ("domino pass in trick play", at_play, lambda m: m.apply(PASS), "time to play a card"),
    ("trump in play", at_play, lambda m: m.apply(NameTrump(0)), "time to play a card"),
    ("card index out of range", at_play, lambda m: m.apply(60), "not a card"),
    ("card in declare", at_declare, lambda m: m.apply(Card.parse("AS")), "must name a contract"),
    ("double in declare", at_declare, lambda m: m.apply(dbl()), "must name a contract"),
    ("contract in trump", at_trump, lambda m: m.apply(Declare("no-queens")), "trump suit"),
    ("trump in rank", at_rank, lambda m: m.apply(NameTrump(1)), "starting rank"),
    ("card in doubling", at_doubling, lambda m: m.apply(Card.parse("5S")), "doubling round"),
    ("domino pass in doubling", at_doubling, lambda m: m.apply(PASS), "doubling round"),
    ("double in domino", at_domino, lambda m: m.apply(dbl()), "play a card or pass"),
    ("contract in domino", at_domino, lambda m: m.apply(Declare("no-queens")), "play a card or pass"),
    ("declare at a deal", at_deal, lambda m: m.apply(Declare("no-queens")), "not a deal"),
    ("draw at a deal", at_deal, lambda m: m.apply(draw_for(1)), "not a deal"),
    ("deal at the draw", at_draw, lambda m: m.apply(Deal(hands_of(D0))), "not a draw"),
    (
        "deal of 12-card hands",
        at_deal,
        lambda m: m.apply(Deal(tuple(h & ~(1 << (h.bit_length() - 1)) for h in hands_of(D0)))),
        "13",
    ),
    ("deal with a card twice", at_deal, lambda m: m.apply(Deal((hands_of(D0)[0],) * 4)), "different cards"),
    ("deal of 3 hands", at_deal, lambda m: m.apply(Deal(hands_of(D0)[:3])), "4 hands"),
    ("draw of one card twice", at_draw, lambda m: m.apply(Draw((12, 12, 0, 1))), "different cards"),
    ("anything when the match is over", at_over, lambda m: m.apply(Card.parse("AS")), "over"),
    ("anything with a seat when the match is over", at_over, lambda m: m.apply(PASS, seat=0), "over"),
]


@pytest.mark.parametrize("make, act, reason", [x[1:] for x in ILLEGAL], ids=[x[0] for x in ILLEGAL])
def test_illegal_action_is_refused_and_changes_nothing(make, act, reason):
    m = make()
    before = snapshot(m)
    with pytest.raises(IllegalAction) as info:
        act(m)
    assert reason in str(info.value)
    assert snapshot(m) == before
    assert len(m.history) == len(before["history"])
    assert m.legal_actions() == before["legal"]
    assert m.hands == before["hands"]


def test_illegal_action_is_a_barbu_error_not_a_value_error():
    m = at_play()
    with pytest.raises(barbu.BarbuError):
        m.apply("AS")
    assert not issubclass(IllegalAction, ValueError)
    assert not issubclass(IllegalAction, ParseError)


def test_every_legal_action_is_accepted_and_everything_else_refused_trick1():
    # At each turn of D0's first trick (No tricks), exactly the legal cards are accepted.
    m = at_play()
    for card in "5S AS JS 8S".split():
        legal = set(m.legal_actions())
        before = snapshot(m)
        for c in range(52):
            if c in legal:
                continue
            with pytest.raises(IllegalAction):
                m.apply(Card(c))
            assert snapshot(m) == before
        for c in legal:
            t = m.clone()
            t.apply(c)
        m.apply(card)


# ---------------------------------------------------------------------------------------------
# Malformed text: ParseError, and nothing changes.

MALFORMED = [
    (at_play, "ZZ"),
    (at_play, "Q"),
    (at_play, "11S"),
    (at_play, ""),
    (at_play, "pass"),
    (at_declare, "no-jacks"),
    (at_declare, "contract"),
    (at_trump, "trump X"),
    (at_trump, "trump purple"),
    (at_rank, "rank 1"),
    (at_rank, "rank Z"),
    (at_doubling, "double"),
    (at_doubling, "redouble"),
    (at_doubling, "double x"),
    (at_doubling, "bogus"),
    (at_domino, "ZZ"),
    (at_deal, "deal 5432.876.JT9.AKQ"),
    (at_deal, "shuffle"),
    (at_draw, "draw ZZ 2H 3H 4H"),
    (at_over, "AS"),
]


@pytest.mark.parametrize("make, text", MALFORMED)
def test_malformed_text_is_a_parse_error(make, text):
    m = make()
    before = snapshot(m)
    with pytest.raises(ParseError):
        m.parse_action(text)
    with pytest.raises(ParseError):
        m.apply(text)
    assert snapshot(m) == before


@pytest.mark.parametrize("text", ["AKQ.JT9", "AKQ.JT9.876.54X", "A.B.C.D.E"])
def test_malformed_hand_text(text):
    with pytest.raises(ParseError):
        CardSet.parse(text)


@pytest.mark.parametrize("text", ["Q", "QX", "1S", "QHH", "", "ZZ"])
def test_malformed_card_text(text):
    with pytest.raises(ParseError):
        Card.parse(text)


def test_parse_error_is_distinct_from_illegal_action():
    assert issubclass(ParseError, ValueError)
    assert not issubclass(ParseError, IllegalAction)


def test_well_formed_text_forms():
    m = at_play()
    assert m.parse_action("5s") == Card.parse("5S") == m.parse_action("S5") == m.parse_action("5♠")
    m = at_declare()
    for text in ("no-queens", "contract no-queens", "No queens", "nq", "queens"):
        assert m.parse_action(text) == Declare("no-queens")
    assert m.parse_action("barbu") == Declare("no-king")
    m = at_trump()
    assert m.parse_action("trump H") == NameTrump(1) == m.parse_action("hearts")
    m = at_rank()
    assert m.parse_action("rank 7") == NameRank(5) == m.parse_action("7")
    assert m.parse_action("rank 10") == NameRank(8)
    m = at_doubling()
    assert m.parse_action("pass") == dbl()
    assert m.parse_action("double 2 3") == dbl(2, 3) == m.parse_action("x 2, 3")


# ---------------------------------------------------------------------------------------------
# Undo.


def test_undo_with_nothing_to_undo():
    m = Match("classic", seed=1)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        m.undo()


def script() -> list:
    """A walk through every phase: a tied draw, deals, declaring, trump, rank, both doubling
    rounds, trick play with an early end, a split deal, Domino with passes and a finished deal."""
    out: list = [
        Draw((12, 25, 0, 1)),  # A♠ and A♥: a tie, draw again
        draw_for(0),
        Deal(hands_of(D0Q)),
        "no-queens",
        "pass",
        "double 1",
        "double 1 2",
        "pass",  # first round
        "redouble 3",
        "pass",
    ]  # second round (seats 1, 2)
    out += "5S AS JS 8S 4H AH TH 7H".split()  # two tricks of D0Q
    return out


def walk_and_undo(m: Match, actions: list) -> list[dict]:
    """Apply each action; before going on, undo it and check the state is exactly as before."""
    snaps = []
    for a in actions:
        before = snapshot(m)
        snaps.append(before)
        m.apply(a)
        after = snapshot(m)
        undone = m.undo()
        assert snapshot(m) == before, f"undo of {a} did not restore the state"
        assert undone == (m.parse_action(a) if isinstance(a, str) else a)
        m.apply(a)
        assert snapshot(m) == after, f"redo of {a} differs"
    return snaps


def test_undo_in_every_phase():
    m = Match("classic", seed=1)
    acts = script()
    snaps = walk_and_undo(m, acts)
    assert m.phase_name == "play"
    # Finish the No queens deal (Q♠ Q♦ Q♣ Q♥ fall in tricks 9, 11, 12, 13), undoing each card.
    rest = words(D0Q_PLAY)[8:]
    snaps += walk_and_undo(m, rest)
    assert m.phase_name == "deal" and m.deal_no == 1
    acts += rest
    # A split deal (nobody doubles No tricks), then Trumps with a doubled dealer, then Domino.
    more = [
        Deal(hands_of(D0)),
        "no-tricks",
        "pass",
        "pass",
        "pass",
        "pass",
        Deal(hands_of(TR)),
        "trumps",
        "trump H",
        "double 0",
        "pass",
        "pass",
        "redouble 1",
        *"5H 9H 2H 2C 3C 6H 4C 8H".split(),
    ]
    snaps += walk_and_undo(m, more)
    acts += more
    assert m.results[-1].played is False and m.phase_name == "play"
    # Undo all the way back, checking every state on the way.
    for i in range(len(acts) - 1, -1, -1):
        m.undo()
        assert snapshot(m) == snaps[i], f"going back over action {i} ({acts[i]})"
    assert m.history == [] and m.phase_name == "draw"


def test_undo_domino_with_passes_and_the_end_of_the_deal():
    m = start_deal(
        "classic",
        0,
        ["AKQJT9865432.8.-.-", "7.AKQJT9765432.-.-", FULL_SUITS[2], FULL_SUITS[3]],
        contract="domino",
        rank="7",
    )
    walk_and_undo(m, ["pass", "pass", "pass", "pass"])  # nobody doubles: still played
    walk_and_undo(m, ["pass", "7S", "7D", "7C", "6S", "7H", "8D", "8C"])
    assert m.phase_name == "domino"


def test_undo_across_the_end_of_a_domino_deal():
    m = start_deal("classic", 2, FULL_SUITS, contract="domino", rank="7", doubles="double 2; pass; pass; pass")
    seq = domino_rounds(2, "789TJQKA65432")[:51]
    play(m, " ".join(seq[:-1]))
    walk_and_undo(m, seq[-1:])
    assert m.results[-1].finishing == (2, 3, 0, 1)
    before = snapshot(m)
    m.apply(Deal(hands_of(D0)))
    m.undo()
    assert snapshot(m) == before


def test_undo_after_the_match_is_over():
    m = at_over()
    before = snapshot(m)
    last = m.history[-1]
    m.undo()
    assert not m.is_over
    m.apply(last)
    assert snapshot(m) == before and m.is_over


# ---------------------------------------------------------------------------------------------
# Edge: a second-round "maximum" typed by a player.


def test_maximum_typed_in_the_second_round_redoubles_what_may_be_redoubled():
    # Seat 2 was doubled by 1 before his turn (and let it stand), then by 3 after it.
    m = start_deal("classic", 0, D0, contract="no-hearts", doubles="double 2; pass; double 2; pass")
    assert m.to_act() == 2 and set(m.legal_actions()) == {dbl(), dbl(3)}
    assert m.parse_action("maximum") in m.legal_actions()


def test_undo_across_an_early_end():
    # No King on H1: the K♥ falls on trick 5 and the deal stops; undoing the last card resumes it.
    m = start_deal(PLAY, 0, H1, contract="no-king", doubles="pass; pass; pass; pass")
    moves = words(H1_KING_PLAY)
    play(m, " ".join(moves[:-1]))
    walk_and_undo(m, moves[-1:])
    assert m.results[-1].scores == (0, 0, -20, 0) and len(m.results[-1].tricks) == 5
    m.undo()
    assert m.phase_name == "play" and m.to_act() == 0 and m.trick == [Card.parse(c) for c in moves[-4:-1]]
    assert m.totals == [0, 0, 0, 0] and not m.results


def test_undo_of_a_sampled_deal_then_sampling_again_gives_the_same_deal():
    m = Match("classic", seed=11)
    m.apply(draw_for(1))
    first = m.sample_chance()
    m.apply(first)
    m.undo()
    assert m.sample_chance() == first
