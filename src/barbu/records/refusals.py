"""What a record reader says when a record cannot be read: codes and English templates (the msgids).

A `RecordError` made by `refuse` carries its code and raw parameters like the engine's refusals
(`barbu.core.errors.BarbuError.of`), so a front end words it in the player's language with
`barbu.i18n.word_error`; ``str(e)`` stays the English ``line N: …`` it always was.  The line
number rides along as ``e.line``.  An error that made a line fail (a refusal of the engine met
while replaying) is a parameter of kind ``error``, worded in the same language.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..core.errors import BarbuError, RecordError
from ..core.words import N_, Message, Words, kind, message

E = TypeVar("E", bound=RecordError)


@kind("error")
def _error(w: Words, e: Any) -> str:
    """An error inside a message: a coded one worded anew in the same language, any other its text."""
    if isinstance(e, BarbuError) and e.message is not None:
        return w.render(e.message, e.params)
    return str(e)


def refuse(msg: Message, line: int | None = None, cls: type[E] = RecordError, **params: Any) -> E:  # type: ignore[assignment]
    """The record error ``msg`` with its parameters, at ``line`` of the record when known."""
    e = cls.of(msg, **params)
    e.line = line
    if line is not None:
        e.args = (f"line {line}: {e.args[0]}",)
    return e


# TRANSLATORS: where a record's problem is: "line 3: the seed must be a whole number or null".
AT_LINE = N_("line {line}: {reason}")

STARTS_WITH_HEADER = message("record-starts-with-header", N_("a record starts with a header line"))
NOT_A_RECORD = message("record-not-barbu", N_("not a barbu record (format is {format!r})"))
VERSION_UNSUPPORTED = message("record-version", N_("record version {version!r} is not supported (expected {expected})"))
BAD_RULESET = message("record-bad-ruleset", N_("bad ruleset: {error:error}"))
BAD_SEED = message("record-bad-seed", N_("the seed must be a whole number or null"))
ACTION_NEEDS_TEXT = message("record-action-text", N_('an action line needs an "action" text'))
DEAL_NEEDS = message("record-deal-needs", N_("a deal line needs {key!r}"))
DEAL_SCORES = message("record-deal-scores", N_("deal scores must be a list of whole numbers"))
SECOND_HEADER = message("record-second-header", N_("a second header line"))
UNKNOWN_LINE = message("record-unknown-line", N_("unknown line type {kind!r}"))
EMPTY_NO_HEADER = message("record-empty-no-header", N_("the record is empty: no header line"))
EMPTY = message("record-empty", N_("the record is empty"))
CANNOT_REPLAY = message("record-cannot-replay", N_("action {text!r} cannot be replayed: {error:error}"))
CANNOT_READ = message("record-cannot-read", N_("cannot read {path}: {reason}"))
NOT_TEXT = message("record-not-text", N_("{path} is not a text file: is it a match record?"))
NOT_JSON_OBJECT = message("record-not-object", N_('each line must be a JSON object with a "type"'))
KEY_NOT_HEX = message("record-key-not-hex", N_("the header's chance key is not hexadecimal"))
KEY_TOO_SHORT = message("record-key-short", N_("the header's chance key is too short"))
DAILY_BOARD = message("record-daily-board", N_("the header's daily key names no game and board number"))
FIRST_LINE_HEADER = message("record-first-line-header", N_("the first line must be the barbu-record header"))
WRONG_ACTOR = message("record-wrong-actor", N_("the action is by {actor!r} but {want!r} is to act"))
ACTION_REFUSED = message("record-action-refused", N_("{text!r}: {error:error}"))
DEAL_NOT_PLAYED = message("record-deal-not-played", N_("deal {n!r} has not been played at this point"))
