"""The rules of Bésigue in words, built from the ruleset: what the terminal's F1 screen teaches.

The same plain data as Barbu's guide (`barbu.guide.Guide`: sections of
paragraphs, lists and small tables), so every front end renders it the same
way.  Values come from the engine's own tables (`MELD_VALUES`, the options'
meanings), so the guide cannot disagree with the scoring.
"""

from __future__ import annotations

from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..besigue.ruleset import OPTIONS, PRESETS, BesigueRules
from .model import Guide, Section, Table

MELD_CARDS = {
    "marriage": "K and Q of one suit (not trumps)",
    "trump-marriage": "K and Q of trumps",
    "bezique": "Q♠ and J♦",
    "double-bezique": "both Q♠ and both J♦",
    "four-jacks": "any four jacks",
    "four-queens": "any four queens",
    "four-kings": "any four kings",
    "four-aces": "any four aces",
    "quint": "A 10 K Q J of trumps (quint major)",
}


def besigue_guide(rules: BesigueRules | str) -> Guide:
    """Everything a newcomer needs to play this Bésigue ruleset, in the order a deal unfolds."""
    rules = BesigueRules.parse(rules) if isinstance(rules, str) else rules
    brisques = "aces and tens" if rules.brisques == "aces_and_tens" else "aces"
    game = Section("The game", (
        f"Two players, two packs of 32 cards shuffled together (64 cards), ranked A 10 K Q J 9 8 7. "
        f"Each deal is worth points: combinations declared, 10 for each brisque ({brisques}) won in "
        f"tricks and 10 for the last trick. The game ends at the end of the deal in which a player "
        f"reaches {rules.target} with the higher total.",
        f"Each player gets {rules.hand} cards; the next card is turned up and names trumps, and the rest "
        f"({rules.stock_size} cards with the turn-up, which lies at the bottom) is the stock. The dealer "
        "scores 10 at once if the turn-up is a 7. The dealers alternate; the non-dealer leads first.",
    ))
    if rules.seven == "exchange":
        seven = ("The 7 of trumps: after winning a trick, instead of a combination, its holder may exchange "
                 "it for the turn-up or show it; either scores 10.")
    else:
        seven = ("The 7 of trumps: drawn from the stock, it is shown at once and scores 10 (the turn-up "
                 "itself scores nothing when drawn).")
    stock = Section("While the stock lasts", (
        "There is no duty: play any card from your hand or from your laid combinations. The higher card "
        "of the suit led wins, or a trump on a card of another suit; of two identical cards the first "
        "played wins.",
        "The winner of a trick may then declare ONE combination (or none), laying its cards face up on the "
        "table: they stay his, score at once and may still be played. A combination must take at least "
        "one card from the hand; a laid card may serve again only in a combination of another kind "
        "(a trump marriage may grow into the quint, a bésigue into the double bésigue).",
        seven,
        "Then both draw a card from the stock, the winner first. The loser of the trick that empties the "
        "stock takes the turn-up, and the winner may declare once more.",
    ))
    combos = Section("Combinations", (
        Table(("combination", "cards", "points"),
              tuple((MELD_NAMES[k], MELD_CARDS[k], str(v)) for k, v in MELD_VALUES.items())),
    ))
    if rules.endgame == "must_win":
        duty = "follow suit and head the trick if you can; if you cannot follow, trump if you can."
    else:
        duty = "follow suit if you can; if you cannot, trump if you can."
    last = Section("The last tricks", (
        f"Once the stock is empty every laid card goes back to its owner's hand and the last {rules.hand} "
        f"tricks are played with a duty: {duty} No more combinations are declared. The winner of the last "
        "trick scores 10; then brisques won in tricks are counted.",
    ))
    rows = []
    for name, (_, meaning, values) in OPTIONS.items():
        value = str(getattr(rules, name))
        rows.append((name, value.replace("_", " "), values.get(value, meaning)))
    options = Section("Options of this table", (Table(("option", "value", "meaning"), tuple(rows)),))
    return Guide(f"{rules}: {PRESETS[rules.preset][1]}", (game, stock, combos, last, options))
