"""Fair shares of the machine: the computer players' thinking, hints and analyses, by client address.

Thinking is the server's costly work: a ``search`` or ``expert`` player weighs
sampled deals for up to ``seconds`` per decision.  Left to a plain thread pool
in arrival order, 40 tables set up from 8 addresses queued ahead of a ninth
client's table and made its computer players four times slower.  Here every
piece of such work asks a `FairSlots` for one of a bounded number of slots;
the slots are handed out in turns between the *groups* waiting (the client
address that set a table up, or the address asking for a hint), then in turns
between each group's *subgroups* (its tables), so a client with
many tables or connections waits behind its own work, not in front of others'.

When more groups want thinking than there are workers, each decision gets a
shorter think (`ThinkingPool.budget`): a full round of the waiting groups then
still fits in the pace the tables play at, and below a floor the agent's own
rule player (the stand-in strength) answers.  The tables say so to their
players (`Thought.hurried`).

The compiled search core does not release the GIL (``solver/_fast.c`` has no
``Py_BEGIN_ALLOW_THREADS``; two threads thinking at once take exactly as long
as one after the other, `benchmarks/fair_shares.py --gil`), so threads give no
parallelism: the searching players think in worker processes, each sent the
agent and the seat's view only (never the match), and the agent comes back
with its random state moved on.  Cheap players (random, rule, an operator's
own) think in a thread, through the same slots.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import time
from collections import Counter, OrderedDict, deque
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, Generic, Hashable, TypeVar

from ..common import metrics
from ..common.settings import Settings

log = logging.getLogger("barbu.web")

T = TypeVar("T")

#: Below this many seconds a search is not worth starting: the agent's rule player answers instead.
THINK_FLOOR = 0.05


class FairQueue(Generic[T]):
    """Waiting items by group and subgroup, taken in turns: the group served least recently first, then within
    it each subgroup in turn, and a subgroup's own items in their order.

    Plain round-robin, except that a group which had nothing waiting for a while
    keeps its place: it goes before the groups served since it last was (a
    table waiting for its next move is not sent behind every busier client).
    """

    def __init__(self) -> None:
        self._groups: OrderedDict[Hashable, OrderedDict[Hashable, deque[T]]] = OrderedDict()
        self._served: dict[Hashable, int] = {}  # group -> the turn it was last served at
        self._turn = 0
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def groups(self) -> set[Hashable]:
        """The groups with something waiting."""
        return set(self._groups)

    def waiting(self, group: Hashable) -> int:
        return sum(len(items) for items in self._groups.get(group, {}).values())

    def push(self, group: Hashable, sub: Hashable, item: T) -> None:
        self._groups.setdefault(group, OrderedDict()).setdefault(sub, deque()).append(item)
        self._size += 1

    def pop(self, eligible: Callable[[Hashable], bool] = lambda group: True) -> tuple[Hashable, T] | None:
        """The next item of the eligible group served least recently, and its group; None if there is none."""
        best: Hashable | None = None
        best_turn = 0
        for group in self._groups:  # in order of arrival: ties go to the group waiting longest
            turn = self._served.get(group, -1)
            if (best is None or turn < best_turn) and eligible(group):
                best, best_turn = group, turn
        if best is None:
            return None
        subs = self._groups[best]
        sub, items = next(iter(subs.items()))
        item = items.popleft()
        self._size -= 1
        if items:
            subs.move_to_end(sub)
        else:
            del subs[sub]
        if not subs:
            del self._groups[best]
        self._served[best] = self._turn
        self._turn += 1
        self._forget()
        return best, item

    def _forget(self) -> None:
        """Drop the turns of groups with nothing waiting that are older than every waiting group's: such a group
        would go first anyway, as a new one does, so a flood of addresses does not grow this."""
        if len(self._served) <= 2 * len(self._groups) + 64:
            return
        oldest = min((self._served.get(g, -1) for g in self._groups), default=self._turn)
        for group in [g for g, t in self._served.items() if t < oldest and g not in self._groups]:
            del self._served[group]

    def remove(self, group: Hashable, sub: Hashable, item: T) -> bool:
        """Take ``item`` out (its waiter gave up); False if it was not waiting."""
        subs = self._groups.get(group)
        items = subs.get(sub) if subs is not None else None
        if items is None or item not in items:
            return False
        items.remove(item)
        self._size -= 1
        if not items:
            del subs[sub]  # type: ignore[union-attr]
            if not subs:
                del self._groups[group]
        return True


class FairSlots:
    """At most ``slots`` holders at once, at most ``per_group`` of them from one group, handed out fairly.

    ``async with slots.slot(address, table):`` waits for a slot; waiters are
    served in `FairQueue` order, skipping a group that already holds its share.
    """

    def __init__(self, slots: int, per_group: int | None = None) -> None:
        self.slots = max(1, slots)
        self.per_group = per_group
        self.queue: FairQueue[asyncio.Future[None]] = FairQueue()
        self.running: Counter[Hashable] = Counter()  # group -> slots it holds
        self.seen: dict[Hashable, float] = {}  # group -> when it last took or gave back a slot (monotonic)

    @property
    def held(self) -> int:
        return sum(self.running.values())

    def active_groups(self, window: float = 0.0) -> int:
        """Groups holding a slot or waiting for one, or that held one within ``window`` seconds: how many ways
        the machine is shared now (a table between two moves still counts, so the figure does not flicker)."""
        now = time.monotonic()
        recent = {g for g, t in self.seen.items() if now - t <= window}
        if len(self.seen) > 2 * len(recent) + 64:
            self.seen = {g: self.seen[g] for g in recent}
        return len(self.queue.groups() | recent | {g for g, n in self.running.items() if n > 0})

    def waiting(self, group: Hashable | None = None) -> int:
        return len(self.queue) if group is None else self.queue.waiting(group)

    @contextlib.asynccontextmanager
    async def slot(self, group: Hashable, sub: Hashable) -> AsyncIterator[None]:
        await self.acquire(group, sub)
        try:
            yield
        finally:
            self.release(group)

    async def acquire(self, group: Hashable, sub: Hashable) -> None:
        fut = asyncio.get_running_loop().create_future()
        self.queue.push(group, sub, fut)
        self._dispatch()
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # granted just as the waiter gave up: pass the slot on
                self.release(group)
            else:
                self.queue.remove(group, sub, fut)
            raise

    def release(self, group: Hashable) -> None:
        self.seen[group] = time.monotonic()
        self.running[group] -= 1
        if self.running[group] <= 0:
            del self.running[group]
        self._dispatch()

    def _eligible(self, group: Hashable) -> bool:
        return self.per_group is None or self.running[group] < self.per_group

    def _dispatch(self) -> None:
        while self.held < self.slots:
            nxt = self.queue.pop(self._eligible)
            if nxt is None:
                return
            group, fut = nxt
            if fut.done():  # its waiter was cancelled and has not taken it out yet
                continue
            self.running[group] += 1
            self.seen[group] = time.monotonic()
            fut.set_result(None)


@dataclass
class Thought:
    """A computer player's decision: its action, the agent as it is after thinking, and whether it was hurried."""

    action: Any
    agent: Any
    hurried: bool | None = None  # None: a player that does not search (nothing to shorten)
    seconds: float | None = None  # the think it was allowed (None: the agent's own)


def _act(agent: Any, view: Any, seconds: float | None, quick: bool) -> tuple[Any, Any]:
    """In a worker: the agent's action for the view (all it is sent), with a shorter think if asked."""
    if quick and getattr(agent, "policy", None) is not None:
        return agent.policy.act(view), agent
    if seconds is not None:
        own = agent.seconds
        agent.seconds = seconds
        try:
            return agent.act(view), agent
        finally:
            agent.seconds = own
    return agent.act(view), agent


def _warm() -> bool:
    """Loads the players in a new worker, so its first decision is not slowed by imports."""
    from ... import agents  # noqa: F401
    from ...agents import besigue, expert  # noqa: F401

    return True


def workers_for(settings: Settings) -> int:
    """Decisions thought at once: the operator's number, else one per core."""
    return settings.thinking_workers or os.cpu_count() or 1


class ThinkingPool:
    """The server's budget of thinking: computer players' decisions (fair slots, worker processes) and hints."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.workers = workers_for(settings)
        self.bots = FairSlots(self.workers)
        self.hints = FairSlots(settings.hints_at_once, per_group=1)
        self._executor: Executor | None = None
        self.closed = False

    # ------------------------------------------------------------------ budget
    def budget(self, base: float) -> float:
        """A decision's think now: the whole ``base`` while the waiting groups fit the workers, else a share.

        With ``g`` groups taking turns on ``w`` workers, a table waits for about
        ``g / w`` thinks; each may take ``pace * w / g`` so that a round still fits
        in ``pace``, the time a table takes per computer move when nobody waits
        (the longer of ``bot_delay`` and the full think).  A group counts while it
        holds or waits for a slot, or held one within the last ``pace``.
        """
        pace = max(self.settings.bot_delay, base)
        groups = self.bots.active_groups(window=pace)
        if groups <= self.workers:
            return base
        return min(base, pace * self.workers / groups)

    # ------------------------------------------------------------------ computer players
    async def think(self, agent: Any, view: Any, group: Hashable, sub: Hashable) -> Thought:
        """The agent's decision from the seat's view, when the fair scheduler gives this group its turn."""
        asked = time.perf_counter()
        async with self.bots.slot(group, sub):
            metrics.THINKING_WAIT.observe(time.perf_counter() - asked)
            base = getattr(agent, "seconds", None)
            if not isinstance(base, (int, float)) or isinstance(base, bool):  # a cheap player: a thread
                action, agent = await asyncio.to_thread(_act, agent, view, None, False)
                return Thought(action, agent)
            seconds = self.budget(float(base))
            hurried = seconds < base
            quick = seconds < THINK_FLOOR and getattr(agent, "policy", None) is not None
            if quick:  # the rule player answers in a few milliseconds: not worth a process
                action, agent = await asyncio.to_thread(_act, agent, view, None, True)
            else:
                action, agent = await self._heavy(agent, view, seconds if hurried else None)
            return Thought(action, agent, hurried, seconds if hurried else None)

    async def _heavy(self, agent: Any, view: Any, seconds: float | None) -> tuple[Any, Any]:
        executor = self._process_pool()
        if executor is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(executor, _act, agent, view, seconds, False)
            except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
                log.warning("a thinking worker process died; starting new ones")
                self._drop_pool()
            except (pickle.PicklingError, TypeError, AttributeError) as e:  # an agent that cannot travel
                log.warning(
                    "a computer player could not be sent to a worker process (%s); it thinks in a thread",
                    type(e).__name__,
                )
        return await asyncio.to_thread(_act, agent, view, seconds, False)

    def _process_pool(self) -> Executor | None:
        if not self.settings.thinking_processes or self.closed:
            return None
        if self._executor is None:
            ctx = multiprocessing.get_context(
                "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            )
            self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_warm)
        return self._executor

    def _drop_pool(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        """The server stops: no new work; decisions under way are dropped with their pool."""
        self.closed = True
        self._drop_pool()
