"""The readable text form of a Bésigue game: deal by deal, trick by trick."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import MELD_NAMES, SEVEN_POINTS
from .cards import SUIT_NAMES, card_display, card_text
from .game import BesigueGame


def text_form(game: BesigueGame, deal: int | None = None, names: Sequence[str] = ("South", "North")) -> str:
    """Replays the game's log into lines; ``deal`` (1-based) keeps one deal.  The players are called by
    ``names`` (their places by default, as the table seats them), never by their seat numbers."""
    g = BesigueGame(game.rules, game.seed)
    g.keep_undo = False
    lines: list[str] = [f"Bésigue — {game.rules}, seed {game.seed}"]
    current: list[str] = []
    done = 0
    for actor, text in game.log:
        before_phase = g.phase
        g.apply(text)
        if text.startswith("first-dealer"):
            lines.append(f"{names[g.dealer]} deals first")
            continue
        if text.startswith("shuffle"):
            current = [
                "",
                f"Deal {g.deal_no}: {names[g.dealer]} deals; trumps "
                f"{SUIT_NAMES[g.trump]} (turn-up {card_display(g.turn_up or 0)})",
            ]
            for s in (0, 1):
                current.append(f"  {names[s]} holds " + " ".join(card_text(c) for c in sorted(g.hands[s])))
            if g.events:  # the dealer turned a 7 of trumps up
                current.append(f"  {names[g.dealer]} deals and turns up the 7 of trumps: {SEVEN_POINTS}")
            continue
        if text.startswith("play"):
            if len(g.played) % 2 == 0 and g.played:
                (s0, c0), (s1, c1) = g.played[-2:]
                current.append(
                    f"  trick {g.tricks if g.phase != 'shuffle' and not g.is_over else 32}: "
                    f"{names[s0]} {card_text(c0)}, {names[s1]} {card_text(c1)} → {names[g.last_winner]}"
                )
        elif text.startswith("declare"):
            kind = text.split()[1]
            current.append(f"  {names[actor]} declares {MELD_NAMES.get(kind, kind)}: {' '.join(text.split()[2:])}")
        elif text.startswith(("exchange", "show")):
            current.append(f"  {names[actor]} {text.split()[0]}s the 7 of trumps: 10")
        if before_phase == "declare" and g.phase == "last-declaration":
            current.append("  the stock is empty: last declaration")
        while done < len(g.results):
            r = g.results[done]
            current.append(
                f"  deal {r['deal']}: brisques {r['brisques'][0]}-{r['brisques'][1]}, last trick "
                f"{names[r['last_trick']]}; scores {r['scores'][0]}-{r['scores'][1]}, "
                f"totals {r['totals'][0]}-{r['totals'][1]}"
            )
            done += 1
            if deal is None or r["deal"] == deal:
                lines.extend(current)
            current = []
    if deal is None and current:
        lines.extend(current + ["  (deal unfinished)"])
    if game.winner is not None and deal is None:
        lines.append(f"\nGame over: {names[game.winner]} wins, {game.totals[0]}-{game.totals[1]}")
    return "\n".join(lines) + "\n"
