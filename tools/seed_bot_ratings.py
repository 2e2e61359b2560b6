"""Seed the computer players' starting ratings (src/barbu/ratings/bot_seeds.json) from duplicate arena matches.

For each rated game, the house's strengths (random, rule, search, expert) play whole matches against
each other in duplicate: in the Barbu family all four at one table, every match seed played once per
rotation of the players through the seats, with the same cards in the same seats each time
(`barbu.arena.duplicate.play_rotation`); in Bésigue every pair plays whole games to the target, each
board's seed once with each of them in the first seat (the cards follow the seat, as in
`barbu.arena.besigue`).  Each match's final placing then goes through `barbu.ratings.update`, from a
newcomer's rating for everyone and in the arena's order (seed by seed, rotation by rotation), exactly
as the server would have rated those matches had they been played there.  So the seeds' μ say how
the strengths finished against each other, their σ how much those few matches prove, and their mean
stays a newcomer's: a new player is first taken for as strong as the average computer player.

Whole matches, because a rated match is one: a few deals' placing is mostly the luck of the cards
(eight-deal matches ordered `rule` above `expert` in some games, against what the arena's points per
deal say).  The search players think with a fixed small budget here (10 sampled deals a decision;
the time limit is only a guard, so a run replays exactly) to keep the run within minutes; at the table
they think longer and are somewhat stronger.  Their ratings move with every match they play on the
server, so the seeds need only be a sensible start.

    python tools/seed_bot_ratings.py                      # every game: 4 to 6 minutes on one core
    python tools/seed_bot_ratings.py --seeds 6 --boards 6 --workers 2   # a longer run
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from barbu.agents import AGENT_KINDS
from barbu.agents.besigue import make_besigue_agent
from barbu.arena.duplicate import play_rotation
from barbu.besigue.game import BesigueGame
from barbu.besigue.ruleset import BesigueRules
from barbu.classic.match import Match
from barbu.classic.ruleset import Ruleset
from barbu.core.game import CHANCE
from barbu.ratings import GAMES, Rating, placings, update

OUT = Path(__file__).resolve().parent.parent / "src" / "barbu" / "ratings" / "bot_seeds.json"

#: The budgets the slow strengths play with in the arena (the strength's own settings, smaller).
QUICK = {"search": "search(samples=10, seconds=5)", "expert": "expert(samples=10, seconds=5, steps=16)"}


def run_all(fn: Callable[..., Any], jobs: list[tuple], workers: int) -> list[Any]:
    """``fn`` over the jobs, in their order, in this process or in ``workers`` processes."""
    if workers <= 1:
        return [fn(*job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(fn, *zip(*jobs)))


def rate(
    matches: Iterable[tuple[list[str], list[float]]], highest_wins: bool, strengths: list[str]
) -> dict[str, Rating]:
    """Every strength from a newcomer's rating, through each match's (strengths by seat, totals) in order."""
    ratings = {s: Rating() for s in strengths}
    for seated, totals in matches:
        new = update([ratings[s] for s in seated], placings(totals, highest_wins))
        ratings.update(zip(seated, new))
    return ratings


def barbu_game(game: str, specs: dict[str, str], seeds: int, deals: int, workers: int) -> tuple[dict[str, Rating], int]:
    """All the strengths at one table, each seed once per rotation through the seats: whole matches, or
    their first ``deals`` deals."""
    rules = Ruleset.parse(game)
    deals = deals or Match(rules).total_deals
    strengths = list(specs)
    bots = [specs[s] for s in strengths]
    strength_of = {spec: s for s, spec in specs.items()}
    jobs = [
        (str(rules), bots, seed, rotation, deals, None) for seed in range(1, seeds + 1) for rotation in range(len(bots))
    ]
    matches = []
    for rows in run_all(play_rotation, jobs, workers):
        seated = [strength_of[spec] for spec in rows[0].bots]
        totals = [sum(row.points[seat] for row in rows) for seat in range(len(seated))]
        matches.append((seated, totals))
    return rate(matches, rules.family_spec.highest_wins, strengths), len(matches)


def besigue_match(rules_text: str, seed: int, a: str, b: str) -> list[int]:
    """One whole Bésigue game to the target with ``a`` in seat 0: the final totals.  The game's seed fixes
    the first dealer and every shuffle, so the same seed with the seats swapped deals the same cards to the
    same seats, as the arena's boards do (a top-level function, for the worker processes)."""
    g = BesigueGame(BesigueRules.parse(rules_text), seed)
    g.keep_undo = False
    agents = [make_besigue_agent(spec, seed * 10 + s) for s, spec in enumerate((a, b))]
    while not g.is_over:
        seat = g.to_act()
        if seat == CHANCE:
            g.play_chance()
        else:
            assert seat is not None
            g.apply(agents[seat].act(g.view(seat)))
    return list(g.totals)


def besigue_game(specs: dict[str, str], boards: int, workers: int) -> tuple[dict[str, Rating], int]:
    """Every pair of strengths, each board played twice with the seats swapped; a match is a whole game."""
    strengths = list(specs)
    plays = [
        (seed, (a, b))
        for seed in range(1, boards + 1)
        for x, y in itertools.combinations(strengths, 2)
        for a, b in ((x, y), (y, x))
    ]
    scores = run_all(besigue_match, [("besigue", seed, specs[a], specs[b]) for seed, (a, b) in plays], workers)
    matches = [(list(pair), [float(p) for p in got]) for (_, pair), got in zip(plays, scores)]
    return rate(matches, True, strengths), len(matches)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    ap.add_argument("--seeds", type=int, default=2, help="Barbu family: match seeds, each played in every rotation")
    ap.add_argument("--deals", type=int, default=0, help="Barbu family: play only the first N deals of each match")
    ap.add_argument("--boards", type=int, default=2, help="Bésigue: game seeds, each played by every pair both ways")
    ap.add_argument("--full", action="store_true", help="the search players' own budgets (slow)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    specs = {s: s if args.full else QUICK.get(s, s) for s in AGENT_KINDS}
    old = json.loads(args.out.read_text()) if args.out.exists() else {}
    games: dict[str, Any] = dict(old.get("games", {}))
    runs: dict[str, Any] = dict(old.get("runs", {}))
    command = " ".join(["python tools/seed_bot_ratings.py", shlex.join(sys.argv[1:] if argv is None else argv)]).strip()
    started = time.perf_counter()
    for game in args.games:
        t = time.perf_counter()
        if game == "besigue":
            ratings, matches = besigue_game(specs, args.boards, args.workers)
        else:
            ratings, matches = barbu_game(game, specs, args.seeds, args.deals, args.workers)
        seconds = time.perf_counter() - t
        games[game] = {
            s: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4), "matches": r.matches} for s, r in ratings.items()
        }
        runs[game] = {"command": command, "players": specs, "matches": matches, "seconds": round(seconds, 1)}
        print(
            f"{game:<12} {matches:>3} matches {seconds:6.1f} s  "
            + "  ".join(f"{s} {r.mu:.1f}±{r.sigma:.1f}" for s, r in ratings.items()),
            flush=True,
        )
    data = {
        "about": "Starting ratings of the computer players per game, written by tools/seed_bot_ratings.py "
        "(docs/ratings.md); rerun it rather than edit this file.",
        "runs": runs,
        "games": {g: games[g] for g in GAMES if g in games},
    }
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
