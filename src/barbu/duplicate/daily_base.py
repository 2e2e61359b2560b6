"""What the daily deals' modules share below them all (`barbu.duplicate.daily`, `barbu.duplicate.daily_besigue`)."""

from __future__ import annotations


class DailyError(ValueError):
    """A daily set that cannot be made as asked (an unknown game, a strength that thinks against the clock), or a
    board asked for or played wrongly (out of range, over, not the person's turn)."""
