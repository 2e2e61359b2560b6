"""The daily deals' keys: one secret per installation, one key per day, per game and per board.

The day's key is HMAC-SHA256(the installation's daily secret, "YYYY-MM-DD"); it is published once the day
is over (UTC), and everything else derives from it, so anyone holding it can check a day's deals.  A
game's key is HMAC(day key, "game:" + the game's rules) and a board's is HMAC(game key, "board:" + number);
a board is dealt by `barbu.core.chance.BoardChance` from its own key.
"""

from __future__ import annotations

import hashlib
import hmac
import re

DATE_PATTERN = re.compile(r"\d{4}-\d{2}-\d{2}")


def _mac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()


def day_key(secret: bytes, day: str) -> bytes:
    """The key of one day ("2026-11-27"), from the installation's daily secret."""
    if not DATE_PATTERN.fullmatch(day):
        raise ValueError("a day is written YYYY-MM-DD")
    return _mac(secret, day)


def game_key(day: bytes, game: str) -> bytes:
    """One game's key on a day (``game`` is its rules text, e.g. "classic")."""
    return _mac(day, "game:" + game)


def board_key(game: bytes, board: int) -> bytes:
    """The chance key of board ``board`` (from 0) of one game's daily set."""
    return _mac(game, f"board:{board}")


def seed_of(game: bytes, text: str) -> int:
    """A 64-bit seed from the game's key and a text (a computer player's decision: board, seat, moves)."""
    return int.from_bytes(_mac(game, "seed:" + text)[:8], "big")
