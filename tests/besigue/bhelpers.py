"""Hand-built Bésigue deals for the tests."""

from __future__ import annotations

from barbu.besigue import BesigueGame
from barbu.besigue.actions import FirstDealer, Shuffle
from barbu.besigue.cards import parse_type


def ids(texts: list[str], used: set[int]) -> list[int]:
    """Card numbers for card texts, taking the first free copy of each."""
    out = []
    for t in texts:
        ty = parse_type(t)
        c = ty if ty not in used else ty + 32
        assert c not in used, f"both copies of {t} are already placed"
        used.add(c)
        out.append(c)
    return out


def deal_game(
    hand0: list[str],
    hand1: list[str],
    turn_up: str,
    top: list[str] = (),  # type: ignore[assignment]
    rules: str = "besigue",
    dealer: int = 1,
) -> BesigueGame:
    """A game whose first deal gives these hands (seat 0, seat 1), this turn-up and these top stock cards."""
    g = BesigueGame(rules, 0)
    size = g.rules.hand
    assert len(hand0) == len(hand1) == size
    used: set[int] = set()
    h0, h1 = ids(hand0, used), ids(hand1, used)
    up = ids([turn_up], used)[0]
    tops = ids(list(top), used)
    rest = [c for c in range(64) if c not in used]
    packets = (3, 3, 3) if size == 9 else (3, 2, 3)
    hands = {0: h0, 1: h1}
    order: list[int] = []
    pos = 0
    for p in packets:
        for seat in (1 - dealer, dealer):
            order += hands[seat][pos : pos + p]
        pos += p
    order += tops + rest + [up]
    g.apply(FirstDealer(dealer))
    g.apply(Shuffle(tuple(order)))
    return g


def endgame(hand0: list[str], hand1: list[str], trump: int, leader: int = 0, rules: str = "besigue") -> BesigueGame:
    """A game at the last tricks: stock empty, these hands, ``leader`` to lead."""
    g = BesigueGame(rules, 0)
    used: set[int] = set()
    g.hands = [set(ids(hand0, used)), set(ids(hand1, used))]
    g.won = [[c for c in range(64) if c not in used], []]
    g.stock, g.turn_up, g.trump = [], None, trump
    g.phase, g.actor, g.leader, g.last_winner = "play", leader, leader, leader
    g.tricks = 32 - len(hand0)
    g.deal_no = 1
    g.dealer = 1
    return g


def play_until(g: BesigueGame, stop=lambda g: g.is_over) -> BesigueGame:
    """Let two rule players (and chance) play `g` until `stop(g)`; returns `g`."""
    from barbu.agents.besigue import RuleAgent

    bots = [RuleAgent(1), RuleAgent(2)]
    while not stop(g):
        seat = g.to_act()
        if seat == -1:
            g.play_chance()
        else:
            assert seat is not None
            g.apply(bots[seat].act(g.view(seat)))
    return g
