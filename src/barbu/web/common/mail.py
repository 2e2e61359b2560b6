"""E-mails that say "your turn" at a turn-based table, for players who asked for them.

Only where the operator named a mail server (``barbu serve --smtp HOST:PORT``); sent with the standard
library's SMTP client from a thread, so a slow mail server never holds a table up; a failure costs one
line in the log (never the player's address) and the table plays on.  Written in the player's language.
"""

from __future__ import annotations

import asyncio
import logging
import re
import smtplib
from email.message import EmailMessage

from ...core.words import N_
from ...i18n import translator
from .settings import Settings

log = logging.getLogger("barbu.web")
EMAIL = re.compile(
    r"^[^@\s<>\"(),;:]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$"
)

SUBJECTS = {
    "turn": N_("Your turn at barbu"),
    "timeout": N_("Your time ran out at barbu"),
}
BODIES = {
    "turn": N_(
        "Hello {name},\n\nIt is your turn at the table {table} ({game}). Play when you like before your time "
        "runs out:\n\n{link}\n\nYou get this e-mail because you asked for it; you can turn it off on your "
        "account page: {account}\n"
    ),
    "timeout": N_(
        "Hello {name},\n\nYour time ran out at the table {table} ({game}): the computer played that move "
        "for you. The table waits for you:\n\n{link}\n\nYou get this e-mail because you asked for it; you "
        "can turn it off on your account page: {account}\n"
    ),
}


def valid_email(text: object) -> bool:
    return isinstance(text, str) and len(text) <= 254 and EMAIL.match(text) is not None


def message(settings: Settings, to: str, lang: str, kind: str, name: str, table_id: str, game: str) -> EmailMessage:
    words = translator(lang)
    base = (settings.public_url or "").rstrip("/")
    msg = EmailMessage()
    msg["From"] = settings.mail_from
    msg["To"] = to
    msg["Subject"] = words.gettext(SUBJECTS[kind])
    msg.set_content(
        words.gettext(BODIES[kind]).format(
            name=name, table=table_id, game=game, link=f"{base}/t/{table_id}", account=f"{base}/account"
        )
    )
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
