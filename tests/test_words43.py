"""Words a newcomer stumbled on (issue 43, finding 9), in English, French and Italian: plural forms, the
ranks rows start from, the Bésigue preset, the lessons' cards that fit and the contracts they showed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from barbu.besigue.ruleset import PRESETS
from barbu.classic.contracts import DOMINO
from barbu.classic.match import Match
from barbu.core.actions import NameRank
from barbu.core.cards import parse_card
from barbu.guide.lesson import LESSONS, QUIET, contracts_shown, replay
from barbu.i18n import translator, use
from barbu.play.labels import action_label, rules_info
from barbu.records.savefiles import SavedMatch

LANGS = ("en", "fr", "it")


@pytest.fixture
def lang_reset():
    yield
    use("en")


@pytest.mark.parametrize(
    "lang,one,many",
    [
        ("en", "1 of 28 deals played", "3 of 28 deals played"),
        ("fr", "1 donne jouée sur 28", "3 donnes jouées sur 28"),
        ("it", "1 smazzata giocata su 28", "3 smazzate giocate su 28"),
    ],
)
def test_saved_matches_count_their_deals_in_the_plural_that_fits(lang, one, many, lang_reset):
    use(lang)
    assert SavedMatch(Path("m.jsonl"), "classic", 1, 28, False).progress() == one
    assert SavedMatch(Path("m.jsonl"), "classic", 3, 28, False).progress() == many
    assert "1 " in SavedMatch(Path("b.jsonl"), "besigue", 1, 0, False).progress()
    if lang != "en":
        assert SavedMatch(Path("b.jsonl"), "besigue", 1, 0, False).progress() != translator("en").gettext(
            "{done} deals played"
        ).format(done=1)


@pytest.mark.parametrize("lang,six,jack", [("en", "sixes", "jacks"), ("fr", "six", "valets"), ("it", "sei", "fanti")])
def test_a_named_rank_says_where_the_rows_start_in_the_plural(lang, six, jack, lang_reset):
    use(lang)
    m = Match(QUIET, 1)
    info = rules_info(QUIET)
    v = m.view(0)
    six_label = action_label(NameRank(4), v, info)
    assert six_label.endswith(six) and "sixs" not in six_label
    assert action_label(NameRank(9), v, info).endswith(jack)


def test_the_besigue_preset_says_its_rules_without_a_seed_number():
    for lang in LANGS:
        text = translator(lang, "barbu").gettext(PRESETS["besigue"][1])
        assert "003" not in text and "seed" not in text.lower()


def test_the_besigue_options_name_their_rules_not_the_seed():
    """`barbu rules besigue` said "nine each, by threes (the seed)" beside "(English)"."""
    from barbu.besigue.ruleset import OPTIONS

    for lang in LANGS:
        tr = translator(lang, "barbu")
        values = [tr.gettext(v) for _, _, words in OPTIONS.values() for v in words.values()]
        assert not [v for v in values if "seed" in v or "règle de base" in v or "regola di base" in v], values
        french = {"en": "(French)", "fr": "(français)", "it": "(francese)"}[lang]
        assert sum(v.endswith(french) for v in values) == 4


def named_choices(step) -> set[int]:
    """The cards a step's explanation offers as choices ("{one:card} or {two:card}", "{fits:cards}")."""
    params = dict(step.explain.params)
    out: set[int] = set(params.get("fits", ()))
    for pair in re.findall(r"\{(\w+):card\} or \{(\w+):card\}", step.explain.text):
        out |= {params[k] for k in pair}
    return out


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda x: x.key)
def test_a_lesson_names_every_card_it_accepts(lesson):
    """When a step names the cards to play, it names each card the step accepts, none typed beside them."""
    for step in lesson.steps:
        accepted = {parse_card(a) for a in step.expect if a[:1].isalnum() and len(a) <= 3 and a != "pass"}
        named = named_choices(step)
        if named:
            assert named == accepted, (lesson.key, step.explain.text)


def test_the_first_lesson_offers_every_diamond_under_the_king():
    state = replay("no-queens", [])
    under = {
        c for c in state.legal if isinstance(c, int) and c // 13 == parse_card("KD") // 13 and c < parse_card("KD")
    }
    assert len(under) == 3
    for lang in LANGS:
        text = state.message.worded(translator(lang, "guide"))
        for c in under:
            assert translator(lang, "guide").cards([c]) in text, (lang, text)


def test_the_last_lesson_counts_the_contracts_it_showed():
    shown, others = contracts_shown()
    rules = Match(QUIET, 0)
    assert len(shown) + len(others) == len(rules.contracts) == 7 and len(shown) == 4
    kinds = {c.key: c for c in rules.contracts}
    assert all(kinds[k].kind != DOMINO and not kinds[k].trump for k in others)  # "negative ones, like No queens"
    closing = LESSONS[-1].done
    for lang in LANGS:
        text = closing.worded(translator(lang, "guide"))
        assert "every kind" not in text and "toutes les sortes" not in text and "ogni tipo" not in text
        assert "4" in text and "7" in text and "3" in text, text


@pytest.mark.parametrize("lang,jacks", [("en", "from the jacks"), ("fr", "les valets"), ("it", "fanti")])
def test_the_scorekeeper_names_the_starting_rank_in_the_plural(lang, jacks, lang_reset):
    from barbu.tui.score_entry import rank_word

    use(lang)
    assert jacks in rank_word("J") and "Js" not in rank_word("J")
