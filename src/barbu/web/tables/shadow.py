"""Duplicate against the computer at a browser table: each deal replayed with the expert in the person's seat.

At a table where exactly one person plays and every other seat is a computer player, each finished deal is
played again on the same cards (`barbu.duplicate.shadow.DealReplay`): the expert in the person's seat, the
other seats the table's own strengths.  The replay runs beside the table, never in its actor: the position
is rebuilt in a thread, and every decision of the replay goes through the server's thinking pool like a
computer player's move (its fair shares, its worker processes, its shorter thinks when the server is busy),
in a group of its own so that it never holds up a table.  When it is done, the person's seat alone is sent
``{"type": "shadow", …}``: the deal, the expert's score and his own, the running difference and the deals
where he lost most.  Nothing is sent before the deal is over (the replay starts only then), and watchers are
sent nothing.  A table rebuilt after a restart replays the deals it has not compared (`TableShadow.catch_up`).

The person may turn it off (``{"type": "compare", "on": false}`` over the table's socket, sent by the page from
the box he unticked and at each connection while it stays unticked): nothing more is replayed or sent for the
table, a replay under way stops; turned on again, the deals not compared yet are replayed.  Bésigue tables are
compared the same way (the deal's points in the person's seat).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...classic.match import Match
from ...duplicate.shadow import STRONGEST, DealReplay, ShadowResult, deal_chances, history_texts, sign_of, summarize
from ...records.barbu import number_out
from ..common.errors import WebError
from .refusals import COMPARE_ONE_PERSON, COMPARE_TRUE_OR_FALSE

log = logging.getLogger("barbu.web")

#: Replays running now, kept so that the event loop does not drop them.
_RUNNING: set[asyncio.Task[None]] = set()


class TableShadow:
    """One table's comparisons with the expert: started as deals end, sent to the person's seat alone."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.results: dict[int, ShadowResult] = {}
        self.running: set[int] = set()
        self.failed: set[int] = set()
        self.off = False  # the person unticked "Compare with the expert": nothing replayed, nothing sent
        self.sign = sign_of(str(table.match.rules))

    # ------------------------------------------------------------------ who is compared
    def person(self) -> int | None:
        """The seat of the one person at a table of computer players, unless he turned the comparison off."""
        return None if self.off else self.offered()

    def offered(self) -> int | None:
        """The seat the server compares with the expert at this table (whatever the person chose); None at any
        other table (people at it, an event's table, or a server that compares nobody)."""
        t = self.table
        if not t.settings.compare_with:
            return None
        if getattr(t, "boards", None) is not None or getattr(t, "deal_limit", None) is not None:
            return None  # a duplicate event's table: nothing about its boards before every table has played them
        people = [s.index for s in t.seats if s.kind == "human"]
        if len(people) != 1 or any(s.kind != "bot" for s in t.seats if s.index != people[0]):
            return None
        return people[0]

    def strengths(self, seat: int) -> dict[int, str]:
        settings = self.table.settings
        return {
            s.index: settings.player_spec(s.strength or settings.stand_in) for s in self.table.seats if s.index != seat
        }

    # ------------------------------------------------------------------ starting the replays
    def catch_up(self) -> None:
        """Start the replay of every finished deal not compared yet (after each deal, and after a restart)."""
        seat = self.person()
        if seat is None:
            return
        t = self.table
        done = len(t.match.results)
        missing = [k for k in range(done) if k not in self.results and k not in self.running and k not in self.failed]
        if not missing:
            return
        actions = list(t.match.history) if isinstance(t.match, Match) else history_texts(t.match)
        for k in missing:
            self.running.add(k)
            task = asyncio.get_running_loop().create_task(self._replay(k, actions, seat), name=f"shadow-{t.id}-{k}")
            _RUNNING.add(task)
            task.add_done_callback(_RUNNING.discard)
        if t.match.is_over and self.results:  # the end box says the last deal is still replayed: not "over 7 deals"
            t.tell(self._send, None)

    async def _replay(self, k: int, actions: list[Any], seat: int) -> None:
        t = self.table
        try:
            rules = str(t.match.rules)
            start, chances, table_added = await asyncio.to_thread(deal_chances, rules, actions, k)
            stronger = t.settings.player_spec(t.settings.compare_with or STRONGEST)
            replay = DealReplay(start, chances, seat, self.strengths(seat), stronger, key=t.seed or 0)
            group, sub = f"shadow {t.bot_address or t.id}", f"{t.id}/shadow"
            while (turn := replay.next_turn()) is not None:
                actor, agent, view = turn
                if t.closed or self.off:  # turned off: stopped here, replayed again if turned back on
                    return
                if t.thinking is not None:
                    thought = await t.thinking.think(agent, view, group, sub)
                    replay.play(actor, thought.action, thought.agent)
                else:
                    replay.play(actor, await asyncio.to_thread(agent.act, view))
            result = ShadowResult(k, table_added[seat], replay.added()[seat], self.sign)
        except asyncio.CancelledError:
            raise
        except Exception:  # a failed replay costs the comparison of one deal, never the table
            if not (t.closed or getattr(t.thinking, "closed", False)):  # else the server is stopping: no matter
                log.exception("table %s: the expert's replay of deal %s failed", t.id, k + 1)
            self.failed.add(k)
            return
        finally:
            self.running.discard(k)
        self.results[k] = result
        t.tell(self._send, k)

    # ------------------------------------------------------------------ telling the person
    def message(self, k: int | None = None) -> dict[str, Any]:
        """What the person's seat is sent: the deal just compared (``k``), the sum so far and the worst deals."""
        s = summarize(self.results.values())
        t = self.table
        msg: dict[str, Any] = {
            "type": "shadow",
            "advantage": number_out(s.advantage),
            "deals": s.deals,
            "worst": [
                {
                    "deal": r.deal + 1,
                    "you": number_out(r.you),
                    "expert": number_out(r.expert),
                    "advantage": number_out(r.advantage),
                    "contract": getattr(t.match.results[r.deal], "contract", None),
                }  # Bésigue: none
                for r in s.worst
            ],
            "pending": len(self.running),
            "over": bool(t.match.is_over or t.status == "over"),
        }
        if k is not None:
            r = self.results[k]
            msg.update(deal=k + 1, you=number_out(r.you), expert=number_out(r.expert), diff=number_out(r.advantage))
        elif self.results:
            last = max(self.results)
            r = self.results[last]
            msg.update(deal=last + 1, you=number_out(r.you), expert=number_out(r.expert), diff=number_out(r.advantage))
        return msg

    async def _send(self, k: int | None) -> None:
        """In the table's actor: the comparison of deal ``k`` (None: what is known, and what is pending) to the
        person's connections, and to nobody else."""
        seat = self.person()
        if seat is None:
            return
        self.table.send_to_seat(seat, self.message(k))

    def welcome(self, conn: Any) -> dict[str, Any] | None:
        """For a connection of the person's seat (a reload, a return): what is known so far, if anything."""
        seat = self.person()
        if seat is None or getattr(conn, "seat", None) != seat or not self.results:
            return None
        return self.message()

    async def switch(self, conn: Any, on: Any) -> None:
        """In the table's actor: the person's "Compare with the expert" box (``on``: true or false)."""
        seat = self.offered()
        if not isinstance(on, bool):
            raise WebError(COMPARE_TRUE_OR_FALSE)
        if seat is None or getattr(conn, "seat", None) != seat:
            raise WebError(COMPARE_ONE_PERSON)
        self.off = not on
        if on:
            self.catch_up()  # the deals finished while it was off
