"""Engine speed: random full-deal playouts and legal-move generations per second.

A playout starts at a deal (the chance event that deals the cards) and goes to
the last card with uniformly random legal choices, through the public
``legal_actions()`` / ``apply()``: contract, trump or starting rank, the
doubling round, and every card (in the Scottish game also the cuts, drawn
with ``sample_chance``, the pass-ons and Patience).  Run on one core:

    python benchmarks/playouts.py --seconds 10
    python benchmarks/playouts.py --rules scottish --seconds 10

It also times the search players' rule playouts (`barbu.agents.search.rollout`:
every seat plays the rule player's card) over whole deals from the opening
lead: in the compiled core (one call for the whole batch) and through the
engine (the pure path, as with ``BARBU_PURE=1``).
"""

from __future__ import annotations

import argparse
import random
import time

from rich.progress import Progress

from barbu import CHANCE, Match
from barbu.agents.rule import RuleAgent, rules_info
from barbu.agents.search import plays_in_core, rollout, rollouts
from barbu.classic.match import DEAL
from barbu.solver import fast
from barbu.solver.samples import random_deals


def playouts(rules: str, seconds: float, seed: int, progress: Progress) -> tuple[int, int, float]:
    """Play deals back to back for ``seconds``; returns (deals, actions, elapsed)."""
    rng = random.Random(seed)
    rand = rng.random
    m = Match(rules, seed)
    while m.to_act() == CHANCE and m.phase != DEAL:  # draw for the first dealer
        m.play_chance()
    start_state = m.clone()
    deals = actions = 0
    task = progress.add_task(f"{rules}: playouts", total=seconds)
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        if m.is_over:
            m = start_state.clone()
        while m.phase != DEAL:  # a draw between rounds (the Scottish Silly Round's dealer)
            m.apply(m.sample_chance(rng))
        m.apply(m.sample_chance(rng))  # the deal
        target = len(m.results) + 1
        while len(m.results) < target:
            legal = m.legal_actions()
            if not legal:  # a chance event inside the deal (a Scottish cut)
                m.apply(m.sample_chance(rng))
                continue
            m.apply(legal[int(rand() * len(legal))])  # a uniformly random legal action
            actions += 1
        deals += 1
        if deals % 256 == 0:
            now = time.perf_counter()
            progress.update(task, completed=min(seconds, now - start))
    elapsed = time.perf_counter() - start
    progress.update(task, completed=seconds)
    return deals, actions, elapsed


def legal_generations(rules: str, seconds: float, seed: int, progress: Progress) -> tuple[int, float]:
    """Call ``legal_actions()`` repeatedly on positions met in random play."""
    rng = random.Random(seed)
    m = Match(rules, seed)
    positions = []
    while len(positions) < 2000:
        if m.is_over:
            m = Match(rules, rng.randrange(1 << 30))
        if m.to_act() == CHANCE:
            m.play_chance()
            continue
        if m.phase_name in ("play", "domino"):
            positions.append(m.clone())
        m.apply(rng.choice(m.legal_actions()))
    task = progress.add_task(f"{rules}: legal moves", total=seconds)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for p in positions:
            p.legal_actions()
        calls += len(positions)
        now = time.perf_counter()
        progress.update(task, completed=min(seconds, now - start))
        if now >= deadline:
            break
    return calls, time.perf_counter() - start


def rule_playouts(rules: str, seconds: float, seed: int, deals: int = 500) -> tuple[float | None, float]:
    """Rule playouts per second over whole deals from the opening lead: (in the compiled core, in one call
    for the batch, or None where the core cannot play the deal; through the engine)."""
    sign = rules_info(rules)[2]
    starts = [d.match for d, _ in zip(random_deals(rules, seed), range(deals)) if d.match is not None]
    policy = RuleAgent(0)
    core = fast.rule_playouts
    rates: list[float | None] = []
    for use_core in (True, False):
        fast.rule_playouts = core if use_core else None
        if use_core and not (core is not None and all(plays_in_core(m) for m in starts)):
            rates.append(None)
            continue
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            batch = [m.clone() for m in starts]
            if use_core:
                rollouts(batch, policy, sign)
            else:
                for m in batch:
                    rollout(m, policy, sign)
            done += len(batch)
        rates.append(done / (time.perf_counter() - start))
    fast.rule_playouts = core
    return rates[0], rates[1]  # type: ignore[return-value]


def breakdown(rules: str, deals: int, seed: int) -> dict[str, float]:
    """Seconds spent per phase (dealing, declaring, doubling, card play) over ``deals`` random deals."""
    rng = random.Random(seed)
    rand = rng.random
    clock = time.perf_counter
    m = Match(rules, seed)
    while m.to_act() == CHANCE and m.phase != DEAL:
        m.play_chance()
    start_state = m.clone()
    spent: dict[str, float] = {}
    for _ in range(deals):
        if m.is_over:
            m = start_state.clone()
        while m.phase != DEAL:
            m.apply(m.sample_chance(rng))
        t = clock()
        m.apply(m.sample_chance(rng))
        spent["deal (shuffle + apply)"] = spent.get("deal (shuffle + apply)", 0.0) + clock() - t
        target = len(m.results) + 1
        while len(m.results) < target:
            phase = m.phase_name
            if phase == "cut":
                t = clock()
                m.apply(m.sample_chance(rng))
                spent["cuts (sample + apply)"] = spent.get("cuts (sample + apply)", 0.0) + clock() - t
                continue
            key = {
                "declare": "declare/trump/rank",
                "trump": "declare/trump/rank",
                "rank": "declare/trump/rank",
                "doubling": "doubling round",
                "play": "card play",
                "domino": "domino/patience play",
                "arrange": "arrangements",
                "pass-on": "pass-ons",
            }[phase]
            t = clock()
            legal = m.legal_actions()
            a = legal[int(rand() * len(legal))]
            t2 = clock()
            m.apply(a)
            t3 = clock()
            spent[key + ": legal_actions"] = spent.get(key + ": legal_actions", 0.0) + t2 - t
            spent[key + ": apply"] = spent.get(key + ": apply", 0.0) + t3 - t2
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", action="append", help="ruleset (repeatable); default: classic")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--breakdown", type=int, metavar="DEALS", help="also time each phase over DEALS deals")
    args = ap.parse_args()
    rows = []
    with Progress() as progress:
        for rules in args.rules or ["classic"]:
            deals, actions, el = playouts(rules, args.seconds, args.seed, progress)
            calls, el2 = legal_generations(rules, args.seconds, args.seed, progress)
            rows.append((rules, deals / el, actions / el, calls / el2))
    for rules, dps, aps, lps in rows:
        print(f"{rules}: {dps:,.0f} playouts/s  ({aps:,.0f} actions/s)  {lps:,.0f} legal-move generations/s")
    for rules in args.rules or ["classic"]:
        compiled, engine = rule_playouts(rules, args.seconds, args.seed)
        where = (
            "the compiled core cannot play this family's deals"
            if compiled is None
            else f"{compiled:,.0f}/s in the compiled core ({compiled / engine:.1f}x)"
        )
        print(f"{rules}: rule playouts from the opening lead: {where}, {engine:,.0f}/s through the engine")
    if args.breakdown:
        for rules in args.rules or ["classic"]:
            spent = breakdown(rules, args.breakdown, args.seed)
            total = sum(spent.values())
            print(
                f"{rules}: where the time goes over {args.breakdown} deals "
                f"(timer overhead included, {args.breakdown / total:,.0f} playouts/s under the timer)"
            )
            for key, sec in sorted(spent.items(), key=lambda kv: -kv[1]):
                print(f"  {key:<40} {sec / total:6.1%}  {sec / args.breakdown * 1e6:8.1f} us/deal")


if __name__ == "__main__":
    main()
