"""How well the expert's inference places the hidden cards, and what it costs.

Rule players play matches; at some of one seat's card decisions the expert
draws deals fitting that seat's view, blindly (``steps=0``, as the search
player does) and then moved by its Markov chains, and this prints the share of
the other seats' hidden cards each puts in the right hand, with the time the
drawing took per decision.  The deals' quality is what the inference is for:
the search then plays on them.

    python benchmarks/inference.py                       # classic, steps 0 and 60
    python benchmarks/inference.py --rules italian --steps 0 30 60 300 --surprise 0.1
"""

from __future__ import annotations

import argparse
import random
import time

from barbu.agents import make_agent
from barbu.agents.expert import ExpertAgent
from barbu.agents.rule import RuleAgent, rules_info
from barbu.classic.match import CHANCE
from barbu.games import open_game


def positions(rules: str, seeds: int, rate: float = 0.3):
    """(view, true hands) at some of seat 0's card decisions after the first trick, in rule players' matches."""
    out = []
    for seed in range(1, seeds + 1):
        m = open_game(rules, seed)
        bots = [RuleAgent(seed + s) for s in range(m.n)]
        rng = random.Random(seed)
        while not m.is_over and len(m.results) < 8:
            s = m.to_act()
            if s == CHANCE:
                m.play_chance()
                continue
            v = m.view(s)
            if s == 0 and v.phase == "play" and v.tricks and len(v.legal) > 1 and rng.random() < rate:
                out.append((v, tuple(m.hands)))
            m.apply(bots[s].act(v), seat=s)
    return out


def placed(view, truth, hands_list) -> tuple[int, int]:
    """(hidden cards put in the right hand, hidden cards) over the deals ``hands_list``."""
    right = total = 0
    for hands in hands_list:
        for s in range(view.players):
            if s != view.seat:
                hidden = hands[s] & view.unseen & ~view.known[s]
                right += (hidden & truth[s]).bit_count()
                total += hidden.bit_count()
    return right, total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="classic")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--steps", type=int, nargs="*", default=[0, 60])
    p.add_argument("--surprise", type=float, default=None)
    p.add_argument("--learned", action="store_true", help="add the learned network's deals")
    p.add_argument(
        "--decide",
        type=int,
        default=0,
        metavar="N",
        help="time the expert's whole decision at N of the positions, with each inference",
    )
    args = p.parse_args()
    views = positions(args.rules, args.seeds)
    sign = rules_info(args.rules)[2]
    print(f"{args.rules}: {len(views)} card decisions of seat 0 against rule players")
    print(f"  {'steps':>5} {'placed right':>12} {'ms a decision':>14}")
    for steps in args.steps:
        agent = ExpertAgent(5, steps=steps, **({"surprise": args.surprise} if args.surprise is not None else {}))
        right = total = 0
        start = time.perf_counter()
        for v, truth in views:
            worlds = agent.likely_worlds(v, sign, float("inf")) if steps else list(agent.worlds(v, sign, float("inf")))
            r, t = placed(v, truth, [w.hands for w in worlds])
            right, total = right + r, total + t
        ms = (time.perf_counter() - start) / len(views) * 1000
        print(f"  {steps:>5} {right / total:>12.3f} {ms:>14.0f}")
    if args.learned:
        from barbu.agents.learned_inference import learned_hands

        rng = random.Random(5)
        right = total = 0
        start = time.perf_counter()
        for v, truth in views:
            r, t = placed(v, truth, learned_hands(v, 40, rng))
            right, total = right + r, total + t
        ms = (time.perf_counter() - start) / len(views) * 1000
        print(f"  {'net':>5} {right / total:>12.3f} {ms:>14.1f}")
    if args.decide:
        print(f"  a whole card decision, at {min(args.decide, len(views))} of the positions (CPU time):")
        print(f"  {'player':<22} {'mean ms':>8} {'max ms':>8} {'same card as the first':>22}")
        chosen: list = []
        # The chains' expert (40 deals), the expert as it is (80 deals from the network), the network with as
        # many deals as the chains, and no inference at all.
        for spec in ("expert(learned=0)", "expert", "expert(samples=40)", "expert(learned=0,steps=0)"):
            times, cards = [], []
            make_agent(spec, 0).act(views[0][0])  # untimed: the weights load once a process
            for k, (v, _) in enumerate(views[: args.decide]):
                agent = make_agent(spec, k)
                start = time.process_time()
                cards.append(agent.act(v))
                times.append(time.process_time() - start)
            same = sum(a == b for a, b in zip(cards, chosen)) / len(cards) if chosen else 1.0
            chosen = chosen or cards
            print(f"  {spec:<22} {sum(times) / len(times) * 1000:>8.0f} {max(times) * 1000:>8.0f} {same:>22.2f}")


if __name__ == "__main__":
    main()
