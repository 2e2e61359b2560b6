"""An account's e-mail address: confirmed by a link before anything else is sent to it, taken off by an
unsubscribe link, and the "forgot your password" mail.

- **Confirming.**  A new address is kept unconfirmed (changing it un-confirms it) and sent one link: a
  random key of which only the SHA-256 is stored, working once, for `CONFIRM_HOURS`, and only while the
  account still has that address.  Until it is used nothing else goes to the address (`mail_of` gives
  the tables no address).  Sending it is budgeted: `Settings.confirmations_per_day` per account and per
  recipient, besides every mail's budgets (`barbu.web.db.mailbudget`), reserved before it goes.
- **Unsubscribing.**  Every mail's link (and its ``List-Unsubscribe`` header) turns off the reminders,
  or takes the address off the account (the confirmation and password mails: the address's owner may
  never have asked), without logging in (`barbu.web.common.mail.unsubscribe_token`).
- **Forgot your password.**  A name or an address: if it is an account's with a confirmed address, a
  one-time link goes there, made as the operator's are (`service.reset_link`, used by
  `service.Accounts.use_reset`).  The answer is the same whether or not anything was found or sent, and
  it is given before any mail is looked for; the requests are counted per client address, the mails
  per recipient (`Settings.resets_per_day`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from sqlalchemy import DateTime, ForeignKey, String, delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from ..common import mail
from ..common.errors import WebError
from ..common.settings import Settings
from ..db import mailbudget
from ..db.storage import Base, Store, _aware, hash_token, now, table_of
from ..tables.outside import MailTo
from . import store as db
from .refusals import CONFIRM_LINK_GONE, MAIL_BUDGET_SPENT, NOTHING_TO_CONFIRM, TOO_MANY_RESET_REQUESTS
from .service import RESET_HOURS, fold, open_store, reset_link, write_in_thread
from .store import USERS, User

log = logging.getLogger("barbu.web")

CONFIRM_HOURS = 48  # a confirmation link works this long
RESET_ACCOUNTS = 3  # accounts one "forgot" request by address may write to


class ConfirmationRow(Base):
    """A link sent to confirm an address: its key's SHA-256, the account and the address it was sent to."""

    __tablename__ = "barbu_mail_confirmations"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("barbu_users.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


CONFIRMATIONS = table_of(ConfirmationRow)


@dataclass(frozen=True)
class Address:
    """An account's e-mail, as its own page shows it: whether confirmed, and when a link was last sent."""

    email: str | None
    notify_turns: bool
    confirmed: bool
    sent_at: datetime | None  # the newest confirmation link still working, if any

    def json(self) -> dict[str, Any]:
        return {
            "email": self.email,
            "notify_turns": self.notify_turns,
            "confirmed": self.confirmed,
            "confirmation_sent": self.sent_at.isoformat(timespec="seconds") if self.sent_at else None,
        }


# -- the reads and writes --
def mail_of(conn: Connection, user_id: int) -> MailTo | None:
    """What the tables are given to remind a player (`barbu.web.tables.outside.Outside`): his address only
    once confirmed."""
    r = conn.execute(
        select(USERS.c.email, USERS.c.email_confirmed_at, USERS.c.notify_turns, USERS.c.lang, USERS.c.name).where(
            USERS.c.id == user_id, USERS.c.banned.is_(False)
        )
    ).first()
    if r is None:
        return None
    return (r.email if r.email_confirmed_at is not None else None, bool(r.notify_turns), r.lang, r.name)


def address_of(conn: Connection, user_id: int) -> Address:
    r = conn.execute(
        select(USERS.c.email, USERS.c.email_confirmed_at, USERS.c.notify_turns).where(USERS.c.id == user_id)
    ).first()
    if r is None:
        return Address(None, False, False, None)
    sent = None
    if r.email and r.email_confirmed_at is None:
        q = select(func.max(CONFIRMATIONS.c.expires_at)).where(
            CONFIRMATIONS.c.user_id == user_id, CONFIRMATIONS.c.email == r.email, CONFIRMATIONS.c.expires_at > now()
        )
        latest = conn.execute(q).scalar()
        sent = _aware(latest) - timedelta(hours=CONFIRM_HOURS) if latest is not None else None
    return Address(r.email, bool(r.notify_turns), r.email_confirmed_at is not None, sent)


def set_address(conn: Connection, user_id: int, email: str | None, notify: bool) -> bool:
    """Keep the account's address and choice; a changed address is unconfirmed, its older links stop
    working.  True when the address changed (and is one to confirm)."""
    r = conn.execute(select(USERS.c.email).where(USERS.c.id == user_id)).first()
    changed = r is not None and (r.email or "").lower() != (email or "").lower()
    values: dict[str, Any] = {"email": email, "notify_turns": notify}
    if changed:
        values["email_confirmed_at"] = None
        conn.execute(delete(CONFIRMATIONS).where(CONFIRMATIONS.c.user_id == user_id))
    conn.execute(update(USERS).where(USERS.c.id == user_id).values(**values))
    return changed and email is not None


def drop_address(conn: Connection, user_id: int) -> None:
    conn.execute(
        update(USERS).where(USERS.c.id == user_id).values(email=None, email_confirmed_at=None, notify_turns=False)
    )
    conn.execute(delete(CONFIRMATIONS).where(CONFIRMATIONS.c.user_id == user_id))


def confirmed_users(conn: Connection, who: str) -> list[tuple[User, str]]:
    """The accounts a "forgot your password" names (by name, or by address), each with its confirmed address."""
    q = select(USERS).where(USERS.c.email_confirmed_at.isnot(None), USERS.c.email.isnot(None))
    if "@" in who:
        q = q.where(func.lower(USERS.c.email) == who.strip().lower()).order_by(USERS.c.id).limit(RESET_ACCOUNTS)
    else:
        q = q.where(USERS.c.name_key == fold(who))
    rows = conn.execute(q).all()
    return [(User(r.id, r.name, _aware(r.created_at), bool(r.banned)), r.email) for r in rows if not r.banned]


def sweep(conn: Connection) -> None:
    """Forget lapsed confirmation links and old days' mail counts."""
    conn.execute(delete(CONFIRMATIONS).where(CONFIRMATIONS.c.expires_at <= now()))
    mailbudget.sweep(conn)


class Email:
    """The e-mail side of the accounts of one server (blocking work in threads)."""

    def __init__(self, settings: Settings, store: Callable[[], Store | None], address_hash: Callable[[str], str]):
        self.settings = settings
        self._store = store
        self.address_hash = address_hash
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _write(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await write_in_thread(self.store, fn, *args)

    async def _key(self) -> bytes:
        return await asyncio.to_thread(self.store.creations_key)

    # -- the account's page --
    async def address(self, user: User) -> Address:
        return await self._write(address_of, user.id)

    async def save(self, user: User, email: str | None, notify: bool) -> tuple[Address, bool]:
        """The address and choice kept; a new address is sent its confirmation link (if the day's budgets
        allow: the second value says whether it went)."""
        changed = await self._write(set_address, user.id, email, notify)
        sent = False
        if changed and self.settings.smtp_host is not None:
            sent = await self._send_confirmation(user)
        return await self.address(user), sent

    async def confirm_again(self, user: User) -> Address:
        """Send the confirmation link again (a new one; the older keep working until they lapse)."""
        if self.settings.smtp_host is None:
            raise WebError(NOTHING_TO_CONFIRM)
        found = await self.address(user)
        if found.email is None or found.confirmed:
            raise WebError(NOTHING_TO_CONFIRM)
        if not await self._send_confirmation(user):
            raise WebError(MAIL_BUDGET_SPENT)
        return await self.address(user)

    async def _send_confirmation(self, user: User) -> bool:
        store, settings = self.store, self.settings
        found = await self.address(user)
        if found.email is None or found.confirmed:
            return False
        to = found.email
        key = await self._key()
        extra = [
            (f"confirm-to:{mailbudget.recipient(key, to)}", settings.confirmations_per_day),
            (f"confirm-account:{user.id}", settings.confirmations_per_day),
        ]
        if not await mailbudget.take(settings, store, to, user.id, extra):
            return False
        token = secrets.token_urlsafe(32)

        def keep(conn: Connection) -> None:
            sweep(conn)  # lapsed links and older days' counts go as new ones come
            conn.execute(
                CONFIRMATIONS.insert().values(
                    id_hash=hash_token(token),
                    user_id=user.id,
                    email=to,
                    expires_at=now() + timedelta(hours=CONFIRM_HOURS),
                )
            )

        await self._write(keep)
        lang = await self._write(lambda conn: db.mail_of(conn, user.id))
        msg = mail.message(
            settings,
            to,
            (lang[2] if lang else None) or settings.default_lang,
            "confirm",
            mail.unsubscribe_token(key, user.id, mail.ADDRESS, to),
            name=user.name,
            hours=CONFIRM_HOURS,
            link=f"{mail.base_url(settings)}/account/confirm#key={token}",
        )
        return await mail.send(settings, msg)

    async def confirm(self, token: Any) -> tuple[str, str]:
        """Use a confirmation link: the account's name and the address now confirmed."""
        gone = WebError(CONFIRM_LINK_GONE)
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise gone
        h = hash_token(token)

        def use(conn: Connection) -> tuple[str, str] | None:
            r = conn.execute(select(CONFIRMATIONS).where(CONFIRMATIONS.c.id_hash == h)).first()
            if r is None:
                return None
            taken = conn.execute(delete(CONFIRMATIONS).where(CONFIRMATIONS.c.id_hash == h)).rowcount
            user = conn.execute(select(USERS.c.name, USERS.c.email).where(USERS.c.id == r.user_id)).first()
            if taken != 1 or _aware(r.expires_at) <= now() or user is None or user.email != r.email:
                return None
            conn.execute(update(USERS).where(USERS.c.id == r.user_id).values(email_confirmed_at=now()))
            return user.name, r.email

        found = await self._write(use)
        if found is None:
            raise gone
        return found

    # -- unsubscribing, with no log-in --
    async def unsubscribe(self, token: Any) -> tuple[str, str, str] | None:
        """Turn off what a mail's link says: (the account's name, "turns" or "address", the address), or None
        when the token is not the server's or its address has left the account."""
        return await self._unsubscribe(token, apply=True)

    async def check_unsubscribe(self, token: Any) -> tuple[str, str, str] | None:
        """What a link would turn off, without turning it off (the page that asks first)."""
        return await self._unsubscribe(token, apply=False)

    async def _unsubscribe(self, token: Any, apply: bool) -> tuple[str, str, str] | None:
        found = mail.read_unsubscribe(token)
        if found is None:
            return None
        user_id, what, signature = found
        key = await self._key()

        def turn_off(conn: Connection) -> tuple[str, str, str] | None:
            r = conn.execute(select(USERS.c.name, USERS.c.email).where(USERS.c.id == user_id)).first()
            if r is None or r.email is None or not mail.signed(key, user_id, what, r.email, signature):
                return None
            if apply and what == mail.TURNS:
                conn.execute(update(USERS).where(USERS.c.id == user_id).values(notify_turns=False))
            elif apply:
                drop_address(conn, user_id)
            return r.name, what, r.email

        return await self._write(turn_off)

    # -- forgot your password --
    async def forgot(self, who: Any, address: str) -> None:
        """Count the request against the client's address (refused beyond the day's), then look for the
        account and write to it in the background: the answer never depends on what is found."""
        settings, store = self.settings, self.store
        extra = [(f"reset-ip:{self.address_hash(address)}", settings.reset_requests_per_address)]

        def count(conn: Connection) -> None:
            mailbudget.reserve(conn, extra)
            sweep(conn)

        try:
            await self._write(count)
        except mailbudget.BudgetSpent:
            raise WebError(TOO_MANY_RESET_REQUESTS) from None
        if settings.smtp_host is None or not isinstance(who, str) or not 1 <= len(who.strip()) <= 254:
            return
        task = asyncio.get_running_loop().create_task(self._send_resets(store, who.strip()), name="forgot")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_resets(self, store: Store, who: str) -> None:
        settings = self.settings
        try:
            found = await self._write(confirmed_users, who)
            key = await self._key()
            for user, to in found:
                extra = [(f"reset-to:{mailbudget.recipient(key, to)}", settings.resets_per_day)]
                if not await mailbudget.take(settings, store, to, user.id, extra):
                    continue
                token, _ = await asyncio.to_thread(reset_link, store, user)  # the operator's links, the same way
                lang = await self._write(lambda conn, uid=user.id: db.mail_of(conn, uid))
                msg = mail.message(
                    settings,
                    to,
                    (lang[2] if lang else None) or settings.default_lang,
                    "reset",
                    mail.unsubscribe_token(key, user.id, mail.ADDRESS, to),
                    name=user.name,
                    hours=RESET_HOURS,
                    link=f"{mail.base_url(settings)}/account/reset#key={token}",
                )
                await mail.send(settings, msg)
        except Exception:  # nobody waits for this answer; the log has it, without the address
            log.exception("mail: a password e-mail could not be sent")
