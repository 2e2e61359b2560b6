"""Puzzle files: JSON Lines (one puzzle a line, gzip when the name ends in .gz), the library shipped with the
package, the day's puzzle and choosing by contract, family, theme and kind."""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

from ..core.errors import BarbuError
from ..core.safejson import loads
from ..core.words import N_, message
from .model import OPEN, Puzzle, PuzzleError

#: The library shipped with the package (docs/puzzles.md says how it is made).
LIBRARY = "library.jsonl.gz"

BAD_LINE = message("puzzle-bad-line", N_("{path}, line {line}: {reason}"))
UNREADABLE = message("puzzle-unreadable", N_("cannot read the puzzles in {path}: {reason}"))
BAD_DAY = message("puzzle-bad-day", N_("a day is written YYYY-MM-DD, not {value}"))
NO_PUZZLES = message("puzzle-none", N_("there is no puzzle to choose from"))


def load() -> list[Puzzle]:
    """The library shipped with the package (empty if it is missing from this install)."""
    path = resources.files(__package__) / LIBRARY
    if not path.is_file():
        return []
    with resources.as_file(path) as p:
        return read(p)


def read(path: str | Path) -> list[Puzzle]:
    """Every puzzle of a JSON Lines file (gzip if it ends in .gz); a line that is not a puzzle raises
    `PuzzleError` naming the file and the line."""
    path = Path(path)
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                lines = f.read().splitlines()
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, EOFError, UnicodeDecodeError) as e:
        raise PuzzleError.of(UNREADABLE, path=str(path), reason=getattr(e, "strerror", None) or str(e)) from None
    out: list[Puzzle] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            out.append(Puzzle.from_dict(loads(text)))
        except BarbuError as e:
            raise PuzzleError.of(BAD_LINE, path=str(path), line=number, reason=str(e)) from None
    return out


def dumps(p: Puzzle) -> str:
    """One puzzle as one line of JSON."""
    return json.dumps(p.to_dict(), ensure_ascii=False, separators=(",", ":"))


def write(path: str | Path, puzzles: Iterable[Puzzle]) -> None:
    """Write puzzles as JSON Lines (gzip if the name ends in .gz), atomically: a reader sees the old file or the
    whole new one, never half of it."""
    path = Path(path)
    text = "".join(dumps(p) + "\n" for p in puzzles).encode("utf-8")
    data = gzip.compress(text, mtime=0) if path.name.endswith(".gz") else text
    fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # as an ordinary file, not mkstemp's owner-only
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def daily(day: str, puzzles: Sequence[Puzzle]) -> Puzzle:
    """The day's puzzle (an ISO day, ``2026-11-29``): the same for everyone with the same library, an open one
    where there is any, picked by a hash of the day so that consecutive days do not walk the file in order."""
    try:
        datetime.date.fromisoformat(day)
    except (TypeError, ValueError):
        raise PuzzleError.of(BAD_DAY, value=str(day)[:40]) from None
    pool = sorted((p for p in puzzles if p.kind == OPEN), key=lambda p: p.id) or sorted(puzzles, key=lambda p: p.id)
    if not pool:
        raise PuzzleError.of(NO_PUZZLES)
    index = int.from_bytes(hashlib.sha256(f"barbu-puzzle-of-the-day:{day}".encode()).digest()[:8], "big")
    return pool[index % len(pool)]


def choose(
    puzzles: Iterable[Puzzle],
    family: str | None = None,
    contract: str | None = None,
    theme: str | None = None,
    kind: str | None = None,
) -> list[Puzzle]:
    """The puzzles of that family, contract, theme and kind (None: any)."""
    return [
        p
        for p in puzzles
        if (family is None or p.family == family)
        and (contract is None or p.contract == contract)
        and (theme is None or p.theme == theme)
        and (kind is None or p.kind == kind)
    ]
