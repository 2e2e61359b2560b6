"""Shared Hypothesis set-up for the property tests: rulesets, seeds, quick and slow variants."""

from __future__ import annotations

import os
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RULESETS = [
    "classic",
    "classic(rotation=quick)",
    "classic(undoubled_negative=play)",
    "classic(ravage_city=true)",
    "classic(stop_when_decided=false)",
    "classic(trump_rules=italian, allow_no_trump=true)",
]

# The Scottish game runs through the checks that do not model the classic rules themselves.
SCOTTISH = ["scottish", "scottish(stop_when_decided=false)"]

rulesets = st.sampled_from(RULESETS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _settings(examples: int) -> Callable:
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# The `slow` variants run more examples; BARBU_SLOW_SCALE=10 (say) multiplies the whole for a soak run.
SLOW_SCALE = max(1, int(os.environ.get("BARBU_SLOW_SCALE", "1")))


def fast_and_slow(fast: int, slow: int, names: list[str] | None = None) -> Callable:
    """Turn ``check(rules, seed)`` into a quick Hypothesis test of ``fast`` examples and a `slow` one of the
    ``slow - fast`` more (over ``names``, the classic rulesets by default)."""
    strategy = st.sampled_from(names) if names is not None else rulesets

    # The whole run (CI) runs both: the slow variant runs the examples the quick one leaves, so that together
    # they are ``slow`` examples (each a random match), not ``fast + slow``.
    assert slow > fast, (fast, slow)

    def wrap(check: Callable[[str, int], None]) -> tuple[Callable, Callable]:
        quick = _settings(fast)(given(rules=strategy, seed=seeds)(check))
        long = pytest.mark.slow(_settings(slow * SLOW_SCALE - fast)(given(rules=strategy, seed=seeds)(check)))
        return quick, long

    return wrap
