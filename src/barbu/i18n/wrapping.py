"""No line break at a no-break space on the terminal.

French puts a no-break space (U+00A0, or the narrow U+202F) before ":", ";", "!", "?"
and inside « », and Babel writes "1 000" with U+202F.  The browser and the PDF sheets
honour them, but Rich and Textual wrap at any Unicode space (their word patterns are
``\\s``), so a terminal line could begin with ":" or split « aide ».  `keep_no_break_spaces`
teaches both wrappers that these spaces belong to the word around them; the text itself
is unchanged (a test reading the screen, or a player copying it, sees the same spaces).
"""

from __future__ import annotations

import re

#: The spaces that join two words: no-break, figure (digits) and narrow no-break spaces.
NO_BREAK = "\u00a0\u2007\u202f"
_SPACE = rf"[^\S{NO_BREAK}]"  # a space one may break at
_WORD = rf"[\S{NO_BREAK}]"  # anything else, the no-break spaces included


def keep_no_break_spaces() -> None:
    """Make Rich's and Textual's line wrapping treat no-break spaces as part of a word.

    Both wrappers split text with one module-level pattern (``rich._wrap.re_word``,
    ``textual._wrap.re_chunk``, read at each call); this swaps in the same patterns
    with the no-break spaces moved from "space" to "word".  Idempotent; a library
    that is not installed, or no longer has the pattern, is left alone.
    """
    try:
        from rich import _wrap as rich_wrap
    except ImportError:  # pragma: no cover - rich is a dependency
        rich_wrap = None
    if rich_wrap is not None and hasattr(rich_wrap, "re_word"):
        rich_wrap.re_word = re.compile(rf"{_SPACE}*{_WORD}+{_SPACE}*")
    try:
        from textual import _wrap as textual_wrap
    except ImportError:  # pragma: no cover - textual is a dependency
        textual_wrap = None
    if textual_wrap is not None and hasattr(textual_wrap, "re_chunk"):
        textual_wrap.re_chunk = re.compile(rf"{_WORD}+{_SPACE}*|{_SPACE}+")
