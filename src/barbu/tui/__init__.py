"""Barbu in the terminal, with Textual: ``barbu play``.

`BarbuApp` is the application; `Session` and `Settings` hold the match and
the seats without any screen code; `run` is what the command line calls.
"""

from __future__ import annotations

from .app import BarbuApp
from .session import DEFAULT_DELAY, DEFAULT_SAVE, Session, Settings

__all__ = ["BarbuApp", "DEFAULT_DELAY", "DEFAULT_SAVE", "Session", "Settings"]
