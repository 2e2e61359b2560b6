"""Making a puzzle file: records and self-play matches mined on this machine's cores or a Dask cluster.

Each job is one match (a record's actions, or a self-play match played on the worker from its seed), so a job's
puzzles depend on its inputs alone and a run gives the same file wherever its jobs ran (`barbu.arena.runners`).
The puzzles are put back in job order and kept once each (by id).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..agents.play import agent_for, play_out
from ..arena.runners import Runner, in_job_order
from ..classic.match import Match
from ..core.errors import BarbuError
from ..records.barbu import read_record
from .find import EXACT_CARDS, Tally, find
from .layout_find import find_layout
from .model import OPEN, Puzzle
from .single import SAMPLES

#: Every file of a folder given to ``--from`` that is read as a record.
RECORD_GLOBS = ("*.jsonl",)


@dataclass
class Made:
    """A run's puzzles and its tally, with the inputs that could not be read."""

    puzzles: list[Puzzle] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    unread: list[tuple[str, str]] = field(default_factory=list)  # (input, why)
    duplicates: int = 0
    matches: int = 0


def mine_actions(
    rules: str,
    actions: Sequence[str],
    source: str,
    kinds: Sequence[str],
    samples: int,
    exact_cards: int,
    keep_obvious: bool = False,
) -> tuple[list[Puzzle], Tally]:
    """One job: the puzzles of one match's actions."""
    tally = Tally()
    found = find(
        rules, actions, source, kinds, tally, samples=samples, exact_cards=exact_cards, keep_obvious=keep_obvious
    )
    if OPEN in kinds:  # Domino and Success: open puzzles only (every hand shown)
        found += find_layout(rules, actions, source, tally, keep_obvious=keep_obvious)
    return found, tally


def selfplay_job(
    rules: str,
    seed: int,
    bots: str,
    kinds: Sequence[str],
    samples: int,
    exact_cards: int,
    keep_obvious: bool = False,
) -> tuple[list[Puzzle], Tally]:
    """One job: a match between computer players (``bots``, one name for every seat or one per seat) from
    ``seed``, then its puzzles."""
    m = Match(rules, seed)
    names = bots.split(",")
    names = names * m.n if len(names) == 1 else names
    play_out(m, [agent_for(m, names[s], seed * 1000 + s) for s in range(m.n)])
    return mine_actions(
        str(m.rules),
        [str(a) for a in m.history],
        f"selfplay:{m.rules}/{seed}",
        kinds,
        samples,
        exact_cards,
        keep_obvious,
    )


def record_paths(inputs: Iterable[str | Path]) -> list[Path]:
    """The record files of ``--from``: files as given, folders searched for .jsonl files (sorted)."""
    out: list[Path] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            out.extend(sorted(p for g in RECORD_GLOBS for p in path.rglob(g)))
        else:
            out.append(path)
    return out


def jobs_for(
    records: Sequence[Path],
    selfplay: int,
    rules: Sequence[str],
    bots: str,
    first_seed: int,
    kinds: Sequence[str],
    samples: int = SAMPLES,
    exact_cards: int = EXACT_CARDS,
    made: Made | None = None,
    keep_obvious: bool = False,
) -> list[tuple[Callable[..., tuple[list[Puzzle], Tally]], tuple]]:
    """The run's jobs: one a record (read here; what cannot be read is noted in ``made``), then ``selfplay``
    matches of each ruleset from ``first_seed`` on."""
    jobs: list[tuple[Callable[..., tuple[list[Puzzle], Tally]], tuple]] = []
    for path in records:
        try:
            rec = read_record(path)
        except BarbuError as e:
            if made is not None:
                made.unread.append((str(path), str(e)))
            continue
        actions = tuple(text for _, text in rec.actions)
        jobs.append(
            (
                mine_actions,
                (str(rec.rules), actions, f"record:{path.name}", tuple(kinds), samples, exact_cards, keep_obvious),
            )
        )
    for i in range(selfplay):
        for r in rules:
            jobs.append((selfplay_job, (r, first_seed + i, bots, tuple(kinds), samples, exact_cards, keep_obvious)))
    return jobs


def run_job(fn: Callable[..., tuple[list[Puzzle], Tally]], args: tuple) -> tuple[list[Puzzle], Tally]:
    """A job as a runner sends it: the function and its arguments (both picklable)."""
    return fn(*args)


def make(
    jobs: Sequence[tuple[Callable[..., tuple[list[Puzzle], Tally]], tuple]],
    runner: Runner,
    made: Made | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> Made:
    """Run the jobs on ``runner``; ``progress(jobs done, jobs, puzzles so far)`` after each."""
    made = made or Made()
    seen = {p.id for p in made.puzzles}
    results = runner.results(run_job, [(fn, args) for fn, args in jobs])
    for done, (found, tally) in enumerate(in_job_order(results), start=1):
        made.tally.add(tally)
        made.matches += 1
        for p in found:
            if p.id in seen:
                made.duplicates += 1
                continue
            seen.add(p.id)
            made.puzzles.append(p)
        if progress is not None:
            progress(done, len(jobs), len(made.puzzles))
    return made
