"""What `barbu puzzle` keeps on this computer: your puzzle rating, each puzzle's rating as met here, your best
streak, the daily puzzles you played, and the history of your attempts.

One JSON file, ``puzzles.json``, in the folder where barbu keeps its local files (``~/.local/share/barbu`` on
Linux: platformdirs' data folder, as ``barbu play --daily`` uses).  Every change is a read-change-write under a
lock on ``puzzles.lock`` beside it, so two ``barbu puzzle`` at once never lose each other's update, and the
file is replaced atomically (written beside it, flushed, renamed over it), so a crash never leaves half a
file.  A file that cannot be read is reported in plain words and left exactly as it is: nothing overwrites
it until the person moves or mends it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..core import safejson
from ..core.errors import UnreadableFile
from ..i18n import _
from ..ratings.rating import Rating

FILE = "puzzles.json"
LOCK = "puzzles.lock"
VERSION = 1
#: The attempts kept in the history (the oldest go first): years of daily play in a few hundred kilobytes.
HISTORY = 5000

T = TypeVar("T")


class PuzzleStoreError(UnreadableFile):
    """The puzzle file cannot be read or written; the words say which file and what to do (an `UnreadableFile`:
    the command line prints it whole, its path never broken across lines)."""


def data_folder() -> Path:
    """Where barbu keeps its local files (``$XDG_DATA_HOME/barbu`` on Linux)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("barbu", appauthor=False))


@dataclass(frozen=True)
class Attempt:
    """One puzzle tried: when, which, the card chosen, whether it was best, and the player's rating after."""

    at: str  # ISO time, UTC
    puzzle: str
    mode: str  # "rated", "daily", "streak", "mine", "file"
    answer: str
    solved: bool
    rated: bool
    before: int  # the shown rating before and after (equal when the attempt was not rated)
    after: int

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: Any) -> Attempt:
        if not isinstance(d, dict):
            raise ValueError("an attempt is an object")
        return cls(
            str(d["at"]),
            str(d["puzzle"]),
            str(d["mode"]),
            str(d["answer"]),
            bool(d["solved"]),
            bool(d["rated"]),
            int(d["before"]),
            int(d["after"]),
        )


@dataclass
class PuzzleRecord:
    """Everything the file holds, read into memory."""

    rating: Rating = field(default_factory=Rating)
    puzzles: dict[str, Rating] = field(default_factory=dict)  # each puzzle's rating as met on this computer
    best_streak: int = 0
    daily: dict[str, dict[str, Any]] = field(default_factory=dict)  # day -> {"puzzle": id, "solved": bool}
    history: list[Attempt] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "rating": self.rating.as_dict(),
            "puzzles": {k: r.as_dict() for k, r in sorted(self.puzzles.items())},
            "best_streak": self.best_streak,
            "daily": self.daily,
            "history": [a.as_dict() for a in self.history[-HISTORY:]],
        }

    @classmethod
    def from_dict(cls, d: Any) -> PuzzleRecord:
        """The record `to_dict` wrote; anything else raises ValueError, KeyError or TypeError."""
        if not isinstance(d, dict) or d.get("version") != VERSION:
            raise ValueError(f"not a puzzle file of version {VERSION}")
        daily = d.get("daily", {})
        if not isinstance(daily, dict) or not all(isinstance(v, dict) for v in daily.values()):
            raise ValueError("daily")
        streak = d.get("best_streak", 0)
        if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
            raise ValueError("best_streak")
        return cls(
            rating=Rating.from_dict(d["rating"]),
            puzzles={str(k): Rating.from_dict(v) for k, v in dict(d.get("puzzles", {})).items()},
            best_streak=streak,
            daily={str(k): dict(v) for k, v in daily.items()},
            history=[Attempt.from_dict(a) for a in list(d.get("history", []))],
        )

    def puzzle_rating(self, pid: str) -> Rating:
        return self.puzzles.get(pid, Rating())


class PuzzleStore:
    """The puzzle file of one folder: `read` it, or `change` it under the lock."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else data_folder()
        self.path = self.folder / FILE

    def read(self) -> PuzzleRecord:
        """What the file holds now (a fresh record when there is no file yet); `PuzzleStoreError` if unreadable."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return PuzzleRecord()
        except (OSError, UnicodeDecodeError) as e:
            raise self._unreadable(getattr(e, "strerror", None) or str(e)) from None
        try:
            return PuzzleRecord.from_dict(safejson.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise self._unreadable(str(e)) from None

    def change(self, edit: Callable[[PuzzleRecord], T]) -> T:
        """Read the file afresh under the lock, let ``edit`` change the record, write it back atomically; returns
        what ``edit`` returned.  An unreadable file is refused before anything is written."""
        with self._locked():
            record = self.read()
            out = edit(record)
            self._write(record)
            return out

    def _write(self, record: PuzzleRecord) -> None:
        tmp = self.path.with_name(f".{FILE}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(record.to_dict(), f, indent=1, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            raise PuzzleStoreError(
                _("Cannot write your puzzle file {path}: {reason}").format(path=self.path, reason=e.strerror or e)
            ) from None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle = open(self.folder / LOCK, "a+b")
        except OSError as e:
            raise PuzzleStoreError(
                _("Cannot write your puzzle file {path}: {reason}").format(path=self.path, reason=e.strerror or e)
            ) from None
        with handle:
            _lock(handle.fileno())
            try:
                yield
            finally:
                _unlock(handle.fileno())

    def _unreadable(self, reason: str) -> PuzzleStoreError:
        return PuzzleStoreError(
            _(
                "Your puzzle file {path} cannot be read ({reason}). It was left as it is: mend it, or move it away "
                "to start afresh."
            ).format(path=self.path, reason=reason)
        )


try:  # POSIX: an advisory lock on the whole file, released when the handle closes
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

except ImportError:  # Windows
    import msvcrt

    def _lock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
