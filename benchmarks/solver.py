"""The solver's speed: the compiled core's playouts and legal moves per second, and exact solves by cards left.

Positions come from random legal play in the real engine (`barbu.solver.samples`),
so every contract of the family turns up in proportion.  Run on one core:

    python benchmarks/solver.py                       # classic, solves with 2 to 8 cards each
    python benchmarks/solver.py --rules scottish --cards 4 6 8 --solves 30
    python benchmarks/solver.py --pure                # the pure-Python twin too (much slower)
    python benchmarks/solver.py --cards --oracle 8    # move_values along 15 deals from 8 cards each on
    python benchmarks/solver.py --cards 8 --solves 30 --by-contract   # where the time goes
    python benchmarks/solver.py --no-core --cards 4 6 8 --dds       # bridge's DDS beside it (pip install endplay)
    python benchmarks/solver.py --no-core --cards --opening 4 --timeout 60   # whole deals from the opening lead
    python benchmarks/solver.py --no-core --cards --tables 20     # exact cells of 20 deals' double-dummy tables

With the compiled core the solver's lines also give the positions the searches visited
(all seats, all the solves of the line): on a loaded machine compare those, not only times.
Times are the process's own CPU time (`time.process_time`), so other work on the machine
weighs on them less than on the wall clock; they still vary by some 10 %.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import random
import statistics
import time

from barbu.solver import fast, pure
from barbu.solver.position import Spec
from barbu.solver.samples import random_deals

try:  # the positions each compiled solve visits: the figure to compare between versions on a loaded machine
    from barbu.solver._fast import last_nodes
except ImportError:
    last_nodes = None
try:  # only a counting build has it (docs/solver.md, "The sixth pass": gcc ... -DBARBU_COUNT)
    from barbu.solver._fast import counts  # type: ignore[attr-defined]
except ImportError:
    counts = None


def contract_name(spec: Spec) -> str:
    """A short name for the rules of one deal, from what scores in it (for the per-contract figures)."""
    scoring = [v for v in spec.values if v]
    parts = []
    if spec.per_trick:
        parts.append(f"{spec.per_trick:+} a trick")
    if scoring:
        parts.append(f"{len(scoring)} cards {sum(scoring):+}")
    if spec.last_tricks:
        parts.append(f"last {'/'.join(f'{v:+}' for v in spec.last_tricks)}")
    if spec.ravage:
        parts.append(f"ravage {spec.ravage:+}")
    if spec.trump >= 0:
        parts.append("trumps " + "SHDC"[spec.trump])
    return ", ".join(parts) or "nothing scores"


def per_second(fn, seconds: float) -> tuple[int, float]:
    """Call ``fn`` (which returns how many things it did) until ``seconds`` have passed."""
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        done += fn()
    return done, time.process_time() - start


def bench_core(rules: str, seconds: float, with_pure: bool) -> None:
    deals = list(itertools.islice(random_deals(rules, 1), 400))
    by_spec: dict = {}
    for d in deals:
        by_spec.setdefault(d.spec, []).append(d)
    # The commonest contract played to the last card (a deal decided early would flatter the figures).
    spec, group = max(by_spec.items(), key=lambda kv: (not kv[0].stop_mask, len(kv[1])))
    starts = [d.start for d in group]
    positions = [p for d in group for p in d.positions]
    cores = [("compiled", fast)] if fast.COMPILED else []
    if with_pure or not fast.COMPILED:
        cores.append(("pure", pure))
    print(
        f"{rules}: batches of {len(starts)} opening leads and {len(positions)} positions "
        f"(one contract: {spec.per_trick} a trick, {sum(1 for v in spec.values if v)} scoring cards, "
        f"last tricks {spec.last_tricks or 'nothing'})"
    )
    for name, core in cores:
        seed = itertools.count()
        n, t = per_second(lambda: len(core.playouts(spec, starts, next(seed))), seconds)
        print(f"  {name:8} playouts from the opening lead: {n / t:12,.0f} /s")
        n, t = per_second(lambda: len(core.legal_moves(spec, positions)), seconds)
        print(f"  {name:8} legal moves:                   {n / t:12,.0f} positions/s")


def bench_solver(rules: str, cards: list[int], solves: int, with_pure: bool, by_contract: bool) -> None:
    counting = last_nodes is not None and fast.COMPILED  # positions are counted by the compiled search only
    print(f"{rules}: exact solves (each seat's points, paranoid search per seat), between tricks")
    print(
        f"  {'cards each':>10} {'solves':>6} {'mean ms':>9} {'median':>9} {'max':>9} {'ms/seat':>8}"
        + (f" {'positions':>10}" if counting else "")
        + (f" {'pure mean':>10}" if with_pure else "")
    )
    for k in cards:
        samples = []
        for d in random_deals(rules, 100 + k):
            for st in d.positions:
                if not st.trick and all(h.bit_count() == k for h in st.hands):
                    samples.append((d.spec, st))
                    break
            if len(samples) >= solves:
                break
        times = []
        nodes = []
        if counts:
            counts(True)
        for spec, st in samples:
            t = time.process_time()
            fast.solve(spec, st)
            times.append(time.process_time() - t)
            nodes.append(last_nodes() if counting else 0)
        seats = sum(spec.n for spec, _ in samples)
        line = (
            f"  {k:>10} {len(times):>6} {statistics.mean(times) * 1e3:>9.2f} "
            f"{statistics.median(times) * 1e3:>9.2f} {max(times) * 1e3:>9.1f} {sum(times) / seats * 1e3:>8.2f}"
        )
        if counting:
            line += f" {sum(nodes):>10,}"
        if with_pure and k <= 5:
            t = time.process_time()
            for spec, st in samples:
                pure.solve(spec, st)
            line += f" {(time.process_time() - t) / len(samples) * 1e3:>10.1f}"
        print(line, flush=True)
        if counts:
            print_counts(counts(True), sum(nodes))
        if by_contract:
            groups: dict[str, list[int]] = {}
            for i, (spec, _) in enumerate(samples):
                groups.setdefault(contract_name(spec), []).append(i)
            for name, idx in sorted(groups.items(), key=lambda kv: -sum(times[i] for i in kv[1])):
                print(
                    f"  {'':>10} {len(idx):>6} {statistics.mean(times[i] for i in idx) * 1e3:>9.2f} "
                    f"{'':>9} {max(times[i] for i in idx) * 1e3:>9.1f} {'':>8}"
                    + (f" {sum(nodes[i] for i in idx):>10,}" if counting else "")
                    + f"  {name}"
                )


def print_counts(c: dict[str, int], positions: int) -> None:
    """A counting build's figures for one line: what each candidate of the sixth pass could remove at most."""

    def share(x: int) -> str:
        return f"{x / max(positions, 1):.1%}"

    print(
        f"  {'':>10} below the last two tricks' starts {share(c['in2'] - c['root2'])}; below three-card starts "
        f"{share(c['in3'])}, under those the table held but could not answer {share(c['research3_in'])}; "
        f"coarse key answers {c['part_answers']:,} ({c['part_right']:,} right) over {share(c['part_saved'])}; "
        f"swap neighbours {c['swap_answers']:,} ({c['swap_right']:,} right) over {share(c['swap_saved'])}",
        flush=True,
    )


def _solve_timed(spec: Spec, state, out) -> None:
    """In a child process: one solve from the opening lead, its CPU time and positions sent back."""
    t = time.process_time()
    values = fast.solve(spec, state)
    out.send((time.process_time() - t, last_nodes() if last_nodes else 0, values))


def bench_opening(rules: str, deals: int, timeout: float) -> None:
    """Whole deals from the opening lead, each solve in a child process stopped after ``timeout`` seconds
    (a compiled search cannot be interrupted otherwise)."""
    print(f"{rules}: exact solves from the opening lead (all seats), at most {timeout:g} s each")
    ctx = multiprocessing.get_context("fork")
    for d in itertools.islice(random_deals(rules, 1), deals):
        receive, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=_solve_timed, args=(d.spec, d.start, send))
        start = time.perf_counter()
        child.start()
        done = receive.poll(timeout)
        if done:
            took, nodes, values = receive.recv()
            line = f"{took:8.2f} s, {took / d.spec.n:7.2f} s a seat, {nodes:>14,} positions, points {values}"
        else:
            child.kill()
            line = f"   > {timeout:g} s (stopped)"
        child.join()
        print(f"  {contract_name(d.spec):32} {line}  [{time.perf_counter() - start:.1f} s wall]", flush=True)


def bench_tables(rules: str, deals: int, seconds: float | None) -> None:
    """The double-dummy tables of the first deal of ``deals`` matches (`barbu.analysis.ddtable`, every contract
    and seat), each cell within the web's budget: how many cells come out exact, and of the others how many
    proved more than the static floor or ceiling.  Budgets are positions (`POSITIONS_PER_SECOND`), so the share
    is the same on every machine; the time is this one's."""
    from barbu.analysis.ddtable import DEFAULT_CELL_SECONDS, options, solve_cell
    from barbu.classic.match import CHANCE, Match

    budget = DEFAULT_CELL_SECONDS if seconds is None else seconds
    rng = random.Random(46)
    cells = exact = floors = ceilings = positions = 0
    by_contract: dict[str, list[int]] = {}
    start = time.process_time()
    print(f"{rules}: double-dummy tables of {deals} deals, {budget:g} s a cell (in positions)")
    for deal in range(1, deals + 1):
        m = Match(rules, rng.randrange(1 << 30))
        while m.to_act() == CHANCE:
            m.apply(m.sample_chance(rng))
        for opt in options(m)[0]:
            row = by_contract.setdefault(opt.contract + ("" if opt.trump is None else " SHDC"[opt.trump + 1]), [0, 0])
            for seat in range(m.n):
                cell = solve_cell(opt, seat, budget)
                cells += 1
                row[1] += 1
                positions += cell.positions
                if cell.exact:
                    exact += 1
                    row[0] += 1
                else:
                    floors += cell.proved_least is not None
                    ceilings += cell.proved_most is not None
        print(
            f"  after {deal} deals: {exact} of {cells} exact, {floors} floors and {ceilings} ceilings proved, "
            f"{positions:,} positions, {time.process_time() - start:.1f} s",
            flush=True,
        )
    took = time.process_time() - start
    print(
        f"  {exact} of {cells} cells exact ({exact / max(cells, 1):.0%}); of the others {floors} with a floor "
        f"above the static one, {ceilings} with a ceiling below it; {positions:,} positions, {took:.1f} s CPU"
    )
    print("  exact by contract: " + ", ".join(f"{k} {e}/{n}" for k, (e, n) in sorted(by_contract.items())))


def bench_dds(cards: list[int], boards: int) -> None:
    """Bridge's double-dummy solver (DDS, through the `endplay` package) on random positions with as many
    cards in each of four hands: the tricks the side to play can take, one search per position, as one seat's
    paranoid search here is one search.  Random trumps or none, a random seat to lead."""
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        print("DDS: not installed (pip install endplay)")
        return

    def pbn(hands: list[int]) -> str:
        return "N:" + " ".join(
            ".".join("".join("23456789TJQKA"[r] for r in range(12, -1, -1) if h >> (x * 13 + r) & 1) for x in range(4))
            for h in hands
        )

    rng = random.Random(1)
    print("DDS (bridge, 4 hands): one side's tricks from a trick's start")
    print(f"  {'cards each':>10} {'boards':>6} {'mean ms':>9} {'median':>9} {'max':>9}")
    for k in cards:
        times = []
        for _ in range(boards):
            dealt = rng.sample(range(52), 4 * k)
            hands = [sum(1 << c for c in dealt[s * k : (s + 1) * k]) for s in range(4)]
            deal = Deal(pbn(hands), first=Player(rng.randrange(4)), trump=Denom(rng.randrange(5)))
            t = time.process_time()
            solve_board(deal, SolveMode.OptimalOne)
            times.append(time.process_time() - t)
        print(
            f"  {k:>10} {len(times):>6} {statistics.mean(times) * 1e3:>9.3f} {statistics.median(times) * 1e3:>9.3f} "
            f"{max(times) * 1e3:>9.2f}",
            flush=True,
        )


def bench_move_values(rules: str, cards: int, deals: int) -> None:
    """What the perfect-information player asks: each card's value at every decision of a deal from
    ``cards`` cards each on, one deal after another (so the table kept between calls counts)."""
    calls = 0
    start = time.process_time()
    for d in itertools.islice(random_deals(rules, 5), deals):
        for st in d.positions:
            if max(h.bit_count() for h in st.hands) <= cards:
                fast.move_values(d.spec, [st])
                calls += 1
    took = time.process_time() - start
    print(
        f"{rules}: move_values at every decision from {cards} cards each on, {deals} deals: "
        f"{calls} calls, {took / max(calls, 1) * 1e3:.2f} ms each"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="classic", help="a preset or ruleset text (default classic)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time for each throughput figure")
    ap.add_argument(
        "--cards",
        type=int,
        nargs="*",
        default=[2, 3, 4, 5, 6, 7, 8],
        help="cards in each hand for the solver's figures",
    )
    ap.add_argument("--solves", type=int, default=40, help="positions solved for each number of cards")
    ap.add_argument("--pure", action="store_true", help="time the pure-Python twin as well")
    ap.add_argument(
        "--by-contract", action="store_true", help="also break each solver figure down by contract (most time first)"
    )
    ap.add_argument(
        "--oracle",
        type=int,
        metavar="CARDS",
        help="also time move_values at every decision of 15 deals from CARDS cards each on",
    )
    ap.add_argument("--no-core", action="store_true", help="skip the playout and legal-move throughput figures")
    ap.add_argument(
        "--dds", action="store_true", help="also time bridge's DDS on positions with as many cards each (needs endplay)"
    )
    ap.add_argument("--opening", type=int, metavar="DEALS", help="also solve DEALS whole deals from the opening lead")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds allowed to each --opening solve")
    ap.add_argument(
        "--tables", type=int, metavar="DEALS", help="also the exact share of DEALS deals' double-dummy tables"
    )
    ap.add_argument("--cell-seconds", type=float, help="the budget of a --tables cell (default: the web's)")
    args = ap.parse_args()
    print(f"core: {'compiled (barbu.solver._fast)' if fast.COMPILED else 'pure Python (no C extension)'}")
    if not args.no_core:
        bench_core(args.rules, args.seconds, args.pure)
    if args.cards:
        bench_solver(args.rules, args.cards, args.solves, args.pure, args.by_contract)
    if args.dds and args.cards:
        bench_dds(args.cards, args.solves)
    if args.opening:
        bench_opening(args.rules, args.opening, args.timeout)
    if args.tables:
        bench_tables(args.rules, args.tables, args.cell_seconds)
    if args.oracle:
        bench_move_values(args.rules, args.oracle, 15)


if __name__ == "__main__":
    main()
