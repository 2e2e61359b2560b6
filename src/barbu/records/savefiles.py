"""Where `barbu play` keeps its matches: a saved match is never overwritten.

A new match reserves a file of its own when it starts (created exclusively,
so a second `barbu play` in the same folder at the same time takes the next
name), and every save replaces only that file, atomically.  Unfinished
matches already in the folder are offered for resuming.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import BarbuError
from ..i18n import _, ngettext
from .barbu import read_record, replay
from .besigue import is_besigue_record
from .besigue import read_record as read_besigue_record

DEFAULT_SAVE = "barbu-game.jsonl"


class SaveError(BarbuError):
    """A save file that cannot be used, said in words."""


@dataclass(frozen=True)
class SavedMatch:
    path: Path
    rules: str
    deals_done: int
    total_deals: int
    finished: bool
    modified: float = 0.0  # when it was last saved (seconds since the epoch): the newest is offered first

    def describe(self) -> str:
        """``barbu-game.jsonl: classic, 3 of 28 deals played`` in the language of the moment."""
        return _("{name}: {rules}, {state}").format(name=self.path.name, rules=self.rules, state=self.progress())

    def progress(self) -> str:
        """``3 of 28 deals played``, ``finished``: how far the match went, in the language of the moment."""
        if self.finished:
            return _("finished")
        if self.total_deals:
            # TRANSLATORS: the plural follows {done}: "1 donne jouée sur 28", "3 donnes jouées sur 28".
            return ngettext("{done} of {total} deals played", "{done} of {total} deals played", self.deals_done).format(
                done=self.deals_done, total=self.total_deals
            )
        # Bésigue: played to a target
        return ngettext("{done} deal played", "{done} deals played", self.deals_done).format(done=self.deals_done)


def candidates(folder: Path, stem: str = "barbu-game") -> list[Path]:
    """The default save names in `folder`: barbu-game.jsonl, barbu-game-2.jsonl, ..."""
    found = [
        p
        for p in folder.glob(f"{stem}*.jsonl")
        if p.name == f"{stem}.jsonl" or p.name[len(stem) + 1 : -len(".jsonl")].isdigit()
    ]
    return sorted(found, key=lambda p: (len(p.name), p.name))


def saved_matches(folder: Path | str = ".") -> list[SavedMatch]:
    """Matches saved under the default names here, unfinished first, then the newest first; unreadable files
    are skipped."""
    out = []
    for path in candidates(Path(folder)):
        try:
            modified = path.stat().st_mtime
        except OSError:  # gone since the folder was listed
            continue
        if is_besigue_record(path):  # a Bésigue game is played to a target, not a number of deals
            try:
                g = read_besigue_record(path).game
            except BarbuError:
                continue
            out.append(SavedMatch(path, str(g.rules), len(g.results), 0, g.is_over, modified))
            continue
        try:
            record = read_record(path)
            m = replay(record).match
        except BarbuError:
            continue
        out.append(SavedMatch(path, str(m.rules), len(m.results), m.total_deals, m.is_over, modified))
    return sorted(out, key=lambda s: (s.finished, -s.modified))


def reserve(base: Path, exact: bool = False) -> Path:
    """A file of its own for a new match, created now so nobody else takes it.

    `exact` (the player named the file): refused if it exists, never
    overwritten.  Otherwise `base` is the first choice, then ``name-2``,
    ``name-3`` … beside it.
    """
    if exact:
        try:
            _create_exclusive(base)
        except FileExistsError:
            raise SaveError(
                f"{base} already exists: resume it with barbu play --resume {base}, or choose another file with --save"
            ) from None
        return base
    for k in range(1, 10_000):
        path = base if k == 1 else base.with_name(f"{base.stem}-{k}{base.suffix}")
        try:
            _create_exclusive(path)
        except FileExistsError:
            continue
        return path
    raise SaveError(f"no free file name for a new match beside {base}")


def _create_exclusive(path: Path) -> None:
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        raise
    except OSError as e:
        raise SaveError(f"cannot save the match to {path}: {e.strerror or e}") from None
    os.close(fd)
