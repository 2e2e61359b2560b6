"""Known browsers: a signed cookie that says "this account logged in here before".

A browser gets a random id the first time an account logs in (or signs up) in it; for each such account the
cookie carries an HMAC-SHA256 of (the browser's id, the account's folded name) under a key derived from the
server's own secret (the one its address hashes use, kept in the database), so no visitor can make one up
or move it to another name.  The cookie is HttpOnly and SameSite=Lax, Secure over HTTPS, and lasts a year.
A log-in from a known browser is counted on that browser's own key (`accounts.throttle`): strangers'
failures on the name or from the same address do not slow the owner down.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Callable

COOKIE = "barbu_device"
DAYS = 365
MAX_ACCOUNTS = 6  # accounts one browser remembers (the oldest goes first)
_SIG = 32  # hex characters of each signature kept


class Devices:
    """Reads and writes the known-browser cookie, signed under the server's secret."""

    def __init__(self, address_hash: Callable[[str], str]) -> None:
        """``address_hash``: the server's keyed HMAC of addresses; the cookie's key is derived from it, so it
        lives and changes with the server's secret and needs nothing more."""
        self._address_hash = address_hash

    def _sign(self, device: str, name_key: str) -> str:
        key = hashlib.sha256(self._address_hash("\x00barbu device cookie key").encode()).digest()
        msg = f"{device}\x00{name_key}".encode("utf-8", "surrogatepass")
        return hmac.new(key, msg, hashlib.sha256).hexdigest()[:_SIG]

    @staticmethod
    def _parts(cookie: str | None) -> tuple[str, list[str]] | None:
        if not isinstance(cookie, str) or len(cookie) > 400:
            return None
        parts = cookie.split(".")
        if len(parts) < 2 or not 16 <= len(parts[0]) <= 64 or not all(len(p) == _SIG for p in parts[1:]):
            return None
        return parts[0], parts[1:]

    def known(self, cookie: str | None, name_key: str) -> str | None:
        """The browser's id when its cookie was signed for this name, else None."""
        found = self._parts(cookie)
        if found is None:
            return None
        device, sigs = found
        expected = self._sign(device, name_key)
        return device if any(hmac.compare_digest(expected, s) for s in sigs) else None

    def remember(self, cookie: str | None, name_key: str) -> str:
        """The cookie to set after a log-in on this name: the browser's id (new if it had none) and the name's
        signature added to the others'."""
        found = self._parts(cookie)
        device, sigs = found if found is not None else (secrets.token_hex(16), [])
        sig = self._sign(device, name_key)
        sigs = [s for s in sigs if s != sig][-(MAX_ACCOUNTS - 1) :] + [sig]
        return ".".join([device, *sigs])
