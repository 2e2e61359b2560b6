"""An account's own puzzles found in a finished match, in a process of its own (`Puzzles.mine_later` starts it).

The exact solver holds the interpreter while it searches, so it runs apart from the server's event loop, at a low
priority; this module imports only the engine's side, so that the process starts quickly.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import replace
from typing import Any

from ...puzzles.model import Puzzle

MINED_PER_SEAT = 5  # the costliest decisions of a finished match kept as an account's puzzles


def replay_of(table_id: str, p: Puzzle) -> str:
    """The finished table's replay, opened at the puzzle's deal."""
    return f"/t/{table_id}/replay#deal={p.source_deal}&move=0"


def own_puzzles(table_id: str, lines: list[str], seats: list[int]) -> list[list[dict[str, Any]]]:
    """In the solver's process: each seat's costliest decisions of the match as puzzles (`barbu.puzzles.mine`),
    each opening the table's replay at its deal; as JSON-ready data."""
    from ...puzzles import mine
    from ...records.barbu import read_record

    record = read_record(lines)
    out = []
    for seat in seats:
        found = mine.from_record(record, seat, limit=MINED_PER_SEAT, name=table_id)
        out.append([(p if p.replay else replace(p, replay=replay_of(table_id, p))).to_dict() for p in found])
    return out


def low_priority() -> None:
    """The solver's process gives way to the server's (the tables, the pages)."""
    with contextlib.suppress(OSError):
        os.nice(10)
