"""Web Push (RFC 8030) to a player's browsers and phones, with pywebpush: the payload encrypted for each
subscription as RFC 8291 says (aes128gcm), each request signed with the server's VAPID key (RFC 8292).

The key pair: the PEM file ``barbu serve --vapid-key FILE`` names, else one made on the first need and kept in
the database (`store.vapid_pem`), so every process sharing the database signs with the same key and the
browsers' subscriptions (made for its public key) stay good across restarts.
"""

from __future__ import annotations

import base64
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

log = logging.getLogger("barbu.web")

TTL = 24 * 3600  # seconds a push service keeps a push for a device that is off
TIMEOUT = 10.0  # seconds a push service may take to answer


def new_pem() -> str:
    """A new VAPID private key (P-256), as PEM."""
    v = Vapid02()
    v.generate_keys()
    return v.private_pem().decode()


def read_key(pem: str) -> Vapid02:
    return Vapid02.from_pem(pem.encode())


def key_from_file(path: str) -> str:
    """The PEM of ``barbu serve --vapid-key FILE``, checked to be a private key pywebpush can sign with."""
    pem = Path(path).read_text(encoding="ascii")
    read_key(pem)
    return pem


def public_key(key: Vapid02) -> str:
    """The applicationServerKey the browsers subscribe with: the public point, uncompressed, base64url."""
    raw = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def claims_subject(mail_from: str, public_url: str | None) -> str:
    """VAPID's "sub": how the push service may reach the operator (his site, else the sender address)."""
    if public_url and public_url.startswith("https://"):
        return public_url
    return f"mailto:{mail_from}"


def endpoint_allowed(endpoint: str, plain_http: bool) -> bool:
    """A push service's address: https, to a host name (never this machine or an address of a private
    network); plain http and local hosts only where the operator allowed them (a test's local push service)."""
    try:
        url = urlparse(endpoint)
    except ValueError:
        return False
    if plain_http:
        return url.scheme in ("http", "https") and bool(url.hostname)
    host = (url.hostname or "").lower()
    if url.scheme != "https" or not host or host == "localhost" or host.endswith(".localhost"):
        return False
    return not all(c.isdigit() or c in ".:[]" for c in host) and ":" not in host  # no IP literal


@dataclass(frozen=True)
class Sent:
    """How one push went: delivered, gone for good (the subscription goes), or failed this time."""

    ok: bool
    gone: bool


def send(key: Vapid02, subject: str, info: dict[str, Any], payload: dict[str, Any]) -> Sent:
    """Encrypt and post one push (blocking: run in a thread).  A failure is one line in the log, without the
    endpoint (it is an address of the player's device).  pywebpush (with aiohttp and requests, half a second)
    is loaded at the first push, not at every server's start."""
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            info,
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=key,
            vapid_claims={"sub": subject},
            ttl=TTL,
            timeout=TIMEOUT,
        )
        return Sent(True, False)
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else None
        if status in (404, 410):
            return Sent(False, True)
        log.warning("push: a notification was not taken (%s)", status or "no answer")
    except Exception as e:  # the push service unreachable, its answer unreadable: this push is lost
        log.warning("push: a notification could not be sent (%s)", type(e).__name__)
    return Sent(False, False)
