"""Help at the table, without a screen: take-back refusals and the hint's view-only reasoning."""

from __future__ import annotations

from barbu.classic.match import CHANCE, Match
from barbu.classic.ruleset import Ruleset
from barbu.tui import Session, Settings

PLAYED = "classic(undoubled_negative=play)"


def test_take_back_is_refused_before_any_move_of_yours_in_the_deal(tmp_path):
    from barbu.core.errors import BarbuError

    s = Session.new(Settings(rules=Ruleset.parse(PLAYED), seed=5, save=None, seat=1))
    while s.to_act() == CHANCE:
        s.play_chance()
    assert s.to_act() != 1 or s.match.deal_start == len(s.match.history) - 1
    moves = s.moves
    try:
        s.take_back()
    except BarbuError as e:
        assert "no move of yours in this deal" in str(e)
    else:
        raise AssertionError("take back was not refused")
    assert s.moves == moves


def test_hint_sees_only_the_view_and_explains():
    from barbu.agents.hint import hint

    m = Match(PLAYED, 3)
    while m.to_act() == CHANCE:
        m.play_chance()
    v = m.view(m.to_act())
    h = hint(v, samples=8, seconds=1.0)
    assert h.action in v.legal
    assert "imagined" in h.reason or "rules of thumb" in h.reason
