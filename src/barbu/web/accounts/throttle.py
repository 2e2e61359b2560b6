"""Log-in attempts, reserved before the password is checked, with delays that grow with the failures.

Each attempt is counted *before* its password is weighed, in one step that checks every count it touches and
adds to all of them, or to none: so a burst of guesses sent at once gets exactly as many checks as guesses sent
one after another.  A right password gives its attempt back (`Throttle.forgive`).

What is counted (all keys are hashes: no name or address is kept as it is):

- **the name and the address together** (a *pair*): 5 attempts free, then a wait of 30 s that doubles with each
  further failure, up to 15 minutes.  A stranger elsewhere never slows the owner down;
- **the address over every name**, looser: 30 free, then the same doubling up to 15 minutes;
- **the name over every address**, only to notice an attack: once 20 attempts failed on a name within the
  hour, each address has 1 free attempt on it instead of 5 (a crowd of addresses gets little), while the
  owner's first try from a new address still goes through;
- **a known browser** (one where the account logged in before: a signed device cookie, `accounts.devices`)
  is counted on its own key only, so nobody else's failures on the name or from its address slow it down.

So a right password from a new browser waits at most one pair's or one address's longest delay (15 minutes),
and from a known browser nothing but its own failures.  One process keeps the counts in memory and checks
and counts with no ``await`` between; many processes keep them in their broker, each step one Lua script
(`SharedThrottle`).  A restart of a lone process starts the counts over.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..common.errors import WebError
from .refusals import TOO_MANY_FAILURES, TOO_MANY_FAILURES_SECONDS


@dataclass(frozen=True)
class Rule:
    """A growing delay: ``free`` attempts, then ``first`` seconds doubled with each failure beyond, at most
    ``cap``; the count starts over ``forget`` seconds after its last attempt."""

    free: int
    first: float
    cap: float
    forget: float

    def delay(self, failures: int, free: int | None = None) -> float:
        """Seconds to wait after ``failures`` (``free``: this time's free attempts, if not the rule's)."""
        allowed = self.free if free is None else free
        return 0.0 if failures < allowed else min(self.cap, self.first * 2 ** (failures - allowed))


PAIR = Rule(free=5, first=30.0, cap=15 * 60.0, forget=24 * 3600.0)
ADDRESS = Rule(free=30, first=30.0, cap=15 * 60.0, forget=24 * 3600.0)
DEVICE = Rule(free=5, first=30.0, cap=15 * 60.0, forget=24 * 3600.0)
NAME = Rule(free=1 << 30, first=0.0, cap=0.0, forget=3600.0)  # counted only, to notice an attack on a name
ATTACKED = 20  # failures on a name within the hour from which each address has ...
ATTACKED_FREE = 1  # ... this many free attempts on it


def _short(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class Attempt:
    """The keys one log-in attempt counts against, and their rules (the first key is the one forgiven)."""

    keys: tuple[tuple[str, Rule], ...]
    name_key: str | None  # the name's count: its attacks tighten the first key's free attempts

    @classmethod
    def of(cls, name_key: str, address_hash: str, device: str | None) -> Attempt:
        """``device``: the known browser's id for this name (None: a browser the name never logged in from)."""
        name = _short(name_key)
        if device is not None:
            return cls(((f"d:{_short(device)}:{name}", DEVICE),), None)
        return cls(((f"p:{address_hash[:32]}:{name}", PAIR), (f"a:{address_hash[:32]}", ADDRESS)), f"n:{name}")


def refusal(wait: float) -> WebError:
    """The wait said in plain words: seconds under two minutes, else minutes."""
    if wait < 120:
        return WebError(TOO_MANY_FAILURES_SECONDS, n=max(1, math.ceil(wait)))
    return WebError(TOO_MANY_FAILURES, n=math.ceil(wait / 60))


@dataclass
class _Count:
    forget: float
    failures: int = 0
    next_at: float = 0.0
    last_at: float = 0.0


class Throttle:
    """One server's log-in counts: in this process's memory, or in its broker when it has many processes."""

    def __init__(self, broker: Callable[[], Any] = lambda: None) -> None:
        """``broker``: the server's Redis client once it has many processes (None: one process alone)."""
        self._counts: dict[str, _Count] = {}
        self._swept = 0.0
        self._broker = broker
        self._shared: SharedThrottle | None = None

    @property
    def shared(self) -> SharedThrottle | None:
        redis = self._broker()
        if redis is None:
            return None
        if self._shared is None or self._shared.redis is not redis:
            self._shared = SharedThrottle(redis)
        return self._shared

    async def reserve(self, attempt: Attempt) -> None:
        """Count one attempt, or refuse it (429, with the wait) and count nothing."""
        shared = self.shared
        if shared is not None:
            wait = await shared.reserve(attempt)
        else:
            wait = self._reserve(attempt, time.time())
        if wait > 0:
            raise refusal(wait)

    async def forgive(self, attempt: Attempt) -> None:
        """A right password: the first key starts over, the others give this attempt back."""
        shared = self.shared
        if shared is not None:
            await shared.forgive(attempt)
            return
        first, _ = attempt.keys[0]
        self._counts.pop(first, None)
        for key in [k for k, _ in attempt.keys[1:]] + ([attempt.name_key] if attempt.name_key else []):
            found = self._counts.get(key)
            if found is not None and found.failures > 0:
                found.failures -= 1

    def _reserve(self, attempt: Attempt, t: float) -> float:
        """Check and count in one step (nothing here awaits): 0, or the seconds to wait."""
        rules = list(attempt.keys) + ([(attempt.name_key, NAME)] if attempt.name_key else [])
        counts = [self._fresh(key, rule, t) for key, rule in rules]
        wait = max(c.next_at - t for c in counts)
        if wait > 0:
            return wait
        attacked = attempt.name_key is not None and counts[-1].failures >= ATTACKED
        for i, ((_, rule), c) in enumerate(zip(rules, counts)):
            c.failures += 1
            c.last_at = t
            delay = rule.delay(c.failures, ATTACKED_FREE if attacked and i == 0 else None)
            c.next_at = t + delay if delay > 0 else 0.0  # no wait: none, whatever the clock does
        self._sweep(t)
        return 0.0

    def _fresh(self, key: str, rule: Rule, t: float) -> _Count:
        c = self._counts.get(key)
        if c is None or t - c.last_at > rule.forget:
            c = self._counts[key] = _Count(rule.forget)
        return c

    def _sweep(self, t: float) -> None:
        """Forget the counts past their rule's time, once a minute at most (the memory stays bounded)."""
        if t - self._swept >= 60:
            self._swept = t
            for key in [k for k, c in self._counts.items() if t - c.last_at > c.forget]:
                del self._counts[key]


# KEYS: the keys (the name's last when ARGV[2] is 1); ARGV: (unused), has-name, attacked, attacked-free, then per
# key free, first, cap, forget.  Each key is a hash {f: failures, n: next attempt, l: last attempt}.  The time is
# the broker's own, one clock for every process.  Returns the seconds to wait as a string ("0": counted).
_RESERVE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local counts = {}
local wait = 0
for i, key in ipairs(KEYS) do
  local base = 4 + (i - 1) * 4
  local forget = tonumber(ARGV[base + 4])
  local c = redis.call('HMGET', key, 'f', 'n', 'l')
  local f, n, l = tonumber(c[1] or '0'), tonumber(c[2] or '0'), tonumber(c[3] or '0')
  if now - l > forget then f, n = 0, 0 end
  counts[i] = f
  if n - now > wait then wait = n - now end
end
if wait > 0 then return tostring(wait) end
local attacked = ARGV[2] == '1' and counts[#KEYS] >= tonumber(ARGV[3])
for i, key in ipairs(KEYS) do
  local base = 4 + (i - 1) * 4
  local free, first, cap, forget = tonumber(ARGV[base + 1]), tonumber(ARGV[base + 2]), tonumber(ARGV[base + 3]),
    tonumber(ARGV[base + 4])
  if attacked and i == 1 then free = tonumber(ARGV[4]) end
  local f = counts[i] + 1
  local next = 0
  if f >= free then next = now + math.min(cap, first * 2 ^ (f - free)) end
  redis.call('HSET', key, 'f', f, 'n', next, 'l', now)
  redis.call('EXPIRE', key, math.ceil(forget))
end
return '0'
"""

# KEYS[1]: the key that starts over; the others give one attempt back.
_FORGIVE = """
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  if tonumber(redis.call('HGET', KEYS[i], 'f') or '0') > 0 then redis.call('HINCRBY', KEYS[i], 'f', -1) end
end
return 1
"""

PREFIX = "barbu:login:"


class SharedThrottle:
    """The counts of every process of a server, in its broker: each reservation one Lua script."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._reserve = redis.register_script(_RESERVE)
        self._forgive = redis.register_script(_FORGIVE)

    async def reserve(self, attempt: Attempt) -> float:
        rules = list(attempt.keys) + ([(attempt.name_key, NAME)] if attempt.name_key else [])
        args: list[Any] = [0, 1 if attempt.name_key else 0, ATTACKED, ATTACKED_FREE]
        for _, rule in rules:
            args += [rule.free, rule.first, rule.cap, rule.forget]
        found = await self._reserve(keys=[PREFIX + k for k, _ in rules], args=args)
        return float(found.decode() if isinstance(found, bytes) else found)

    async def forgive(self, attempt: Attempt) -> None:
        keys = [k for k, _ in attempt.keys] + ([attempt.name_key] if attempt.name_key else [])
        await self._forgive(keys=[PREFIX + k for k in keys])
