"""The readable text form of a Bésigue game: deal by deal, trick by trick."""

from __future__ import annotations

from .actions import MELD_NAMES
from .cards import SUIT_NAMES, card_display, card_text
from .game import BesigueGame


def text_form(game: BesigueGame, deal: int | None = None) -> str:
    """Replays the game's log into lines; ``deal`` (1-based) keeps one deal."""
    g = BesigueGame(game.rules, game.seed)
    g.keep_undo = False
    lines: list[str] = [f"Bésigue — {game.rules}, seed {game.seed}"]
    current: list[str] = []
    done = 0
    for actor, text in game.log:
        before_phase = g.phase
        g.apply(text)
        if text.startswith("first-dealer"):
            lines.append(f"seat {g.dealer} deals first")
            continue
        if text.startswith("shuffle"):
            current = [
                "",
                f"Deal {g.deal_no}: seat {g.dealer} deals; trumps "
                f"{SUIT_NAMES[g.trump]} (turn-up {card_display(g.turn_up or 0)})",
            ]
            for s in (0, 1):
                current.append(f"  seat {s} holds " + " ".join(card_text(c) for c in sorted(g.hands[s])))
            current.extend("  " + e for e in g.events)
            continue
        if text.startswith("play"):
            if len(g.played) % 2 == 0 and g.played:
                (s0, c0), (s1, c1) = g.played[-2:]
                current.append(
                    f"  trick {g.tricks if g.phase != 'shuffle' and not g.is_over else 32}: "
                    f"seat {s0} {card_text(c0)}, seat {s1} {card_text(c1)} → seat {g.last_winner}"
                )
        elif text.startswith("declare"):
            kind = text.split()[1]
            current.append(f"  seat {actor} declares {MELD_NAMES.get(kind, kind)}: {' '.join(text.split()[2:])}")
        elif text.startswith(("exchange", "show")):
            current.append(f"  seat {actor} {text.split()[0]}s the 7 of trumps: 10")
        if before_phase == "declare" and g.phase == "last-declaration":
            current.append("  the stock is empty: last declaration")
        while done < len(g.results):
            r = g.results[done]
            current.append(
                f"  deal {r['deal']}: brisques {r['brisques'][0]}-{r['brisques'][1]}, last trick "
                f"seat {r['last_trick']}; scores {r['scores'][0]}-{r['scores'][1]}, "
                f"totals {r['totals'][0]}-{r['totals'][1]}"
            )
            done += 1
            if deal is None or r["deal"] == deal:
                lines.extend(current)
            current = []
    if deal is None and current:
        lines.extend(current + ["  (deal unfinished)"])
    if game.is_over and deal is None:
        lines.append(f"\nGame over: seat {game.winner} wins, {game.totals[0]}-{game.totals[1]}")
    return "\n".join(lines) + "\n"
