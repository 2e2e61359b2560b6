"""Kept games in the database: the scorekeeper's games beside the online tables, SQLite or PostgreSQL.

A kept game has two names: its private ``id`` with an edit key (given once, stored
hashed) for whoever keeps the score, and a ``view_id`` for the read-only link the
other players at the table open.  Every save names the version it was made from,
so two phones keeping the same game cannot overwrite each other unseen.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Integer, String, Text, insert, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ...core import safejson
from ...core.words import ENGLISH, N_, Message, Words
from ..common.errors import CONFLICT, FORBIDDEN, HTTP_STATUS, MISSING
from ..db.storage import Base, Store, hash_token, now, table_of

NO_SUCH_GAME = Message("no-such-game", N_("there is no such game"))
READ_ONLY = Message("read-only-link", N_("this link lets you read the game, not change it"))
CHANGED_ELSEWHERE = Message(
    "changed-elsewhere", N_("the game was changed elsewhere since you opened it: reload it to see the latest deals")
)


class ScorebookRow(Base):
    """One kept game: its rules, players and deals (the keeper's JSON form)."""

    __tablename__ = "barbu_scorebooks"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    view_id: Mapped[str] = mapped_column(String(32), unique=True)
    edit_hash: Mapped[str] = mapped_column(String(64))
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    title: Mapped[str] = mapped_column(String(120))
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[str] = mapped_column(Text)
    data: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


BOOKS = table_of(ScorebookRow)


class WordedError(Exception):
    """A refusal each reader gets in their own language: a coded `Message` with raw ``params``
    (``code`` for programs, ``worded(lang)`` for people), or a plain English text with no code."""

    def __init__(self, message: Message | str, **params: Any) -> None:
        self.message = message if isinstance(message, Message) else None
        self.code = self.message.code if self.message else None
        self.params = params
        super().__init__(ENGLISH.render(message, params) if isinstance(message, Message) else message)

    def worded(self, words: Words) -> str:
        """The refusal in the language of ``words`` (`barbu.i18n.word_error` asks); an uncoded one stays as written."""
        return words.render(self.message, self.params) if self.message else str(self)


class ScorebookError(WordedError):
    """A refused request of a kind of `barbu.web.common.errors` (MISSING, FORBIDDEN, CONFLICT); ``status`` is the
    HTTP status the routes answer it with.  A caller that still names a status gets its kind."""

    def __init__(self, message: Message | str, kind: str | int, **params: Any) -> None:
        super().__init__(message, **params)
        self.kind = kind if isinstance(kind, str) else next(k for k, s in HTTP_STATUS.items() if s == kind)

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.kind]


@dataclass
class Scorebook:
    id: str
    view_id: str
    title: str
    game: str
    rules: str
    data: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "view_id": self.view_id,
            "title": self.title,
            "game": self.game,
            "rules": self.rules,
            "names": self.data.get("names", []),
            "deals": len(self.data.get("entries", [])),
            "version": self.version,
            "updated_at": self.updated_at.isoformat(),
        }


def _book(row: Any) -> Scorebook:
    return Scorebook(
        row.id,
        row.view_id,
        row.title,
        row.game,
        row.rules,
        safejson.loads(row.data),
        row.version,
        row.created_at,
        row.updated_at,
    )


class Scorebooks:
    """Kept games in the same database as the online tables (the store's engine and migrations)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    @classmethod
    def open(cls, url: str) -> "Scorebooks":
        return cls(Store(url))

    def create(self, data: dict[str, Any], title: str, owner: str | None = None) -> tuple[Scorebook, str]:
        """Store a new game; returns it and its edit key (shown once: only its hash is kept)."""
        key = secrets.token_urlsafe(24)
        while key.startswith("-"):  # typed after `barbu score claim ID`, a leading "-" reads as an option
            key = secrets.token_urlsafe(24)
        t = now()
        book_id, view_id = secrets.token_hex(8), secrets.token_hex(8)
        with self.engine.begin() as conn:
            conn.execute(
                insert(BOOKS).values(
                    id=book_id,
                    view_id=view_id,
                    edit_hash=hash_token(key),
                    owner_hash=hash_token(owner) if owner else None,
                    title=title[:120] or "Game",
                    game=data.get("game", "barbu"),
                    rules=data.get("rules", ""),
                    data=json.dumps(data),
                    version=1,
                    created_at=t,
                    updated_at=t,
                )
            )
        return self.get(book_id), key

    def get(self, book_id: str) -> Scorebook:
        with self.engine.connect() as conn:
            row = conn.execute(select(BOOKS).where(BOOKS.c.id == book_id)).first()
        if row is None:
            raise ScorebookError(NO_SUCH_GAME, MISSING)
        return _book(row)

    def get_view(self, view_id: str) -> Scorebook:
        with self.engine.connect() as conn:
            row = conn.execute(select(BOOKS).where(BOOKS.c.view_id == view_id)).first()
        if row is None:
            raise ScorebookError(NO_SUCH_GAME, MISSING)
        return _book(row)

    def check_key(self, book_id: str, key: str | None) -> Scorebook:
        with self.engine.connect() as conn:
            row = conn.execute(select(BOOKS).where(BOOKS.c.id == book_id)).first()
        if row is None:
            raise ScorebookError(NO_SUCH_GAME, MISSING)
        if not key or not secrets.compare_digest(row.edit_hash, hash_token(key)):
            raise ScorebookError(READ_ONLY, FORBIDDEN)
        return _book(row)

    def save(
        self, book_id: str, key: str | None, data: dict[str, Any], version: int, title: str | None = None
    ) -> Scorebook:
        """Replace the game's deals if nobody saved since ``version``; else refuse (a conflict) and keep both safe."""
        self.check_key(book_id, key)
        values: dict[str, Any] = {
            "data": json.dumps(data),
            "version": version + 1,
            "updated_at": now(),
            "rules": data.get("rules", ""),
        }
        if title is not None:
            values["title"] = title[:120] or "Game"
        with self.engine.begin() as conn:
            done = conn.execute(
                update(BOOKS).where(BOOKS.c.id == book_id, BOOKS.c.version == version).values(**values)
            ).rowcount
        if not done:
            raise ScorebookError(CHANGED_ELSEWHERE, CONFLICT)
        return self.get(book_id)

    def delete(self, book_id: str, key: str | None) -> None:
        self.check_key(book_id, key)
        with self.engine.begin() as conn:
            conn.execute(BOOKS.delete().where(BOOKS.c.id == book_id))

    def owned_by(self, owner: str) -> list[Scorebook]:
        """The games one browser (or one terminal user) keeps, latest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(BOOKS).where(BOOKS.c.owner_hash == hash_token(owner)).order_by(BOOKS.c.updated_at.desc())
            ).all()
        return [_book(r) for r in rows]
