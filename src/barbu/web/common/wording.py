"""What the server says to each connection, in that connection's language.

A table mixes players of different languages, so nothing here uses the process-wide
language: every function takes ``lang``.  The server's own messages are English
templates with named fields (marked ``N_`` where they are written, worded here after
the lookup); the engine's refusals are codes with parameters, worded by
`barbu.i18n.word_error`.  A refusal may name a card (an example, or the card a player
typed): `refusal` words it less any card the seat may not see, and sends only the
parameters that reveal nothing.
"""

from __future__ import annotations

import string
from typing import Any, Callable

from ...agents.hint import hint_reason as reason_in
from ...core.errors import BarbuError
from ...core.words import KINDS
from ...i18n import language, translator, word_error
from .errors import WebError, fill

#: The parameter kinds that name cards: a card its reader may not see is left out of what is sent.
CARD_KINDS = ("card", "cards", "bcard")


def say(lang: str | None, template: "str | tuple[str, str]", **fields: Any) -> str:
    """The server's own message ``template`` (marked N_) in ``lang``."""
    return fill(translator(lang), template, fields)


def word(e: BaseException, lang: str | None) -> str:
    """Any error the server sends, in ``lang``: its own, the engine's (by code), or another's English."""
    if isinstance(e, WebError):
        return word(e.cause, lang) if e.cause is not None else say(lang, e.template, **e.fields)
    return word_error(e, lang)


def error_json(e: BaseException, lang: str | None, key: str = "error") -> dict[str, Any]:
    """An error's words in ``lang`` under ``key``, and the engine's code and parameters when it has them.

    Only for errors whose parameters are the reader's own (a rules text, a seat number): a refusal
    in play, which may name cards, goes through `refusal`.
    """
    out: dict[str, Any] = {key: word(e, lang)}
    cause = e.cause if isinstance(e, WebError) and e.cause is not None else e
    if isinstance(cause, BarbuError) and cause.code:
        out["code"], out["params"] = cause.code, cause.params
    return out


def _card_fields(template: str) -> list[tuple[str, str]]:
    return [(f, spec) for _, f, spec, _ in string.Formatter().parse(template) if f and spec in CARD_KINDS]


def refusal(
    e: BarbuError, lang: str | None, visible: Callable[[int], bool], redact: Callable[[str], str]
) -> dict[str, Any]:
    """An engine refusal as a seat may read it: ``message`` in ``lang``, and ``reason``/``params`` if coded.

    ``visible(card)`` says whether the seat may see a card the refusal names; a card it may
    not see is worded "…" and its parameter is not sent.  ``redact`` is the game's redaction
    of the English notation, for refusals without a code.
    """
    if e.message is None:
        out = {"message": redact(word(e, lang))}
        return {**out, "reason": e.code} if e.code else out
    tr = translator(lang)
    text = tr.render(e.message, e.params)
    params = {k: list(v) if isinstance(v, (tuple, set, frozenset)) else v for k, v in e.params.items()}
    for field, spec in _card_fields(e.message.text):
        value = e.params.get(field)
        cards = list(value) if isinstance(value, (list, tuple, set, frozenset)) else [value]
        hidden = [c for c in cards if isinstance(c, int) and not visible(c)]
        if hidden:
            params.pop(field, None)
            for c in hidden:
                text = text.replace(KINDS[spec.replace("cards", "card")](tr, c), "…")
    return {"message": redact(text), "reason": e.code, "params": params}


def lang_of(conn: Any) -> str:
    """A connection's language (a test's stand-in connection may have none: English)."""
    return language(getattr(conn, "lang", None))


def hint_reason(h: Any, lang: str | None, only: bool, highest_wins: bool) -> str:
    """Why the strongest player chose a hint's action, in ``lang`` (`barbu.agents.hint.hint_reason`)."""
    return reason_in(h, translator(lang), only, highest_wins)
