"""The comparison with the expert says what its numbers are (issue 43, finding 6): the difference is called
so, and a match's end counts the deals replayed so far while the last replays run ("over 17 deals" at the end
of an 18-deal match said nothing of the one still replaying).  In English, French and Italian."""

from __future__ import annotations

import pytest

from barbu.duplicate.shadow import ShadowResult, ShadowSummary
from barbu.i18n import use
from barbu.play.shadow import expert_line, final_line, running_line, short_expert_line, worst_line


@pytest.fixture(params=["en", "fr", "it"])
def lang(request):
    use(request.param)
    yield request.param
    use("en")


def test_the_difference_is_named(lang):
    r = ShadowResult(deal=6, you=-18, expert=2, sign=1)
    assert r.advantage == -20
    words = {
        "en": ("you against him: -20", "difference -20", "difference -20"),
        "fr": ("vous contre lui : -20", "écart -20", "écart -20"),
        "it": ("tu contro di lui: -20", "differenza -20", "differenza -20"),
    }[lang]
    for text, said in zip((expert_line(r), short_expert_line(r), worst_line("1", r, "No queens")), words):
        assert said in text.replace("\u00a0", " "), text


def test_the_end_counts_the_deals_replayed_so_far(lang):
    s = ShadowSummary(advantage=-20, deals=17, worst=())
    so_far = {"en": "replayed so far", "fr": "rejouées jusqu'ici", "it": "rigiocate finora"}[lang]
    assert so_far in final_line(s, pending=1)
    assert so_far not in final_line(s) and "17" in final_line(s)
    assert "17" in running_line(s)


def test_the_web_replay_gets_the_trick_of_each_card_weighed():
    """The replay page's costliest decisions say "trick 3: 8♥ → 2♥", not a move number: the page is told the trick."""
    from barbu.analysis.review import Decision
    from barbu.core.cards import CARDS
    from barbu.web.replay.service import decision_json

    card = Decision(deal=1, step=19, seat=0, phase="play", chosen=CARDS[5], best=CARDS[3], cost=15.3, trick=3)
    assert decision_json(card)["trick"] == 3
    double = Decision(deal=1, step=2, seat=0, phase="doubling", chosen=None, best=None, cost=0.0)
    assert decision_json(double)["trick"] is None
