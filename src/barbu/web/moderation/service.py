"""The moderators' desk: players report players, clubs and events; moderators warn, mute, ban, remove and restore,
dismiss reports, and undo any of it; every action is logged with who, when, what and why.

**Roles.**  An account is a "player" or a "moderator" (``barbu users role NAME moderator``); the operator stays the
shell (`barbu.cli.users`), where every action here is also reachable and logged with no moderator's name.  A
moderator does not act on another moderator's account: that is the operator's.

**Reports.**  A logged-in player reports what he sees on its page, by its address there (a player's name, a
club's slug, an event's number), with a reason from `REASONS` and optional words (at most `TEXT_MAX`
characters).  A second report of the same target by the same player while the first is open is the same report
(its reason and words replaced); a player files at most `REPORTS_PER_HOUR` reports an hour, counted in the
database in the same statement that files one (`store.add_report`), so a burst or many processes cannot pass it.

**Targets are kinds** (`KINDS`): each says how a page's address and a desk's id find the target, and which
actions apply to it.  The table's chat (`barbu.web.tables.chat`) adds the kind "message": its id the message's
(``seq`` on the page), reported by a logged-in player who was at the table (seated with his account, or a
spectator who watched); the desk shows it with the messages around it in its room (`CONTEXT` each side), and
its actions are "remove" and "restore"; its author (his account, if he had one) is the player a moderator may
then warn or mute from the player's own reports or page.

**Mute.**  A muted player plays on but writes nothing others read: no club or event made, no club description or
event name changed, no report filed (and, when it comes, no chat).  The domains ask through a `Voice`
(`barbu.web.accounts.service.Voice`) the application wires to `voice`, so they never import this package.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from ...core.words import N_
from ..accounts import store as accounts
from ..accounts.service import fold, open_store, write_in_thread
from ..accounts.store import User
from ..clubs import store as clubs
from ..clubs.chat import CLUB_ROOM, RoomKind, reads_room
from ..common.errors import WebError
from ..db import chat as chatdb
from ..db.storage import Store, _aware, now
from ..events import store as events
from ..events.access import club_role, hidden
from ..events.chat import EVENT_ROOM
from . import refusals as no
from . import store as db

REPORTS_PER_HOUR = 10
TEXT_MAX = 500  # characters of a report's words
REASON_MAX = 500  # characters of a moderator's reason
CONTEXT = 5  # messages of a reported chat message's room shown on each side of it
#: The chat rooms of clubs and events, whose messages are reported as the table's are.
ROOMS: dict[str, RoomKind] = {"club": CLUB_ROOM, "event": EVENT_ROOM}
HISTORY_DAYS, HISTORY_MATCHES = 7, 5  # an account's age and finished matches before its links are clickable
MUTE_HOURS_MAX = 365 * 24
CLOSED_KEPT_DAYS = 365  # a closed report is forgotten after this; the log keeps what was done
#: A mute "until lifted" is one that ends at this moment.
FOREVER = datetime(9999, 1, 1, tzinfo=timezone.utc)

#: Why a player reports: the code kept, and the words the pages show.
REASONS = {
    "cheating": N_("Cheating or collusion"),
    "abuse": N_("Abusive or offensive behaviour"),
    "name": N_("An offensive name or text"),
    "spam": N_("Spam or advertising"),
    "other": N_("Something else"),
}

#: Each action a moderator may take but undo's own, and the action that undoes it.
UNDO = {"warn": "withdraw", "mute": "unmute", "ban": "unban", "remove": "restore", "dismiss": "reopen"}
#: Actions that settle the target's open reports (they are closed as acted on).
SETTLING = ("warn", "mute", "ban", "remove")


@dataclass(frozen=True)
class Target:
    """What a report is about, as the desk shows it: its kind and id, its name, its page, what it says about
    itself, and its state (banned, muted, removed…)."""

    kind: str
    id: str
    label: str
    url: str | None
    about: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    user_id: int | None = None  # the account a player's target is, or a club's or event's maker
    moderator: bool = False  # a moderator's account: the operator's to act on


@dataclass(frozen=True)
class Kind:
    """A kind of target: how a page's address (as the reporter sees it) and the desk's id find one, and the
    actions that apply to it besides "dismiss"."""

    name: str
    actions: tuple[str, ...]
    by_address: Callable[[Connection, str, User], Target | None]
    by_id: Callable[[Connection, str], Target | None]


def iso(t: datetime | None) -> str | None:
    return None if t is None else _aware(t).isoformat(timespec="seconds")


# -- the kinds --
def _player(u: User, row: Any) -> Target:
    until = _aware(row.muted_until) if row.muted_until else None
    state = {"banned": u.banned, "muted_until": iso(until) if until and until > now() else None}
    return Target("player", str(u.id), u.name, f"/u/{u.name}", "", state, u.id, u.role == "moderator")


def _player_row(conn: Connection, user_id: int) -> Target | None:
    r = conn.execute(select(accounts.USERS).where(accounts.USERS.c.id == user_id)).first()
    return None if r is None else _player(accounts._user(r), r)


def player_by_address(conn: Connection, name: str, _reader: User) -> Target | None:
    found = accounts.user_by_key(conn, fold(name)[:256])
    return None if found is None else _player_row(conn, found[0].id)


def player_by_id(conn: Connection, raw: str) -> Target | None:
    return _player_row(conn, int(raw)) if raw.isdigit() and len(raw) < 12 else None


def _club(r: Any) -> Target:
    state = {"removed": bool(r.removed), "public": bool(r.public)}
    return Target("club", str(r.id), r.name, f"/c/{r.slug}", r.description or "", state, r.created_by)


def club_by_address(conn: Connection, slug: str, reader: User) -> Target | None:
    club = clubs.club_by_slug(conn, slug[:64])
    if club is None or (not club.public and clubs.role_of(conn, club.id, reader.id) is None):
        return None  # a private club is reported by its members only: to others it is not there
    return club_by_id(conn, str(club.id))


def club_by_id(conn: Connection, raw: str) -> Target | None:
    if not (raw.isdigit() and len(raw) < 12):
        return None
    r = conn.execute(select(clubs.CLUBS).where(clubs.CLUBS.c.id == int(raw), clubs.CLUBS.c.deleted.is_(False))).first()
    return None if r is None else _club(r)


def _event(ev: events.Event) -> Target:
    state = {"removed": ev.removed, "status": ev.status}
    return Target("event", str(ev.id), ev.name, f"/e/{ev.id}", "", state, ev.director_id)


def event_by_address(conn: Connection, raw: str, reader: User) -> Target | None:
    ev = event_by_id(conn, raw)
    if ev is None or ev.state["removed"]:
        return None
    found = events.event_by_id(conn, int(ev.id))
    assert found is not None
    return None if hidden(*club_role(conn, found.club_id, reader)) else ev


def event_by_id(conn: Connection, raw: str) -> Target | None:
    if not (raw.isdigit() and len(raw) < 10):
        return None
    ev = events.event_by_id(conn, int(raw))
    return None if ev is None else _event(ev)


def _line(m: chatdb.Message) -> dict[str, Any]:
    return {"seq": m.id, "from": m.name, "phrase": m.phrase, "text": m.text, "at": iso(m.at), "removed": m.removed}


def message_by_id(conn: Connection, raw: str) -> Target | None:
    """A chat message, with the messages around it in its room (its context) in ``state``."""
    if not (raw.isdigit() and len(raw) < 12):
        return None
    m = chatdb.by_id(conn, int(raw))
    if m is None:
        return None
    said = m.text if m.text is not None else f"[{m.phrase}]"
    state: dict[str, Any] = {"removed": m.removed, "room": m.room, "table": m.table_id, "author": m.name}
    state["account"] = m.user_id  # his account's id (None: a guest): the desk mutes him from the message's card
    state["author_muted"] = m.user_id is not None and accounts.muted_until(conn, m.user_id) is not None
    state["context"] = [_line(x) for x in chatdb.around(conn, m, CONTEXT)]
    url: str | None = f"/t/{m.table_id}"
    if m.room in ROOMS:  # a club's or an event's room: its page, with the room's name
        room = ROOMS[m.room].by_key(conn, m.table_id)
        url, state["place"] = (room.url, room.name) if room is not None else (None, None)
        state["notice"] = m.notice
    return Target("message", str(m.id), f"{m.name}: {said}"[:80], url, said or "", state, m.user_id)


def message_by_address(conn: Connection, raw: str, reader: User) -> Target | None:
    """A message a player read: at a table, where he was seated with his account or watched logged in; in a club's
    or an event's room, which is his (`barbu.web.clubs.chat`)."""
    t = message_by_id(conn, raw)
    if t is None or t.state["removed"]:
        return None
    table_id = t.state["table"]
    if t.state["room"] in ROOMS:
        return t if reads_room(conn, ROOMS, t.state["room"], table_id, reader.id) is not None else None
    seated = any(uid == reader.id for _, uid in chatdb.seats_of(conn, table_id))
    if not (seated or chatdb.watched(conn, table_id, reader.id)):
        return None
    return t


#: The kinds of target, by name.  A new kind is one more entry.
KINDS: dict[str, Kind] = {
    "player": Kind("player", ("warn", "mute", "unmute", "ban", "unban"), player_by_address, player_by_id),
    "club": Kind("club", ("remove", "restore"), club_by_address, club_by_id),
    "event": Kind("event", ("remove", "restore"), event_by_address, event_by_id),
    "message": Kind("message", ("remove", "restore"), message_by_address, message_by_id),
}


# -- who may write --
def voice(conn: Connection, user_id: int) -> None:
    """Refused while a moderator's mute lasts: the `Voice` the application gives the domains."""
    until = accounts.muted_until(conn, user_id)
    if until is None:
        return
    if until >= FOREVER:
        raise WebError(no.MUTED_UNTIL_LIFTED)
    raise WebError(no.MUTED, until=until.strftime("%Y-%m-%d %H:%M"))


def has_history(conn: Connection, user: User) -> bool:
    """Whether a link in ``user``'s chat is made clickable: his account is `HISTORY_DAYS` days old and he finished
    `HISTORY_MATCHES` matches (a spammer's new account has neither, and making them costs hours of play)."""
    if now() - user.created_at < timedelta(days=HISTORY_DAYS):
        return False
    played = select(accounts.RESULTS.c.table_id).where(accounts.RESULTS.c.user_id == user.id, ~accounts.RESULTS.c.left)
    return len(conn.execute(played.limit(HISTORY_MATCHES)).all()) >= HISTORY_MATCHES


def speaker(conn: Connection, user_id: int) -> tuple[str, bool]:
    """The chat's `barbu.web.tables.chat.Speaker` (the tables' and the rooms'): an account's name and whether his
    links are clickable (`has_history`), refused while a moderator's mute lasts."""
    voice(conn, user_id)
    user = accounts.user_by_id(conn, user_id)
    return ("", False) if user is None else (user.name, has_history(conn, user))


# -- reports --
def report_words(raw: Any) -> str:
    """A report's optional words: at most `TEXT_MAX` characters, lines kept, no control characters."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise WebError(no.REPORT_TEXT, n=TEXT_MAX)
    text = unicodedata.normalize("NFC", raw).replace("\r\n", "\n")
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch)[0] != "C").strip()
    if len(text) > TEXT_MAX:
        raise WebError(no.REPORT_TEXT, n=TEXT_MAX)
    return text


def file_report(conn: Connection, user: User, kind: Any, address: Any, reason: Any, text: Any) -> bool:
    """File ``user``'s report of what ``address`` names on a page of ``kind``: True when it is new, False when
    it is his open report of the same target again (its reason and words replaced)."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise WebError(no.REPORT_KIND)
    if not isinstance(reason, str) or reason not in REASONS:
        raise WebError(no.REPORT_REASON)
    words = report_words(text)
    voice(conn, user.id)
    target = KINDS[kind].by_address(conn, address, user) if isinstance(address, str) and address else None
    if target is None:
        raise WebError(no.NOTHING_TO_REPORT)
    if kind in ("player", "message") and target.user_id == user.id:  # himself, or his own words
        raise WebError(no.REPORT_SELF)
    since = now() - timedelta(hours=1)
    if db.add_report(conn, kind, target.id, target.label[:80], user.id, reason, words, REPORTS_PER_HOUR, since):
        return True
    again = db.open_report_of(conn, kind, target.id, user.id)
    if again is not None:
        db.update_report(conn, again, reason, words)
        return False
    filed = db.reports_since(conn, user.id, since)
    wait = (filed[-REPORTS_PER_HOUR] + timedelta(hours=1) - now()).total_seconds() if filed else 60
    raise WebError(no.TOO_MANY_REPORTS, limit=REPORTS_PER_HOUR, n=max(1, int(wait // 60) + 1))


# -- actions --
def reason_of(raw: Any) -> str:
    """A moderator's reason: required, at most `REASON_MAX` characters."""
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not text or len(text) > REASON_MAX:
        raise WebError(no.REASON_NEEDED, n=REASON_MAX)
    return text


def mute_end(hours: Any) -> datetime:
    """When a mute of ``hours`` ends (None: until lifted)."""
    if hours is None:
        return FOREVER
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MUTE_HOURS_MAX:
        raise WebError(no.MUTE_HOURS, n=MUTE_HOURS_MAX)
    return now() + timedelta(hours=hours)


def _target(conn: Connection, kind: Any, target_id: Any, gone_ok: bool = False) -> Target:
    """The target a desk's action names; ``gone_ok``: one that no longer exists (a deleted club) is named by its
    open reports, which may still be dismissed."""
    if not isinstance(kind, str) or kind not in KINDS:
        raise WebError(no.REPORT_KIND)
    raw = str(target_id)[:64] if isinstance(target_id, (str, int)) and not isinstance(target_id, bool) else ""
    found = KINDS[kind].by_id(conn, raw) if raw else None
    if found is None and gone_ok and raw:
        label = db.open_label(conn, kind, raw)
        if label is not None:
            return Target(kind, raw, label, None, "", {"gone": True})
    if found is None:
        raise WebError(no.NO_SUCH_TARGET)
    return found


def forget_player(conn: Connection, user_id: int) -> None:
    """An account deleted: the reports about him go with it (his warnings go by the database's cascade); the log
    keeps what was done.  One of the account's ``on_delete`` (the application and ``barbu users delete``)."""
    db.forget_target(conn, "player", str(user_id))


def _flip(conn: Connection, table: Any, row_id: int, column: str, value: bool) -> None:
    """Set a flag that is not so yet, in one statement (two moderators at once: the second is told it is so
    already, and his action is neither done twice nor logged)."""
    q = update(table).where(table.c.id == row_id, table.c[column] == (not value)).values({column: value})
    if not conn.execute(q).rowcount:
        raise WebError(no.ALREADY)


def _set_removed(conn: Connection, t: Target, removed: bool) -> None:
    if t.kind == "message":
        if not chatdb.set_removed(conn, int(t.id), removed):
            raise WebError(no.ALREADY)
        return
    _flip(conn, clubs.CLUBS if t.kind == "club" else events.EVENTS, int(t.id), "removed", removed)


def _apply(conn: Connection, action: str, t: Target, hours: Any = None) -> datetime | None:
    """The effect of ``action`` on ``t`` (checked to apply); a mute's end."""
    uid = int(t.id) if t.kind == "player" else None
    if action == "mute" and uid is not None:
        until = mute_end(hours)
        accounts.set_muted(conn, uid, until)
        return until
    if action == "unmute" and uid is not None:
        if t.state.get("muted_until") is None:
            raise WebError(no.ALREADY)
        accounts.set_muted(conn, uid, None)
    elif action in ("ban", "unban") and uid is not None:
        _flip(conn, accounts.USERS, uid, "banned", action == "ban")  # the ban of `barbu users ban`
        if action == "ban":
            accounts.end_sessions(conn, uid)  # his browsers are logged out at once
    elif action in ("remove", "restore"):
        _set_removed(conn, t, action == "remove")
    return None


def act(
    conn: Connection, moderator: User | None, action: Any, kind: Any, target_id: Any, reason: Any, hours: Any = None
) -> int:
    """A moderator's (None: the operator's) ``action`` on a target, with its reason, logged: the log entry's id.
    Warn, mute and ban a player, remove a club or an event, settle the target's open reports (closed as acted
    on); "dismiss" closes them with nothing done; unmute, unban and restore reverse the others."""
    why = reason_of(reason)
    if not isinstance(action, str) or action not in (*UNDO, *UNDO.values()) or action in ("withdraw", "reopen"):
        raise WebError(no.UNKNOWN_ACTION)
    t = _target(conn, kind, target_id, gone_ok=action == "dismiss")
    if action != "dismiss" and action not in KINDS[t.kind].actions:
        raise WebError(no.NOT_FOR_KIND)
    if moderator is not None and t.moderator and action != "dismiss":
        raise WebError(no.ON_A_MODERATOR)
    until = None if action == "dismiss" else _apply(conn, action, t, hours)
    entry = db.add_entry(
        conn, _id(moderator), _name(moderator), action, t.kind, t.id, t.label, why, until if action == "mute" else None
    )
    if action == "dismiss":
        if not db.close_reports(conn, t.kind, t.id, db.DISMISSED, entry):
            raise WebError(no.NO_OPEN_REPORTS)
    elif action in SETTLING:
        db.close_reports(conn, t.kind, t.id, db.ACTED, entry)
    if action == "warn":
        db.add_warning(conn, int(t.id), entry, why)
    return entry


def undo(conn: Connection, moderator: User | None, entry_id: Any, reason: Any) -> int:
    """Reverse the log's entry ``entry_id`` (a warning withdrawn, a mute lifted, a ban lifted, a removal restored,
    dismissed reports opened again), with its reason, logged: the new entry's id."""
    why = reason_of(reason)
    e = db.entry(conn, entry_id) if isinstance(entry_id, int) and not isinstance(entry_id, bool) else None
    if e is None:
        raise WebError(no.NO_SUCH_ENTRY)
    if e.action not in UNDO or e.undone_by is not None:
        raise WebError(no.NOT_UNDOABLE)
    t = _target(conn, e.kind, e.target)
    if moderator is not None and t.moderator and e.action in ("warn", "mute", "ban"):
        raise WebError(no.ON_A_MODERATOR)
    inverse = UNDO[e.action]
    if inverse == "withdraw":
        db.withdraw_warning(conn, e.id)
    elif inverse == "reopen":
        db.reopen_reports(conn, e.id)
    else:
        _apply(conn, inverse, t)
    new = db.add_entry(conn, _id(moderator), _name(moderator), inverse, t.kind, t.id, t.label, why)
    if not db.set_undone(conn, e.id, new):  # undone meanwhile by another moderator: this one is not done
        raise WebError(no.NOT_UNDOABLE)
    return new


def set_role(conn: Connection, user: User, role: str) -> None:
    """The operator gives or takes the moderator's role (``barbu users role``), logged like any action."""
    accounts.set_role(conn, user.id, role)
    db.add_entry(conn, None, None, f"role:{role}", "player", str(user.id), user.name, "barbu users role")


def _id(moderator: User | None) -> int | None:
    return None if moderator is None else moderator.id


def _name(moderator: User | None) -> str | None:
    return None if moderator is None else moderator.name


# -- what the desk and the player read --
def entry_json(e: db.Entry) -> dict[str, Any]:
    return {
        "id": e.id,
        "at": iso(e.at),
        "moderator": e.moderator,
        "action": e.action,
        "kind": e.kind,
        "target": e.target,
        "label": e.label,
        "reason": e.reason,
        "until": None if e.until is None or e.until >= FOREVER else iso(e.until),
        "undoable": e.action in UNDO and e.undone_by is None,
        "undone_by": e.undone_by,
    }


def target_json(t: Target) -> dict[str, Any]:
    return {
        "kind": t.kind,
        "id": t.id,
        "label": t.label,
        "url": None if t.state.get("removed") else t.url,
        "about": t.about,
        "state": t.state,
        "moderator": t.moderator,
        "actions": [a for a in KINDS[t.kind].actions],
    }


def desk(conn: Connection, log_size: int = 100) -> dict[str, Any]:
    """The open reports grouped by target (the group with the newest report first, each group's newest first),
    each target as it is now, and the log's latest entries; closed reports past their keeping are forgotten."""
    db.forget_closed(conn, now() - timedelta(days=CLOSED_KEPT_DAYS))
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for r in db.open_reports(conn):
        g = groups.get((r.kind, r.target))
        if g is None:
            t = KINDS[r.kind].by_id(conn, r.target) if r.kind in KINDS else None
            shown = (
                target_json(t) if t is not None else {"kind": r.kind, "id": r.target, "label": r.label, "gone": True}
            )
            g = groups[(r.kind, r.target)] = {"target": shown, "reports": []}
        g["reports"].append(
            {"id": r.id, "reporter": r.reporter, "reason": r.reason, "text": r.text, "at": iso(r.created_at)}
        )
    return {"groups": list(groups.values()), "log": [entry_json(e) for e in db.entries(conn, log_size)]}


def notices(conn: Connection, user: User) -> dict[str, Any]:
    """What a player's pages tell him: his unread warnings, his mute, and whether he is a moderator."""
    until = accounts.muted_until(conn, user.id)
    return {
        "moderator": user.role == "moderator",
        "warnings": [{"id": i, "reason": why, "at": iso(at)} for i, why, at in db.unseen_warnings(conn, user.id)],
        "muted": until is not None,
        "muted_until": None if until is None or until >= FOREVER else iso(until),
    }


def read_warning(conn: Connection, user: User, warning_id: Any) -> None:
    ok = isinstance(warning_id, int) and not isinstance(warning_id, bool) and db.see_warning(conn, user.id, warning_id)
    if not ok:
        raise WebError(no.NO_SUCH_WARNING)


class Moderation:
    """The moderation of one server, over its database (blocking work in threads, one transaction each)."""

    def __init__(self, store: Callable[[], Store | None]) -> None:
        self._store = store
        # a player warned is told so (the application gives the notifications': `barbu.web.notices`)
        self.on_warned: Callable[[int, int], Awaitable[Any]] | None = None

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    @staticmethod
    def moderator(user: User) -> User:
        """``user``, if he is a moderator; else refused."""
        if user.role != "moderator":
            raise WebError(no.MODERATORS_ONLY)
        return user

    async def report(self, user: User, kind: Any, address: Any, reason: Any, text: Any) -> bool:
        return bool(await self._write(file_report, user, kind, address, reason, text))

    async def desk(self, user: User) -> dict[str, Any]:
        self.moderator(user)
        found: dict[str, Any] = await self._write(desk)
        return found

    async def act(self, user: User, action: Any, kind: Any, target: Any, reason: Any, hours: Any) -> int:
        entry = int(await self._write(act, self.moderator(user), action, kind, target, reason, hours))
        if action == "warn" and self.on_warned is not None:
            found = await self._write(db.entry, entry)
            if found is not None and found.kind == "player" and found.target.isdigit():
                await self.on_warned(int(found.target), entry)
        return entry

    async def undo(self, user: User, entry_id: Any, reason: Any) -> int:
        return int(await self._write(undo, self.moderator(user), entry_id, reason))

    async def notices(self, user: User) -> dict[str, Any]:
        """Asked by every page a logged-in player opens: a read, no transaction to write."""
        store = self.store

        def run() -> dict[str, Any]:
            with store.engine.connect() as conn:
                return notices(conn, user)

        return await asyncio.to_thread(run)

    async def read_warning(self, user: User, warning_id: Any) -> None:
        await self._write(read_warning, user, warning_id)
