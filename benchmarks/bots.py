"""Bot speed: decisions per second of each computer player, and where the search bot's time goes.

Positions are collected from rule-based matches (every decision with more
than one legal action), then each bot decides at each of them.  For the
search bot it also prints sampled deals per second (sampling the unseen
cards and rebuilding the match), rule-based playouts per second, and the
time per decision by phase.  With ``--core both`` every bot is timed twice, with
its rule playouts in the compiled core (the default) and through the engine
(as before the core played them), and the choices of the two are compared.
Run on one core:

    python benchmarks/bots.py --rules classic --positions 150
    python benchmarks/bots.py --rules scottish --bots search,expert
    python benchmarks/bots.py --bots search,expert --core both
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from barbu import CHANCE, Match
from barbu.agents import make_agent
from barbu.agents.expert import ExpertAgent
from barbu.agents.rule import RuleAgent, rules_info
from barbu.agents.search import SearchAgent, contract_baselines, plays_in_core, rollout, rollouts
from barbu.arena.duplicate import split_bots
from barbu.classic.ruleset import Ruleset
from barbu.classic.sampler import determinize, sample_hands
from barbu.classic.view import View
from barbu.solver import fast


def positions(rules: str, count: int, seed: int) -> list[View]:
    """Views at decisions with a real choice, met in matches between rule-based players."""
    out: list[View] = []
    rng = random.Random(seed)
    k = 0
    while len(out) < count:
        m = Match(rules, seed + k)
        k += 1
        bots = [RuleAgent(seed + s) for s in range(m.n)]
        while not m.is_over and len(out) < count:
            actor = m.to_act()
            if actor == CHANCE:
                m.play_chance()
                continue
            v = m.view(actor)
            if len(v.legal) > 1 and rng.random() < 0.3:
                out.append(v)
            m.apply(bots[actor].act(v), seat=actor)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="classic")
    p.add_argument("--positions", type=int, default=150)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bots", default="random,rule,search,expert", help="the players to time, e.g. 'rule,search(samples=20),expert'"
    )
    p.add_argument(
        "--core",
        choices=("on", "off", "both"),
        default="on",
        help="rule playouts in the compiled core (on), through the engine (off), or both, compared",
    )
    args = p.parse_args()
    core_playouts = fast.rule_playouts
    modes = {"on": [True], "off": [False], "both": [True, False]}[args.core]
    if core_playouts is None and True in modes:
        print("the compiled core is not built (or BARBU_PURE is set): the rule playouts go through the engine")
    console = Console()
    views = positions(args.rules, args.positions, args.seed)
    # Computed once per ruleset and process, not part of a decision: the search player's baselines, and the
    # expert's (the same with solved deal ends).
    contract_baselines(args.rules)
    end_cards = ExpertAgent().solved_end(Ruleset.parse(args.rules).players)
    contract_baselines(args.rules, end_cards)
    table = Table(title=f"{args.rules}: decisions at {len(views)} positions with a choice")
    table.add_column("bot")
    table.add_column("decisions/s", justify="right")
    table.add_column("mean ms", justify="right")
    table.add_column("p50 ms", justify="right")
    table.add_column("max ms", justify="right")
    by_phase: dict[str, dict[str, list[float]]] = {}
    deals_per_second: dict[str, float] = {}
    choices: dict[str, dict[bool, list]] = {}
    with Progress(console=console) as progress:
        for spec in split_bots(args.bots):
            for in_core in modes:
                fast.rule_playouts = core_playouts if in_core else None
                label = spec if len(modes) == 1 else f"{spec}, {'core' if in_core else 'engine'} playouts"
                agent = make_agent(spec, 1)
                times = []
                samples_done = 0
                task = progress.add_task(label, total=len(views))
                for v in views:
                    t = time.perf_counter()
                    choices.setdefault(spec, {}).setdefault(in_core, []).append(agent.act(v))
                    dt = time.perf_counter() - t
                    times.append(dt)
                    if isinstance(agent, SearchAgent):
                        by_phase.setdefault(label, {}).setdefault(v.phase, []).append(dt)
                        samples_done += agent.last_samples
                    progress.advance(task)
                table.add_row(
                    label,
                    f"{len(times) / sum(times):,.1f}",
                    f"{statistics.fmean(times) * 1e3:.2f}",
                    f"{statistics.median(times) * 1e3:.2f}",
                    f"{max(times) * 1e3:.1f}",
                )
                if isinstance(agent, SearchAgent):
                    deals_per_second[label] = samples_done / sum(times)
    fast.rule_playouts = core_playouts
    console.print(table)
    for spec, by_mode in choices.items():
        if len(by_mode) == 2:
            same = sum(a == b for a, b in zip(by_mode[True], by_mode[False]))
            console.print(
                f"{spec}: {same} of {len(views)} choices the same with the core and without "
                "(they differ only where the time limit cut a search short)"
            )
    for spec, rate in deals_per_second.items():
        console.print(f"{spec}: {rate:,.0f} sampled deals evaluated per second (each: every legal action played out)")
    for spec, phases_of in by_phase.items():
        phases = Table(title=f"{spec}: time per decision by phase")
        phases.add_column("phase")
        phases.add_column("decisions", justify="right")
        phases.add_column("mean ms", justify="right")
        phases.add_column("max ms", justify="right")
        for phase, ts in sorted(phases_of.items()):
            phases.add_row(phase, str(len(ts)), f"{statistics.fmean(ts) * 1e3:.1f}", f"{max(ts) * 1e3:.1f}")
        console.print(phases)

    # The parts of one search decision, timed alone.
    _, _, sign = rules_info(args.rules)
    rng = random.Random(args.seed)
    play_views = [v for v in views if v.phase == "play"] or views
    t = time.perf_counter()
    worlds = []
    for i in range(2000):
        v = play_views[i % len(play_views)]
        worlds.append(determinize(v, sample_hands(v, rng)))
    sampling = 2000 / (time.perf_counter() - t)
    console.print(f"deal sampling + rebuilding the match: {sampling:,.0f} per second")
    policy = RuleAgent(0)
    in_core = sum(plays_in_core(w) for w in worlds)
    core_lines = fast.respond_line
    seats = [play_views[i % len(play_views)].seat for i in range(len(worlds))]
    for ends, respond, what in (
        (0, False, "rule-based playouts to the end of the deal (from play positions)"),
        (end_cards, True, f"the expert's playouts (the seat's best response from {end_cards} cards a hand)"),
        (end_cards, False, f"expert(respond=0)'s playouts (the last {end_cards} cards of each hand solved)"),
    ):
        rates = []
        for use_core in (True, False):
            fast.rule_playouts = core_playouts if use_core else None
            fast.respond_line = core_lines if use_core else None
            copies = [w.clone() for w in worlds]
            t = time.perf_counter()
            for w, seat in zip(copies, seats):
                rollout(w, policy, sign, ends, seat if respond else -1)
            rates.append(f"{len(worlds) / (time.perf_counter() - t):,.0f}")
            if use_core and core_playouts is not None and in_core == len(worlds) and not respond:
                copies = [w.clone() for w in worlds]
                t = time.perf_counter()
                rollouts(copies, policy, sign, ends)
                rates.append(f"{len(worlds) / (time.perf_counter() - t):,.0f}")
        fast.rule_playouts = core_playouts
        fast.respond_line = core_lines
        if len(rates) == 3:
            console.print(
                f"{what}: {rates[0]} per second in the core one at a time, {rates[1]} in one batch, "
                f"{rates[2]} through the engine"
            )
        else:
            console.print(
                f"{what}: {rates[0]} per second ({in_core} of {len(worlds)} in the core), {rates[1]} through the engine"
            )


if __name__ == "__main__":
    main()
