"""Train a masked policy on one preset, on a CPU, with numpy only; then measure it in the duplicate arena.

    python examples/train_masked.py --rules classic --minutes 5 --out classic-policy.npz
    barbu arena --rules classic --bots policy:classic-policy.npz,random,random,random --deals 400

One learner seat (a different one each match) plays whole matches against the
project's ``random`` players through the Gymnasium wrapper; REINFORCE with the
action mask: each decision is credited with the points of the deal it was made
in, less a learned baseline (a linear value head on the hidden layer).  Adam,
no other library.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from barbu.arena.besigue import run_arena as run_besigue_arena
from barbu.arena.duplicate import run_arena
from barbu.rl.gym_env import BarbuGymEnv
from barbu.rl.policy import MaskedPolicy


def play_match(env: BarbuGymEnv, policy: MaskedPolicy, rng: np.random.Generator, seed: int):
    """One whole match: (observations, masks, tokens, returns), the return of a step being its deal's points."""
    obs, info = env.reset(seed=seed)
    steps, deals, rewards = [], [], []
    done = False
    while not done:
        mask = env.action_masks()
        token = policy.choose(obs, mask, rng)
        steps.append((obs, mask, token))
        deals.append(len(env.table.game.results))
        obs, reward, done, _, info = env.step(token)
        rewards.append(reward)
    deal_points: dict[int, float] = {}
    for d, r in zip(deals, rewards):  # a deal's points are paid at the step that ends it
        deal_points[d] = deal_points.get(d, 0.0) + r
    returns = np.array([deal_points[d] for d in deals], np.float32)
    return steps, returns, sum(rewards)


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p -= self.lr * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)


def gradients(
    policy: MaskedPolicy,
    value: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    tokens: np.ndarray,
    returns: np.ndarray,
    entropy: float,
) -> tuple[list[np.ndarray], np.ndarray]:
    """Gradients of −(advantage · log π(token) + entropy bonus) and of the baseline's squared error.

    The baseline is a linear value head on the policy's hidden layer (``value``: weights then bias),
    trained on the same steps; the advantage is the return less that estimate.
    """
    h, p = policy.forward(obs, mask)
    n = len(tokens)
    baseline = h @ value[:-1] + value[-1]
    adv = returns - baseline
    adv = adv / (adv.std() + 1e-6)
    d_logits = p.copy()
    d_logits[np.arange(n), tokens] -= 1.0
    d_logits *= adv[:, None]
    logp = np.log(np.where(mask, p, 1.0))
    ent = -(p * logp).sum(axis=1, keepdims=True)
    d_logits += entropy * p * (logp + ent)  # d(−entropy)/d logits
    d_logits *= mask
    d_logits /= n
    d_value = (baseline - returns) / n  # the baseline's error; it does not train the shared layer
    grad_value = np.concatenate([h.T @ d_value, [d_value.sum()]]).astype(np.float32)
    dh = d_logits @ policy.w2.T * (1 - h * h)
    return [obs.T @ dh, dh.sum(0), h.T @ d_logits, d_logits.sum(0)], grad_value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--minutes", type=float, default=5.0, help="training time (default 5)")
    ap.add_argument("--batch", type=int, default=4, help="matches per update (default 4)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="policy.npz")
    ap.add_argument("--arena", type=int, default=0, help="duplicate deals against random afterwards (0: none)")
    args = ap.parse_args()

    env = BarbuGymEnv(args.rules, seat=None, opponents=args.opponents, deals=None)
    game = "besigue" if env.table.spec.besigue else "barbu"
    policy = MaskedPolicy(game, args.hidden, args.seed, rules=args.rules)
    value = np.zeros(args.hidden + 1, np.float32)
    opt = Adam(policy.params + [value], args.lr)
    rng = np.random.default_rng(args.seed)
    matches, start = 0, time.perf_counter()
    history: list[float] = []
    while time.perf_counter() - start < args.minutes * 60:
        batch = [play_match(env, policy, rng, args.seed * 1_000_003 + matches + i) for i in range(args.batch)]
        matches += args.batch
        steps = [s for b, _, _ in batch for s in b]
        returns = np.concatenate([r for _, r, _ in batch]) / 100.0
        obs = np.stack([s[0] for s in steps])
        mask = np.stack([s[1] for s in steps])
        tokens = np.array([s[2] for s in steps])
        grads, grad_value = gradients(policy, value, obs, mask, tokens, returns, entropy=0.01)
        opt.step(grads + [grad_value])
        history.extend(total for _, _, total in batch)
        if matches % (args.batch * 25) == 0:
            recent = history[-200:]
            print(
                f"{time.perf_counter() - start:6.0f}s  matches {matches:5d}  the learner's mean match total "
                f"(last {len(recent)}) {np.mean(recent):+.1f}",
                flush=True,
            )
    policy.save(args.out)
    print(f"saved {args.out} after {matches} matches")
    if args.arena:
        me = f"policy:{args.out}"
        if game == "besigue":  # deal by deal, each deal played twice with the hands swapped
            b = run_besigue_arena(env.table.rules, me, "random", args.arena, seed=10_001)
            mean, half, boards = b.mean, b.half_width, b.boards
        else:
            bots = [me] + ["random"] * (env.table.n - 1)
            _, s = run_arena(env.table.rules, bots, args.arena, seed=10_001)
            (mean, half), boards = s.pairs[(me, "random")], s.boards
        print(
            f"duplicate arena, {boards} boards: policy − random = {mean:+.2f} ± {half:.2f} points per deal "
            f"(95% interval{', excludes zero' if abs(mean) > half else ''})"
        )


if __name__ == "__main__":
    main()
