"""Inference from the Scottish pass-ons: sampled deals weighed by how likely the others' passes were."""

from __future__ import annotations

import random

from barbu import CHANCE
from barbu.agents.passon_inference import call_at_passes, history_likelihood, passon_likelihood
from barbu.agents.rule import RuleAgent, best_pass_on, rules_info
from barbu.classic.sampler import sample_hands
from barbu.games import open_game
from barbu.scottish.match import explains


def passed_positions(count: int, first_seed: int = 1):
    """(match, view) at the first card of Silly Round deals with pass-ons, in matches of rule players."""
    found = 0
    for seed in range(first_seed, first_seed + 60):
        m = open_game("scottish", seed)
        bots = [RuleAgent(s) for s in range(m.n)]
        while not m.is_over:
            actor = m.to_act()
            if actor == CHANCE:
                m.play_chance()
                continue
            v = m.view(actor)
            if v.phase in ("play", "domino") and v.passes and not v.tricks and not v.trick:
                yield m, v
                found += 1
                if found == count:
                    return
            m.apply(bots[actor].act(v), seat=actor)


def test_the_rule_players_passes_are_the_likeliest():
    """The true history of a deal passed by rule players has weight 1; a seat passing other cards lowers it
    by ``surprise`` per card."""
    checked = 0
    for m, v in passed_positions(6):
        gives = [g for _, g in m.pass_log]
        assert history_likelihood(v, list(m.dealt), gives) == 1.0
        other = (v.seat + 1) % v.players
        _, contracts, sign = rules_info(v.rules)
        call = call_at_passes(v)
        held = list(m.dealt)  # the hands before the last pass
        for seen, full in zip(v.passes[:-1], gives):
            held = [(held[y] & ~full[y]) | full[(y - seen.offset) % v.players] for y in range(v.players)]
        best = best_pass_on(held[other], contracts.get(call) if call else None, sign)
        assert gives[-1][other] == best
        kept = held[other] & ~best
        swapped = (best & ~(best & -best)) | (kept & -kept)  # one card of the three exchanged for one kept
        changed = list(gives)
        changed[-1] = tuple(swapped if y == other else g for y, g in enumerate(gives[-1]))
        assert history_likelihood(v, list(m.dealt), changed, surprise=0.5) == 0.5
        checked += 1
    assert checked == 6


def test_true_deals_weigh_more_than_random_samples():
    """Over Silly Round deals the real hands weigh more than the deals the sampler draws (which any history
    explains), so the weight tells the likely deals from the others."""
    rng = random.Random(4)
    true_total = sample_total = 0.0
    whole = 0
    for m, v in passed_positions(8):
        weight = passon_likelihood(v, list(m.hands))
        true_total += weight
        whole += weight == 1.0  # the likeliest history rebuilt is the rule players' own
        draws = [passon_likelihood(v, sample_hands(v, rng)) for _ in range(10)]
        sample_total += sum(draws) / len(draws)
    assert true_total > 2 * sample_total
    assert whole >= 6


def test_no_pass_ons_no_weight_and_unexplained_deals_none():
    m, v = next(passed_positions(1))
    # a deal no pass-on history explains: a card the seat passed moved to a seat it cannot have reached
    hands = list(m.hands)
    received = v.passes[-1].to
    for card in range(52):
        bit = 1 << card
        if not hands[received] & bit or not v.passes[-1].gave & bit:
            continue
        for y in range(v.players):
            if y in (v.seat, received):
                continue
            for back in range(52):
                if hands[y] >> back & 1:
                    trial = list(hands)
                    trial[received] ^= bit | (1 << back)
                    trial[y] ^= bit | (1 << back)
                    if not explains(v, trial):
                        assert passon_likelihood(v, trial) == 0.0
                        break
            else:
                continue
            break
        else:
            continue
        break
    else:
        raise AssertionError("no unexplained deal found")
    classic = open_game("classic", 1)
    while classic.to_act() == CHANCE:
        classic.play_chance()
    assert passon_likelihood(classic.view(classic.to_act()), list(classic.hands)) == 1.0
