"""What a table session of one fixed deal (a lesson, a puzzle) answers alike: nothing saved, no finished deals,
the person as "you" and the others by their places around the table."""

from __future__ import annotations

from ..i18n import _
from ..play.labels import place, place_name


class OneDealSession:
    """The parts of the table's session protocol that a one-deal session answers the same way; the subclass
    gives ``seat`` and ``players`` and the rest."""

    seat: int

    @property
    def players(self) -> int:
        raise NotImplementedError

    def finished_deals(self) -> list:
        return []  # the deal's end is the session's own dialog

    def save(self) -> None:
        return None

    def player_kind(self, s: int, english: bool = False) -> str:
        return _("you") if s == self.seat else _("computer")

    def who(self, s: int, english: bool = False) -> str:
        where = place(s, self.seat, self.players)
        return _("you") if s == self.seat else place_name(where) if where else _("computer")
