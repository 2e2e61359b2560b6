"""Which passwords are refused: too short, too long, the user's name, or among the ones guessed first.

The guessing is zxcvbn's (the ``zxcvbn`` package, a port of Dropbox's estimator): it ships the lists of
passwords most found in breaches, with common words, names, keyboard rows, sequences and repeats, and
estimates how many guesses a password would take.  Nothing is asked of any outside service.  A password
it scores under 2 (fewer than about a million guesses) is refused, with words that say why: a common
password, a repeat or a sequence, or simply too easy to guess.  A long passphrase of ordinary words passes.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..common.errors import WebError
from .refusals import (
    PASSWORD_COMMON,
    PASSWORD_EASY,
    PASSWORD_IS_NAME,
    PASSWORD_PATTERN,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_SHORT,
)

PASSWORD_MIN, PASSWORD_MAX = 8, 200
WEIGHED = 72  # characters zxcvbn weighs (its own limit); a longer password is weighed by its beginning
SCORE_MIN = 2  # zxcvbn's scores: 0 and 1 are guessed within about a million tries
PATTERNS = {"repeat", "sequence", "spatial", "date"}


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def check_password(password: Any, name: str | None = None) -> str:
    """The password, or a refusal that says which rule it breaks."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise WebError(PASSWORD_TOO_SHORT, n=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise WebError(PASSWORD_TOO_LONG, n=PASSWORD_MAX)
    if name is not None and _folded(password) == _folded(name):
        raise WebError(PASSWORD_IS_NAME)
    from zxcvbn import zxcvbn  # its lists take 25 ms to load: at the first password weighed, not at start-up

    found = zxcvbn(password[:WEIGHED], user_inputs=[name] if name else None, max_length=WEIGHED)
    if found["score"] >= SCORE_MIN:
        return password
    kinds = {m["pattern"] for m in found["sequence"]}
    if any(m.get("dictionary_name") == "passwords" for m in found["sequence"]):
        raise WebError(PASSWORD_COMMON)
    if not password.strip() or kinds <= PATTERNS:
        raise WebError(PASSWORD_PATTERN)
    raise WebError(PASSWORD_EASY)
