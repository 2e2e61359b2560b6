"""Per-address limits held across the processes of one server, in Redis.

One process alone keeps its counts in memory (checked and counted with no ``await`` between, see
`barbu.web.db.creations` and `barbu.web.tables.lobby`).  With many processes a client's requests land on any of
them, so the counts that matter live in the broker, and each check-and-count is one Lua script: Redis
runs it whole, so no burst of requests spread over the processes slips past a limit.

- **Per hour** (tables, kept games), **per day** (events, clubs: `barbu.web.db.creations.WINDOWS`): a sorted
  set of creation times per kind and address (or account), trimmed to the kind's window.  The database still keeps each creation (for restarts of a lone process).
- **At once** (WebSocket connections): a count per address, and the same count per process, so that
  when a process is lost the others give back what it held (`forget`).

Addresses are never stored as they are: only their HMAC (`Creations.address_hash`), as in the database.

**While the broker cannot be reached** nothing is refused for its sake, and no request fails: each process
holds every address to the same limits on its own (the counts it keeps in memory, which are checked before
these), so for the outage's length an address may have up to the limit on each process, never more.  The outage
is told once (`outages.broker`).  Each process knows what it holds (`held`), so once the broker answers again it
sets its own counts there right in one step (`pay_back`): what it took or gave back meanwhile, a command that
timed out but ran, or a Redis that restarted empty.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from . import outages
from .outages import is_unreachable

if TYPE_CHECKING:  # redis itself is loaded by the one process that has a broker (a tenth of a server's start)
    from redis.exceptions import RedisError

log = logging.getLogger("barbu.web")

PREFIX = "barbu:limit:"
WEBSOCKETS = "ws"  # the kind of the per-address count of open WebSockets

# KEYS[1]: the sorted set; ARGV: now, window, limit, a unique member.  Returns 0 (counted) or seconds to wait.
_WINDOW = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil(tonumber(oldest[2]) + tonumber(ARGV[2]) - tonumber(ARGV[1])))
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])))
return 0
"""

# KEYS[1]: the server's counts, KEYS[2]: this process's; ARGV: address, limit (0: none).  1 taken, 0 refused.
_ACQUIRE = """
local held = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > 0 and held >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
return 1
"""

# KEYS[1]: the server's counts, KEYS[2]: one process's; ARGV: address.  Gives one back.
_RELEASE = """
if tonumber(redis.call('HINCRBY', KEYS[1], ARGV[1], -1)) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
if tonumber(redis.call('HINCRBY', KEYS[2], ARGV[1], -1)) <= 0 then redis.call('HDEL', KEYS[2], ARGV[1]) end
return 1
"""

# KEYS[1]: the server's counts, KEYS[2]: this process's; ARGV: address, count, address, count …: what this
# process holds.  Its counts set to that, the server's moved by the difference.
_RESYNC = """
local want = {}
for i = 1, #ARGV, 2 do want[ARGV[i]] = tonumber(ARGV[i + 1]) end
local have = {}
local mine = redis.call('HGETALL', KEYS[2])
for i = 1, #mine, 2 do have[mine[i]] = tonumber(mine[i + 1]) end
local function move(field, by)
  if by ~= 0 and tonumber(redis.call('HINCRBY', KEYS[1], field, by)) <= 0 then redis.call('HDEL', KEYS[1], field) end
end
for field, n in pairs(have) do move(field, (want[field] or 0) - n) end
for field, n in pairs(want) do if have[field] == nil then move(field, n) end end
redis.call('DEL', KEYS[2])
for field, n in pairs(want) do if n > 0 then redis.call('HSET', KEYS[2], field, n) end end
return 1
"""

# KEYS[1]: the server's counts, KEYS[2]: a lost process's.  Gives back all it held.
_FORGET = """
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do
  if tonumber(redis.call('HINCRBY', KEYS[1], held[i], -tonumber(held[i + 1]))) <= 0 then
    redis.call('HDEL', KEYS[1], held[i])
  end
end
redis.call('DEL', KEYS[2])
return #held / 2
"""


class SharedLimits:
    """The per-address counts of every process of a server, in its broker."""

    def __init__(self, redis: Any, node: str) -> None:
        from redis.exceptions import RedisError

        self.redis, self.node = redis, node
        self._error: type[RedisError] = RedisError  # what a command raises when the broker fails
        self._window = redis.register_script(_WINDOW)
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE)
        self._forget = redis.register_script(_FORGET)
        self._resync = redis.register_script(_RESYNC)
        self.held: Counter[tuple[str, str]] = Counter()  # what this process holds, by (kind, HMAC), broker or not
        self._synced = 0  # the broker outages this process's counts were set right after

    @staticmethod
    def _away(exc: RedisError) -> None:
        """A failure that is the broker's absence is its outage (one line); any other is a bug, raised."""
        if not is_unreachable(exc):
            raise exc
        outages.broker.failed(exc)

    async def per_hour(self, kind: str, address_hash: str, limit: int, window: float) -> int:
        """0 when one more ``kind`` is allowed (and counted) in the last ``window`` seconds, else the minutes to wait."""
        if limit <= 0:
            return 0
        key = f"{PREFIX}{kind}:{address_hash}"
        try:
            seconds = int(await self._window(keys=[key], args=[time.time(), window, limit, secrets.token_hex(8)]))
        except self._error as exc:  # the broker is away: this process's own count (checked first) decides
            self._away(exc)
            return 0
        return 0 if seconds == 0 else max(1, math.ceil(seconds / 60))

    async def acquire(self, kind: str, address_hash: str, limit: int) -> bool:
        """One more ``kind`` held at once by an address, unless it holds ``limit`` already (0: no limit)."""
        try:
            taken = bool(
                await self._acquire(keys=[self._all(kind), self._mine(kind, self.node)], args=[address_hash, limit])
            )
        except self._error as exc:  # the broker is away: this process's own count (checked first) decides
            self._away(exc)
            taken = True
        if taken:
            self.held[(kind, address_hash)] += 1
        return taken

    async def release(self, kind: str, address_hash: str) -> None:
        """Give one back.  Never raises: it runs as a connection closes, when the broker may be out of reach
        (or this process was paused long enough for its socket to time out); a count left over is given back
        when the broker answers again (`pay_back`), or when the process's own counts are forgotten."""
        self.held[(kind, address_hash)] -= 1
        if self.held[(kind, address_hash)] <= 0:
            del self.held[(kind, address_hash)]
        keys, args = [self._all(kind), self._mine(kind, self.node)], [address_hash]
        for attempt in range(2):
            try:
                await self._release(keys=keys, args=args)
                return
            except self._error as exc:
                if attempt and is_unreachable(exc):  # set right once the broker answers (`pay_back`)
                    outages.broker.failed(exc)
                elif attempt:
                    log.warning("broker: could not give back a %s count (%s)", kind, exc)

    async def pay_back(self, kinds: tuple[str, ...] = (WEBSOCKETS,)) -> None:
        """After a broker outage (run every round; nothing to do unless one happened since the last time): this
        process's counts in the broker set to what it holds, and the server's moved by the difference, in one
        step a kind.  A connection closed during the outage no longer counts against its address, one opened
        then counts, and a Redis that restarted empty learns this process's share again."""
        seen = outages.broker.outages
        if seen == self._synced or not outages.broker.up:
            return
        for kind in kinds:
            args: list[str | int] = []
            for (k, address_hash), n in self.held.items():
                if k == kind and n > 0:
                    args += [address_hash, n]
            await self._resync(keys=[self._all(kind), self._mine(kind, self.node)], args=args)
        self._synced = seen

    async def forget(self, kind: str, node: str) -> int:
        """Give back what a lost process held; how many addresses it held something for."""
        return int(await self._forget(keys=[self._all(kind), self._mine(kind, node)]))

    async def holders(self, kind: str) -> list[str]:
        """The processes that hold something of ``kind`` (to find the lost ones among them)."""
        found = []
        async for key in self.redis.scan_iter(match=f"{PREFIX}{kind}:node:*"):
            name = key.decode() if isinstance(key, bytes) else key
            found.append(name.rsplit(":", 1)[1])
        return found

    @staticmethod
    def _all(kind: str) -> str:
        return f"{PREFIX}{kind}:all"

    @staticmethod
    def _mine(kind: str, node: str) -> str:
        return f"{PREFIX}{kind}:node:{node}"
