"""Inference from the Scottish Silly Round's pass-ons: how likely a sampled deal made the others' passes.

The sampler keeps only deals some pass-on history explains (`barbu.scottish.match.explains`);
this weighs them.  For a sampled deal a few histories explaining it are rebuilt
(`rebuild_passes`, each one the hands as dealt and every seat's passed cards;
the first one passing, wherever the cards allow a choice, those the rule player
would most like to pass),
and in each every other seat's pass is compared with what the rule player
would have passed from that seat's hand at that moment (`best_pass_on`, the first
choice of `RuleAgent.pass_on_ranking`, knowing the call when it was cut before the pass): each passed card outside the
rule player's three multiplies the history's weight by ``surprise``.  A deal's
weight is its likeliest history's (the passes are one choice among many
histories, and the likeliest says most about the deal).
"""

from __future__ import annotations

import random

from ..classic.view import View
from ..scottish.match import rebuild_passes
from ..scottish.silly import calls_first
from .rule import best_pass_on, pass_danger, rules_info

DEFAULT_PASSON_SURPRISE = 0.5  # per passed card the rule player would have kept
HISTORIES = 4  # histories rebuilt per sampled deal


def call_at_passes(view: View) -> str | None:
    """The call the passers knew when they passed: the deal's, on the Silly Round deals whose calls are cut
    before the pass-ons (the first three), else none."""
    start = view.scottish.start if view.scottish is not None else None
    if start is None or not calls_first(start.deals + 1):
        return None
    return view.contract


def history_likelihood(
    view: View, dealt: list[int], gives: list[tuple[int, ...]], surprise: float = DEFAULT_PASSON_SURPRISE
) -> float:
    """How likely the other seats' passes ``gives`` were from the hands ``dealt``, pass by pass."""
    n = view.players
    _, contracts, sign = rules_info(view.rules)
    call = call_at_passes(view)
    contract = contracts.get(call) if call else None
    held = list(dealt)
    weight = 1.0
    for seen, full in zip(view.passes, gives):
        for y in range(n):
            if y == view.seat or not full[y]:
                continue
            best = best_pass_on(held[y], contract, sign)
            weight *= surprise ** (full[y] & ~best).bit_count()
        held = [(held[y] & ~full[y]) | full[(y - seen.offset) % n] for y in range(n)]
    return weight


def passon_likelihood(
    view: View, hands: list[int], surprise: float = DEFAULT_PASSON_SURPRISE, histories: int = HISTORIES
) -> float:
    """The weight of the sampled current ``hands`` (every seat's) by the others' pass-ons this deal: 1.0
    where there were none (or outside the Scottish game), 0.0 where no history explains the hands."""
    if view.scottish is None or not view.passes:
        return 1.0
    _, contracts, sign = rules_info(view.rules)
    call = call_at_passes(view)
    contract = contracts.get(call) if call else None

    def likeliest_first(cards: list[int]) -> list[int]:
        return sorted(cards, key=lambda c: -pass_danger(c, contract, sign))

    best = 0.0
    for i in range(histories):
        # the first history takes the cards the rule player would most like to pass wherever it may
        rng = random.Random(repr((view.seat, tuple(hands), i)))
        rebuilt = rebuild_passes(view, hands, rng, likeliest_first if i == 0 else None)
        if rebuilt is not None:
            best = max(best, history_likelihood(view, rebuilt[0], rebuilt[1], surprise))
            if best == 1.0:
                break
    return best


__all__ = ["passon_likelihood", "history_likelihood", "call_at_passes", "DEFAULT_PASSON_SURPRISE"]
