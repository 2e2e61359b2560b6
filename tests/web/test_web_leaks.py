"""The leak oracle over many games driven through the table actors, in-process.

Every seat is a client that plays random legal actions through the same
`Table.act` path as the WebSocket, a computer player sits at some tables,
two spectators watch (one with a credential that holds no seat), clients
drop and reconnect (with an up-to-date, an old or no version), stand-ins take
over dropped seats, and stale, duplicate, foreign-seat, out-of-turn,
spectator and garbage commands are thrown in.  Every message any connection
receives goes through the `LeakOracle` at the moment it is sent, and every
refused command must leave the table exactly where it was.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections import Counter
from typing import Any

import pytest
from leak_oracle import LeakOracle

from barbu.agents import AGENT_KINDS
from barbu.besigue import BesigueGame, BesigueRules
from barbu.besigue.cards import type_of, type_text
from barbu.classic.match import CHANCE
from barbu.classic.ruleset import Ruleset, presets
from barbu.core.cards import CARDS, cards_of
from barbu.core.chance import new_secret
from barbu.web.common.settings import Settings
from barbu.web.db.storage import TableRecord, hash_token, now
from barbu.web.tables.actor import Table


class MemoryJournal:
    """The journal's interface without a database: these tests are about what is sent."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int, int, str]] = []

    async def append(self, table_id: str, seq: int, actor: int, action: str) -> None:
        self.events.append((table_id, seq, actor, action))

    async def run(self, fn: Any) -> None:
        return None


class SinkConn:
    """A connection whose every received message is checked by the oracle when it is sent."""

    def __init__(self, oracle: LeakOracle, table: Table) -> None:
        self.oracle = oracle
        self.table = table
        self.seat: int | None = None
        self.state: dict[str, Any] | None = None
        self.replies: list[dict[str, Any]] = []
        self.closed = False

    def send(self, text: str) -> None:
        msg = self.oracle.check(self.table.match, self.seat, text)
        if "state" in msg:
            self.state = msg["state"]
        if msg["type"] in ("ack", "error"):
            self.replies.append(msg)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


def variants() -> list[Ruleset]:
    """Every preset at every player count it allows, and the classic variants."""
    out = []
    for p in presets():
        for n in p.ruleset.family_spec.players:
            out.append(p.ruleset if n == p.ruleset.players else p.ruleset.replace(players=n))
    out += [
        Ruleset.parse("classic(chinese_poker=true)"),
        Ruleset.parse("classic(ravage_city=true, rotation=quick)"),
        Ruleset.parse("classic(domino_ace=low, heart_lead=until_broken)"),
    ]
    return out


def random_command(state: dict[str, Any], rng: random.Random) -> str:
    """What a client would send: one of the legal texts, or a Chinese poker arrangement of its hand."""
    if state["legal"] is not None:
        return rng.choice(state["legal"])
    hand = list(state["hand"])
    rng.shuffle(hand)
    return f"arrange {','.join(hand[:5])} {','.join(hand[5:10])} {','.join(hand[10:13])}"


async def drive_table(rules: Ruleset, deals: int, rng: random.Random, oracle: LeakOracle, stats: Counter) -> None:
    grace = rng.choice([0.0, 1000.0])  # 0: a dropped seat is played by a stand-in at once
    settings = Settings(db_url="sqlite://", grace=grace, bot_delay=0, deal_pause=0)
    journal = MemoryJournal()
    rec = TableRecord(
        uuid.uuid4().hex[:8],
        str(rules),
        rng.randrange(2**40),
        "open",
        now(),
        secret=new_secret().hex(),
        creator_hash=hash_token("creator"),
    )
    table = Table(rec, journal, settings)
    table.start()
    m = table.match
    n = m.n
    bot_seat = rng.randrange(n) if rng.random() < 0.4 else None
    tokens: dict[int, str] = {}
    for s in range(n):
        if s == bot_seat:
            await table.call(table.add_bot, s, AGENT_KINDS[0], "creator")
        else:
            tokens[s] = await table.call(table.take_seat, s, f"P{s}")
    conns: dict[int, SinkConn | None] = {}
    for s, tok in tokens.items():
        conns[s] = SinkConn(oracle, table)
        await table.call(table.join, conns[s], tok, None)
    spectators = [SinkConn(oracle, table), SinkConn(oracle, table)]
    await table.call(table.join, spectators[0], None, None)
    await table.call(table.join, spectators[1], "not-a-credential", None)
    assert all(c.seat is None for c in spectators)

    async def settle() -> None:
        # Computer players think off the table's actor (in a thread here): their moves take real time to come.
        for i in range(20_000):
            actor = m.to_act()
            if actor is None or (actor != CHANCE and table.controller(actor) != "bot"):
                return
            await table.call(_noop)
            if i % 10 == 9:
                await asyncio.sleep(0.002)
        raise AssertionError("the computer players never handed the turn back")

    async def refused(conn: SinkConn, msg: dict[str, Any], code: str) -> None:
        await settle()
        before = (table.version, len(journal.events))
        await table.call(table.act, conn, msg)
        reply = conn.replies[-1]
        assert reply["type"] == "error" and reply["code"] == code, (code, reply)
        assert (table.version, len(journal.events)) == before
        stats[code] += 1

    kept: dict[int, dict[str, Any] | None] = {}  # the state a dropped client still shows

    async def reconnect(s: int) -> None:
        old = conns.get(s)
        if old is not None:
            await table.call(table.disconnect, old)
            kept[s] = old.state
        c = SinkConn(oracle, table)
        c.state = kept.get(s)
        known = c.state["version"] if c.state else None
        since = rng.choice([None, known, max(0, table.version - rng.randrange(1, 30))])
        await table.call(table.join, c, tokens[s], since)
        assert c.seat == s and c.state is not None and c.state["version"] == table.version
        conns[s] = c
        stats["reconnect"] += 1

    start_deal = m.deal_no
    while not m.is_over and m.deal_no - start_deal < deals:
        await settle()
        actor = m.to_act()
        if actor is None:
            break
        conn = conns.get(actor)
        if conn is None or table.controller(actor) == "wait":
            await reconnect(actor)
            continue
        state = conn.state
        assert state is not None and state["version"] == table.version and state["to_act"] == actor
        text = random_command(state, rng)
        others = [c for s, c in conns.items() if s != actor and c is not None]
        roll = rng.random()
        if roll < 0.04:
            await refused(conn, {"type": "act", "action": text, "version": table.version - 1}, "stale")
        elif roll < 0.08 and others:
            await refused(
                rng.choice(others),
                {"type": "act", "action": text, "version": table.version, "seat": actor},
                "foreign_seat",
            )
        elif roll < 0.12 and others:
            other = rng.choice(others)
            own = other.state["hand"] if other.state and other.state["hand"] else ["2C"]
            await refused(other, {"type": "act", "action": rng.choice(own), "version": table.version}, "not_your_turn")
        elif roll < 0.14:
            await refused(spectators[0], {"type": "act", "action": text, "version": table.version}, "not_seated")
        elif roll < 0.17 and state["phase"] == "play" and isinstance(m, BesigueGame):
            mine = {type_of(c) for c in m.hands[actor]}
            theirs = sorted({type_of(c) for c in m.hands[1 - actor]} - mine)
            if theirs:  # the opponent's card, named: refused without saying where it is
                await refused(
                    conn,
                    {"type": "act", "action": f"play {type_text(rng.choice(theirs))}", "version": table.version},
                    "illegal",
                )
        elif roll < 0.17 and state["phase"] == "play":
            theirs = m.in_hands & ~m.hands[actor]
            if theirs:
                card = str(CARDS[rng.choice(cards_of(theirs))])
                await refused(conn, {"type": "act", "action": card, "version": table.version}, "illegal")
        elif roll < 0.19:
            await refused(
                conn,
                {"type": "act", "action": rng.choice(["zz", "contract nothing", "double x"]), "version": table.version},
                rng.choice(["parse"]),
            )
        cid = uuid.uuid4().hex
        msg = {"type": "act", "action": text, "version": table.version, "id": cid}
        before = table.version
        await table.call(table.act, conn, msg)
        reply = conn.replies[-1]
        assert reply["type"] == "ack" and reply["id"] == cid and reply["version"] == before + 1, reply
        assert journal.events[before][3] == reply["action"]
        stats["moves"] += 1
        if rng.random() < 0.05:  # the same command again: answered, not applied
            await settle()
            after = (table.version, len(journal.events))
            await table.call(table.act, conn, msg)
            assert conn.replies[-1].get("duplicate") and (table.version, len(journal.events)) == after
            stats["duplicate"] += 1
        roll = rng.random()
        if roll < 0.03:
            await reconnect(rng.choice(list(tokens)))
        elif roll < 0.05:  # a player drops; with no grace a stand-in plays his seat until he returns
            s = rng.choice(list(tokens))
            if conns.get(s) is not None and sum(1 for c in conns.values() if c is not None) > 1:
                await table.call(table.disconnect, conns[s])
                kept[s] = conns[s].state
                conns[s] = None
                stats["dropped"] += 1
        elif roll < 0.07:
            await table.call(table.disconnect, spectators[0])
            spectators[0] = SinkConn(oracle, table)
            await table.call(table.join, spectators[0], None, rng.choice([None, table.version - 3]))
    stats["deals"] += m.deal_no - start_deal
    # The log holds every action once, in order.
    seqs = [e[1] for e in journal.events]
    assert seqs == list(range(len(seqs))) == list(range(table.version))
    await table.stop()


async def _noop() -> None:
    return None


def run_oracle(total_deals: int, seed: int) -> tuple[LeakOracle, Counter]:
    oracle = LeakOracle()
    stats: Counter = Counter()
    rng = random.Random(seed)
    rules = variants()
    per = max(1, total_deals // len(rules))

    async def main() -> None:
        for r in rules:
            done = stats["deals"]
            while stats["deals"] - done < per:
                await drive_table(r, per - (stats["deals"] - done), rng, oracle, stats)

    asyncio.run(main())
    return oracle, stats


def test_no_leak_over_many_deals() -> None:
    oracle, stats = run_oracle(total_deals=120, seed=1)
    print(dict(stats), oracle.checked, "messages checked")
    assert stats["deals"] >= 120 // len(variants()) * len(variants())
    assert oracle.checked > 10_000 and oracle.cards_seen > 10_000
    for kind in ("stale", "foreign_seat", "not_your_turn", "not_seated", "illegal", "duplicate", "reconnect"):
        assert stats[kind] > 0, (kind, stats)


def test_no_leak_at_besigue_tables() -> None:
    """Both Bésigue presets (hands of 9 and 8, the 7 drawn or exchanged), seats and spectators."""
    oracle = LeakOracle()
    stats: Counter = Counter()
    rng = random.Random(3)

    async def main() -> None:
        for text in ("besigue", "besigue-english", "besigue(seven=exchange, endgame=must_win)"):
            await drive_table(BesigueRules.parse(text), 3, rng, oracle, stats)

    asyncio.run(main())
    print(dict(stats), oracle.checked, "messages checked")
    assert stats["deals"] >= 6 and oracle.checked > 2_000 and oracle.cards_seen > 10_000
    for kind in ("stale", "illegal", "not_your_turn", "reconnect"):
        assert stats[kind] > 0, (kind, stats)


SOAK_DEALS, SOAK_PARTS = 3000, 4  # the soak's deals, in parts of their own seeds that test processes share out


@pytest.mark.slow
@pytest.mark.parametrize("part", range(SOAK_PARTS))
def test_no_leak_over_thousands_of_deals(part: int) -> None:
    oracle, stats = run_oracle(total_deals=SOAK_DEALS // SOAK_PARTS, seed=2 + part)
    print(dict(stats), oracle.checked, "messages checked")
    assert stats["deals"] >= SOAK_DEALS // SOAK_PARTS // len(variants()) * len(variants())
    assert stats["dropped"] > 50 // SOAK_PARTS and stats["reconnect"] > 100 // SOAK_PARTS


def test_the_oracle_catches_a_besigue_leak() -> None:
    """A card only the opponent holds, or a hand that is not the seat's own, fails the oracle."""
    from leak_oracle import Leak

    g = BesigueGame("besigue", seed=4)
    while g.to_act() == CHANCE:
        g.play_chance()
    seat = g.to_act()
    mine = sorted(type_text(type_of(c)) for c in g.hands[seat])
    oracle = LeakOracle()
    oracle.check(g, seat, json.dumps({"type": "state", "state": {"hand": mine}}))
    only_theirs = sorted(
        {type_of(c) for c in g.hands[1 - seat]} - {type_of(c) for c in g.hands[seat]} - {type_of(g.turn_up)}
    )
    with pytest.raises(Leak):
        oracle.check(g, seat, json.dumps({"type": "error", "message": f"x {type_text(only_theirs[0])} y"}))
    stock_only = sorted({type_of(c) for c in g.stock[:-1]} - {type_of(c) for c in g.hands[seat]} - {type_of(g.turn_up)})
    with pytest.raises(Leak):
        oracle.check(g, seat, json.dumps({"type": "state", "state": {"stock": [type_text(stock_only[0])]}}))
    with pytest.raises(Leak):
        oracle.check(g, 1 - seat, json.dumps({"type": "state", "state": {"hand": mine}}))


def test_the_oracle_catches_a_leak() -> None:
    """The oracle itself: a message naming an opponent's card fails it, in every card form."""
    from leak_oracle import Leak

    from barbu.classic.match import Match

    m = Match("classic", seed=5)
    while m.to_act() == CHANCE:
        m.play_chance()
    hidden = CARDS[cards_of(m.hands[(m.to_act() + 1) % 4])[0]]
    oracle = LeakOracle()
    mine = str(CARDS[cards_of(m.hands[m.to_act()])[0]])
    oracle.check(m, m.to_act(), json.dumps({"type": "state", "state": {"hand": [mine]}}))
    for text in (str(hidden), hidden.display(), f"arrange {hidden.mask and __import__('barbu').CardSet(hidden.mask)}"):
        with pytest.raises(Leak):
            oracle.check(m, m.to_act(), json.dumps({"type": "error", "message": f"x {text} y"}))
    with pytest.raises(Leak):
        oracle.check(m, None, json.dumps({"type": "state", "state": {"hand": [mine]}}))
