"""The moves nobody at a table decides: chance, and the computer players' thinking (and a person's hint).

A computer player's decision is thought off the actor, from its seat's view only (all a worker gets), through
the lobby's thinking pool (`barbu.web.tables.thinking`), and comes back through the actor's inbox no sooner
than the table's pace allows; a thought for a position since changed is dropped.  The stand-in that plays
for a person away, or whose time ran out, is a computer player like any other here.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import random
from typing import Any, Awaitable, Callable

from ...agents import Agent
from ...core.chance import keyed_chance
from ...core.errors import AgentError, BarbuError
from ...core.game import CHANCE
from ...core.words import N_
from ..common.errors import WebError
from ..common.wording import lang_of, say
from .core import Conn, TableCore, dumps
from .persistence import Persistence
from .refusals import HINT_NOT_YOUR_TURN, HINT_RATED, HINT_SPECTATOR
from .thinking import Thought

log = logging.getLogger("barbu.web")

CALM_AFTER = 4  # computer moves thought at leisure in a row before the table is told the server is less busy
_THINKING: set[asyncio.Task[None]] = set()  # computer players' decisions being thought, held until they end


class Computers:
    """A table's chance and computer players (inside its actor)."""

    def __init__(self, table: TableCore, persistence: Persistence) -> None:
        self.t = table
        self.persistence = persistence
        self.scheduled: int | None = None  # the version a computer turn (or chance) is already scheduled for
        self.thought: object | None = None  # the token of the decision being thought; a thought with another is stale
        self.hurried = False  # the computer players think in a hurry (the server is busy): the table was told
        self.unhurried = 0  # computer moves thought at leisure in a row since; a few make the table told it is over

    # ------------------------------------------------------------------ what is scheduled
    def schedule(self, delay: float, fn: Callable[..., Awaitable[None]]) -> None:
        """Play ``fn`` (`chance` or `turn`) for the table's version after ``delay``, once per version."""
        t = self.t
        if self.scheduled == t.version:
            return
        self.scheduled = t.version
        if fn == self.turn:  # thinking starts now; the move is made after the longer of ``delay`` and it
            self._start_thinking(delay)
        else:
            t.later(delay, fn, t.version)

    def play_soon(self, delay: float) -> None:
        """A computer player (or the stand-in) decides the seat to act."""
        self.schedule(delay, self.turn)

    def forget(self) -> None:
        """Nothing scheduled or being thought is played (the table was ended, or moves were taken back)."""
        self.thought = self.scheduled = None

    # ------------------------------------------------------------------ chance
    async def chance(self, version: int) -> None:
        t = self.t
        if version == t.version and t.status != "over" and t.paused is None and t.match.to_act() == CHANCE:
            self.scheduled = None
            if await self.chance_now():
                await t.advance()

    async def chance_now(self) -> bool:
        t = self.t
        m = t.match
        if t.boards is not None:
            action = t.boards(m)
        else:
            action = keyed_chance(m, t.secret) if t.secret is not None else m.sample_chance()
        m.apply(action)
        if not await self.persistence.commit(CHANCE, action):
            self.schedule(1.0, self.chance)  # the database is failing: try again shortly
            return False
        t.after_move(CHANCE, action)
        return True

    # ------------------------------------------------------------------ the computer players
    def _start_thinking(self, delay: float) -> None:
        """Start the computer player's decision off the actor, from its seat's view only (all a worker gets).

        The actor stays free while it thinks; the thought comes back through `turn`
        no sooner than ``delay`` after now, so that people can follow the play.
        """
        t = self.t
        version = t.version
        seat = t.match.to_act()
        if seat is None or seat < 0 or t.controller(seat) != "bot":
            self.scheduled = None
            return
        agent = self.agent_for(seat, version)
        view = t.match.view(seat)
        token = self.thought = object()
        task = asyncio.get_running_loop().create_task(
            self._think(agent, view, version, delay, token), name=f"think-{t.id}"
        )
        _THINKING.add(task)
        task.add_done_callback(_THINKING.discard)

    async def _think(self, agent: Agent, view: Any, version: int, delay: float, token: object) -> None:
        t = self.t
        loop = asyncio.get_running_loop()
        started = loop.time()
        result: Thought | Exception
        try:
            if t.thinking is not None:  # the group: the address that set the table up (its HMAC, an event's
                # director's for an event's table), else the table itself
                group = t.bots_addr or t.bot_address or f"table {t.id}"
                result = await t.thinking.think(agent, view, group, t.id)
            else:
                result = Thought(await asyncio.to_thread(agent.act, view), agent)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the agent failed: `turn` plays a legal action instead
            result = e
        rest = delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        t.tell(self.turn, version, (token, result))

    def agent_for(self, seat: int, version: int) -> Agent:
        """The seat's computer player (its own strength, or the stand-in for a person), made once and kept."""
        t = self.t
        s = t.seats[seat]
        kind = s.strength if s.kind == "bot" and s.strength else t.settings.stand_in
        if s.agent is None or getattr(s.agent, "kind_name", None) != kind:
            seed = self.bot_seed(seat, version)
            try:
                s.agent = t.web.agent(t.settings.player_spec(kind), seed)
            except AgentError:  # an operator's player this server was not started with: the stand-in plays
                log.warning("table %s: no computer player %r here; the stand-in plays seat %s", t.id, kind, seat)
                s.agent = t.web.agent(t.settings.stand_in, seed)
            setattr(s.agent, "kind_name", kind)
        assert s.agent is not None
        return s.agent

    async def turn(self, version: int, thought: tuple[object, Any] | None = None) -> None:
        """Make the computer player's move that was thought for ``version`` (without one: think it first)."""
        t = self.t
        m = t.match
        if version != t.version or t.status == "over":
            return
        if thought is None:
            self.scheduled = None
            self.play_soon(0.0)
            return
        token, result = thought
        if token is not self.thought:  # thought for a position since taken back (and perhaps played again)
            return
        self.thought = None
        self.scheduled = None
        seat = m.to_act()
        if seat is None or seat < 0 or t.controller(seat) != "bot":  # a person is back: he decides
            return
        s = t.seats[seat]
        kind = getattr(s.agent, "kind_name", None)
        try:
            if not isinstance(result, Thought):
                raise result
            if getattr(result.agent, "kind_name", None) == kind:  # from a worker process: its random state moved on
                s.agent = result.agent
            self._tell_busy(result.hurried)
            action = result.action
            t.web.apply(action, seat)
        except Exception as e:
            log.error(
                "table %s: computer player %s failed (%s); playing a random legal action",
                t.id,
                kind,
                type(e).__name__,
                exc_info=not isinstance(e, (BarbuError, ValueError)),
            )
            action = random.Random(version).choice(m.legal_actions())
            t.web.apply(action, seat)
        if not await self.persistence.commit(seat, action):
            self.schedule(1.0, self.turn)
            return
        t.after_move(seat, action)
        await t.advance()

    def _tell_busy(self, hurried: bool | None) -> None:
        """Tell the table, each in his language, when its computer players start or stop thinking in a hurry."""
        if hurried is None:
            return
        self.unhurried = 0 if hurried else self.unhurried + 1
        if hurried == self.hurried or (not hurried and self.unhurried < CALM_AFTER):
            return
        self.hurried = hurried
        template = (
            N_("the server is busy: the computer players think faster for now")
            if hurried
            else N_("the server is less busy: the computer players take their time again")
        )
        for c in self.t.connections():
            c.send(dumps({"type": "busy", "busy": hurried, "message": say(lang_of(c), template)}))

    def bot_seed(self, seat: int, version: int) -> int:
        """A computer player's seed: keyed by the table's own secret for them, so no player can work it out."""
        t = self.t
        if t.bots_secret is None:  # a table made before the computer players had a key of their own
            return (t.seed * 7919 + seat * 104729 + version) & 0x7FFFFFFF
        msg = seat.to_bytes(2, "big") + version.to_bytes(8, "big")
        return int.from_bytes(hmac.new(t.bots_secret, msg, hashlib.sha256).digest()[:8], "big")

    # ------------------------------------------------------------------ a person's hint
    async def hint_view(self, conn: Conn) -> Any:
        """The seat's own view, for a hint computed outside the actor (never anything more)."""
        t = self.t
        seat = conn.seat
        if seat is None:
            raise WebError(HINT_SPECTATOR)
        if t.rated:
            raise WebError(HINT_RATED)
        if not t.started or t.status == "over" or t.match.to_act() != seat:
            raise WebError(HINT_NOT_YOUR_TURN)
        return t.match.view(seat)
