"""Telling a player something: `notify` stores the notice, pushes it live to his open pages, sends it by Web
Push to his devices and by e-mail where he chose it.

- **Stored** first (`store.add`), with its kind, params and link, never words: the bell and the list say it
  in the reader's language.  A notice with a ``key`` is given once per account, whatever the processes.
- **Live**: ``{"type": "notice", "notice": …, "unread": n}`` on the account's channel (`live.send`, given by
  the application), so the bell of every open page counts it at once, on any process.
- **Web Push** to each of his subscribed devices when that kind's push switch is on, and either no page of
  his is open or the kind is one that cannot wait ("turn", "challenge": he may be away from the open page,
  on his phone).  A subscription the push service says is gone (404, 410) is removed.
- **E-mail** only where he turned it on for that kind and his address is confirmed, counted against the day's
  budgets (`barbu.web.db.mailbudget`).  "turn" is e-mailed by the tables' batched reminder
  (`barbu.web.tables.outside`), whose switch is the account's "your turn" choice: never twice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from email.message import EmailMessage
from typing import Any, Awaitable, Callable

from py_vapid import Vapid02
from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from ...i18n import translator
from ..accounts.service import open_store, write_in_thread
from ..accounts.store import USERS, User
from ..common import mail, outages
from ..common.errors import WebError
from ..common.settings import Settings
from ..db import mailbudget
from ..db.storage import Store, now
from . import push
from . import refusals as no
from . import store as db
from .words import MAIL_BODY, worded

log = logging.getLogger("barbu.web")

URGENT = ("turn", "challenge", "event-table")  # pushed even while a page of his is open
DEVICES_MAX = 10  # subscribed devices per account
TESTS_PER_DAY = 20  # test notifications an account may send itself in a UTC day
SWEEP_EVERY = 3600.0  # seconds between two sweeps of the notices older than `store.KEEP_DAYS`

#: ``live(account_id, message)``: to every open page of the account, on any process (`barbu.web.live`).
Live = Callable[[int, dict[str, Any]], Awaitable[Any]]
#: ``is_open(account_id)``: whether a page of his is open anywhere (None: not known, pushed anyway).
IsOpen = Callable[[int], Awaitable[bool]]


async def notify(services: Any, account_id: int, kind: str, params: dict[str, Any], link: str) -> None:
    """Tell an account something (a kind of `store.KINDS`), from any domain that has the services."""
    await services.notices.notify(account_id, kind, params, link)


def device_of(user_agent: str) -> str:
    """A device's label from its user agent, as his list of devices shows it ("Chrome on Android")."""
    ua = user_agent or ""
    browser = next(
        (
            b
            for key, b in (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
            if key in ua
        ),
        "Browser",
    )
    system = next(
        (
            s
            for key, s in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    return f"{browser} on {system}" if system else browser


def _recipient(conn: Connection, user_id: int) -> tuple[str | None, str | None, str, bool] | None:
    """(confirmed address, language, name, "your turn" e-mails on) of an account not banned, or None."""
    r = conn.execute(
        select(USERS.c.email, USERS.c.email_confirmed_at, USERS.c.lang, USERS.c.name, USERS.c.notify_turns).where(
            USERS.c.id == user_id, USERS.c.banned.is_(False)
        )
    ).first()
    if r is None:
        return None
    return (r.email if r.email_confirmed_at is not None else None, r.lang, r.name, bool(r.notify_turns))


class Notices:
    """The notifications of one server (blocking work in threads)."""

    def __init__(self, settings: Settings, store: Callable[[], Store | None]) -> None:
        self.settings = settings
        self._store = store
        self.live: Live | None = None  # given by the application once the account channel is there
        self.is_open: IsOpen | None = None
        self._key: Vapid02 | None = None
        self._swept = -float(SWEEP_EVERY)  # when this process last forgot the old notices (monotonic)

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    # -- giving a notice --
    async def notify(
        self,
        account_id: int,
        kind: str,
        params: dict[str, Any],
        link: str,
        key: str | None = None,
        once_unread: bool = False,
    ) -> db.Notice | None:
        """Store a notice and send it where he chose; the notice, or None when one of ``key`` was given
        already (or, ``once_unread``, while one of the same kind and link is unread).  Never raises for the
        sending: a lost push or mail is one line in the log."""
        if kind not in db.KINDS:
            raise WebError(no.UNKNOWN_KIND, kind=kind, kinds=", ".join(db.KINDS))

        def write(conn: Connection) -> tuple[db.Notice | None, int, dict[str, bool], Any]:
            if once_unread and db.unread_of(conn, account_id, kind, link):
                return None, 0, {}, None
            if self._sweep_due():
                db.sweep(conn, now() - timedelta(days=db.KEEP_DAYS))
            found = db.add(conn, account_id, kind, params, link, key)
            if found is None:
                return None, 0, {}, None
            return found, db.unread(conn, account_id), db.switches(conn, account_id)[kind], _recipient(conn, account_id)

        notice, unread, switch, recipient = await self._write(write)
        if notice is None or recipient is None:
            return notice
        await self._live(account_id, {"type": "notice", "notice": notice.json(), "unread": unread})
        if switch["push"] and (kind in URGENT or not await self._open(account_id)):
            await self._push_all(account_id, kind, params, link, recipient[1], f"{kind}-{notice.id}", notice.id)
        if switch["mail"] and kind != "turn":  # "turn": the tables' batched reminder e-mails it
            await self._mail(account_id, kind, params, link, recipient)
        return notice

    def _sweep_due(self) -> bool:
        """Whether this process forgets the old notices now: once an hour, as notices are given."""
        t = time.monotonic()
        if t - self._swept < SWEEP_EVERY:
            return False
        self._swept = t
        return True

    async def _live(self, account_id: int, message: dict[str, Any]) -> None:
        if self.live is None:
            return
        try:
            await self.live(account_id, message)
        except Exception as e:  # the open pages count it on their next load
            outages.failed_or_traced(e, "notices: a notice could not be sent live")

    async def _open(self, account_id: int) -> bool:
        if self.is_open is None:
            return False
        try:
            return await self.is_open(account_id)
        except Exception:
            return False

    # -- Web Push --
    async def vapid(self) -> Vapid02:
        """The server's VAPID key: the operator's file, else the database's (made once)."""
        if self._key is None:
            if self.settings.vapid_key:
                pem = await asyncio.to_thread(push.key_from_file, self.settings.vapid_key)
            else:
                pem = await self._write(db.vapid_pem, push.new_pem)
            self._key = push.read_key(pem)
        return self._key

    async def public_key(self) -> str:
        return push.public_key(await self.vapid())

    async def _push_all(
        self,
        account_id: int,
        kind: str,
        params: dict[str, Any],
        link: str,
        lang: str | None,
        tag: str,
        notice_id: int | None = None,
    ) -> int:
        """Push to each of his devices (in turn: a player has a few); how many took it."""
        subs = await self._write(db.subscriptions, account_id)
        if not subs:
            return 0
        key = await self.vapid()
        title, body = worded(kind, params, lang or self.settings.default_lang)
        payload = {"title": title, "body": body, "url": link, "tag": tag, "id": notice_id}
        subject = push.claims_subject(self.settings.mail_from, self.settings.public_url)
        taken = 0
        for sub in subs:
            sent = await asyncio.to_thread(push.send, key, subject, sub.info(), payload)
            if sent.ok:
                taken += 1
                await self._write(db.pushed, sub.id)
            elif sent.gone:
                await self._write(db.gone, sub)
        return taken

    async def subscribe(self, user: User, endpoint: str, p256dh: str, auth: str, user_agent: str) -> dict[str, Any]:
        if not push.endpoint_allowed(endpoint, self.settings.push_plain_http):
            raise WebError(no.BAD_SUBSCRIPTION, why="endpoint")
        device = device_of(user_agent)[:80]

        def write(conn: Connection) -> int:
            if db.count_subscriptions(conn, user.id) >= DEVICES_MAX and not any(
                s.endpoint == endpoint for s in db.subscriptions(conn, user.id)
            ):
                raise WebError(no.TOO_MANY_DEVICES, n=DEVICES_MAX)
            return db.subscribe(conn, user.id, endpoint, p256dh, auth, device)

        await self._write(write)
        return {"device": device, "devices": await self._write(db.count_subscriptions, user.id)}

    async def unsubscribe(self, user: User, endpoint: str) -> bool:
        return bool(await self._write(db.unsubscribe, user.id, endpoint))

    async def test(self, user: User) -> int:
        """A test notification to each of his devices: how many took it.  `TESTS_PER_DAY` an account, counted
        before it goes by one atomic statement (`mailbudget.reserve`), so no burst on any process passes it."""

        def take(conn: Connection) -> Any:
            if not db.count_subscriptions(conn, user.id):
                raise WebError(no.NO_DEVICE)
            try:
                mailbudget.reserve(conn, [(f"push-test:{user.id}", TESTS_PER_DAY)])
            except mailbudget.BudgetSpent:
                raise WebError(no.TOO_MANY_TESTS, n=TESTS_PER_DAY) from None
            return _recipient(conn, user.id)

        found = await self._write(take)
        return await self._push_all(user.id, "test", {}, "/notifications", found[1] if found else None, "test")

    # -- e-mail --
    async def _mail(self, account_id: int, kind: str, params: dict[str, Any], link: str, recipient: Any) -> None:
        to, lang, name, _ = recipient
        settings = self.settings
        if to is None or settings.smtp_host is None:
            return
        try:
            store = self.store
            key = await asyncio.to_thread(store.creations_key)
            language = lang or settings.default_lang
            title, line = worded(kind, params, language)
            base = mail.base_url(settings)
            unsubscribe = f"{base}/mail/unsubscribe/{mail.unsubscribe_token(key, account_id, mail.ADDRESS, to)}"
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = settings.mail_from, to, f"{title} — barbu"
            msg["List-Unsubscribe"] = f"<{unsubscribe}>"
            msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            msg["Auto-Submitted"] = "auto-generated"
            body = translator(language).gettext(MAIL_BODY)
            msg.set_content(
                body.format(
                    name=name, line=line, link=f"{base}{link}", account=f"{base}/account", unsubscribe=unsubscribe
                )
            )
            await mailbudget.deliver(settings, store, msg, account_id)
        except Exception:  # the notice is stored and pushed; this mail is lost (the log has it, not the address)
            log.exception("notices: a %s e-mail could not be sent", kind)

    # -- the reader's list --
    async def turn(self, account_id: int, table_id: str, game: str, timed_out: bool) -> None:
        """A turn-based table waits for him (or played for him, his time out): one unread notice a table."""
        params: dict[str, Any] = {"table": table_id, "game": game} | ({"timeout": True} if timed_out else {})
        await self.notify(account_id, "turn", params, f"/t/{table_id}", once_unread=True)

    async def event_soon(self, event_id: int, name: str, players: list[int], minutes: int) -> None:
        """An event's players told it starts soon: once each, whatever the processes (keyed)."""
        for user_id in players:
            params = {"event": name, "id": event_id, "minutes": minutes}
            await self.notify(user_id, "event-soon", params, f"/e/{event_id}", key=f"event-soon:{event_id}")

    async def event_table(self, event_id: int, name: str, round_no: int, table_id: str, players: list[int]) -> None:
        """An event's players told their table of a round is ready (its clock runs: a seat left empty is played
        for after its grace): once each a round, whatever the processes (keyed)."""
        params = {"event": name, "id": event_id, "round": round_no, "table": table_id}
        for user_id in players:
            await self.notify(
                user_id, "event-table", params, f"/t/{table_id}", key=f"event-table:{event_id}:{round_no}"
            )

    async def warned(self, user_id: int, entry: int) -> None:
        """A moderator warned him: the warning is shown on his next page; he is told there is one."""
        await self.notify(user_id, "moderator-reply", {"entry": entry}, "/", key=f"warning:{entry}")

    async def listing(self, user: User) -> dict[str, Any]:
        def read(conn: Connection) -> dict[str, Any]:
            return {"notices": [n.json() for n in db.of_user(conn, user.id)], "unread": db.unread(conn, user.id)}

        found: dict[str, Any] = await self._write(read)
        return found

    async def unread(self, user: User) -> int:
        return int(await self._write(db.unread, user.id))

    async def read(self, user: User, notice_id: int | None) -> int:
        """Mark one notice read (None: all): the unread left, told to his other pages too."""

        def write(conn: Connection) -> int:
            if db.mark_read(conn, user.id, notice_id) == 0 and notice_id is not None:
                if not any(n.id == notice_id for n in db.of_user(conn, user.id)):
                    raise WebError(no.NO_SUCH_NOTICE)
            return db.unread(conn, user.id)

        left = int(await self._write(write))
        await self._live(user.id, {"type": "notices-read", "unread": left})
        return left

    # -- the switches --
    async def settings_of(self, user: User) -> dict[str, Any]:
        def read(conn: Connection) -> dict[str, Any]:
            found = db.switches(conn, user.id)
            r = conn.execute(
                select(USERS.c.email, USERS.c.email_confirmed_at, USERS.c.notify_turns).where(USERS.c.id == user.id)
            ).first()
            if r is not None:
                found["turn"]["mail"] = bool(r.notify_turns)  # the "your turn" e-mails' own choice
            return {
                "kinds": found,
                "devices": [{"device": s.device} for s in db.subscriptions(conn, user.id)],
                "mail": self.settings.smtp_host is not None,
                "address": r is not None and r.email is not None,
                "confirmed": r is not None and r.email_confirmed_at is not None,
            }

        found: dict[str, Any] = await self._write(read)
        return found

    async def set_switch(self, user: User, kind: str, push_on: bool, mail_on: bool) -> dict[str, Any]:
        if kind not in db.KINDS:
            raise WebError(no.UNKNOWN_KIND, kind=kind, kinds=", ".join(db.KINDS))

        def write(conn: Connection) -> None:
            if mail_on:
                if self.settings.smtp_host is None:
                    raise WebError(no.NO_MAIL_SERVER)
                r = conn.execute(select(USERS.c.email).where(USERS.c.id == user.id)).first()
                if r is None or r.email is None:
                    raise WebError(no.NO_ADDRESS_FOR_MAIL)
            db.set_switch(conn, user.id, kind, push_on, mail_on)
            if kind == "turn":
                conn.execute(update(USERS).where(USERS.c.id == user.id).values(notify_turns=mail_on))

        await self._write(write)
        return await self.settings_of(user)
