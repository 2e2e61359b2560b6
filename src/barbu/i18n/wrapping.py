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
import sys
from collections.abc import Callable
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import Any

#: The spaces that join two words: no-break, figure (digits) and narrow no-break spaces.
NO_BREAK = "\u00a0\u2007\u202f"
_SPACE = rf"[^\S{NO_BREAK}]"  # a space one may break at
_WORD = rf"[\S{NO_BREAK}]"  # anything else, the no-break spaces included


def _rich(module: ModuleType) -> None:
    if hasattr(module, "re_word"):
        setattr(module, "re_word", re.compile(rf"{_SPACE}*{_WORD}+{_SPACE}*"))


def _textual(module: ModuleType) -> None:
    if hasattr(module, "re_chunk"):
        setattr(module, "re_chunk", re.compile(rf"{_WORD}+{_SPACE}*|{_SPACE}+"))


#: The wrapping module of each library, and how it is taught.
WRAPPERS: dict[str, Callable[[ModuleType], None]] = {"rich._wrap": _rich, "textual._wrap": _textual}


class _WhenImported(MetaPathFinder):
    """Teaches a wrapping module as soon as it is imported, so that speaking a language imports neither
    library (``barbu --help`` loads no screen library)."""

    def __init__(self) -> None:
        self.pending: dict[str, Callable[[ModuleType], None]] = {}

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        teach = self.pending.pop(name, None)
        if teach is None:
            return None
        spec = PathFinder.find_spec(name, path)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            teach(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


_finder = _WhenImported()


def keep_no_break_spaces() -> None:
    """Make Rich's and Textual's line wrapping treat no-break spaces as part of a word.

    Both wrappers split text with one module-level pattern (``rich._wrap.re_word``,
    ``textual._wrap.re_chunk``, read at each call); this swaps in the same patterns
    with the no-break spaces moved from "space" to "word": now for a library already
    imported, else when it is.  Idempotent; a library that is not installed, or no
    longer has the pattern, is left alone.
    """
    for name, teach in WRAPPERS.items():
        module = sys.modules.get(name)
        if module is not None:
            teach(module)
        else:
            _finder.pending[name] = teach
    if _finder.pending and _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
