"""A hint's reason, one wording for the terminal and the web, in each player's language."""

from __future__ import annotations

from barbu.agents.hint import Hint, hint_reason
from barbu.core.cards import parse_card
from barbu.i18n import translator

QH, KS = parse_card("QH"), parse_card("KS")
HINT = Hint(QH, "", ((QH, -1.25), (KS, -3.5)))


def test_the_reason_names_both_cards_and_their_points_in_each_language():
    en = hint_reason(HINT, translator("en"), False, True)
    assert "Q♥ gives you -1.2 points on average; the next best, K♠, -3.5" in en
    fr = hint_reason(HINT, translator("fr"), False, True)
    assert "D♥" in fr and "R♠" in fr and "-1,2" in fr and "-3,5" in fr
    it = hint_reason(HINT, translator("it"), False, True)
    assert "D♥" in it and "R♠" in it and "-1,2" in it and "in media" in it


def test_penalty_points_and_the_only_move():
    assert "penalty points" in hint_reason(HINT, translator("en"), False, False)
    assert hint_reason(HINT, translator("fr"), True, True) != hint_reason(HINT, translator("en"), True, True)
