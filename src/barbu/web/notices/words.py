"""A notice said in words: its title and line in a reader's language, from its kind and params.

The same msgids are the page's (static/js/notices.js says them in the reader's language in the list), so one
translation serves the bell, the list, the Web Push notification and the e-mail.  The params each kind's words
name (a notice may carry more, e.g. the ids its page needs):

- "turn": ``game`` (the rules' name), ``table``, and ``timeout`` when his time ran out;
- "challenge": ``name`` (who challenges; with ``state`` "table", "declined", "cancelled" or "expired": whose
  challenge was accepted by all, who declined it, who cancelled it, whose challenge lapsed);
- "event-soon": ``event`` (its name), ``minutes``, ``id``;
- "event-table": ``event`` (its name), ``id``, ``round``, ``table`` (his table of that round, ready now);
- "club-invite": ``name`` (who invites), ``club`` (its name);
- "moderator-reply": nothing (the warning itself is shown on his next page).
"""

from __future__ import annotations

from typing import Any

from ...core.words import N_
from ...guide.ruleset_words import preset_name
from ...i18n import translator

TITLES = {
    "turn": N_("Your turn"),
    "challenge": N_("A challenge"),
    "event-soon": N_("An event starts soon"),
    "event-table": N_("Your table is ready"),
    "club-invite": N_("A club's invitation"),
    "moderator-reply": N_("A word from a moderator"),
    "test": N_("A test notification"),
}
LINES = {
    "turn": N_("{game}: the table waits for your move"),
    "turn-timeout": N_("{game}: your time ran out and the computer played for you"),
    "challenge": N_("{name} challenges you to a table"),
    "challenge-table": N_("{name}'s challenge: everyone accepted, your table is ready"),
    "challenge-declined": N_("{name} declined the challenge"),
    "challenge-cancelled": N_("{name} cancelled the challenge"),
    "challenge-expired": N_("{name}'s challenge expired: not everyone answered in time"),
    "event-soon": N_("{event} starts in {minutes} minutes"),
    "event-table": N_("{event}: your table is ready, the clock is running"),
    "club-invite": N_("{name} invites you to the club {club}"),
    "moderator-reply": N_("A moderator wrote to you: read it on barbu"),
    "test": N_("Notifications reach this device"),
}
MAIL_BODY = N_(
    "Hello {name},\n\n{line}\n\n{link}\n\nYou chose to receive these e-mails; to choose which, or none: {account}\n"
    "To take this address off your account: {unsubscribe}\n"
)


CHALLENGE_STATES = ("table", "declined", "cancelled", "expired")  # a challenge's ends, told to its players


def line_key(kind: str, params: dict[str, Any]) -> str:
    if kind == "challenge" and params.get("state") in CHALLENGE_STATES:
        return f"challenge-{params['state']}"
    return "turn-timeout" if kind == "turn" and params.get("timeout") else kind


def worded(kind: str, params: dict[str, Any], lang: str) -> tuple[str, str]:
    """(title, line) of a notice in ``lang``; a param the words name but the notice lacks reads as empty."""
    tr = translator(lang)
    fields = {k: str(v) for k, v in params.items()}
    if "game" in fields:
        fields["game"] = preset_name(fields["game"], tr)  # "classic" reads "Classique" in French
    template = tr.gettext(LINES.get(line_key(kind, params), LINES["test"]))
    for name in ("game", "name", "event", "minutes", "club"):
        fields.setdefault(name, "")
    return tr.gettext(TITLES.get(kind, TITLES["test"])), template.format(**fields)
