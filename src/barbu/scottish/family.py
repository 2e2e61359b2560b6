"""The Scottish game's family and preset, registered with the Barbu family's rulesets.

The Scottish game is a Barbu family member with a state machine of its own
(`ScottishMatch`), so it registers itself here rather than the classic
presets naming it: imports run from this game down to the classic core.
"""

from __future__ import annotations

from ..classic.contracts import scottish_contracts
from ..classic.ruleset import Family, register_family, register_preset
from ..core.cards import PIQUET_DECK
from ..core.words import N_
from .match import ScottishMatch

register_family(
    Family(
        name="scottish",
        description=N_(
            "The Scottish 32-card game: Sets of four Player Rounds and a Silly Round, combination calls, "
            "cuts of the Unused Pack, pass-ons and the scoresheet glyphs"
        ),
        players=(4,),
        options=frozenset({"sets", "stop_when_decided"}),
        contracts=lambda r: scottish_contracts(),
        deck=lambda r: PIQUET_DECK,
        zero_sum=False,
        highest_wins=True,
        fixed=(("doubling", "none"), ("undoubled_negative", "play"), ("double_obligation", 0), ("heart_lead", "none")),
        match_class=ScottishMatch,
    )
)

register_preset(
    "scottish",
    N_(
        "The Scottish 32-card game (Fife): Player Rounds with combination calls, the Silly "
        "Round's cuts and pass-ons, Patience; highest total wins"
    ),
    aliases=("scottish-barbu", "fife", "barbu-32"),
)
