"""Accounts: the rules of names and passwords, sessions, throttled log-ins and one-time password links.

A player signs up with a name and a password and is then known by a session: a random id in an HttpOnly
cookie (SameSite=Lax, Secure when the page came over HTTPS), of which the server keeps only the SHA-256,
lasting `SESSION_DAYS` from its last use.  Passwords are checked against the ones guessed first
(`accounts.passwords`), hashed with Argon2id in a pool of threads of their own (`accounts.hashing`) and
never logged.  A log-in says "wrong name or password" whether or not the name exists, after the same work
either way; each attempt is reserved before its password is weighed, per name and address, per address and
per known browser (`accounts.throttle`, `accounts.devices`), so that no burst gets more guesses than a
patient intruder and no stranger locks the owner out.  Guests play as before: nothing here is needed to
sit at a table.
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, Awaitable, Callable, Sequence

from sqlalchemy.engine import Connection

from ..common.errors import WebError
from ..common.refusals import SERVER_STARTING
from ..db.storage import Store, hash_token, now
from ..tables.actor import NAME_MAX, poses_as_computer
from . import store as db
from .devices import Devices
from .hashing import Hashing, dummy, hash_password, needs_rehash
from .passwords import PASSWORD_MAX, PASSWORD_MIN, check_password  # noqa: F401  (the rules' home; kept here too)
from .refusals import (
    ACCOUNT_CLOSED,
    NAME_CHARACTERS,
    NAME_FIRST_CHARACTER,
    NAME_LOOKALIKE,
    NAME_MIXED_ALPHABETS,
    NAME_NEEDED,
    NAME_OF_COMPUTERS,
    NAME_TAKEN,
    NAME_TOO_LONG,
    NAME_TOO_SHORT,
    RESET_LINK_GONE,
    WRONG_LOG_IN,
    WRONG_PASSWORD,
)
from .store import User
from .throttle import Attempt, Throttle

#: Whether an account may write words that others read, now: a club's or an event's name and description, a
#: report (and the coming chat).  It raises the refusal when not (a moderator's mute: `barbu.web.moderation`);
#: the application wires it into the domains, which never import the moderation themselves.
Voice = Callable[[Connection, int], None]


def free_voice(conn: Connection, user_id: int) -> None:
    """Everyone may write: the voice of a domain built without the moderation (a test of that domain alone)."""


COOKIE = "barbu_session"
SESSION_DAYS = 30  # a session lapses this long after it was last used (sliding expiry)
RESET_HOURS = 24  # a one-time password link works this long
NAME_MIN = 2
NAME_PUNCTUATION = " -_.'"
LOOKALIKES = {"0": "o", "1": "l", "i": "l", "|": "l", "!": "l"}  # after folding: what reads alike in most fonts


def fold(name: str) -> str:
    """The name as compared for uniqueness: NFKC, case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@lru_cache(maxsize=4096)
def _latin_of(ch: str) -> str:
    """The ASCII letter a character can pass for (a Cyrillic "а" for "a"), else the character itself."""
    from confusable_homoglyphs import confusables  # 40 ms of tables: loaded at the first name checked

    found = confusables.is_confusable(ch, greedy=False, preferred_aliases=["latin"])
    if found:
        for glyph in found[0]["homoglyphs"]:
            c = glyph["c"]
            if len(c) == 1 and c.isascii() and c.isalnum():
                return c.lower()
    return ch


def skeleton(name: str) -> str:
    """What a name looks like: marks and separators dropped, lookalike letters and digits made one, so
    "Alice", "AIice", "A.lice" and a Cyrillic "Аlice" share one skeleton."""
    out = []
    for ch in unicodedata.normalize("NFKD", fold(name)):
        if unicodedata.combining(ch) or ch in NAME_PUNCTUATION:
            continue
        if not ch.isascii():
            ch = _latin_of(ch)
        out.append(LOOKALIKES.get(ch, ch))
    return "".join(out).replace("rn", "m").replace("vv", "w")


def account_name(raw: Any) -> tuple[str, str, str]:
    """A sign-up's name as (shown, folded key, skeleton), or a refusal that says which rule it breaks."""
    if not isinstance(raw, str) or not raw.strip():
        raise WebError(NAME_NEEDED)
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if len(name) > NAME_MAX:
        raise WebError(NAME_TOO_LONG, n=NAME_MAX)
    if len(name) < NAME_MIN:
        raise WebError(NAME_TOO_SHORT, n=NAME_MIN)
    if any(not (unicodedata.category(ch)[0] in "LMN" or ch in NAME_PUNCTUATION) for ch in name):
        raise WebError(NAME_CHARACTERS)
    if not unicodedata.category(name[0]).startswith(("L", "N")):
        raise WebError(NAME_FIRST_CHARACTER)
    from confusable_homoglyphs import categories

    if len(categories.unique_aliases(name) - {"COMMON", "INHERITED"}) > 1:
        raise WebError(NAME_MIXED_ALPHABETS)
    if poses_as_computer(name):
        raise WebError(NAME_OF_COMPUTERS, name=name)
    return name, fold(name), skeleton(name)


def open_store(get: Callable[[], Store | None]) -> Store:
    """The server's database, or a refusal while the server is still starting (it is opened at start-up)."""
    s = get()
    if s is None:
        raise WebError(SERVER_STARTING)
    return s


async def read_in_thread(store: Store, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(connection, *args)`` on a connection of its own, off the event loop."""

    def run() -> Any:
        with store.engine.connect() as conn:
            return fn(conn, *args)

    return await asyncio.to_thread(run)


async def write_in_thread(store: Store, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(connection, *args)`` in one transaction, committed, off the event loop."""

    def run() -> Any:
        with store.engine.begin() as conn:
            return fn(conn, *args)

    return await asyncio.to_thread(run)


class Accounts:
    """The accounts of one server, over its database (blocking work in threads)."""

    def __init__(
        self,
        store: Callable[[], Store | None],
        address_hash: Callable[[str], str],
        on_delete: Sequence[Callable[[Connection, int], None]] = (),
        hashing: Hashing | None = None,
        broker: Callable[[], Any] = lambda: None,
    ) -> None:
        """``on_delete``: what the other domains erase with an account, in the same transaction (a club
        he owns passes on: `barbu.web.clubs.store.leave_all`); the application wires them.  ``hashing``: the
        pool passwords are hashed in; ``broker``: the server's Redis client when it has many processes (the
        log-in counts are kept there)."""
        self._store = store
        self.address_hash = address_hash
        self.on_delete = tuple(on_delete)
        self.hashing = hashing or Hashing()
        self.throttle = Throttle(broker)
        self.devices = Devices(address_hash)

    @property
    def store(self) -> Store:
        return open_store(self._store)

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- signing up and logging in --
    async def check_new_password(self, password: Any, name: str) -> str:
        """A new password, or a refusal that says why.  Weighing it against the guessed ones takes up to
        some 40 ms of Python: it runs in the hashing pool, never in the event loop."""
        with self.hashing.slot():
            checked: str = await self.hashing.run(check_password, password, name)
            return checked

    async def sign_up(
        self, raw_name: Any, password: Any, count: Callable[[], Awaitable[None]] | None = None
    ) -> tuple[User, str]:
        """A new account and its session.  ``count``: the address's sign-up counted (or refused), after the name
        and password are weighed (a refused one counts nothing) and before the password is hashed; all of it
        holds one place in the hashing pool."""
        name, key, skel = account_name(raw_name)
        with self.hashing.slot():
            await self.hashing.run(check_password, password, name)
            if count is not None:
                await count()
            hashed = await self.hashing.run(hash_password, password)
        store = self.store

        def write() -> User:
            with store.engine.begin() as conn:
                if db.user_by_key(conn, key) is not None:
                    raise WebError(NAME_TAKEN, name=name)
                if db.skeleton_taken(conn, skel):
                    raise WebError(NAME_LOOKALIKE, name=name)
                uid = db.add_user(conn, name, key, skel, hashed)
                found = db.user_by_id(conn, uid)
                assert found is not None
                return found

        try:
            user = await self._run(write)
        except WebError:
            raise
        except Exception as e:  # two sign-ups of one name at once: the database's unique key decides
            if "unique" in str(e).lower() or "duplicate" in str(e).lower():
                raise WebError(NAME_TAKEN, name=name) from None
            raise
        return user, await self.open_session(user.id)

    async def log_in(
        self, raw_name: Any, password: Any, address: str, device: str | None = None
    ) -> tuple[User, str, str]:
        """The user, a new session and the known-browser cookie to set, or one refusal whether the name
        exists or not.  ``device``: the browser's known-browser cookie.  The attempt is reserved before the
        password is weighed (a refusal to wait counts nothing), and given back when it is right."""
        wrong = WebError(WRONG_LOG_IN)
        if not isinstance(raw_name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX:
            raise wrong
        key = fold(raw_name)[: NAME_MAX * 4]
        attempt = Attempt.of(key, self.address_hash(address), self.devices.known(device, key))
        store = self.store
        with self.hashing.slot():  # a place in the hashing pool first: refused at once when it is full
            await self.throttle.reserve(attempt)

            def read() -> tuple[User, str] | None:
                with store.engine.connect() as conn:
                    return db.user_by_key(conn, key)

            found = await self._run(read)
            ok = await self.hashing.verify(found[1] if found else dummy(), password)
        if not ok or found is None or found[0].banned:
            if ok and found is not None and found[0].banned:
                raise WebError(ACCOUNT_CLOSED)
            raise wrong
        user = found[0]
        await self.throttle.forgive(attempt)
        if needs_rehash(found[1]):
            await self.set_password(user.id, password)
        return user, await self.open_session(user.id), self.devices.remember(device, key)

    # -- sessions --
    async def open_session(self, user_id: int) -> str:
        token = secrets.token_urlsafe(32)
        store = self.store

        def write() -> None:
            with store.engine.begin() as conn:
                db.add_session(conn, hash_token(token), user_id, now() + timedelta(days=SESSION_DAYS))

        await self._run(write)
        return token

    async def session_user(self, token: Any) -> User | None:
        """The user a session cookie stands for (None: none, forged, lapsed or banned); each use slides its
        expiry forward (written at most once an hour)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        h = hash_token(token)
        store = self._store()
        if store is None:
            return None

        def read() -> User | None:
            with store.engine.begin() as conn:
                found = db.session_user(conn, h)
                if found is None:
                    return None
                user, expires = found
                fresh = now() + timedelta(days=SESSION_DAYS)
                if fresh - expires > timedelta(hours=1):
                    db.extend_session(conn, h, fresh)
                return user

        return await self._run(read)

    async def log_out(self, token: Any) -> None:
        if isinstance(token, str) and len(token) <= 100:
            h = hash_token(token)
            store = self.store

            def write() -> None:
                with store.engine.begin() as conn:
                    db.end_session(conn, h)

            await self._run(write)

    async def log_out_everywhere(self, user: User) -> None:
        store = self.store

        def write() -> None:
            with store.engine.begin() as conn:
                db.end_sessions(conn, user.id)

        await self._run(write)

    # -- the account's own changes --
    async def _check_own_password(self, user: User, password: Any) -> None:
        store = self.store

        def read() -> str | None:
            with store.engine.connect() as conn:
                found = db.user_by_key(conn, fold(user.name))
                return found[1] if found else None

        stored = await self._run(read)
        if not isinstance(password, str) or stored is None or len(password) > PASSWORD_MAX:
            raise WebError(WRONG_PASSWORD)
        with self.hashing.slot():
            if not await self.hashing.verify(stored, password):
                raise WebError(WRONG_PASSWORD)

    async def set_password(self, user_id: int, password: str) -> None:
        hashed = await self.hashing.hash(password)
        store = self.store

        def write() -> None:
            with store.engine.begin() as conn:
                db.set_password(conn, user_id, hashed)

        await self._run(write)

    async def change_password(self, user: User, old: Any, new: Any) -> str:
        """A new password; every other session ends, and the caller gets a new one."""
        await self._check_own_password(user, old)
        await self.check_new_password(new, user.name)
        await self.set_password(user.id, new)
        await self.log_out_everywhere(user)
        return await self.open_session(user.id)

    async def delete(self, user: User, password: Any) -> None:
        await self._check_own_password(user, password)
        store = self.store

        def write() -> None:
            with store.engine.begin() as conn:
                for erase in self.on_delete:  # a club he owns passes on first
                    erase(conn, user.id)
                db.delete_user(conn, user.id)

        await self._run(write)

    async def use_reset(self, token: Any, password: Any) -> tuple[User, str]:
        """A one-time link's new password: the link is used up, every session of the account ends."""
        gone = WebError(RESET_LINK_GONE)
        if not isinstance(token, str) or len(token) > 100:
            raise gone
        store = self.store
        h = hash_token(token)

        def valid() -> User | None:
            with store.engine.connect() as conn:
                return db.reset_user(conn, h)

        user = await self._run(valid)
        if user is None:
            raise gone
        await self.check_new_password(password, user.name)

        def take() -> int | None:
            with store.engine.begin() as conn:
                return db.take_reset(conn, h)

        if await self._run(take) != user.id:
            raise gone
        await self.set_password(user.id, password)
        await self.log_out_everywhere(user)
        return user, await self.open_session(user.id)


# -- the operator's side (barbu users), synchronous over the same database --
def find_user(store: Store, raw_name: str) -> User | None:
    with store.engine.connect() as conn:
        found = db.user_by_key(conn, fold(raw_name))
        return found[0] if found else None


def reset_link(store: Store, user: User) -> tuple[str, datetime]:
    """A new one-time link's secret and when it lapses; an older link of the account stops working."""
    token = secrets.token_urlsafe(32)
    expires = now() + timedelta(hours=RESET_HOURS)
    with store.engine.begin() as conn:
        db.add_reset(conn, hash_token(token), user.id, expires)
    return token, expires
