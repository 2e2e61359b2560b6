"""Following and blocking (issue 45): a player follows another without asking him (as lichess has it), sees his
followers counted on his profile, and blocks whom he wants kept apart.  A block wins over a follow: blocking
removes the follows both ways, in the same transaction, and a follow between two accounts kept apart is refused.

The presence setting lives here too: an account that hides its presence is shown "offline" to everyone else
(`barbu.web.social.presence`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy.engine import Connection

from ..accounts import store as accounts
from ..accounts.service import fold, open_store
from ..common.errors import WebError
from ..db.storage import Store, now
from . import store as db
from .refusals import BLOCK_SELF, FOLLOW_BLOCKED, FOLLOW_SELF, NAME_NEEDED, NO_SUCH_PLAYER

LISTED = 500  # accounts a list (whom I follow, whom I blocked) shows at most


@dataclass(frozen=True)
class Someone:
    """An account as the friends' lists show it."""

    id: int
    name: str
    since: datetime

    def json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "profile": f"/u/{quote(self.name)}",
            "since": self.since.isoformat(timespec="seconds"),
        }


class Social:
    """Follows, blocks and the presence setting, over the server's database (its work in threads)."""

    def __init__(self, store: Callable[[], Store | None]) -> None:
        self._store = store
        self.on_follow: list[Callable[[int, int], None]] = []  # (follower, followed): presence forgets its audience

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _write(self, fn: Callable[[Connection], Any]) -> Any:
        store = self.store

        def run() -> Any:
            with store.engine.begin() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    async def _read(self, fn: Callable[[Connection], Any]) -> Any:
        store = self.store

        def run() -> Any:
            with store.engine.connect() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    @staticmethod
    def _other(conn: Connection, name: Any) -> accounts.User:
        if not isinstance(name, str) or not name.strip():
            raise WebError(NAME_NEEDED)
        found = accounts.user_by_key(conn, fold(name.strip()[:64]))
        if found is None or found[0].banned:
            raise WebError(NO_SUCH_PLAYER, name=name.strip()[:64])
        return found[0]

    def _told(self, follower: int, followed: int) -> None:
        for hook in self.on_follow:
            hook(follower, followed)

    # ------------------------------------------------------------------ follows
    async def follow(self, user_id: int, name: Any) -> str:
        """Follow the player named ``name``; his name as spelled.  Refused: himself, a block between them."""

        def write(conn: Connection) -> tuple[int, str]:
            other = self._other(conn, name)
            if other.id == user_id:
                raise WebError(FOLLOW_SELF)
            if db.apart(conn, user_id, (other.id,)):
                raise WebError(FOLLOW_BLOCKED, name=other.name)
            db.follow(conn, user_id, other.id, now())
            return other.id, other.name

        other_id, other_name = await self._write(write)
        self._told(user_id, other_id)
        return str(other_name)

    async def unfollow(self, user_id: int, name: Any) -> str:
        def write(conn: Connection) -> tuple[int, str]:
            other = self._other(conn, name)
            db.unfollow(conn, user_id, other.id)
            return other.id, other.name

        other_id, other_name = await self._write(write)
        self._told(user_id, other_id)
        return str(other_name)

    async def following(self, user_id: int) -> list[Someone]:
        rows = await self._read(lambda c: db.following(c, user_id, LISTED))
        return [Someone(*r) for r in rows]

    async def counts(self, user_id: int) -> dict[str, int]:
        """His followers, whom he follows, whom he blocked: counted."""

        def read(c: Connection) -> dict[str, int]:
            return {
                "followers": db.followers_count(c, user_id),
                "following": db.following_count(c, user_id),
                "blocked": db.block_count(c, user_id),
            }

        found: dict[str, int] = await self._read(read)
        return found

    async def standing(self, viewer: int | None, name: str) -> dict[str, Any]:
        """What a profile shows of the social side: the followers count, and (to a logged-in viewer) whether he
        follows this player and whether he blocked him."""

        def read(c: Connection) -> dict[str, Any]:
            other = self._other(c, name)
            out: dict[str, Any] = {"followers": db.followers_count(c, other.id), "self": viewer == other.id}
            if viewer is not None and viewer != other.id:
                out["following"] = db.follows(c, viewer, other.id)
                out["blocking"] = db.blocks(c, viewer, other.id)
            return out

        found: dict[str, Any] = await self._read(read)
        return found

    async def followers_of(self, user_id: int) -> list[int]:
        found: list[int] = await self._read(lambda c: db.followers_of(c, user_id))
        return found

    # ------------------------------------------------------------------ blocks
    async def block(self, user_id: int, name: Any) -> str:
        """Block the player named ``name``: the follows between them go (both ways)."""

        def write(conn: Connection) -> tuple[int, str]:
            other = self._other(conn, name)
            if other.id == user_id:
                raise WebError(BLOCK_SELF)
            db.block(conn, user_id, other.id, now())
            return other.id, other.name

        other_id, other_name = await self._write(write)
        self._told(user_id, other_id)
        self._told(other_id, user_id)
        return str(other_name)

    async def unblock(self, user_id: int, name: Any) -> str:
        def write(conn: Connection) -> str:
            other = self._other(conn, name)
            db.unblock(conn, user_id, other.id)
            return other.name

        found: str = await self._write(write)
        return found

    async def blocked(self, user_id: int) -> list[Someone]:
        rows = await self._read(lambda c: db.blocked_by(c, user_id, LISTED))
        return [Someone(*r) for r in rows]

    # ------------------------------------------------------------------ the presence setting
    async def hidden(self, user_id: int) -> bool:
        return user_id in await self._read(lambda c: db.hidden(c, (user_id,)))

    async def set_hidden(self, user_id: int, hide: bool) -> None:
        await self._write(lambda c: db.set_hidden(c, user_id, hide))
