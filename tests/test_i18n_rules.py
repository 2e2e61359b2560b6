"""The rules' texts in three languages: ruleset errors, options, presets, contracts' help, the guide."""

from __future__ import annotations

import pytest

from barbu.besigue.ruleset import OPTIONS as BESIGUE_OPTIONS
from barbu.besigue.ruleset import PRESETS as BESIGUE_PRESETS
from barbu.besigue.ruleset import BesigueRules
from barbu.classic.contracts import scottish_contracts
from barbu.classic.match import Match
from barbu.classic.ruleset import OPTIONS, Ruleset, presets, ruleset
from barbu.core.errors import RulesetError
from barbu.i18n import translator, word_error
from barbu.i18n.rules import contract_help


def error(make) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        make()
    return info.value


CASES = [
    # (make, code, English, French, Italian)
    (
        lambda: ruleset("bridge"),
        "unknown-preset",
        "unknown preset 'bridge'; presets are: classic",
        "variante inconnue 'bridge'\u00a0; les variantes sont\u00a0: classic",
        "variante sconosciuta 'bridge'; le varianti sono: classic",
    ),
    (
        lambda: Ruleset.parse("classic(colour=red)"),
        "unknown-option",
        "unknown option 'colour'; options are: players",
        "option inconnue 'colour'\u00a0; les options sont\u00a0: players",
        "opzione sconosciuta 'colour'; le opzioni sono: players",
    ),
    (
        lambda: Ruleset.parse("classic(rotation=sideways)"),
        "option-choices",
        "option rotation: 'sideways' is not allowed; use dealer, quick",
        "option rotation\u00a0: 'sideways' n'est pas permis\u00a0; utilisez dealer, quick",
        "opzione rotation: 'sideways' non è ammesso; usa dealer, quick",
    ),
    (
        lambda: Ruleset.parse("classic(ravage_city=maybe)"),
        "option-bool",
        "option ravage_city: 'maybe' is not allowed; use true or false",
        "option ravage_city\u00a0: 'maybe' n'est pas permis\u00a0; utilisez true (oui) ou false (non)",
        "opzione ravage_city: 'maybe' non è ammesso; usa true (sì) o false (no)",
    ),
    (
        lambda: Ruleset.parse("classic(double_obligation=9)"),
        "option-range",
        "option double_obligation: 9 is not allowed; use a whole number from 0 to 7",
        "option double_obligation\u00a0: 9 n'est pas permis\u00a0; utilisez un nombre entier de 0 à 7",
        "opzione double_obligation: 9 non è ammesso; usa un numero intero da 0 a 7",
    ),
    (
        lambda: Ruleset.parse("classic(players=5)"),
        "played-by",
        "classic is played by 4 players, not 5",
        "classic se joue à 4 joueurs, pas à 5",
        "classic si gioca in 4, non in 5",
    ),
    (
        lambda: Ruleset.parse("salad(players=2)"),
        "played-by-range",
        "salad is played by 3 to 6 players, not 2",
        "salad se joue de 3 à 6 joueurs, pas à 2",
        "salad si gioca da 3 a 6 giocatori, non in 2",
    ),
    (
        lambda: Ruleset.parse("french(doubling=classic)"),
        "not-for-family",
        "option doubling does not apply to the french family",
        "l'option doubling ne s'applique pas à la famille french",
        "l'opzione doubling non vale per la famiglia french",
    ),
    (
        lambda: Ruleset.parse("classic(rotation)"),
        "not-option-value",
        "'rotation' in 'classic(rotation)' is not of the form option=value",
        "'rotation' dans 'classic(rotation)' n'est pas de la forme option=valeur",
        "'rotation' in 'classic(rotation)' non ha la forma opzione=valore",
    ),
    (
        lambda: Ruleset.parse("classic(ravage_value=36)"),
        "ravage-value-alone",
        "option ravage_value only matters with ravage_city=true",
        "l'option ravage_value ne compte qu'avec ravage_city=true",
        "l'opzione ravage_value conta solo con ravage_city=true",
    ),
    (
        lambda: BesigueRules.parse("besigue(hand=7)"),
        "besigue-choices",
        "hand cannot be '7'; choose from: 9, 8",
        "hand ne peut pas valoir '7'\u00a0; choisissez parmi\u00a0: 9, 8",
        "hand non può valere '7'; scegli tra: 9, 8",
    ),
    (
        lambda: BesigueRules.parse("besigue(target=-5)"),
        "besigue-positive",
        "target must be a positive whole number, not '-5'",
        "target doit être un nombre entier positif, pas '-5'",
        "target deve essere un numero intero positivo, non '-5'",
    ),
    (
        lambda: BesigueRules.parse("piquet"),
        "unknown-besigue-preset",
        "unknown Bésigue preset 'piquet'; choose from: besigue",
        "variante de Bésigue inconnue 'piquet'\u00a0; choisissez parmi\u00a0: besigue",
        "variante di Bésigue sconosciuta 'piquet'; scegli tra: besigue",
    ),
]


@pytest.mark.parametrize("make,code,en,fr,it", CASES, ids=[c[1] for c in CASES])
def test_ruleset_errors_in_three_languages(make, code, en, fr, it):
    e = error(make)
    assert e.code == code
    assert str(e).startswith(en) and word_error(e, "en") == str(e)
    assert word_error(e, "fr").startswith(fr), word_error(e, "fr")
    assert word_error(e, "it").startswith(it), word_error(e, "it")


def test_the_english_of_ruleset_errors_is_unchanged():
    assert str(error(lambda: Ruleset.parse("classic(double_obligation=x)"))) == (
        "option double_obligation: 'x' is not allowed; use a whole number from 0 to 7"
    )
    assert str(error(lambda: Ruleset.parse("salad(players=7)"))).startswith("option players: 7 is not allowed")
    assert str(error(lambda: Ruleset.parse("classic(undoubled_negative=split, doubling=none)"))) == (
        "option undoubled_negative=split needs doubling: with doubling=none no negative deal would ever be "
        "played; use undoubled_negative=play"
    )


def test_every_text_the_engine_keeps_as_data_is_translated():
    for lang in ("fr", "it"):
        w = translator(lang)
        texts = [p.description for p in presets()] + [spec.help for spec in OPTIONS.values()]
        texts += [d for _, d in BESIGUE_PRESETS.values()]
        texts += [m for _, m, values in BESIGUE_OPTIONS.values() for m in (m, *values.values())]
        contracts = [c for p in presets() for c in p.ruleset.family_spec.contracts(p.ruleset)]
        for t in texts:
            assert w.gettext(t) != t, (lang, t)
        for c in contracts:
            assert contract_help(c, w) and contract_help(c, w) != c.help, (lang, c.key)
    assert OPTIONS["rotation"].allowed(translator("fr")) == "dealer, quick"
    assert OPTIONS["double_obligation"].allowed(translator("it")) == "un numero intero da 0 a 7"
    assert OPTIONS["ravage_city"].allowed() == "true or false"


def test_a_scottish_group_is_worded_call_by_call():
    group = next(c for c in scottish_contracts() if c.key == "aces+queens")
    assert contract_help(group, translator("en")) == group.help
    assert (
        contract_help(group, translator("fr"))
        == "Tout à la fois\u00a0: Chaque as pris coûte 20. Chaque dame prise coûte 15."
    )
    assert contract_help(group, translator("it")).startswith("Tutto insieme: Ogni asso preso costa 20.")
    assert contract_help(Match("classic").contract_by_key["no-queens"], translator("it")) == (
        "Ogni donna che prendi costa punti."
    )


# -- the rules guide in French and Italian

from barbu.classic.match import Business  # noqa: E402
from barbu.guide import Table, as_text, rules_guide, settlement_words  # noqa: E402
from barbu.i18n.rules import guide_in  # noqa: E402

GUIDES = [p.name for p in presets()] + [
    "classic(ravage_city=true, chinese_poker=true, rotation=quick)",
    "italian(heart_lead=until_broken)",
    "besigue",
    "besigue-english",
]


def english_words(text: str) -> set[str]:
    """Words of the English guide that must not be left in a translation (names and notation aside)."""
    return {
        w
        for w in (
            "the",
            "each",
            "trick",
            "player",
            "players",
            "deal",
            "cards",
            "wins",
            "when",
            "must",
            "points taken",
            "Worked example",
            "How a match runs",
        )
        if f" {w} " in f" {text} "
    }


@pytest.mark.parametrize("text", GUIDES)
@pytest.mark.parametrize("lang", ["fr", "it"])
def test_the_guide_is_written_in_the_players_language(text, lang):
    english, guide = rules_guide(text), guide_in(text, lang)
    assert [len(s.blocks) for s in guide.sections] == [len(s.blocks) for s in english.sections]
    assert guide.title != english.title
    for s, e in zip(guide.sections, english.sections):
        assert s.heading != e.heading
    body = as_text(guide).replace(guide.title, "")
    for name in OPTIONS:  # option names are notation, as typed in a ruleset: classic(stop_when_decided=false)
        body = body.replace(name.replace("_", " "), "")
    for allowed, _, _ in BESIGUE_OPTIONS.values():  # and so are their values: must_win
        for value in allowed if isinstance(allowed, tuple) else ():
            body = body.replace(value.replace("_", " "), "")
    assert not english_words(body), english_words(body)
    # the values are the same numbers as in English, in the same tables
    tables = [b for s in guide.sections for b in s.blocks if isinstance(b, Table)]
    e_tables = [b for s in english.sections for b in s.blocks if isinstance(b, Table)]
    assert [len(t.rows) for t in tables] == [len(t.rows) for t in e_tables]


def test_the_french_guide_reads_as_french_players_say_it():
    guide = as_text(guide_in("classic", "fr"))
    assert "Pas de dames | −6 par dame" in guide
    assert "Barbu | −20 pour R♥" in guide
    assert "Les contres" in guide and "Nord donne et annonce Pas de dames" in guide
    assert "Réussite | à l'arrivée 1er +45, 2e +20, 3e +5, 4e −5" in guide
    besigue = as_text(guide_in("besigue", "fr"))
    assert "un mariage d'atout | R et D d'atout | 40" in besigue and "1 000" in besigue.replace("\u202f", " ")


def test_the_italian_guide_reads_as_italian_players_say_it():
    guide = as_text(guide_in("italian", "it"))
    assert "Donne | −6 per ogni donna" in guide and "Come si svolge una partita" in guide  # seed 002: le D
    assert "per ogni donna" in guide
    besigue = as_text(guide_in("besigue", "it"))
    assert "Finché dura il tallone" in besigue and "1.000" in besigue


def test_settlement_words_in_french():
    from barbu.i18n import translator

    doubles = [Business(1, 0, redoubled=True), Business(1, 2)]
    names = ["vous", "Est", "Sud", "Ouest"]
    lines = settlement_words([-12, 0, -6, -6], doubles, lambda s: names[s], translator("fr"), me=0)
    assert lines == [
        "Est a contré vous, surcontré par vous\u00a0: vous payez 24 à Est",
        "Est a contré Sud\u00a0: Sud paie 6 à Est",
    ]
