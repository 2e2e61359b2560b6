"""An event's table plays only the deals of its round: what it sends says so.

A duplicate event's table (`barbu.web.events.rounds`) plays ``deal_limit`` deals of a match opened with the
family's own length (28 deals of the classic game, say).  The engine's views count in the whole match, so
without this the table read "deal 3 of 28 · Shuffling…" after its last deal.  `Limited` wraps a game's
`barbu.web.tables.games.WebGame` and sends the round's count instead; once the limit is reached the table is
over for everyone who reads it: phase "over", nobody to act, the scores over with their standings.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...core.errors import BarbuError
from .games import WebGame


class Limited:
    """A `WebGame` cut at ``limit`` deals (an event's table): the count, and the end, as the round has them."""

    def __init__(self, inner: WebGame, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.name = inner.name
        self.game = inner.game

    def done(self) -> bool:
        """The round's deals are played: nothing more is dealt here."""
        return self.inner.deals_done() >= self.limit

    def _counted(self, d: dict[str, Any]) -> dict[str, Any]:
        """A view or the table's facts with the round's count; at the end, over."""
        if "total_deals" in d:
            d["total_deals"] = self.limit
        if isinstance(d.get("deal_number"), int):
            d["deal_number"] = min(d["deal_number"], self.limit)
        if self.done() and "phase" in d:
            d["phase"] = "over"
            if "to_act" in d:
                d["to_act"] = None
            if "legal" in d:
                d["legal"] = None if d["legal"] is None else []
            if "legal_count" in d:
                d["legal_count"] = 0
        return d

    def info(self) -> dict[str, Any]:
        return self._counted(self.inner.info()) | {"deal_limit": self.limit}

    def summary(self) -> dict[str, Any]:
        return self._counted(self.inner.summary())

    def messages(self, actor: int, action: Any, seats: Sequence[int], spectators: bool) -> dict[Any, dict[str, Any]]:
        out = self.inner.messages(actor, action, seats, spectators)
        for msg in out.values():
            self._counted(msg["state"])
        return out

    def state(self, seat: int | None, full: bool = False, actors: Sequence[int] = ()) -> dict[str, Any]:
        return self._counted(self.inner.state(seat, full, actors))

    def catch_up(self, seat: int | None, since: Any, actors: Sequence[int]) -> dict[str, Any]:
        msg = self.inner.catch_up(seat, since, actors)
        self._counted(msg["state"])
        if "scores" in msg:
            msg["scores"] = self.scores()
        return msg

    def scores(self) -> dict[str, Any]:
        out = self.inner.scores()
        out["total_deals"] = self.limit
        if self.done() and not out.get("over"):
            out["over"] = True
            out["standings"] = [s for s, _ in self.game.standings()]
        return out

    def deals_done(self) -> int:
        return self.inner.deals_done()

    def between_deals(self) -> bool:
        return self.inner.between_deals()

    def deal_start(self) -> int:
        return self.inner.deal_start()

    def refuse(self, action: Any, seat: int) -> BarbuError | None:
        return self.inner.refuse(action, seat)

    def visible(self, card: int, seat: int) -> bool:
        return self.inner.visible(card, seat)

    def apply(self, action: Any, seat: int) -> None:
        self.inner.apply(action, seat)

    def agent(self, kind: str, seed: int) -> Any:
        return self.inner.agent(kind, seed)

    def redact(self, text: str, seat: int) -> str:
        return self.inner.redact(text, seat)
