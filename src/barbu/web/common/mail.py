"""The e-mails the server sends, and the sending: only to addresses that asked for them.

Only where the operator named a mail server (``barbu serve --smtp HOST:PORT``).  Three kinds, each written
in the player's language: "confirm your address" (nothing else goes to an address before it is
confirmed), "choose a new password" (asked on the log-in page, to a confirmed address), and one reminder
listing the turn-based tables waiting for him (batched, `barbu.web.tables.outside`).  Every mail carries an
unsubscribe link, signed, working without logging in, and the ``List-Unsubscribe`` and
``List-Unsubscribe-Post`` headers of RFC 8058 so that a mail program offers it in one click.  Every mail
is counted against the day's budgets before it goes (`barbu.web.db.mailbudget`).

Sent with the standard library's SMTP client from a thread, so a slow mail server never holds anything up;
a failure costs one line in the log (never the address).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import smtplib
from email.message import EmailMessage
from typing import Any

from ...core.words import N_, NN_
from ...i18n import translator
from .settings import Settings

log = logging.getLogger("barbu.web")
EMAIL = re.compile(
    r"^[^@\s<>\"(),;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$"
)

#: What an unsubscribe link turns off: the turn reminders, or the address itself (it leaves the account).
TURNS, ADDRESS = "turns", "address"

SUBJECTS = {
    "confirm": N_("Confirm your e-mail address at barbu"),
    "reset": N_("Choose a new password at barbu"),
    "turns": N_("Tables waiting for you at barbu"),
}
BODIES = {
    "confirm": N_(
        "Hello {name},\n\nThis address was given for the account {name} at barbu. To receive e-mails there "
        "(reminders of your turn, a new password when you forget yours), confirm it within {hours} hours:\n\n"
        "{link}\n\nIf it was not you, do nothing: no other e-mail will be sent to this address. To take "
        "this address off that account now: {unsubscribe}\n"
    ),
    "reset": N_(
        "Hello {name},\n\nSomebody asked for a new password for the account {name} at barbu. This link "
        "works once, within {hours} hours:\n\n{link}\n\nIf it was not you, do nothing: your password "
        "stays as it is. To take this address off that account: {unsubscribe}\n"
    ),
    "turns": N_(
        "Hello {name},\n\nThese turn-based tables wait for you:\n\n{tables}\n\n{how_often} "
        "To receive no more of these e-mails: {unsubscribe}\nYour account page: {account}\n"
    ),
}
HOW_OFTEN = NN_("You get at most one such e-mail every {n} hour.", "You get at most one such e-mail every {n} hours.")


def valid_email(text: object) -> bool:
    return isinstance(text, str) and len(text) <= 254 and EMAIL.match(text) is not None


def base_url(settings: Settings) -> str:
    return (settings.public_url or "").rstrip("/")


def unsubscribe_token(key: bytes, user_id: int, what: str, to: str) -> str:
    """A signed token that turns ``what`` off for an account's address ``to``: it needs no log-in and never
    lapses, but once the address has left the account it no longer changes anything."""
    payload = f"{user_id}.{what}"
    return f"{payload}.{_signature(key, payload, to)}"


def read_unsubscribe(token: object) -> tuple[int, str, str] | None:
    """The account, what a token turns off and its signature (`signed` checks it), or None: not a token."""
    if not isinstance(token, str) or len(token) > 100:
        return None
    user, _, rest = token.partition(".")
    what, _, signature = rest.partition(".")
    if not user.isdigit() or len(user) > 12 or what not in (TURNS, ADDRESS):
        return None
    return int(user), what, signature


def signed(key: bytes, user_id: int, what: str, to: str, signature: str) -> bool:
    """Whether ``signature`` is the server's for this account, what and address."""
    return hmac.compare_digest(signature.encode(), _signature(key, f"{user_id}.{what}", to).encode())


def _signature(key: bytes, payload: str, to: str) -> str:
    text = f"unsubscribe:{payload}:{to.strip().lower()}".encode("utf-8", "surrogatepass")
    return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


def message(settings: Settings, to: str, lang: str, kind: str, unsubscribe: str, **words: Any) -> EmailMessage:
    """One e-mail of ``kind`` ("confirm", "reset", "turns"), its unsubscribe link and headers included.
    ``unsubscribe``: the token (`unsubscribe_token`); ``words``: what its body names."""
    tr = translator(lang)
    base = base_url(settings)
    link = f"{base}/mail/unsubscribe/{unsubscribe}"
    if kind == "turns":
        hours = max(1, round(settings.reminder_every / 3600))
        words["how_often"] = tr.ngettext(*HOW_OFTEN, hours).format(n=hours)
    msg = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = to
    msg["Subject"] = tr.gettext(SUBJECTS[kind])
    msg["List-Unsubscribe"] = f"<{link}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(tr.gettext(BODIES[kind]).format(unsubscribe=link, account=f"{base}/account", **words))
    return msg


def _send(settings: Settings, msg: EmailMessage) -> None:
    assert settings.smtp_host is not None
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=10) as smtp:
        smtp.send_message(msg)


async def send(settings: Settings, msg: EmailMessage) -> bool:
    """Send one e-mail; False (and one line in the log) if the mail server would not take it."""
    try:
        await asyncio.to_thread(_send, settings, msg)
        return True
    except (OSError, smtplib.SMTPException) as e:
        log.warning('mail: a "%s" e-mail was not sent: %s', msg["Subject"], type(e).__name__)
        return False
