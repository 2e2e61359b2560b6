"""Barbu in the terminal, with Textual: ``barbu play``.

`BarbuApp` is the application; `Session` and `Settings` hold the match and the seats without any screen
code (`barbu.play.session`, shared with the line-by-line game).  The application is imported on first use,
so the scorekeeper's modules here (``score_store``, ``score_sheet``, ``score_files``) serve ``barbu score``'s
subcommands without Textual.
"""

from __future__ import annotations

from typing import Any

from ..play.session import DEFAULT_DELAY, DEFAULT_SAVE, Session, Settings

__all__ = ["BarbuApp", "DEFAULT_DELAY", "DEFAULT_SAVE", "Session", "Settings"]


def __getattr__(name: str) -> Any:
    if name == "BarbuApp":
        from .app import BarbuApp

        return BarbuApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
