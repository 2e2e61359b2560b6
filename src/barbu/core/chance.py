"""Deals and cuts a player cannot predict: a keyed cryptographic generator per chance node.

A match seeded with a small integer (the command line, the arena, the tests)
uses Python's Mersenne Twister, which is reproducible but not secret: its
output can be reconstructed from enough observed deals.  A table played by
strangers uses `KeyedRandom` instead: the random stream of the chance node
number ``node`` is HMAC-SHA256 keyed by the table's 256-bit secret over
(node, block counter).  Knowing every earlier deal tells nothing about the
next one without the key, yet the same key replays every deal exactly, so a
finished match can publish its key and anyone can check its deals with
`verify_chance`.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Any, Callable, Iterable

from .game import CHANCE

SECRET_BYTES = 32  # 256 bits


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


class KeyedRandom(random.Random):
    """`random.Random` whose bits come from HMAC-SHA256(secret, node ‖ counter).

    Overriding both `random` and `getrandbits` makes every method of
    `random.Random` (shuffle, sample, choice, randrange) draw from this stream,
    with the standard library's unbiased rejection sampling for ranges.
    """

    def __init__(self, secret: bytes, node: int) -> None:
        if len(secret) < 16:
            raise ValueError("the secret must have at least 128 bits")
        self._key = bytes(secret)
        self._node = node
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0
        super().__init__(0)

    def seed(self, *args: Any, **kwargs: Any) -> None:  # the key is the seed; nothing else may reseed it
        return None

    def _block(self) -> int:
        msg = self._node.to_bytes(8, "big") + self._counter.to_bytes(8, "big")
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest(), "big")

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._pool_bits < k:
            self._pool = (self._pool << 256) | self._block()
            self._pool_bits += 256
        self._pool_bits -= k
        out = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return out

    def random(self) -> float:
        return self.getrandbits(53) * (2.0**-53)

    def getstate(self) -> Any:
        raise NotImplementedError("a keyed generator has no state to save: rebuild it from the key and node")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("a keyed generator has no state to restore: rebuild it from the key and node")


def keyed_chance(match: Any, secret: bytes) -> Any:
    """The chance outcome due now in `match`, drawn from the keyed stream of this node."""
    return match.sample_chance(KeyedRandom(secret, len(match.history)))


def verify_chance(fresh: Callable[[], Any], actions: Iterable[Any], secret: bytes) -> list[int]:
    """Replay `actions` on a new match from `fresh()`; the indices of chance events the key does not give.

    An empty list means every deal, draw and cut is the one the key produces:
    nobody chose the cards.
    """
    m = fresh()
    wrong = []
    for i, action in enumerate(actions):
        if m.to_act() == CHANCE and keyed_chance(m, secret) != action:
            wrong.append(i)
        m.apply(action)
    return wrong


class BoardChance:
    """Deals the same cards at every table that plays a board, whatever was played before.

    `keyed_chance` keys each chance node by its place in the match's history, so two tables whose players
    chose differently soon deal differently.  Duplicate play (events, the daily deals) needs deal *k* to
    give the same cards from the same seats at every table: here the node is the deal's number (the
    match's ``results`` so far) and the count of chance events already drawn in that deal (a dealer's
    draw, a redeal), so it does not depend on anyone's decisions.  Feed it every chance event in order,
    including when a match is rebuilt from its log."""

    STRIDE = 1024  # chance events one deal may draw, at most

    def __init__(self, secret: bytes) -> None:
        self.secret = bytes(secret)
        self._deal = -1
        self._drawn = 0

    def node(self, match: Any) -> int:
        """The node of the chance event due now, counting it as drawn."""
        deal = len(match.results)
        if deal != self._deal:
            self._deal, self._drawn = deal, 0
        node = deal * self.STRIDE + self._drawn
        self._drawn += 1
        return node

    def __call__(self, match: Any) -> Any:
        return match.sample_chance(KeyedRandom(self.secret, self.node(match)))


def verify_board_chance(fresh: Callable[[], Any], actions: Iterable[Any], secret: bytes) -> list[int]:
    """As `verify_chance`, for a match dealt by `BoardChance`: the chance events the key does not give."""
    m = fresh()
    boards = BoardChance(secret)
    wrong = []
    for i, action in enumerate(actions):
        if m.to_act() == CHANCE and boards(m) != action:
            wrong.append(i)
        m.apply(action)
    return wrong
