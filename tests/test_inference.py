"""The expert's inference: the true deal explains rule players' actions best, and the Markov chain keeps to what
the seat has seen while moving towards the true deal."""

from __future__ import annotations

import random

import pytest
from test_expert import rule_positions

from barbu import CHANCE
from barbu.agents.expert import ExpertAgent
from barbu.agents.inference import likely_hands
from barbu.agents.rule import RuleAgent, rules_info
from barbu.classic.sampler import sample_hands
from barbu.games import open_game


def deal_weight(model, hands: list[int]) -> float:
    w = 1.0
    for s in model.seats:
        w *= model.weight(s, hands[s])
    return w


def test_the_true_deal_explains_rule_players_cards_best():
    """Against rule players the true hands explain every card played (weight 1), and a random deal
    fitting the view explains them less well on average."""
    agent = ExpertAgent(1)
    true_weights, sampled = [], []
    rng = random.Random(5)
    for m, v in rule_positions("classic", 11, "play", every=3):
        if len(v.tricks) < 3:
            continue
        model = agent.deal_model(v, m, rules_info(v.rules)[2])
        true_weights.append(deal_weight(model, list(m.hands)))
        sampled += [deal_weight(model, sample_hands(v, rng)) for _ in range(5)]
    assert len(true_weights) > 10
    assert all(w == 1.0 for w in true_weights)
    assert sum(sampled) / len(sampled) < 0.8


def test_the_declarers_choice_weighs_against_hands_that_suit_another_contract():
    agent = ExpertAgent(1)
    sampled: list[float] = []
    rng = random.Random(2)
    for m, v in rule_positions("classic", 21, "doubling", every=1):
        if v.declarer == v.seat:
            continue
        model = agent.deal_model(v, m, rules_info(v.rules)[2])
        assert model.weight(v.declarer, m.hands[v.declarer]) == 1.0  # the rule declarer chose what suits it
        sampled += [model.weight(v.declarer, sample_hands(v, rng)[v.declarer]) for _ in range(20)]
    assert len(sampled) >= 300
    assert sum(sampled) / len(sampled) < 0.85


def test_the_doubles_weigh_against_hands_that_would_have_doubled_otherwise():
    agent = ExpertAgent(1)
    sampled: list[float] = []
    rng = random.Random(3)
    for m, v in rule_positions("classic", 5, "play", every=2):
        if len(v.tricks) >= 4:
            continue
        model = agent.deal_model(v, m, rules_info(v.rules)[2])
        doublers = [s for s, ev in model.seats.items() if ev.doubles]
        for s in doublers:
            assert model.weight(s, m.hands[s]) == 1.0  # the rule players doubled as their hands called for
            sampled += [model.weight(s, sample_hands(v, rng)[s]) for _ in range(5)]
    assert len(sampled) >= 100
    assert sum(sampled) / len(sampled) < 0.95


def test_the_chains_keep_to_the_view_and_move_towards_the_true_deal():
    agent = ExpertAgent(1, surprise=0.05)
    rng = random.Random(7)
    right_before = right_after = total = 0
    positions = 0
    for m, v in rule_positions("classic", 4, "play", every=2):
        if len(v.tricks) < 2:
            continue
        positions += 1
        model = agent.deal_model(v, m, rules_info(v.rules)[2])
        start = [sample_hands(v, rng) for _ in range(6)]
        moved = likely_hands(model, start, 60, rng)
        for before, after in zip(start, moved):
            assert after[v.seat] == v.hand
            assert sum(h.bit_count() for h in after) == sum(h.bit_count() for h in before)
            seen = 0
            for s in range(m.n):
                assert after[s].bit_count() == v.hand_sizes[s]
                assert after[s] & v.known[s] == v.known[s]
                assert not after[s] & v.cant_hold[s] or s == v.seat
                assert not after[s] & seen  # no card twice
                seen |= after[s]
                if s != v.seat:
                    hidden = v.unseen & ~v.known[s]
                    right_before += (before[s] & hidden & m.hands[s]).bit_count()
                    right_after += (after[s] & hidden & m.hands[s]).bit_count()
                    total += (after[s] & hidden).bit_count()
            assert deal_weight(model, after) >= 0.0
    assert positions > 10
    # More of the hidden cards sit where they really are after the chains than in the deals they started from.
    assert right_after / total > right_before / total + 0.03


def test_rule_players_domino_moves_are_explained_by_their_true_hands():
    agent = ExpertAgent(1)
    rng = random.Random(4)
    true_weights, sampled = [], []
    for seed in (1, 2):
        for m, v in rule_positions("classic", seed, "domino", every=1):
            model = agent.deal_model(v, m, rules_info(v.rules)[2])
            if not any(ev.rows for ev in model.seats.values()):
                continue
            true_weights.append(deal_weight(model, list(m.hands)))
            sampled += [deal_weight(model, sample_hands(v, rng)) for _ in range(5)]
    assert len(true_weights) > 10
    assert all(w == 1.0 for w in true_weights)
    assert sum(sampled) / len(sampled) < 0.9


def test_the_compiled_rule_player_weighs_deals_as_the_python_one():
    """The weights read the rule player's cards from the compiled core where it is built; the Python rule
    player gives every deal the same weight."""
    from barbu.solver import fast

    if getattr(fast, "rule_cards", None) is None:
        pytest.skip("the compiled core is not built (BARBU_PURE or no compiler): nothing to compare")
    from barbu.agents.inference import DealModel

    agent = ExpertAgent(1)
    rng = random.Random(9)
    compared = 0
    for rules in ("classic", "italian", "french"):
        for m, v in rule_positions(rules, 3, "play", every=2):
            core = agent.deal_model(v, m, rules_info(v.rules)[2])
            assert core.core_spec is not None
            plain = DealModel(
                v,
                core.contract,
                core.contracts,
                rules_info(v.rules)[0],
                core.spec,
                core.trump_mask,
                core.sign,
                agent.surprise,
                agent.bid_surprise,
                agent.double_surprise,
                use_core=False,
            )
            for hands in [list(m.hands)] + [sample_hands(v, rng) for _ in range(4)]:
                for s, ev in core.seats.items():
                    assert core.card_weight(ev, hands[s]) == plain.card_weight(plain.seats[s], hands[s])
                    compared += 1
    assert compared > 200


def test_scottish_chains_keep_to_deals_the_pass_ons_explain():
    from barbu.agents.passon_inference import passon_likelihood
    from barbu.classic.sampler import own_match_class

    agent = ExpertAgent(1)
    rng = random.Random(6)
    checked = 0
    for m, v in scottish_positions_after_passes():
        if checked < 30:
            model = agent.deal_model(v, m, rules_info(v.rules)[2])
            start = [sample_hands(v, rng) for _ in range(3)]
            for hands in likely_hands(model, start, 15, rng, lambda h: passon_likelihood(v, h)):
                assert own_match_class(v.rules).explains(v, hands)
                assert passon_likelihood(v, hands) > 0
                checked += 1
    assert checked >= 10


def scottish_positions_after_passes():
    """(match, view) at card play after the pass-ons of the Silly Round, in matches of rule players."""
    for seed in range(1, 4):
        m = open_game("scottish", seed)
        bots = [RuleAgent(seed + s) for s in range(m.n)]
        k = 0
        while not m.is_over:
            actor = m.to_act()
            if actor == CHANCE:
                m.play_chance()
                continue
            v = m.view(actor)
            k += 1
            if v.phase == "play" and v.passes and len(v.legal) > 1 and k % 3 == 0:
                yield m, v
            m.apply(bots[actor].act(v), seat=actor)


@pytest.mark.parametrize("rules", ["italian", "french", "salad(players=5)", "scottish", "classic(ravage_city=true)"])
def test_every_family_the_true_deal_explains_rule_players_actions(rules):
    """The model of the others is the rule player's own choices: against rule players the true hands weigh 1
    at every decision (contracts, doubles, cards, rows)."""
    agent = ExpertAgent(1)
    weights = []
    for phase in ("play", "doubling", "domino"):
        for m, v in rule_positions(rules, 7, phase, every=2):
            weights.append(deal_weight(agent.deal_model(v, m, rules_info(v.rules)[2]), list(m.hands)))
    assert len(weights) > 40
    assert all(w == 1.0 for w in weights)
