"""What every part of the events goes through: the database (blocking work in threads), an event by its
address, and who may see or direct it."""

from __future__ import annotations

from typing import Any, Callable

from ..accounts.service import Voice, free_voice, open_store, read_in_thread, write_in_thread
from ..accounts.store import User
from ..clubs import store as clubstore
from ..common.errors import WebError
from ..common.settings import Settings
from ..db.storage import Store
from . import refusals as no
from . import store as db

#: Something about an event may have changed: its pages (in every process) are told if what they show did.
Changed = Callable[[int], None]


class EventAccess:
    """The events' database, over the lobby's (read and written in threads), and the server's settings."""

    def __init__(self, lobby: Any, settings: Settings, voice: Voice = free_voice) -> None:
        """``voice``: refuses an account that may not write for others now (muted: the application wires it)."""
        self.lobby = lobby
        self.settings = settings
        self.voice = voice

    @property
    def store(self) -> Store:
        return open_store(lambda: self.lobby.store)

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await read_in_thread(self.store, fn, *args)

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    async def find(self, raw: Any) -> db.Event:
        """The event at the address ``raw`` (its number), or the refusal that there is none (a moderator's
        removal is, to everyone, as if there were none)."""
        ev = await self.read(db.event_by_id, event_id(raw))
        if ev is None or ev.removed:
            raise WebError(no.NOT_FOUND)
        return ev


def event_id(raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.isdigit() and len(raw) <= 9:
        return int(raw)
    raise WebError(no.NOT_FOUND)


def club_role(conn: Any, club_id: int | None, user: User | None) -> tuple[Any, str | None]:
    """The event's club (None: not a club's) and ``user``'s role in it (None: not a member, or nobody)."""
    if club_id is None:
        return None, None
    club = clubstore.club_by_id(conn, club_id)
    role = clubstore.role_of(conn, club_id, user.id) if user is not None else None
    return club, role


def hidden(club: Any, role: str | None) -> bool:
    """Whether a club's event is out of sight: its club deleted, or private and the reader not a member."""
    return club is not None and (club.deleted or (not club.public and role is None))


def directs(conn: Any, ev: db.Event, user: User) -> None:
    """Refused unless ``user`` directs the event (its director; a club's owner or admins for a club's)."""
    if ev.director_id == user.id:
        return
    if ev.club_id is not None and clubstore.role_of(conn, ev.club_id, user.id) in ("owner", "admin"):
        return
    raise WebError(no.DIRECTOR_ONLY)


def before_start(ev: db.Event) -> None:
    """A director's change is made before the start only."""
    if ev.status == "cancelled":
        raise WebError(no.CANCELLED)
    if ev.status != "registering":
        raise WebError(no.STARTED_NO_CHANGE)
