"""Chat at the table (issue 45): how many messages a second ONE `barbu serve` process carries at tables of four
players with spectators, and how long from a message's sending to the last reader of its room having it (p50,
p99); then how many reports a second the moderators' queue takes through the API, and their p99.

    python benchmarks/chat.py                              # 8 tables of 4 players + 20 spectators, 20 s
    python benchmarks/chat.py --tables 20 --seconds 60     # longer, more
    python benchmarks/chat.py --db postgresql://…          # another database (SQLite in a temporary folder else)

A real server on SQLite (in a temporary folder, removed at the end) and real WebSockets, from this one process
(asyncio).  The server has no option to lift a speaker's rate limit (`barbu.web.tables.chat`: `BURST` at once,
one more every `EVERY` seconds, per seat or spectator's account at each table), so the load is made of many
tables: every speaker at every table sends as fast as his limit lets him (his burst, then one each `EVERY`
seconds and a tenth), quick phrases and free text in turn.  The players' messages are read by the four players, the
spectators' by the spectators (the two rooms of a match).  A message is "delivered" when every page in its room
has it; its time is from the send to the last of them.  The accounts (4 players, and the spectators, the same at
every table) are made once; each reports up to the API's hourly limit (`REPORTS_PER_HOUR`) messages he read, from
several clients at once.  Prints figures; asserts nothing.

Measured on this project's 2-core machine, 2026-11-29 (the load generator on the same cores, the machine shared
with other work, load average about 3): 8 tables (192 pages) carried all that was offered, 120 messages a second
(2,090 deliveries to pages a second), none lost or refused; from send to the room's last reader p50 300 ms and p99
1.7 s once the first bursts were past (440 ms and 3.3 s with them); at 2 tables (48 pages, 39 messages a second)
p50 66 ms and p99 138 ms.  Reports: 240 (24 accounts, 10 each) at 16 at once, 120 a second, p50 110 ms, p99
180 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "benchmarks"), str(ROOT / "tests" / "web")]

from benchcluster import FAST  # noqa: E402
from webhelpers import Server  # noqa: E402

from barbu.web.moderation.service import REPORTS_PER_HOUR  # noqa: E402
from barbu.web.tables.chat import BURST, EVERY, PHRASES  # noqa: E402

PASSWORD = "Quiet lanterns 7 over the moor"
PLAYERS = 4


class Reader:
    """One page at one table: its socket, and when it received each message (by its number)."""

    def __init__(self, ws: ClientConnection, room: str) -> None:
        self.ws, self.room = ws, room
        self.got: dict[int, float] = {}
        self.acks: dict[str, int] = {}
        self.errors: dict[str, str] = {}  # a refused message's id: the refusal's code

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                if m.get("type") == "chat":
                    self.got.setdefault(m["seq"], time.perf_counter())
                elif m.get("type") == "ack" and m.get("chat"):
                    self.acks[m["id"]] = m["seq"]
                elif m.get("type") == "error" and "id" in m:
                    self.errors[m["id"]] = f"{m.get('code', '?')}: {m.get('message', '')}"
        except Exception:  # the socket closed at the end of the run
            return


class Table:
    """One table's pages: its players' and its spectators', and what each sent when."""

    def __init__(self, tid: str) -> None:
        self.tid = tid
        self.readers: list[Reader] = []
        self.sent: dict[str, tuple[float, Reader]] = {}  # the message's id: when, by whom
        self.refused = 0

    async def speak(self, who: Reader, index: int, stop: float) -> None:
        """Send as fast as the speaker's limit lets: his burst at once, then one every `EVERY` seconds."""
        n = 0
        while time.perf_counter() < stop:
            for _ in range(BURST if n == 0 else 1):
                cid = f"{index}-{n}"
                said: dict[str, Any] = (
                    {"phrase": PHRASES[n % len(PHRASES)]} if n % 2 == 0 else {"text": f"message {n} from {index}"}
                )
                self.sent[cid] = (time.perf_counter(), who)
                await who.ws.send(json.dumps({"type": "chat", "id": cid, **said}))
                n += 1
            await asyncio.sleep(EVERY * 1.1)  # a little over: the server's clock reads arrivals, which jitter


def signup(c: httpx.Client, name: str) -> tuple[str, str]:
    """A new account: its name and session."""
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    r.raise_for_status()
    return name, r.cookies["barbu_session"]


async def open_page(server: Server, tid: str, sid: str) -> ClientConnection:
    ws = await connect(
        f"{server.ws_base}/ws/{tid}",
        origin=Origin(server.base),
        additional_headers={"cookie": f"barbu_session={sid}"},
        max_queue=None,
    )
    await ws.send(json.dumps({"type": "hello"}))
    return ws


def table_with_players(c: httpx.Client, base: str, sids: list[str]) -> str:
    r = c.post("/api/tables", json={"rules": "classic"})
    r.raise_for_status()
    tid: str = r.json()["id"]
    for seat, sid in enumerate(sids):
        r = httpx.post(
            f"{base}/api/tables/{tid}/seats",
            json={"seat": seat},
            headers={"cookie": f"barbu_session={sid}", "origin": base},
            timeout=60,
        )
        r.raise_for_status()
    return tid


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


async def chat_run(server: Server, tables: list[str], players: list[str], spectators: list[str], seconds: float):
    """Every page opened, every speaker speaking for ``seconds``; the deliveries counted."""
    built: list[Table] = []
    for tid in tables:
        t = Table(tid)
        for sid in players:
            t.readers.append(Reader(await open_page(server, tid, sid), "players"))
        for sid in spectators:
            t.readers.append(Reader(await open_page(server, tid, sid), "spectators"))
        built.append(t)
    readings = [asyncio.create_task(r.read()) for t in built for r in t.readers]
    await asyncio.sleep(1.0)  # the welcomes and the rooms' logs read
    start = time.perf_counter()
    stop = start + seconds
    await asyncio.gather(*(t.speak(r, i, stop) for t in built for i, r in enumerate(t.readers)))
    await asyncio.sleep(2.0)  # the last messages reach their readers
    for t in built:
        for r in t.readers:
            await r.ws.close()
    await asyncio.gather(*readings)
    return built, start, time.perf_counter() - start - 2.0


def chat_figures(built: list[Table], start: float, elapsed: float) -> dict[str, Any]:
    """What was delivered; the times of all, and of those sent once the first bursts were past (steady)."""
    delivered, times, steady, refused, frames = 0, [], [], 0, 0
    codes: dict[str, int] = {}
    for t in built:
        for cid, (sent_at, who) in t.sent.items():
            seq = who.acks.get(cid)
            if seq is None:
                code = who.errors.get(cid, "no answer")
                codes[code] = codes.get(code, 0) + 1
                refused += 1  # refused (the limit) or not answered before the end
                continue
            room = [r for r in t.readers if r.room == who.room]
            got = [r.got.get(seq) for r in room]
            if all(g is not None for g in got):
                delivered += 1
                frames += len(room)
                times.append(max(g for g in got if g is not None) - sent_at)
                if sent_at >= start + EVERY:
                    steady.append(times[-1])
    return {
        "sent": sum(len(t.sent) for t in built),
        "delivered": delivered,
        "not acknowledged": refused,
        "refusals": codes,
        "messages/s": delivered / elapsed,
        "deliveries to pages/s": frames / elapsed,
        "p50 ms": 1000 * pct(times, 50),
        "p99 ms": 1000 * pct(times, 99),
        "max ms": 1000 * (max(times) if times else float("nan")),
        "steady p50 ms": 1000 * pct(steady, 50),
        "steady p99 ms": 1000 * pct(steady, 99),
    }


async def report_run(base: str, tid: str, accounts: list[tuple[str, str]], concurrency: int) -> dict[str, Any]:
    """Each account reports up to its hourly limit of the table's messages, ``concurrency`` requests at once."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as c:
        said: list[tuple[int, str]] = []
        async with connect(
            f"{base.replace('http', 'ws')}/ws/{tid}", origin=Origin(base)
        ) as ws:  # a guest reads the log
            await ws.send(json.dumps({"type": "hello"}))
            while not said:
                m = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if m.get("type") == "chat_log":
                    said = [(x["seq"], x["from"]) for x in m["messages"]]
        jobs = [  # each account reports others' messages (his own he may not)
            (sid, seq)
            for name, sid in accounts
            for seq in [seq for seq, author in said if author != name][:REPORTS_PER_HOUR]
        ]
        gate = asyncio.Semaphore(concurrency)
        times: list[float] = []
        codes: dict[str, int] = {}

        async def one(sid: str, seq: int) -> None:
            async with gate:
                t0 = time.perf_counter()
                r = await c.post(
                    "/api/reports",
                    json={"kind": "message", "target": str(seq), "reason": "abuse", "text": "benchmark"},
                    headers={"cookie": f"barbu_session={sid}", "origin": base},
                )
                times.append(time.perf_counter() - t0)
                code = "made" if r.status_code == 201 else r.json().get("code", str(r.status_code))
                codes[code] = codes.get(code, 0) + 1

        start = time.perf_counter()
        await asyncio.gather(*(one(sid, seq) for sid, seq in jobs))
        elapsed = time.perf_counter() - start
    return {
        "reports": len(jobs),
        "answers": codes,
        "reports/s": codes.get("made", 0) / elapsed,
        "p50 ms": 1000 * pct(times, 50),
        "p99 ms": 1000 * pct(times, 99),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--spectators", type=int, default=20, help="spectators at each table")
    ap.add_argument("--seconds", type=float, default=20.0, help="how long every speaker speaks")
    ap.add_argument("--concurrency", type=int, default=16, help="report requests at once")
    ap.add_argument("--db", help="a database URL (a fresh SQLite file in a temporary folder by default)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="barbu-chat-bench-") as tmp:
        folder = Path(tmp)
        server = Server(args.db or f"sqlite:///{folder / 'chat.db'}", folder / "server.log", *FAST)
        server.args = (*server.args, "--signups-per-hour", "0")
        server.start()
        try:
            with httpx.Client(base_url=server.base, timeout=60, headers={"origin": server.base}) as c:
                stamp = f"{int(time.time()) % 100000:05d}"
                players = [signup(c, f"Player{i}x{stamp}") for i in range(PLAYERS)]
                spectators = [signup(c, f"Watcher{i}x{stamp}") for i in range(args.spectators)]
                tables = [table_with_players(c, server.base, [s for _, s in players]) for _ in range(args.tables)]
            pages = args.tables * (PLAYERS + args.spectators)
            print(
                f"{args.tables} tables of {PLAYERS} players + {args.spectators} spectators: {pages} pages, one process"
            )
            built, start, elapsed = asyncio.run(
                chat_run(server, tables, [s for _, s in players], [s for _, s in spectators], args.seconds)
            )
            for k, v in chat_figures(built, start, elapsed).items():
                print(f"  chat {k}: {v:.1f}" if isinstance(v, float) else f"  chat {k}: {v}")
            figures = asyncio.run(report_run(server.base, tables[0], players + spectators, args.concurrency))
            for k, v in figures.items():
                print(f"  report {k}: {v:.1f}" if isinstance(v, float) else f"  report {k}: {v}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
