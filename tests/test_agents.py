"""Computer players: legal choices everywhere, hidden cards never seen, forced wins found."""

from __future__ import annotations

import random

import pytest
from helpers import play, start_deal
from test_all_presets import CASES, rules_text

from barbu import CHANCE, Match
from barbu.agents import AGENT_KINDS, make_agent
from barbu.agents.base import parse_agent_spec
from barbu.agents.expert import ExpertAgent
from barbu.agents.rule import RuleAgent
from barbu.agents.search import SearchAgent
from barbu.classic.sampler import determinize, sample_hands
from barbu.classic.view import make_view


class Checked:
    """Wraps an agent: every view it gets must be its seat's, every choice legal."""

    def __init__(self, agent, match: Match) -> None:
        self.agent = agent
        self.match = match
        self.decisions = 0

    def act(self, view):
        m = self.match
        seat = view.seat
        assert view == make_view(m, seat)
        choice = self.agent.act(view)
        legal = m.legal_actions()
        assert choice in legal, f"{self.agent.name} chose {choice!r}, not legal at {m.phase_name}"
        self.decisions += 1
        return choice


def play_match(rules: str, kinds: list[str], seed: int, max_deals: int | None = None) -> tuple[Match, int]:
    m = Match(rules, seed)
    agents = [Checked(make_agent(kinds[s % len(kinds)], seed * 10 + s), m) for s in range(m.n)]
    while not m.is_over and (max_deals is None or len(m.results) < max_deals):
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        m.apply(agents[actor].act(m.view(actor)), seat=actor)
    return m, sum(a.decisions for a in agents)


@pytest.mark.parametrize("name,players", CASES)
def test_rule_agent_plays_every_preset_legally(name, players):
    decisions = 0
    for seed in range(2):
        m, d = play_match(rules_text(name, players), ["rule", "random"], seed)
        assert m.is_over
        decisions += d
    assert decisions > 100


@pytest.mark.parametrize("name,players", CASES)
def test_search_agent_plays_every_preset_legally(name, players):
    m, d = play_match(rules_text(name, players), ["search(samples=2)", "rule"], 3, max_deals=3)
    assert len(m.results) == 3 and d > 10


def test_views_carry_no_hidden_card():
    """A seat's view is the same in every deal of the unseen cards that fits it: it holds nothing hidden."""
    rng = random.Random(5)
    checked = 0
    for rules in ("classic", "french(players=5)", "classic(chinese_poker=true)", "italian", "scottish"):
        m = Match(rules, 11)
        bots = [RuleAgent(s) for s in range(m.n)]
        while not m.is_over and len(m.results) < 4:
            actor = m.to_act()
            if actor == CHANCE:
                m.play_chance()
                continue
            if rng.random() < 0.15 and m.phase_name in ("play", "domino", "doubling", "declare", "pass-on"):
                for seat in range(m.n):
                    v = make_view(m, seat)
                    assert v.hand == m.hands[seat]
                    other = determinize(v, sample_hands(v, rng))
                    if other.hands != m.hands:
                        checked += 1
                    w = make_view(other, seat)
                    assert (w.hand, w.trick, w.tricks, w.known, w.cant_hold, w.legal, w.doubles) == (
                        v.hand,
                        v.trick,
                        v.tricks,
                        v.known,
                        v.cant_hold,
                        v.legal,
                        v.doubles,
                    )
            m.apply(bots[actor].act(m.view(actor)), seat=actor)
    assert checked > 20


def test_agent_names_and_settings():
    assert AGENT_KINDS == ("random", "rule", "search", "expert")
    expert = make_agent("expert(samples=5, end_cards=4, surprise=0.5)", 2)
    assert isinstance(expert, ExpertAgent) and (expert.samples, expert.end_cards, expert.surprise) == (5, 4, 0.5)
    assert not expert.sees_all and expert.match is None
    # The perfect-information twin is for the arena alone: no front end may name it.
    with pytest.raises(ValueError, match="unknown computer player"):
        make_agent("perfect")
    assert make_agent("perfect", 1, measure=True).sees_all
    assert parse_agent_spec("search(samples=12, seconds=0.5)") == ("search", {"samples": 12, "seconds": 0.5})
    agent = make_agent("search(samples=3)", 1)
    assert isinstance(agent, SearchAgent) and agent.samples == 3
    for bad, words in [
        ("minimax", "unknown computer player"),
        ("search(depth=3)", "unknown setting"),
        ("search(samples=x)", "must be a number"),
        ("rule(samples=3)", "takes no settings"),
        ("search(samples=0)", "positive"),
        ("expert(exact_tricks=2)", "unknown setting 'exact_tricks=2' for the expert player"),
        ("expert(end_cards=-1)", "positive"),
    ]:
        with pytest.raises(ValueError, match=words):
            make_agent(bad)


def pass_doubling(m: Match) -> None:
    while m.phase_name == "doubling":
        m.apply("pass")


def last_two_ending() -> Match:
    """Two tricks left at No last two, seat 0 to lead A♠ 2♠; everyone else holds two spades.

    Cashing the A♠ now costs the second-to-last trick (-10); the 2♠ first leaves the A♠ to take
    the last one (-20), whoever holds what.
    """
    hands = ["A2.-.-.AKQJT987654", "K3.-.AKQJT987654.-", "Q4.AKQJT987654.-.-", "JT98765.32.32.32"]
    m = start_deal("classic(undoubled_negative=play)", 0, hands, contract="no-last-two")
    pass_doubling(m)
    seat1 = "AD KD QD JD TD 9D 8D 7D 6D 5D 4D".split()
    seat2 = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H".split()
    seat3 = "3C 2C 3H 2H 3D 2D TS 9S 8S 7S 6S".split()
    for club, a, b, c in zip("AC KC QC JC TC 9C 8C 7C 6C 5C 4C".split(), seat1, seat2, seat3):
        play(m, f"{club} {a} {b} {c}")
    return m


def trumps_ending() -> Match:
    """Trumps (hearts), all trumps out, seat 0 to lead A♦ 2♦ with two tricks left.

    The A♦ first makes one trick for sure; the 2♦ first loses the lead to a higher diamond,
    and whoever wins it may cash the A♠.
    """
    hands = ["-.AKQJT987654.A2.-", "A.-.K.AKQJT987654", "KQJT9876532.3.Q.-", "4.2.JT9876543.32"]
    m = start_deal("classic", 0, hands, contract="trumps", trump="h")
    pass_doubling(m)
    seat1 = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C".split()
    seat2 = "3H KS QS JS TS 9S 8S 7S 6S 5S 2S".split()
    seat3 = "2H TD 9D 8D 7D 6D 5D 4D 3D 3C 2C".split()
    for trump, a, b, c in zip("AH KH QH JH TH 9H 8H 7H 6H 5H 4H".split(), seat1, seat2, seat3):
        play(m, f"{trump} {a} {b} {c}")
    return m


def test_search_finds_the_forced_line_at_no_last_two():
    m = last_two_ending()
    assert m.turn == 0 and m.hands[0].bit_count() == 2
    view = m.view(0)
    assert {str(c) for c in view.legal} == {"AS", "2S"}
    for exact in (2, 0):  # exact search of the last tricks, and plain playouts
        bot = SearchAgent(seed=1, samples=12, exact_tricks=exact)
        assert str(bot.act(view)) == "AS"
    assert str(RuleAgent(1).act(view)) == "2S"  # the rule bot ducks, and pays more


def test_search_cashes_its_winner_at_trumps():
    m = trumps_ending()
    assert m.turn == 0 and m.tricks_won[0] == 11
    view = m.view(0)
    assert {str(c) for c in view.legal} == {"AD", "2D"}
    assert str(SearchAgent(seed=2, samples=12).act(view)) == "AD"


def test_rule_agent_passes_on_its_most_dangerous_cards_and_lays_its_longest_run():
    from barbu.agents.rule import row_move
    from barbu.core.actions import Lay, PassOn
    from barbu.core.cards import CardSet

    m = Match("scottish", 4)
    rule = RuleAgent(0)
    while m.phase_name != "pass-on":
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
        else:
            m.apply(rule.act(m.view(actor)), seat=actor)
    seat = m.to_act()
    view = m.view(seat)
    choice = rule.act(view)
    assert isinstance(choice, PassOn) and choice in view.legal
    passed = sorted(c % 13 for c in CardSet(choice.cards))
    kept = sorted(c % 13 for c in CardSet(view.hand & ~choice.cards))
    if view.contract is None or view.contract not in ("patience", "double-patience"):
        assert passed[-1] >= kept[-1]  # the highest card goes first
    contract = rules_contracts("scottish")["patience"]
    hand = CardSet.parse("-.JT987.-.-").mask
    legal = (Lay(CardSet.parse("-.JT9.-.-").mask), Lay(CardSet.parse("-.JT98.-.-").mask))
    assert row_move(hand, legal, [None] * 4, None, contract, True, m.deck) == legal[1]


def rules_contracts(rules: str):
    from barbu.agents.rule import rules_info

    return rules_info(rules)[1]
