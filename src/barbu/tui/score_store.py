"""Kept games for the terminal: the web's scorebooks, with the edit keys kept in the user's config folder.

A kept game's edit key is shown once, when the game is created (the database
holds only its hash), so the terminal keeps its keys in a small JSON file,
as a browser keeps them in its localStorage.  The same file holds a random
owner id that names this terminal user's games in the database.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from ..core import safejson
from ..core.words import N_
from ..scorekeeper import AnyKeeper, KeeperError, keeper_from_dict
from ..web.db.storage import sqlite_url
from ..web.scorebooks.store import Scorebook, ScorebookError, Scorebooks

DEFAULT_DB = "barbu-web.db"


def database_url(text: str | None) -> str:
    """``--db`` as a database URL: a plain path is a SQLite file (default ``barbu-web.db`` here, as ``barbu serve``)."""
    db = text or DEFAULT_DB
    return db if "://" in db else sqlite_url(db)


def keys_path() -> Path:
    """Where the terminal keeps its edit keys: ``$XDG_CONFIG_HOME/barbu/scorekeeper.json`` (or ~/.config)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "barbu" / "scorekeeper.json"


class KeyRing:
    """This terminal user's owner id and the edit keys of the games they keep."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or keys_path()
        data: dict[str, Any] = {}
        if self.path.exists():
            try:
                data = safejson.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):  # JsonError and UnicodeDecodeError are ValueErrors
                data = {}
            if not isinstance(data, dict):  # a file edited by hand: start a fresh ring rather than fail
                data = {}
        owner, keys = data.get("owner"), data.get("keys")
        self.owner: str = owner if isinstance(owner, str) and owner else "terminal-" + secrets.token_hex(16)
        self.keys: dict[str, str] = (
            {k: v for k, v in keys.items() if isinstance(v, str)} if isinstance(keys, dict) else {}
        )
        if self.owner != owner:
            self.write()

    def write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"owner": self.owner, "keys": self.keys}, indent=1), encoding="utf-8")
        os.chmod(tmp, 0o600)  # edit keys are secrets
        tmp.replace(self.path)

    def remember(self, book_id: str, key: str) -> None:
        self.keys[book_id] = key
        self.write()

    def forget(self, book_id: str) -> None:
        if self.keys.pop(book_id, None) is not None:
            self.write()


class ScoreStore:
    """Open, create, save and delete kept games; every save names the version it was made from."""

    def __init__(self, db: str | None = None, ring: KeyRing | None = None) -> None:
        self.url = database_url(db)
        self.books = Scorebooks.open(self.url)
        self.ring = ring or KeyRing()

    @property
    def shown_url(self) -> str:
        """The database as it may be shown: never its password."""
        return self.url.split("@")[-1] if "@" in self.url else self.url

    def list(self) -> list[Scorebook]:
        """This user's kept games (started here, or claimed with their edit key), the most recently changed first."""
        books = {b.id: b for b in self.books.owned_by(self.ring.owner)}
        for book_id in list(self.ring.keys):
            if book_id not in books:
                try:
                    books[book_id] = self.books.get(book_id)
                except ScorebookError:  # deleted elsewhere: its key is of no use now
                    self.ring.forget(book_id)
        return sorted(books.values(), key=lambda b: b.updated_at, reverse=True)

    def claim(self, book_id: str, key: str) -> Scorebook:
        """Keep here a game started elsewhere (the web page), given its edit key; a wrong key is refused (403)."""
        book = self.books.check_key(book_id, key)
        self.ring.remember(book_id, key)
        return book

    def create(self, keeper: AnyKeeper, title: str) -> Scorebook:
        book, key = self.books.create(keeper.to_dict(), title, self.ring.owner)
        self.ring.remember(book.id, key)
        return book

    def get(self, book_id: str) -> Scorebook:
        return self.books.get(book_id)

    def open(self, book_id: str) -> tuple[Scorebook, AnyKeeper]:
        """The stored game and its keeper (every deal checked again)."""
        book = self.books.get(book_id)
        return book, keeper_from_dict(book.data)

    def key(self, book_id: str) -> str:
        key = self.ring.keys.get(book_id)
        if key is None:
            # English, as the web's refusals: the terminal words it with _() where it is shown
            raise ScorebookError(N_("this game was not started here: the terminal holds no key to change it"), 403)
        return key

    def can_edit(self, book_id: str) -> bool:
        return book_id in self.ring.keys

    def save(self, book: Scorebook, keeper: AnyKeeper, title: str | None = None) -> Scorebook:
        """Store the keeper's deals over ``book``'s version; a 409 `ScorebookError` if it changed elsewhere."""
        return self.books.save(book.id, self.key(book.id), keeper.to_dict(), book.version, title)

    def delete(self, book_id: str) -> None:
        self.books.delete(book_id, self.key(book_id))
        self.ring.forget(book_id)


__all__ = [
    "DEFAULT_DB",
    "KeeperError",
    "KeyRing",
    "ScoreStore",
    "Scorebook",
    "ScorebookError",
    "database_url",
    "keys_path",
]
