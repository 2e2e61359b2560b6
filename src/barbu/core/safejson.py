"""JSON from outside, read safely: a depth limit, no NaN or Infinity, no lone surrogate, one error type.

Every place that reads JSON goes through `loads` (tests/test_json_readers.py
fails if a module calls `json.loads` or `orjson.loads` itself), so a hostile
document (thousands of nested brackets, a number of ten thousand digits,
invalid UTF-8, a lone UTF-16 surrogate such as ``"\\ud800"`` that no encoder
can write back) is refused with the same plain error as any other malformed
input instead of raising `RecursionError`, or an encoding error later, when a
reply echoes it.  The depth is checked by a flat scan before decoding, never
by recursion.  The error is coded (`BarbuError.of`), so each front end words it
in its reader's language.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import ParseError
from .words import N_, message

MAX_DEPTH = 32  # nothing this project reads nests deeper than a handful of levels

# A string token may be unclosed: it then runs to the end in one match, so a hostile text of unclosed
# strings costs one pass, not one pass per quote (which grew with the square of the length).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


# An escaped surrogate: only these can decode to a lone one (a raw one cannot come through UTF-8).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")

NOT_TEXT = message("json-not-text", N_("not valid JSON: expected text"))
NOT_UTF8 = message("json-not-utf8", N_("not valid JSON: the text is not UTF-8"))
TOO_DEEP = message("json-too-deep", N_("not valid JSON: nested more than {n} levels deep"))
SURROGATE = message(
    "json-surrogate",
    N_("not valid JSON: a text holds half of a UTF-16 pair (a lone surrogate), which is not a character"),
)
TOO_MANY_DIGITS = message("json-digits", N_("not valid JSON: a number has too many digits"))
NOT_A_NUMBER = message("json-constant", N_("not valid JSON: {name} is not a number JSON allows"))
#: The decoder's own English, said in plain words that can be translated; anything else is SYNTAX.
PROBLEMS = {
    "Expecting value": message("json-value", N_("not valid JSON: a value is missing at character {pos}")),
    "Expecting property name enclosed in double quotes": message(
        "json-key", N_("not valid JSON: a name in double quotes is missing at character {pos}")
    ),
    "Expecting ':' delimiter": message("json-colon", N_("not valid JSON: a colon is missing at character {pos}")),
    "Expecting ',' delimiter": message("json-comma", N_("not valid JSON: a comma is missing at character {pos}")),
    "Unterminated string starting at": message(
        "json-unterminated", N_("not valid JSON: the text in quotes at character {pos} is never closed")
    ),
    "Invalid control character at": message(
        "json-control", N_("not valid JSON: a control character inside quotes at character {pos}")
    ),
    "Invalid \\escape": message(
        "json-escape", N_("not valid JSON: a backslash escape that does not exist at character {pos}")
    ),
    "Invalid \\uXXXX escape": message(
        "json-escape", N_("not valid JSON: a backslash escape that does not exist at character {pos}")
    ),
    "Extra data": message("json-extra", N_("not valid JSON: more follows the end of the document at character {pos}")),
}
SYNTAX = message("json-syntax", N_("not valid JSON: a mistake at character {pos}"))


class JsonError(ParseError):
    """A JSON text that is not valid, or that is too deep or otherwise hostile."""


class _Constant(ValueError):
    """NaN or Infinity, which JSON does not allow."""


def _refuse_constant(name: str) -> Any:
    raise _Constant(name)


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text`, strings skipped (no recursion)."""
    deepest = level = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
        elif ch in "]}":
            level -= 1
    return deepest


def loads(data: str | bytes | bytearray, max_depth: int = MAX_DEPTH) -> Any:
    """Decode one JSON document, or raise `JsonError` saying in words what is wrong."""
    if isinstance(data, (bytes, bytearray)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise JsonError.of(NOT_UTF8) from None
    elif isinstance(data, str):
        text = data
        if not text.isascii() and not is_unicode(text):  # bytes that were not UTF-8, read with surrogateescape
            raise JsonError.of(NOT_UTF8)
    else:
        raise JsonError.of(NOT_TEXT)
    # Counting brackets is cheap; only a text with many of them needs the exact scan.
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JsonError.of(TOO_DEEP, n=max_depth)
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # cannot happen after the scan; kept so no input can escape as one
        raise JsonError.of(TOO_DEEP, n=max_depth) from None
    except _Constant as e:
        raise JsonError.of(NOT_A_NUMBER, name=str(e)) from None
    except ValueError as e:  # JSONDecodeError, and int() refusing thousands of digits
        raise _refusal(e) from None
    if _SURROGATE_ESCAPE.search(text) and not _all_unicode(value):
        raise JsonError.of(SURROGATE)
    return value


def is_unicode(text: str) -> bool:
    """Whether every character of ``text`` is one UTF-8 can write (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _all_unicode(value: Any) -> bool:
    """Whether every string in a decoded document, keys included, is real text (a walk, not recursion)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if not is_unicode(v):
                return False
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return True


def _refusal(e: ValueError) -> JsonError:
    if isinstance(e, json.JSONDecodeError):
        return JsonError.of(PROBLEMS.get(e.msg, SYNTAX), pos=e.pos + 1)
    if "digits" in str(e):
        return JsonError.of(TOO_MANY_DIGITS)
    return JsonError.of(SYNTAX, pos=1)
