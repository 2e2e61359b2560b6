"""JSON from outside, read safely: a depth limit, no NaN or Infinity, one error type.

Every place that reads JSON it did not write itself (records, WebSocket
messages, HTTP bodies) goes through `loads`, so a hostile document (thousands
of nested brackets, a number of ten thousand digits, invalid UTF-8) is refused
with the same plain error as any other malformed input instead of raising
`RecursionError` or another surprise.  The depth is checked by a flat scan
before decoding, never by recursion.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import ParseError

MAX_DEPTH = 32  # nothing this project reads nests deeper than a handful of levels

# A string token may be unclosed: it then runs to the end in one match, so a hostile text of unclosed
# strings costs one pass, not one pass per quote (which grew with the square of the length).
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


class JsonError(ParseError):
    """A JSON text that is not valid, or that is too deep or otherwise hostile."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


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
            raise JsonError("not valid JSON: the text is not UTF-8") from None
    elif isinstance(data, str):
        text = data
    else:
        raise JsonError("not valid JSON: expected text")
    # Counting brackets is cheap; only a text with many of them needs the exact scan.
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise JsonError(f"not valid JSON: nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # cannot happen after the scan; kept so no input can escape as one
        raise JsonError(f"not valid JSON: nested more than {max_depth} levels deep") from None
    except ValueError as e:  # JSONDecodeError, and int() refusing thousands of digits
        raise JsonError(f"not valid JSON: {_reason(e)}") from None


def _reason(e: ValueError) -> str:
    if isinstance(e, json.JSONDecodeError):
        return f"{e.msg} at character {e.pos}"
    text = str(e)
    if "digits" in text:
        return "a number has too many digits"
    return text
