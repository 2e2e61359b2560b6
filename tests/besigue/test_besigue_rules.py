"""Bésigue rules on hand-built deals: each combination and scoring item, reuse, duties, the 7 of trumps."""

from __future__ import annotations

import pytest
from bhelpers import deal_game, endgame

from barbu.besigue import BesigueGame, BesigueRules
from barbu.besigue.actions import Declare, NoDeclaration, Play, parse_action
from barbu.besigue.cards import CLUBS, HEARTS, SPADES, parse_type
from barbu.core.errors import IllegalAction, ParseError, RulesetError

# Seat 0 leads (seat 1 deals).  Seat 0 holds AC and wins trick 1 against seat 1's 7D, trumps hearts.
FILL1 = ["7D", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"]


def win_first_trick(hand0: list[str], rules: str = "besigue", turn_up: str = "8H") -> BesigueGame:
    # the top of the stock holds no 7 of trumps, so draws score nothing
    g = deal_game(hand0, FILL1, turn_up, rules=rules, top=["TD", "TD", "TS", "TS", "9H", "9H"])
    g.apply("play AC")
    g.apply("play 7D")
    assert g.phase == "declare" and g.to_act() == 0
    return g


@pytest.mark.parametrize(
    "kind, cards, value",
    [
        ("marriage", ["KS", "QS"], 20),
        ("trump-marriage", ["KH", "QH"], 40),
        ("bezique", ["QS", "JD"], 40),
        ("four-jacks", ["JS", "JH", "JD", "JD"], 40),
        ("four-queens", ["QS", "QH", "QD", "QC"], 60),
        ("four-kings", ["KS", "KS", "KH", "KC"], 80),
        ("four-aces", ["AS", "AH", "AD", "AD"], 100),
        ("quint", ["AH", "TH", "KH", "QH", "JH"], 250),
        ("double-bezique", ["QS", "QS", "JD", "JD"], 500),
    ],
)
def test_each_combination_scores_its_value(kind: str, cards: list[str], value: int) -> None:
    hand = ["AC"] + cards + ["7C", "8C", "9C", "TC", "7S", "8S", "8D"][: 8 - len(cards)]
    g = win_first_trick(hand)
    action = Declare(kind, tuple(sorted(((parse_type(c), False) for c in cards), key=lambda s: (s[0] // 8, s[0] % 8))))
    assert str(action) in {str(a) for a in g.legal_actions()}
    g.apply(str(action))
    assert g.scores[0] == value
    assert len(g.table[0]) == len(cards) and g.phase == "play"
    assert g.melds[0][-1][0] == kind


def test_marriage_in_trumps_is_not_a_plain_marriage() -> None:
    g = win_first_trick(["AC", "KH", "QH", "7C", "8C", "9C", "TC", "JC", "7S"])
    with pytest.raises(IllegalAction, match="trump marriage"):
        g.apply("declare marriage KH QH")
    with pytest.raises(IllegalAction, match="do not hold"):
        g.apply("declare marriage KS QS")
    with pytest.raises(IllegalAction, match="queen of spades and the jack of diamonds"):
        g.apply("declare bezique QS JH")


def test_melded_cards_stay_playable_and_a_card_serves_again_only_in_another_kind() -> None:
    g = win_first_trick(["AC", "KS", "QS", "JD", "KD", "KC", "KH", "AS", "AS"])
    g.apply("declare marriage KS QS")
    assert g.scores[0] == 20
    g.apply("play AS")  # seat 0 leads again, wins with an ace
    g.apply("play 8D")
    # QS on the table serves again in a bésigue (another kind): fine
    before = g.scores[0]
    g.apply("declare bezique QS* JD")
    assert g.scores[0] - before == 40
    g.apply("play AS")
    g.apply("play 9D")
    # KS on the table serves again in four kings: fine
    before = g.scores[0]
    g.apply("declare four-kings KS* KH KD KC")
    assert g.scores[0] - before == 80
    # a table card is playable
    assert Play(parse_type("QS"), True) in g.legal_actions() or g.phase != "play"


def test_a_card_may_not_serve_twice_in_the_same_kind() -> None:
    g = win_first_trick(["AC", "KS", "QS", "QS", "AS", "AS", "7C", "8C", "9C"])
    g.apply("declare marriage KS QS")
    g.apply("play AS")
    g.apply("play 8D")
    with pytest.raises(IllegalAction, match="already served in a marriage"):
        g.apply("declare marriage KS* QS")
    assert all(not (isinstance(a, Declare) and a.kind == "marriage") for a in g.legal_actions())
    with pytest.raises(IllegalAction, match="at least one card from your hand"):
        g.apply("declare marriage KS* QS*")


def test_quint_after_trump_marriage_but_no_marriage_after_quint() -> None:
    g = win_first_trick(["AC", "KH", "QH", "AH", "TH", "JH", "KH", "QH", "AS"])
    g.apply("declare trump-marriage KH QH")
    g.apply("play AS")
    g.apply("play 8D")
    g.apply("declare quint AH TH JH KH* QH*")
    assert g.scores[0] == 290
    g2 = win_first_trick(["AC", "KH", "QH", "AH", "TH", "JH", "KH", "QH", "AS"])
    g2.apply("declare quint AH TH KH QH JH")
    g2.apply("play AS")
    g2.apply("play 8D")
    with pytest.raises(IllegalAction, match="already served"):
        g2.apply("declare trump-marriage KH* QH")
    g2.apply("declare trump-marriage KH QH")  # the other copies, from hand: fine
    assert g2.scores[0] == 290


def test_double_bezique_built_onto_a_declared_bezique_scores_500_then() -> None:
    g = win_first_trick(["AC", "QS", "JD", "QS", "JD", "AS", "AS", "7C", "8C"])
    g.apply("declare bezique QS JD")
    assert g.scores[0] == 40
    g.apply("play AS")
    g.apply("play 8D")
    before = g.scores[0]
    g.apply("declare double-bezique QS* JD* QS JD")
    assert g.scores[0] - before == 500
    g.apply("play AS")
    g.apply("play 9D")
    # every card is now on the table: nothing may be declared from the table alone
    with pytest.raises(IllegalAction, match="at least one card from your hand"):
        g.apply("declare bezique QS* JD*")
    assert not any(isinstance(a, Declare) for a in g.legal_actions())


def test_declaring_needs_a_won_trick_and_one_combination_per_trick() -> None:
    g = deal_game(["AC", "KS", "QS", "7C", "8C", "9C", "TC", "JC", "7S"], FILL1, "8H")
    with pytest.raises(IllegalAction, match="time to play a card"):
        g.apply("declare marriage KS QS")
    g.apply("play AC")
    g.apply("play 7D")
    with pytest.raises(IllegalAction, match="must declare a combination or pass"):
        g.apply("play KS")
    g.apply("no-declaration")
    assert g.phase == "play" and len(g.hands[0]) == 9 and len(g.hands[1]) == 9


def test_identical_cards_the_first_played_wins() -> None:
    g = deal_game(
        ["AS", "8C", "9C", "7C", "8D", "9D", "7D", "8H", "9H"],
        ["AS", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "JD"],
        "7H",
        dealer=1,
    )
    g.apply("play AS")
    g.apply("play AS")
    assert g.last_winner == 0 and g.phase == "declare"


def test_trick_winner_while_the_stock_lasts() -> None:
    g = deal_game(
        ["9S", "8C", "9C", "7C", "8D", "9D", "7D", "8H", "TS"],
        ["AS", "7S", "8S", "JS", "TC", "JC", "QC", "KC", "JD"],
        "7H",
    )
    g.apply("play 9S")
    g.apply("play 7S")  # lower of the suit led: leader wins
    assert g.last_winner == 0
    g.apply("no-declaration")
    g.apply("play TS")
    g.apply("play JD")  # no duty to follow while the stock lasts; another suit loses
    assert g.last_winner == 0
    g.apply("no-declaration")
    g.apply("play 8H")  # a trump lead
    g.apply("play AS")
    assert g.last_winner == 0


def test_turned_seven_scores_ten_to_the_dealer() -> None:
    g = deal_game(
        ["AC", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        ["7D", "TD", "JD", "TS", "JS", "QS", "TC", "JC", "QC"],
        "7H",
        dealer=1,
    )
    assert g.trump == HEARTS and g.scores == [0, 10]
    g2 = deal_game(
        ["AC", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        ["7D", "TD", "JD", "TS", "JS", "QS", "TC", "JC", "QC"],
        "8H",
        dealer=0,
    )
    assert g2.scores == [0, 0] and g2.to_act() == 1


def test_drawn_seven_of_trumps_is_shown_and_scores() -> None:
    g = deal_game(
        ["AC", "8D", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        ["7D", "TD", "JD", "TS", "JS", "QS", "TC", "JC", "QC"],
        "8H",
        top=["KD", "7H"],
    )
    g.apply("play AC")
    g.apply("play 7D")
    g.apply("no-declaration")
    assert g.scores == [0, 10]
    seven = next(c for c in g.hands[1] if c % 32 == parse_type("7H"))
    assert seven in g.shown and seven in g.view(0).opponent_known


def test_seven_exchange_option() -> None:
    rules = "besigue(seven=exchange)"
    g = deal_game(
        ["AC", "7H", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        ["7D", "TD", "JD", "TS", "JS", "QS", "TC", "JC", "QC"],
        "AH",
        rules=rules,
        top=["7H"],
    )
    g.apply("play AC")
    g.apply("play 7D")
    assert {"exchange 7H", "show 7H"} <= {str(a) for a in g.legal_actions()}
    g.apply("exchange 7H")
    assert g.scores[0] == 10 and any(c % 32 == parse_type("AH") for c in g.hands[0])
    assert g.turn_up is not None and g.turn_up % 32 == parse_type("7H")
    assert g.view(1).turn_up == g.turn_up
    # the drawn second 7 of trumps does not score by itself under this option
    assert g.scores[1] == 0
    g0 = deal_game(
        ["AC", "7H", "9D", "7S", "8S", "9S", "7C", "8C", "9C"],
        ["7D", "TD", "JD", "TS", "JS", "QS", "TC", "JC", "QC"],
        "AH",
    )
    g0.apply("play AC")
    g0.apply("play 7D")
    with pytest.raises(IllegalAction, match="not exchanged"):
        g0.apply("exchange 7H")


def test_endgame_follow_or_trump() -> None:
    g = endgame(["AS", "7C", "8D"], ["TS", "KS", "8H"], trump=CLUBS)
    g.apply("play AS")
    with pytest.raises(IllegalAction, match="follow suit"):
        g.apply("play 8H")
    assert {str(a) for a in g.legal_actions()} == {"play TS", "play KS"}
    g2 = endgame(["AS", "7C"], ["7C", "KH"], trump=CLUBS)
    g2.apply("play AS")
    with pytest.raises(IllegalAction, match="must trump"):
        g2.apply("play KH")
    assert [str(a) for a in g2.legal_actions()] == ["play 7C"]
    g3 = endgame(["TS", "7D"], ["AS", "7S"], trump=CLUBS)
    g3.apply("play TS")
    assert {str(a) for a in g3.legal_actions()} == {"play AS", "play 7S"}


def test_endgame_must_win() -> None:
    g = endgame(["TS", "7D"], ["AS", "7S"], trump=CLUBS, rules="besigue(endgame=must_win)")
    g.apply("play TS")
    with pytest.raises(IllegalAction, match="head the trick"):
        g.apply("play 7S")
    assert [str(a) for a in g.legal_actions()] == ["play AS"]


def test_brisques_and_last_trick_score_at_the_end_of_the_deal() -> None:
    g = endgame(["AS", "TD"], ["7S", "AD"], trump=CLUBS)
    g.won = [[], []]
    g.apply("play AS")
    g.apply("play 7S")
    g.apply("play TD")
    g.apply("play AD")
    r = g.results[-1]
    assert r["brisques"] == [10, 10] and r["last_trick"] == 1 and r["scores"] == [10, 20]
    g2 = endgame(["AS", "TD"], ["7S", "AD"], trump=CLUBS, rules="besigue(brisques=aces_and_tens)")
    g2.won = [[], []]
    for a in ("play AS", "play 7S", "play TD", "play AD"):
        g2.apply(a)
    assert g2.results[-1]["brisques"] == [10, 20]


def test_stock_and_trick_counts_for_both_hand_sizes() -> None:
    for rules, stock, tricks in (("besigue", 46, 23), ("besigue(hand=8)", 48, 24)):
        r = BesigueRules.parse(rules)
        assert (r.stock_size, r.stock_tricks, r.stock_tricks + r.hand) == (stock, tricks, 32)


def test_last_declaration_then_declared_cards_return_to_hand() -> None:
    from barbu.agents.besigue import RuleAgent

    g = BesigueGame("besigue", 11)
    bots = [RuleAgent(1), RuleAgent(2)]
    seen_last = False
    while g.deal_no < 2 and not g.is_over:
        s = g.to_act()
        if s == -1:
            g.play_chance()
            continue
        if g.phase == "last-declaration":
            seen_last = True
            assert not g.stock and g.tricks == 23
        a = bots[s].act(g.view(s))
        g.apply(a)
        if seen_last and g.phase == "play" and g.tricks == 23 and not g.trick:
            assert g.table == [{}, {}] and len(g.hands[0]) == len(g.hands[1]) == 9
    assert seen_last


def test_undo_and_clone() -> None:
    g = deal_game(["AC", "KS", "QS", "7C", "8C", "9C", "TC", "JC", "7S"], FILL1, "8H")
    before = g.view(0)
    g.apply("play AC")
    g.apply("play 7D")
    g.apply("declare marriage KS QS")
    c = g.clone()
    g.undo()
    g.undo()
    g.undo()
    assert g.view(0) == before
    assert c.scores[0] == 20 and c.phase == "play"


def test_ruleset_text_round_trips_and_presets() -> None:
    r = BesigueRules.parse("besigue(hand=8, brisques=aces_and_tens, seven=exchange, endgame=must_win, target=1000)")
    assert str(r) == "besigue(hand=8, brisques=aces_and_tens, seven=exchange, endgame=must_win)"
    assert BesigueRules.parse(str(r)) == r
    e = BesigueRules.parse("besigue-english")
    assert (e.hand, e.brisques, e.seven, e.endgame) == (8, "aces_and_tens", "exchange", "must_win")
    assert str(BesigueRules.parse("besigue-english(target=1500)")) == "besigue-english(target=1500)"
    for bad in ("besigue(hand=7)", "besigue(colour=red)", "bezigue", "besigue(target=-3)"):
        with pytest.raises(RulesetError):
            BesigueRules.parse(bad)


def test_parse_errors_and_illegal_reasons() -> None:
    for bad in ("", "play", "play 6S", "declare bezique", "declare royal KH QH", "shuffle 1 2", "jump"):
        with pytest.raises(ParseError):
            parse_action(bad)
    assert isinstance(parse_action("pass"), NoDeclaration)
    assert parse_action("play 10S") == Play(parse_type("TS"))
    assert parse_action("play Q♠*") == Play(parse_type("QS"), True)
    g = deal_game(["AC", "KS", "QS", "7C", "8C", "9C", "TC", "JC", "7S"], FILL1, "8H")
    with pytest.raises(IllegalAction, match="do not hold A♠"):
        g.apply("play AS")
    with pytest.raises(IllegalAction, match="no A♠ among your declared cards"):
        g.apply("play AS*")
    assert g.to_act() == 0 and len(g.log) == 2
    assert g.trump == HEARTS and SPADES == 0


def test_hand_of_eight_deals_by_three_two_three() -> None:
    hand0 = ["AC", "KC", "QC", "AD", "KD", "AS", "KS", "QS"]
    hand1 = ["7D", "8D", "9D", "7S", "8S", "9S", "7C", "8C"]
    g = deal_game(hand0, hand1, "8H", rules="besigue(hand=8)")
    assert len(g.hands[0]) == len(g.hands[1]) == 8 and len(g.stock) == 48
    assert sorted(c % 32 for c in g.hands[0]) == sorted(parse_type(t) for t in hand0)
    assert sorted(c % 32 for c in g.hands[1]) == sorted(parse_type(t) for t in hand1)


def test_playing_a_table_card_without_the_star_says_where_it_is() -> None:
    g = win_first_trick(["AC", "KS", "QS", "7C", "8C", "9C", "TC", "7S", "8S"])
    g.apply("declare marriage KS QS")
    with pytest.raises(IllegalAction, match=r"lies on the table: play it as KS\*"):
        g.apply("play KS")
    g.apply("play KS*")
    assert not any(c % 32 == parse_type("KS") for c in g.table[0])


def test_rule_player_declares_the_most_valuable_combination() -> None:
    from barbu.agents.besigue import RuleAgent

    g = win_first_trick(["AC", "QS", "JD", "QS", "JD", "AS", "AS", "7C", "8C"])
    assert str(RuleAgent().act(g.view(0))) == "declare double-bezique QS QS JD JD"
    g2 = win_first_trick(["AC", "KH", "QH", "AH", "TH", "JH", "AS", "7C", "8C"])
    assert str(RuleAgent().act(g2.view(0))).startswith("declare quint")
