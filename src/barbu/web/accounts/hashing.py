"""Argon2id in a small pool of threads of its own, with a bounded queue.

Hashing a password costs tens of milliseconds and 64 MiB on purpose.  Run in the event loop's default
thread pool, a burst of log-ins would hold every thread and delay every other route's database work behind
it; here it has a few threads of its own, and at most ``threads + queue`` hashes are under way or waiting.
Beyond that a request is refused at once (429, "busy"), before it waits or is counted anywhere: a flood of
log-ins is slowed down, the rest of the server is not.  argon2-cffi releases the GIL while it hashes, and on
Linux the pool's threads run at a lower priority (``nice`` is a thread's own there): on a machine whose cores
are all hashing, the event loop and the database threads still get the processor first.
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..common.errors import WebError
from .refusals import HASHING_BUSY

T = TypeVar("T")
NICE = 10  # how much lower the hashing threads' priority is than the rest of the server's

_hasher = PasswordHasher()  # Argon2id with argon2-cffi's recommended costs (RFC 9106's low-memory choice)


@functools.cache
def dummy() -> str:
    """A hash to verify against when a name has no account, so that the answer takes the same work.  Made at
    the first log-in rather than at import: every process start would pay for it otherwise."""
    return _hasher.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)


def _lower_priority() -> None:
    """This thread (and the threads Argon2 starts from it) yields the processor to the rest of the server."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
    except (AttributeError, OSError):  # not Linux, or not allowed: the pool's bound still holds
        pass


class Hashing:
    """The pool: ``threads`` hashing at once, ``queue`` more waiting, the rest refused."""

    def __init__(self, threads: int = 2, queue: int = 16) -> None:
        self.threads, self.limit = max(1, threads), max(1, threads) + max(0, queue)
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="argon2", initializer=_lower_priority)
        self.under_way = 0  # hashes running or waiting in this process

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A place in the pool, taken at once or refused (checked and taken with no ``await`` between)."""
        if self.under_way >= self.limit:
            raise WebError(HASHING_BUSY)
        self.under_way += 1
        try:
            yield
        finally:
            self.under_way -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the pool's threads (the caller holds a `slot`)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def hash(self, password: str) -> str:
        with self.slot():
            return await self.run(hash_password, password)

    async def verify(self, stored: str, password: str) -> bool:
        return await self.run(verify, stored, password)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
