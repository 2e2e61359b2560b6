"""The rules of Bésigue in words, built from the ruleset: what the terminal's F1 screen teaches.

The same plain data as Barbu's guide (`barbu.guide.Guide`: sections of
paragraphs, lists and small tables), so every front end renders it the same
way.  Values come from the engine's own tables (`MELD_VALUES`, the options'
meanings), so the guide cannot disagree with the scoring.
"""

from __future__ import annotations

from ..besigue.actions import MELD_NAMES, MELD_VALUES
from ..besigue.ruleset import OPTIONS, PRESETS, BesigueRules
from ..core.words import ENGLISH, N_, Words
from .model import Guide, Section, Table
from .ruleset_words import option_label, preset_name, value_word

#: The cards of each combination, in words.
MELD_CARDS = {
    "marriage": N_("K and Q of one suit (not trumps)"),
    "trump-marriage": N_("K and Q of trumps"),
    "bezique": N_("Q♠ and J♦"),
    "double-bezique": N_("both Q♠ and both J♦"),
    "four-jacks": N_("any four jacks"),
    "four-queens": N_("any four queens"),
    "four-kings": N_("any four kings"),
    "four-aces": N_("any four aces"),
    "quint": N_("A 10 K Q J of trumps (quint major)"),
}


def besigue_guide(rules: BesigueRules | str, w: Words = ENGLISH) -> Guide:
    """Everything a newcomer needs to play this Bésigue ruleset, in the order a deal unfolds.

    ``w`` is the language it is written in (barbu.i18n.translator(lang); English by default).
    """
    rules = BesigueRules.parse(rules) if isinstance(rules, str) else rules
    brisques = w.gettext("aces and tens") if rules.brisques == "aces_and_tens" else w.gettext("aces")
    game = Section(
        w.gettext("The game"),
        (
            w.gettext(
                "Two players, two packs of 32 cards shuffled together (64 cards), ranked A 10 K Q J 9 8 7. "
                "Each deal is worth points: combinations declared, 10 for each brisque ({brisques}) won in "
                "tricks and 10 for the last trick. The game ends at the end of the deal in which a player "
                "reaches {target} with the higher total."
            ).format(brisques=brisques, target=w.number(rules.target)),
            w.gettext(
                "Each player gets {hand} cards; the next card is turned up and names trumps, and the rest "
                "({stock} cards with the turn-up, which lies at the bottom) is the stock. The dealer "
                "scores 10 at once if the turn-up is a 7. The dealers alternate; the non-dealer leads "
                "first."
            ).format(hand=rules.hand, stock=rules.stock_size),
        ),
    )
    if rules.seven == "exchange":
        seven = w.gettext(
            "The 7 of trumps: after winning a trick, instead of a combination, its holder may "
            "exchange it for the turn-up or show it; either scores 10."
        )
    else:
        seven = w.gettext(
            "The 7 of trumps: drawn from the stock, it is shown at once and scores 10 (the "
            "turn-up itself scores nothing when drawn)."
        )
    stock = Section(
        w.gettext("While the stock lasts"),
        (
            w.gettext(
                "There is no duty: play any card from your hand or from your laid combinations. The higher "
                "card of the suit led wins, or a trump on a card of another suit; of two identical cards the "
                "first played wins."
            ),
            w.gettext(
                "The winner of a trick may then declare ONE combination (or none), laying its cards face up "
                "on the table: they stay his, score at once and may still be played. A combination must take "
                "at least one card from the hand; a laid card may serve again only in a combination of "
                "another kind (a trump marriage may grow into the quint, a bésigue into the double bésigue)."
            ),
            seven,
            w.gettext(
                "Then both draw a card from the stock, the winner first. The loser of the trick that empties "
                "the stock takes the turn-up, and the winner may declare once more."
            ),
        ),
    )
    # TRANSLATORS: the headings of the table of Bésigue's combinations
    header = (w.gettext("combination"), w.gettext("cards"), w.gettext("points"))
    combos = Section(
        w.gettext("Combinations"),
        (
            Table(
                header,
                tuple(
                    (w.pgettext("combination", MELD_NAMES[k]), w.gettext(MELD_CARDS[k]), w.number(v))
                    for k, v in MELD_VALUES.items()
                ),
            ),
        ),
    )
    if rules.endgame == "must_win":
        duty = w.gettext("follow suit and head the trick if you can; if you cannot follow, trump if you can.")
    else:
        duty = w.gettext("follow suit if you can; if you cannot, trump if you can.")
    last = Section(
        w.gettext("The last tricks"),
        (
            w.gettext(
                "Once the stock is empty every laid card goes back to its owner's hand and the last {hand} "
                "tricks are played with a duty: {duty} No more combinations are declared. The winner of the "
                "last trick scores 10; then brisques won in tricks are counted."
            ).format(hand=rules.hand, duty=duty),
        ),
    )
    rows = []
    for name, (_, meaning, values) in OPTIONS.items():
        value = getattr(rules, name)
        shown = w.gettext(values[str(value)]) if str(value) in values else value_word(value, w)
        rows.append((option_label(name, w), shown, w.gettext(meaning)))
    # TRANSLATORS: the headings of the table of options in the rules
    options = Section(
        w.gettext("Options of this table"),
        (Table((w.gettext("option"), w.gettext("value"), w.gettext("meaning")), tuple(rows)),),
    )
    title = w.gettext("{preset}: {description}").format(
        preset=preset_name(rules.preset, w), description=w.gettext(PRESETS[rules.preset][1])
    )
    return Guide(title, (game, stock, combos, last, options))
