"""Self-play matches shared by the puzzle tests: played once a module (a third of a second each)."""

from __future__ import annotations

import pytest

from barbu.agents.play import agent_for, play_out
from barbu.classic.match import Match


def played(rules: str, seed: int) -> Match:
    """A whole match between rule players: the records puzzles are found in."""
    m = Match(rules, seed)
    play_out(m, [agent_for(m, "rule", seed * 1000 + s) for s in range(m.n)])
    return m


@pytest.fixture(scope="module")
def classic_match() -> Match:
    return played("classic", 11)


@pytest.fixture(scope="module")
def french_match() -> Match:
    return played("french", 12)
