"""The leak oracle: no message sent to a seat names a card that seat may not see.

It reads every card a message names, in every form the project writes cards
(``QH``, ``Q♥``/``10♥``, suit form ``AKQ.JT9.-.5432``), anywhere in the
message, and compares them with what the seat may see, computed from the
true match at the moment the message is sent:

* during a deal: the cards it was dealt or holds, every card played, the
  cards set aside face up;
* between deals (and in the ``last_deal`` summary): the previous deal's
  played cards, revealed Chinese poker rows, set-aside cards and its own hand.

A spectator may see only the public part.  The oracle knows nothing of the
server's message layout beyond the one ``last_deal`` key, so a new field
that carried a hidden card would be caught.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from barbu.besigue import BesigueGame
from barbu.besigue.cards import parse_type, type_of, type_text
from barbu.classic.match import DEAL, DRAW, OVER, Match
from barbu.core.cards import RANKS, SUITS, parse_card

# The look-behind comes after the rank (the same test: no letter or digit before it) so that the search can
# skip ahead to a rank character, three times faster over the soak's millions of messages.
CARD_RE = re.compile(r"([2-9TJQKA])(?<![A-Za-z0-9][2-9TJQKA])([SHDC])(?![A-Za-z0-9])")
DISPLAY_RE = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
SUIT_FORM_RE = re.compile(r"(?<![\w.-])([2-9TJQKA]+|-)\.([2-9TJQKA]+|-)\.([2-9TJQKA]+|-)\.([2-9TJQKA]+|-)(?![\w.-])")


class Leak(AssertionError):
    pass


# Each (rank, suit) the two card patterns can match, as its card's bit (the soak reads millions of names).
_BITS = {
    (r, s): 1 << parse_card(r + s)
    for r in [*"23456789TJQKA", "10"]
    for s in "SHDC♠♥♦♣"
    if not (r == "10" and s in "SHDC") and not (r == "T" and s in "♠♥♦♣")
}


def cards_named(text: str) -> int:
    mask = 0
    pairs = set(CARD_RE.findall(text))
    if "♠" in text or "♥" in text or "♦" in text or "♣" in text:  # no suit symbol, no card in display form
        pairs.update(DISPLAY_RE.findall(text))
    for pair in pairs:
        mask |= _BITS[pair]
    if text.count(".") < 3:  # a suit form has three dots
        return mask
    for groups in SUIT_FORM_RE.findall(text):
        for suit, ranks in enumerate(groups):
            if ranks != "-":
                for ch in ranks:
                    mask |= 1 << (suit * 13 + RANKS.index(ch))
    return mask


def previous_deal_visible(m: Match, seat: int | None) -> int:
    if not m.results:
        return 0
    r = m.results[-1]
    mask = r.set_aside
    for _, cards in r.tricks:
        for c in cards:
            mask |= 1 << c
    for a in r.arrangements:
        mask |= a.back | a.middle | a.front
    if seat is not None and r.hands:
        mask |= r.hands[seat]
    return mask


def current_visible(m: Match, seat: int | None) -> int:
    if m.phase in (DRAW, DEAL, OVER):
        return previous_deal_visible(m, seat)
    mask = m.set_aside
    for _, cards in m.trick_log:
        for c in cards:
            mask |= 1 << c
    for c in m.trick:
        mask |= 1 << c
    if seat is not None:
        mask |= m.hands[seat] | (m.dealt[seat] if m.dealt else 0)
        for p in getattr(m, "seen_by", lambda s: ())(seat):  # Scottish pass-ons: what it gave and received
            mask |= p.gave | p.received
    return mask


def _split_last_deal(obj: Any, found: list[Any]) -> Any:
    """The message without its ``last_deal`` summaries, which are collected apart (walked only when the
    key is in the message: the server writes keys as they are, never as escapes)."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if k == "last_deal":
                found.append(v)
            else:
                out[k] = _split_last_deal(v, found)
        return out
    if isinstance(obj, list):
        return [_split_last_deal(v, found) for v in obj]
    return obj


def show(mask: int) -> str:
    return " ".join(RANKS[c % 13] + SUITS[c // 13] for c in range(52) if mask >> c & 1)


class LeakOracle:
    def __init__(self) -> None:
        self.checked = 0
        self.cards_seen = 0

    def check(self, m: Match, seat: int | None, text: str) -> Any:
        """Raise `Leak` if ``text``, sent now to ``seat`` (None: a spectator), names a card it may not see;
        returns the message read (the soak's connections need not read it again)."""
        if isinstance(m, BesigueGame):
            return self.check_besigue(m, seat, text)
        self.checked += 1
        msg = orjson.loads(text)  # the same objects as json.loads, in a quarter of the time
        summaries: list[Any] = []
        if '"last_deal"' in text or "\\" in text:  # a summary to read apart, or escapes to read as their text
            named = cards_named(json.dumps(_split_last_deal(msg, summaries), ensure_ascii=False))
        else:  # the text as sent is the text to read
            named = cards_named(text)
        self.cards_seen += named.bit_count()
        # Cards outside the deck are in nobody's hand (the Scottish Unused Pack's draws and cuts are public).
        bad = named & ~current_visible(m, seat) & m.deck
        if bad:
            raise Leak(
                f"{'spectator' if seat is None else f'seat {seat}'} was sent {show(bad)} "
                f"(phase {m.phase_name}): {text[:600]}"
            )
        for s in summaries:
            named = cards_named(json.dumps(s, ensure_ascii=False))
            bad = named & ~previous_deal_visible(m, seat) & m.deck
            if bad:
                raise Leak(
                    f"{'spectator' if seat is None else f'seat {seat}'} was sent {show(bad)} in the "
                    f"last deal's summary: {json.dumps(s)[:600]}"
                )
        if seat is None:
            state = msg.get("state") or {}
            if state.get("hand") is not None or state.get("legal"):
                raise Leak(f"a spectator was sent a hand or legal actions: {text[:300]}")
        return msg

    def check_secrets(self, text: str, *keys: bytes) -> None:
        """Raise `Leak` if ``text`` names any of these keys, in hex or base64 (the daily deals' secret and day key
        before the day is over, a table's key before its match ends)."""
        import base64

        for key in keys:
            for form in (
                key.hex(),
                key.hex().upper(),
                base64.b64encode(key).decode(),
                base64.urlsafe_b64encode(key).decode().rstrip("="),
            ):
                if form in text:
                    raise Leak(f"a secret key was sent: {text[:300]}")

    def check_besigue(self, g: BesigueGame, seat: int | None, text: str) -> Any:
        """The same promise at a Bésigue table, from the true game: a seat may see its own hand, the
        cards both players have declared this deal, every card played this deal, the 7s of trumps shown, the turn-up while it lies
        under the stock, and the cards the opponent has had to show (a shown 7 of trumps, the
        turn-up he took) — never the rest of his hand nor the order of the stock.

        The two copies of a card have the same text, so a message may name a card only if the
        reader may see at least one copy; and a seat's ``hand`` must be exactly its own hand.
        """
        self.checked += 1
        msg = orjson.loads(text)
        visible = {c for s in (0, 1) for c in g.table[s]} | {c for _, c in g.played} | set(g.shown)
        for s in (0, 1):  # this deal's declarations were laid face up, even if back in hand since
            visible |= {c for _, cards, _ in g.melds[s] for c in cards}
        for s in (0, 1):
            visible |= g.revealed[s] & g.hands[s]
        if g.turn_up is not None and g.stock:
            visible.add(g.turn_up)
        if seat is not None:
            visible |= g.hands[seat]
        allowed = {type_of(c) for c in visible}
        named = set()
        for r, s in CARD_RE.findall(text):
            if r in "AKQJT987":
                named.add(parse_type(r + s))
        for r, s in DISPLAY_RE.findall(text):
            if r in ("A", "K", "Q", "J", "10", "9", "8", "7"):
                named.add(parse_type(r + s))
        self.cards_seen += len(named)
        bad = named - allowed
        who = "spectator" if seat is None else f"seat {seat}"
        if bad:
            raise Leak(f"{who} was sent {' '.join(type_text(t) for t in sorted(bad))} (phase {g.phase}): {text[:600]}")
        state = msg.get("state")
        if isinstance(state, dict):
            if seat is None and (state.get("hand") is not None or state.get("legal")):
                raise Leak(f"a spectator was sent a hand or legal actions: {text[:300]}")
            if seat is not None and sorted(state.get("hand") or []) != sorted(
                type_text(type_of(c)) for c in g.hands[seat]
            ):
                raise Leak(f"seat {seat} was sent a hand that is not its own: {text[:300]}")
        return msg
