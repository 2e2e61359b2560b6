"""The plain game's words: doubles said in words, and the help of the game being played only."""

from __future__ import annotations

from barbu.agents import make_agent
from barbu.classic.match import Match
from barbu.classic.ruleset import Ruleset
from barbu.cli.textplay import describe, help_text
from barbu.cli.wording import seat_names
from barbu.core.game import CHANCE
from barbu.play.labels import seat_name


def a_deal_with_doubles() -> tuple[Match, int]:
    """A classic match played by rule players until a deal's doubles are known, and a seat that sees them."""
    for seed in range(50):
        m = Match(Ruleset.parse("classic"), seed=seed)
        bots = [make_agent("rule", s) for s in range(4)]
        while not m.is_over:
            actor = m.to_act()
            if actor == CHANCE:
                m.apply(m.sample_chance())
                continue
            v = m.view(actor)
            if v.doubles and v.phase == "play":
                return m, actor
            m.apply(bots[actor].act(v))
    raise AssertionError("no double in 50 matches")


def test_doubles_are_said_in_words_not_arrows():
    m, seat = a_deal_with_doubles()
    b = m.view(seat).doubles[0]
    with seat_names([seat_name(s, seat, m.n) for s in range(m.n)]):  # as the plain game names them
        text = describe(m, seat)
    assert "→" not in text
    assert f"{seat_name(b.doubler, seat, m.n)} doubled {seat_name(b.doubled, seat, m.n)}" in text


def test_the_help_names_the_scottish_commands_in_a_scottish_match_only():
    classic, scottish = help_text(Ruleset.parse("classic")), help_text(Ruleset.parse("scottish"))
    assert "Scottish" not in classic and "sheet" not in classic and "pass / double west north" in classic
    assert "Scottish game:" in scottish and "sheet (Scottish scoresheet)" in scottish
