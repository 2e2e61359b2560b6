"""The learned hand inference: every deal it draws fits the seat's view, draws replay for a seed, the shipped
weights load, and the network places the hidden cards better than a guess on positions it was not trained on."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_expert import rule_positions

from barbu.agents import inference as chains_module
from barbu.agents import make_agent
from barbu.agents.learned_inference import (
    FEATURES,
    WEIGHTS,
    balance,
    card_probabilities,
    draw_hands,
    features,
    learned_hands,
    load_network,
    supports,
)
from barbu.classic.sampler import determinize


def views(rules: str, seed: int, phase: str, every: int = 4):
    for m, v in rule_positions(rules, seed, phase, every=every):
        if supports(v):
            yield m, v


def assert_fits(view, hands: list[int]) -> None:
    """``hands`` is a deal the seat could be in: its own hand, the known cards, the voids and the hand sizes."""
    n = view.players
    assert hands[view.seat] == view.hand
    dealt = 0
    for s in range(n):
        assert hands[s].bit_count() == view.hand_sizes[s]
        assert hands[s] & view.known[s] == view.known[s]
        if s != view.seat:
            assert not hands[s] & view.cant_hold[s], "a card went to a seat known not to hold it"
        assert not dealt & hands[s], "a card went to two seats"
        dealt |= hands[s]
    assert dealt == view.unseen | view.hand | sum(view.known)
    assert not dealt & view.out_of_play
    determinize(view, hands)  # the deal's public actions replay on it


def test_the_shipped_weights_load_and_are_small():
    net = load_network()
    assert WEIGHTS.stat().st_size < 300_000
    assert net.mean.shape == (len(FEATURES),)
    assert net.layers[-1][0].shape[1] == 1


@pytest.mark.parametrize(
    "rules,phase",
    [
        ("classic", "play"),
        ("classic", "doubling"),
        ("classic", "domino"),
        ("italian", "play"),
        ("french", "play"),
        ("salad(players=5)", "play"),
    ],
)
def test_every_drawn_deal_fits_the_view(rules, phase):
    rng = random.Random(3)
    seen = 0
    for seed in (2, 3):
        for _, v in views(rules, seed, phase):
            for hands in learned_hands(v, 6, rng):
                assert_fits(v, hands)
            seen += 1
    assert seen >= 5


def test_a_deal_is_drawn_even_where_the_network_is_wrong_about_everything():
    """Probabilities that give every card to one seat still yield deals of the right sizes and voids: the
    draw gives the other seats their counts (or falls back to a blind draw)."""
    rng = random.Random(1)
    checked = 0
    for _, v in views("classic", 4, "play", every=3):
        pos = features(v)
        if len(pos.seats) < 2 or not pos.cards:
            continue
        q = np.zeros(pos.allowed.shape)
        q[:, 0] = 1.0
        for _ in range(3):
            assert_fits(v, draw_hands(v, pos, q, rng))
        checked += 1
    assert checked >= 5


def test_the_balanced_probabilities_give_each_seat_its_count():
    for _, v in views("classic", 5, "play", every=6):
        pos = features(v)
        if not pos.cards:
            continue
        q = balance(card_probabilities(pos, load_network()), pos.need, pos.allowed)
        assert np.allclose(q.sum(axis=1), 1.0)
        assert np.allclose(q.sum(axis=0), pos.need, atol=0.01)
        assert not (q > 0)[~pos.allowed].any()


def test_draws_replay_for_a_seed():
    _, v = next(views("classic", 6, "play"))
    first = learned_hands(v, 10, random.Random(42))
    assert learned_hands(v, 10, random.Random(42)) == first
    assert learned_hands(v, 10, random.Random(43)) != first


def test_the_network_places_hidden_cards_better_than_a_guess():
    """On seeds the network never saw (it was trained on 500 and up), its probabilities of each card's true
    seat beat a guess in proportion to the seats' unseen cards, by log-loss and by accuracy."""
    net = load_network()
    loss = {"net": 0.0, "guess": 0.0}
    right = {"net": 0, "guess": 0}
    cards = 0
    for seed in (1, 2, 3):
        for m, v in views("classic", seed, "play", every=3):
            pos = features(v)
            keep = pos.allowed.sum(axis=1) > 1
            if not keep.any():
                continue
            truth = np.array([next(j for j, s in enumerate(pos.seats) if m.hands[s] >> c & 1) for c in pos.cards])
            guess = pos.allowed * pos.need[None, :].astype(float)
            guess /= guess.sum(axis=1, keepdims=True)
            for name, p in (("net", balance(card_probabilities(pos, net), pos.need, pos.allowed)), ("guess", guess)):
                pt = p[keep][np.arange(int(keep.sum())), truth[keep]]
                loss[name] -= float(np.log(np.maximum(pt, 1e-6)).sum())
                right[name] += int((p[keep].argmax(axis=1) == truth[keep]).sum())
            cards += int(keep.sum())
    assert cards > 500
    assert loss["net"] / cards < loss["guess"] / cards - 0.05
    assert right["net"] > right["guess"] * 1.15


def test_the_expert_draws_from_the_network_instead_of_the_chains(monkeypatch):
    def no_chains(*args, **kwargs):
        raise AssertionError("the chains ran")

    monkeypatch.setattr("barbu.agents.expert.likely_hands", no_chains)
    agent = make_agent("expert(samples=8)", 1)
    assert agent.learned  # the default in the Barbu families
    for _, v in views("classic", 7, "play", every=9):
        assert agent.act(v) in v.legal
        assert agent.last_samples == 8
    assert chains_module.likely_hands is not no_chains
    # by default twice the deals the chains move, where the network draws them; the chains' 40 elsewhere
    expert = make_agent("expert", 1)
    v = next(v for _, v in views("classic", 7, "play", every=9))
    assert expert.samples_for(v) == 80
    assert make_agent("expert(learned=0)", 1).samples_for(v) == 40
    assert make_agent("perfect", 1, measure=True).learned is False  # the yardstick keeps its sampler
    for _, sv in rule_positions("scottish", 3, "play", every=5):
        assert expert.samples_for(sv) == 40
        break


def test_learned_0_keeps_the_chains(monkeypatch):
    ran = []

    def chains(model, drawn, *args, **kwargs):
        ran.append(1)
        return drawn  # the deals as drawn, unmoved

    monkeypatch.setattr("barbu.agents.expert.likely_hands", chains)
    agent = make_agent("expert(learned=0, samples=4)", 1)
    v = next(v for _, v in views("classic", 7, "play", every=9))
    assert agent.act(v) in v.legal
    assert ran


def test_views_the_network_cannot_read_go_to_the_chains():
    """The Scottish game's pass-ons tie the hands together: its views stay with the chains."""
    for _, v in rule_positions("scottish", 3, "play", every=5):
        assert not supports(v)
        break
    else:
        pytest.fail("no Scottish position")
