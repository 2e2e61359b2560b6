"""Rulesets: presets, aliases, the one-line text form and its errors."""

import pytest

from barbu import Ruleset, RulesetError, preset, ruleset
from barbu.classic.ruleset import OPTIONS


def test_classic_preset_and_aliases():
    r = ruleset("classic")
    assert r.players == 4 and r.doubling == "classic" and r.undoubled_negative == "split"
    assert ruleset("standard") == ruleset("Barbu") == r
    assert preset("tafferan").name == "classic"


@pytest.mark.parametrize(
    "text",
    [
        "classic",
        "classic(undoubled_negative=play)",
        "classic(rotation=quick, ravage_city=true)",
        "classic(ravage_city=true, ravage_value=36, domino_ace=low)",
        "classic(trump_rules=italian, allow_no_trump=true, heart_lead=until_broken, stop_when_decided=false)",
        "classic(double_obligation=0)",
    ],
)
def test_text_form_round_trips(text):
    r = Ruleset.parse(text)
    assert Ruleset.parse(str(r)) == r
    assert str(Ruleset.parse(str(r))) == str(r)


def test_text_form_names_only_differences_in_a_stable_order():
    r = Ruleset.parse("classic( ravage_city = TRUE , rotation=quick )")
    assert str(r) == "classic(rotation=quick, ravage_city=true)"
    assert str(Ruleset.parse("classic(rotation=dealer)")) == "classic"


def test_unknown_option_names_the_option():
    with pytest.raises(RulesetError, match="unknown option 'colour'"):
        Ruleset.parse("classic(colour=red)")


def test_bad_value_lists_allowed_values():
    with pytest.raises(RulesetError, match="option rotation: 'sideways' is not allowed; use dealer, quick"):
        Ruleset.parse("classic(rotation=sideways)")
    with pytest.raises(RulesetError, match="option ravage_city: 'maybe'.*true or false"):
        Ruleset.parse("classic(ravage_city=maybe)")
    with pytest.raises(RulesetError, match="double_obligation.*from 0 to 7"):
        Ruleset.parse("classic(double_obligation=9)")


def test_unknown_preset_and_bad_syntax():
    with pytest.raises(RulesetError, match="unknown preset 'bridge'"):
        Ruleset.parse("bridge")
    with pytest.raises(RulesetError, match="option=value"):
        Ruleset.parse("classic(quick)")
    with pytest.raises(RulesetError):
        Ruleset.parse("classic(")


def test_wrong_player_count_and_nonsense_combinations_are_refused():
    with pytest.raises(RulesetError, match="classic is played by 4 players, not 5"):
        Ruleset.parse("classic(players=5)")
    with pytest.raises(RulesetError, match="ravage_value only matters with ravage_city=true"):
        Ruleset.parse("classic(ravage_value=36)")
    with pytest.raises(RulesetError, match="undoubled_negative=split needs doubling"):
        Ruleset.parse("classic(doubling=none)")
    assert Ruleset.parse("classic(doubling=none, undoubled_negative=play)").doubling == "none"


def test_replace_checks_values():
    r = ruleset("classic")
    assert r.replace(rotation="quick") == Ruleset.parse("classic(rotation=quick)")
    with pytest.raises(RulesetError):
        r.replace(rotation="fast")
    with pytest.raises(RulesetError):
        r.replace(nonsense=1)


def test_every_option_has_help_and_allowed_values():
    for spec in OPTIONS.values():
        assert spec.help and spec.allowed()


def test_rulesets_are_frozen_and_hashable():
    r = ruleset("classic")
    with pytest.raises(Exception):
        r.rotation = "quick"
    assert {r: 1}[Ruleset.parse("classic")] == 1
