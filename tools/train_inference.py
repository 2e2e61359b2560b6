"""Train the expert's learned hand inference (`barbu.agents.learned_inference`) and measure it against the chains.

Rule players play whole matches (in half of them one seat is a searching player, `STRONG`, so that the network
does not take every seat for a rule player); at some decisions of every seat (trick play, doubling, Domino) the
seat's view is read into (unseen card, other seat) features, labelled with where the card really is.  A small
network (two hidden layers) learns each card's seat by a softmax over the seats that may hold it, with numpy
alone.  Its weights go to ``src/barbu/agents/inference_weights.npz``.

Then, on positions of seeds it never trained on (trick play: the benchmark's, seat 0's card decisions after
the first trick; Domino and doubling: every seat's moves), it prints for each predictor of card locations the
log-loss of its marginals (minus the log of the probability it gives each card's true seat, over the cards that
could lie in two seats or more), their accuracy (the likeliest seat is the true one) and the mean probability
of the true seat (the share of cards a deal drawn from them puts right):

- ``uniform``: each seat in proportion to its unseen cards, among the seats that may hold the card;
- ``blind``: the marginals of the search player's deals (40 deals drawn at random fitting the view);
- ``chains``: the marginals of the expert's deals (40 deals, Markov chains of 60 steps);
- ``network``: the network's own probabilities; ``balanced``: the same scaled to the seats' counts (`balance`);
- ``learned``: the marginals of 40 deals drawn from the network (`learned_hands`), as `expert(learned=1)` does.

Marginals estimated from 40 deals are smoothed (a count plus ``a`` in each seat that may hold the card) so that
a seat no deal put a card in does not cost an infinite log-loss.

    python tools/train_inference.py                              # classic and italian, as shipped (~20 min)
    python tools/train_inference.py --rules classic --matches 40 --compare 100 --out /tmp/w.npz
    python tools/train_inference.py --load src/barbu/agents/inference_weights.npz --phases doubling
    python tools/train_inference.py --load src/barbu/agents/inference_weights.npz --rules classic --opponent expert
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from barbu.agents import make_agent  # noqa: E402
from barbu.agents.expert import ExpertAgent  # noqa: E402
from barbu.agents.learned_inference import (
    WEIGHTS,
    F,
    Network,
    balance,
    card_probabilities,  # noqa: E402
    features,
    learned_hands,
    supports,
)
from barbu.agents.rule import RuleAgent, rules_info  # noqa: E402
from barbu.classic.match import CHANCE  # noqa: E402
from barbu.games import open_game  # noqa: E402

#: The searching player of the mixed matches: the expert's play (its playouts and best-response end), fast.
STRONG = "expert(samples=16, steps=0)"


def self_play(
    rules: str,
    seeds: range,
    rate: float,
    seat0_cards: bool = False,
    phase: str | None = None,
    strong: float = 0.0,
    opponent: str | None = None,
):
    """(view, true hands) at some decisions in rule players' matches (in ``phase`` only, if given).  With
    ``seat0_cards``, the benchmark's positions (`benchmarks/inference.py`): seat 0's card decisions after the
    first trick, eight deals a match.  A share ``strong`` of the matches has one seat (at random) played by a
    searching player, `STRONG`, which does not play as the rule player does: the network must not take every
    seat for one.  With ``opponent``, seat 1 is played by that computer player throughout."""
    for seed in seeds:
        m = open_game(rules, seed)
        bots = [RuleAgent(seed + s) for s in range(m.n)]
        rng = random.Random(seed * 7919 + 1)
        pick = random.Random(seed * 31 + 7)
        if pick.random() < strong:
            bots[pick.randrange(m.n)] = make_agent(STRONG, seed)
        if opponent:
            bots[1] = make_agent(opponent, seed + 1)
        while not m.is_over and (not seat0_cards or len(m.results) < 8):
            s = m.to_act()
            if s == CHANCE:
                m.play_chance()
                continue
            v = m.view(s)
            if len(v.legal) > 1 and rng.random() < rate and supports(v) and phase in (None, v.phase):
                if not seat0_cards or (s == 0 and v.phase == "play" and v.tricks):
                    yield v, tuple(m.hands)
            m.apply(bots[s].act(v), seat=s)


def labelled(view, truth):
    """The view's features, the seats allowed each card, and the index of each card's true seat."""
    pos = features(view)
    y = np.array([next(j for j, s in enumerate(pos.seats) if truth[s] >> c & 1) for c in pos.cards], dtype=np.int64)
    return pos, y


def dataset(rules_list: list[str], seeds: range, rate: float, width: int, strong: float):
    """Stacked training rows: features (cards, ``width`` seats, F), allowed, labels; only cards with a choice."""
    xs, al, ys = [], [], []
    count = 0
    for rules in rules_list:
        for view, truth in self_play(rules, seeds, rate, strong=strong):
            pos, y = labelled(view, truth)
            keep = pos.allowed.sum(axis=1) > 1
            if not keep.any():
                continue
            x = np.zeros((int(keep.sum()), width, F), dtype=np.float16)
            a = np.zeros((int(keep.sum()), width), dtype=bool)
            ns = len(pos.seats)
            x[:, :ns] = pos.x[keep]
            a[:, :ns] = pos.allowed[keep]
            xs.append(x)
            al.append(a)
            ys.append(y[keep])
            count += 1
    print(f"  {count} positions, {sum(len(y) for y in ys)} cards with a choice", flush=True)
    return np.concatenate(xs), np.concatenate(al), np.concatenate(ys)


class Trainer:
    """The network and its Adam optimiser; softmax over each card's allowed seats, cross-entropy."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, hidden: list[int], seed: int) -> None:
        rng = np.random.default_rng(seed)
        sizes = [F, *hidden, 1]
        self.net = Network(
            mean.astype(np.float32),
            scale.astype(np.float32),
            [
                ((rng.standard_normal((a, b)) * math.sqrt(2 / a)).astype(np.float32), np.zeros(b, dtype=np.float32))
                for a, b in zip(sizes, sizes[1:])
            ],
        )
        self.m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in self.net.layers]
        self.v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in self.net.layers]
        self.t = 0

    def step(self, x: np.ndarray, allowed: np.ndarray, y: np.ndarray, lr: float, l2: float) -> float:
        """One Adam step on a batch; its mean log-loss."""
        b, s, _ = x.shape
        h = ((x.astype(np.float32) - self.net.mean) / self.net.scale).reshape(b * s, F)
        acts = [h]
        for k, (w, bias) in enumerate(self.net.layers):
            h = h @ w + bias
            if k < len(self.net.layers) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        z = np.where(allowed, acts[-1].reshape(b, s), -1e9)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        loss = float(-np.log(np.maximum(p[np.arange(b), y], 1e-12)).mean())
        g = p.copy()
        g[np.arange(b), y] -= 1
        g = (g * allowed / b).reshape(b * s, 1).astype(np.float32)
        self.t += 1
        for k in range(len(self.net.layers) - 1, -1, -1):
            w, bias = self.net.layers[k]
            gw = acts[k].T @ g + l2 * w
            gb = g.sum(axis=0)
            if k:
                g = (g @ w.T) * (acts[k] > 0)
            for param, grad, (m_w, m_b), (v_w, v_b), which in (
                (w, gw, self.m[k], self.v[k], 0),
                (bias, gb, self.m[k], self.v[k], 1),
            ):
                mm = m_w if which == 0 else m_b
                vv = v_w if which == 0 else v_b
                mm *= 0.9
                mm += 0.1 * grad
                vv *= 0.999
                vv += 0.001 * grad * grad
                mhat = mm / (1 - 0.9**self.t)
                vhat = vv / (1 - 0.999**self.t)
                param -= (lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
        return loss

    def loss(self, x: np.ndarray, allowed: np.ndarray, y: np.ndarray) -> tuple[float, float]:
        """Mean log-loss and accuracy over ``x``, in chunks."""
        total, right = 0.0, 0
        for i in range(0, len(y), 8192):
            s = self.net.scores(x[i : i + 8192].astype(np.float32))
            s = np.where(allowed[i : i + 8192], s, -1e9)
            s = s - s.max(axis=1, keepdims=True)
            logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
            yy = y[i : i + 8192]
            total += float(-logp[np.arange(len(yy)), yy].sum())
            right += int((s.argmax(axis=1) == yy).sum())
        return total / len(y), right / len(y)


def train(x, allowed, y, xv, av, yv, hidden: list[int], epochs: int, lr: float, l2: float, seed: int) -> Network:
    flat = x.reshape(-1, F)[allowed.reshape(-1)].astype(np.float32)
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0)
    scale[scale < 1e-3] = 1.0
    del flat
    trainer = Trainer(mean, scale, hidden, seed)
    rng = np.random.default_rng(seed)
    batch = 512
    best = (float("inf"), None)
    for epoch in range(epochs):
        start = time.perf_counter()
        order = rng.permutation(len(y))
        rate = lr * (0.5 ** (epoch // max(1, epochs // 3)))
        losses = [
            trainer.step(x[order[i : i + batch]], allowed[order[i : i + batch]], y[order[i : i + batch]], rate, l2)
            for i in range(0, len(y), batch)
        ]
        vl, va = trainer.loss(xv, av, yv)
        print(
            f"  epoch {epoch + 1:>2}: train log-loss {np.mean(losses):.4f}, held out {vl:.4f} "
            f"(accuracy {va:.3f}), {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        if vl < best[0]:
            best = (vl, [(w.copy(), b.copy()) for w, b in trainer.net.layers])
    trainer.net.layers = best[1]  # type: ignore[assignment]
    return trainer.net


def marginals_of(pos, hands_list) -> np.ndarray:
    """How many of ``hands_list`` put each card in each seat."""
    counts = np.zeros(pos.allowed.shape)
    for hands in hands_list:
        for j, s in enumerate(pos.seats):
            for i, c in enumerate(pos.cards):
                counts[i, j] += hands[s] >> c & 1
    return counts


def smoothed(counts: np.ndarray, allowed: np.ndarray, alpha: float) -> np.ndarray:
    c = (counts + alpha) * allowed
    return c / c.sum(axis=1, keepdims=True)


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(summed log-loss, right guesses, summed probability of the true seat) over the rows of ``p``."""
    pt = np.maximum(p[np.arange(len(y)), y], 1e-6)
    return float(-np.log(pt).sum()), int((p.argmax(axis=1) == y).sum()), float(pt.sum())


def compare(
    rules: str,
    seeds: range,
    net: Network,
    samples: int,
    steps: int,
    limit: int,
    phase: str = "play",
    opponent: str | None = None,
) -> None:
    """The figures of each predictor on the benchmark's positions of ``seeds`` (in trick play), or on every
    seat's decisions in another ``phase``."""
    sign = rules_info(rules)[2]
    chains = ExpertAgent(5, samples=samples, steps=steps)
    blind = ExpertAgent(5, samples=samples, steps=0)
    rng = random.Random(11)
    alphas = (0.1, 0.5)
    totals: dict[str, list[float]] = {}
    times: dict[str, float] = {"chains": 0.0, "learned": 0.0, "blind": 0.0}
    cards = positions = 0
    for view, truth in self_play(rules, seeds, 0.3, seat0_cards=phase == "play", phase=phase, opponent=opponent):
        if positions >= limit:
            break
        pos, y = labelled(view, truth)
        keep = pos.allowed.sum(axis=1) > 1
        if not keep.any():
            continue
        positions += 1
        t = time.perf_counter()
        chain_hands = [w.hands for w in chains.likely_worlds(view, sign, float("inf"))]
        times["chains"] += time.perf_counter() - t
        t = time.perf_counter()
        blind_hands = [w.hands for w in blind.worlds(view, sign, float("inf"))]
        times["blind"] += time.perf_counter() - t
        t = time.perf_counter()
        learned = learned_hands(view, samples, rng, net)
        times["learned"] += time.perf_counter() - t
        raw = card_probabilities(pos, net)
        need_share = pos.allowed * pos.need[None, :].astype(float)
        preds = {
            "uniform": need_share / need_share.sum(axis=1, keepdims=True),
            "network": raw,
            "balanced": balance(raw, pos.need, pos.allowed),
        }
        for a in alphas:
            preds[f"blind a={a}"] = smoothed(marginals_of(pos, blind_hands), pos.allowed, a)
            preds[f"chains a={a}"] = smoothed(marginals_of(pos, chain_hands), pos.allowed, a)
            preds[f"learned a={a}"] = smoothed(marginals_of(pos, learned), pos.allowed, a)
        for name, p in preds.items():
            row = totals.setdefault(name, [0.0, 0.0, 0.0])
            for k, v in enumerate(scores(p[keep], y[keep])):
                row[k] += v
        cards += int(keep.sum())
    which = "card decisions of seat 0" if phase == "play" else f"{phase} decisions"
    which += f", seat 1 played by {opponent}" if opponent else ""
    print(
        f"{rules}: {positions} {which} (seeds {seeds.start}-{seeds.stop - 1}), "
        f"{cards} unseen cards with a choice of seat"
    )
    print(f"  {'predictor':<18} {'log-loss':>8} {'accuracy':>8} {'P(true seat)':>12}")
    for name, (ll, right, pt) in totals.items():
        print(f"  {name:<18} {ll / cards:>8.4f} {right / cards:>8.3f} {pt / cards:>12.3f}")
    print(
        "  ms a decision to draw the deals: " + ", ".join(f"{k} {v / positions * 1000:.1f}" for k, v in times.items())
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", nargs="*", default=["classic", "italian"])
    p.add_argument("--matches", type=int, default=200, help="training matches per rules (seeds 1000 on)")
    p.add_argument("--rate", type=float, default=0.06, help="share of decisions kept as positions")
    p.add_argument(
        "--strong", type=float, default=0.5, help=f"share of training matches with one seat played by {STRONG}"
    )
    p.add_argument("--opponent", help="measure with seat 1 played by this computer player, e.g. expert")
    p.add_argument("--hidden", type=int, nargs="*", default=[64, 32])
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--l2", type=float, default=1e-5)
    p.add_argument("--data", type=Path, help="cache the training rows in this .npz (made once, then reused)")
    p.add_argument("--out", type=Path, default=WEIGHTS)
    p.add_argument("--load", type=Path, help="skip training: measure these weights")
    p.add_argument("--compare", type=int, default=200, help="benchmark positions per rules to measure on")
    p.add_argument("--compare-seeds", type=int, default=12, help="seeds 1 to this (no training seed)")
    p.add_argument(
        "--phases",
        nargs="*",
        default=["play", "domino"],
        choices=("play", "doubling", "domino"),
        help="the decisions to measure on (play: the benchmark's card decisions)",
    )
    args = p.parse_args()
    width = 3  # four players: three other seats (the rows are padded to this)
    if args.load:
        with np.load(args.load) as arrays:
            net = Network.from_arrays(arrays)
    else:
        if args.data and args.data.exists():
            with np.load(args.data) as d:
                x, allowed, y, xv, av, yv = (d[k] for k in ("x", "allowed", "y", "xv", "av", "yv"))
        else:
            start = time.perf_counter()
            print("training positions:")
            x, allowed, y = dataset(args.rules, range(1000, 1000 + args.matches), args.rate, width, args.strong)
            print("held-out positions:")
            xv, av, yv = dataset(args.rules, range(500, 500 + max(4, args.matches // 8)), args.rate, width, args.strong)
            print(f"  made in {time.perf_counter() - start:.0f} s", flush=True)
            if args.data:
                np.savez_compressed(args.data, x=x, allowed=allowed, y=y, xv=xv, av=av, yv=yv)
        print(f"training a {F}-{'-'.join(map(str, args.hidden))}-1 network on {len(y)} cards", flush=True)
        net = train(x, allowed, y, xv, av, yv, args.hidden, args.epochs, args.lr, args.l2, seed=1)
        np.savez_compressed(args.out, **net.to_arrays())
        print(f"weights written to {args.out} ({args.out.stat().st_size // 1024} KB)")
    for rules in args.rules:
        for phase in args.phases if args.compare else ():
            compare(rules, range(1, args.compare_seeds + 1), net, 40, 60, args.compare, phase, args.opponent)


if __name__ == "__main__":
    main()
