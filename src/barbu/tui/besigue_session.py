"""Moved to `barbu.play.besigue_session` (the session has no widgets; the line-by-line game uses it too)."""

from ..play.besigue_session import *  # noqa: F401,F403
