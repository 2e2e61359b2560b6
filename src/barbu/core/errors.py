"""Error types: each says what was wrong in words a player understands.

A refusal made with `BarbuError.of` also carries its stable ``code`` and raw
``params``, so a front end can word it in the player's language
(``words.render(e.message, e.params)``, or barbu.i18n's ``word_error``);
``str(e)`` is its English.  See docs/i18n.md.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .words import ENGLISH, Message

E = TypeVar("E", bound="BarbuError")


class BarbuError(Exception):
    """Base class of every error the package raises on purpose."""

    code: str | None = None  # stable code of a worded refusal (None: English text only)
    message: Message | None = None
    params: dict[str, Any] = {}

    @classmethod
    def of(cls: type[E], message: Message, **params: Any) -> E:
        """The error for ``message`` with raw ``params``; its str is the English wording."""
        e = cls(ENGLISH.render(message, params))
        e.code, e.message, e.params = message.code, message, params
        return e


class ParseError(BarbuError, ValueError):
    """A text (card, action, ruleset) that is not well formed."""


class IllegalAction(BarbuError):
    """A well-formed action that the rules do not allow now; the state is unchanged."""


class RulesetError(BarbuError, ValueError):
    """An unknown preset or option, or a value the option does not allow."""


class RecordError(BarbuError):
    """A match record that cannot be read; ``line`` is its 1-based line number when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class UnreadableFile(RecordError):
    """A record file that is missing, unreadable or not text: not a malformed record."""


class AgentError(BarbuError, ValueError):
    """An unknown computer player or setting, or a line-up that does not fit the table."""
