"""The token spaces: every legal action has exactly one spelling, and every masked spelling ends on a legal action."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import random

from barbu.classic.chinese import Arrange, Arrangements
from barbu.core.actions import Double, PassOn
from barbu.core.errors import IllegalAction
from barbu.rl.codec import (
    BARBU_ACTIONS,
    BESIGUE_ACTIONS,
    DONE,
    TARGET0,
    Decision,
    barbu_token_names,
    besigue_token_names,
    encode_barbu,
)
from barbu.rl.table import Table

GAMES = [
    "classic",
    "classic(chinese_poker=true, ravage_city=true)",
    "italian",
    "italian-six",
    "salad(players=3)",
    "salad(players=6)",
    "french(players=5)",
    "scottish",
    "besigue",
]


def positions(rules: str, seed: int, limit: int = 400):
    """Tables at successive decisions of a random game (clones, so each can be spelled out freely)."""
    t = Table(rules, deals=3)
    t.reset(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if t.to_act is None:
            return
        yield t.clone()
        t.step(rng.choice(t.legal_tokens()))


@pytest.mark.parametrize("rules", GAMES)
def test_every_legal_action_spelled_back(rules):
    seen = 0
    for t in positions(rules, 3, 250):
        seat = t.to_act
        legal = t.game.legal_actions()
        if isinstance(legal, Arrangements):
            legal = [legal[i] for i in random.Random(1).sample(range(len(legal)), 30)]
        for action in legal:
            d = Decision(t.game.legal_actions(), lambda a: t.spec.encode(a, seat, t.n))
            tokens = t.spec.encode(action, seat, t.n)
            for i, tok in enumerate(tokens):
                assert tok in d.mask(), (action, tokens)
                got = d.choose(tok)
                assert (got is None) == (i < len(tokens) - 1)
            assert got == action
            seen += 1
    assert seen > 100


@pytest.mark.parametrize("rules", GAMES)
def test_random_spellings_end_on_legal_actions(rules):
    rng = random.Random(5)
    for t in positions(rules, 7, 250):
        seat = t.to_act
        d = Decision(t.game.legal_actions(), lambda a: t.spec.encode(a, seat, t.n))
        action = None
        for _ in range(12):
            mask = sorted(d.mask())
            assert mask and 0 <= mask[0] and mask[-1] < t.spec.num_actions
            action = d.choose(rng.choice(mask))
            if action is not None:
                break
        assert action is not None and action in t.game.legal_actions()


def test_arrangement_is_ten_small_choices():
    hand = sum(1 << c for c in (0, 2, 4, 6, 8, 10, 12, 14, 20, 30, 40, 45, 51))
    d = Decision(Arrangements(hand), lambda a: encode_barbu(a, 0, 4))
    assert d.mask() == {0, 2, 4, 6, 8, 10, 12, 14, 20}  # a 5-card back row starts among the 9 lowest
    for tok in (0, 4, 8, 30, 51):
        assert d.choose(tok) is None
    assert d.mask() == {2, 6, 10, 12}  # the middle row starts among the 4 lowest of the 8 cards left
    with pytest.raises(IllegalAction):
        d.choose(30)  # already in the back row
    for tok in (2, 6, 10, 12):
        assert d.choose(tok) is None
    got = d.choose(45)
    assert got == Arrange(
        back=sum(1 << c for c in (0, 4, 8, 30, 51)),
        middle=sum(1 << c for c in (2, 6, 10, 12, 45)),
        front=sum(1 << c for c in (14, 20, 40)),
    )


def test_doubling_targets_are_relative_seats():
    assert encode_barbu(Double(frozenset({0, 2})), 3, 4) == (TARGET0 + 1, TARGET0 + 3, DONE)
    assert encode_barbu(Double(), 1, 4) == (DONE,)


def test_pass_on_is_three_cards():
    assert encode_barbu(PassOn(1 << 5 | 1 << 9 | 1 << 40), 0, 4) == (5, 9, 40)


def test_illegal_token_changes_nothing():
    t = Table("classic", deals=1)
    t.reset(1)
    bad = next(x for x in range(BARBU_ACTIONS) if x not in t.legal_tokens())
    before = t.legal_tokens()
    with pytest.raises(IllegalAction):
        t.step(bad)
    assert t.legal_tokens() == before


def test_token_names_cover_the_spaces():
    assert len(barbu_token_names()) == BARBU_ACTIONS and len(set(barbu_token_names())) == BARBU_ACTIONS
    assert len(besigue_token_names()) == BESIGUE_ACTIONS
