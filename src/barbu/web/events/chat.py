"""An event's chat room (`barbu.web.clubs.chat`): for its registered players and its director (a club's owner and
admins direct its events too), who alone posts notices.  A player who withdraws before the start leaves the room
with his place; one who left during the event keeps reading it."""

from __future__ import annotations

from sqlalchemy.engine import Connection

from ..clubs import store as clubs
from ..clubs.chat import Room, RoomKind
from ..db.chat import EVENT
from . import store as db


def _room(conn: Connection, ev: db.Event | None) -> Room | None:
    """An event's room; none for an event a moderator removed or whose club is gone."""
    if ev is None or ev.removed:
        return None
    club = clubs.club_by_id(conn, ev.club_id) if ev.club_id is not None else None
    if club is not None and club.deleted:
        return None
    return Room(EVENT, str(ev.id), ev.name, f"/e/{ev.id}", ev)


def _role(conn: Connection, room: Room, user_id: int) -> str | None:
    ev: db.Event = room.about
    if ev.director_id == user_id:
        return "director"
    if ev.club_id is not None and clubs.role_of(conn, ev.club_id, user_id) in ("owner", "admin"):
        return "director"
    return "member" if db.registered(conn, ev.id, user_id) else None


def _find(conn: Connection, raw: str) -> Room | None:
    """By the event's number: its page's address and its stored key alike."""
    return _room(conn, db.event_by_id(conn, int(raw))) if raw.isdigit() and len(raw) <= 9 else None


EVENT_ROOM = RoomKind(EVENT, _find, _find, _role)
