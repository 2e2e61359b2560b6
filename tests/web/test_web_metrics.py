"""What an operator reads of a real `barbu serve`: Prometheus metrics on a port of their own, and JSON logs.

- After a person played against computer players (a move of his, a stale command, an empty one, a frame that is not JSON, an unknown message), the
  metrics port shows the moves counted (exactly the players' actions the database holds), the refusals by
  code, the table playing, his WebSocket, the database's writes and the computer players' thinking.
- The metrics hold nothing private: no table id, token, name or address.
- ``/metrics`` is refused where it should be: the public port has no such route, the metrics port serves
  nothing else, it listens on 127.0.0.1 only, and ``--metrics-port`` equal to ``--port`` is refused in words.
- ``--log-format json``: every line the process wrote is one JSON object with time, level, logger and message;
  the access lines name the route's pattern, never the path sent or the client's address; a table's own lines
  carry its id (``table``).
- ``--workers 2 --broker``: each worker serves its own metrics on the port given plus its index, with its own
  broker figures, and its JSON lines name its node.
"""

from __future__ import annotations

import io
import json
import logging
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any, Callable

import pytest
from conftest import redis_url
from webhelpers import SRC, Server, free_port, http
from websockets.sync.client import connect

from barbu.web.db.storage import Store

FAST: tuple[str, ...] = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "1000", "--tables-per-hour", "0")
FAST += ("--seats-per-address", "0", "--open-tables-per-address", "0", "--connections-per-address", "0")
WAIT = 30.0  # seconds a client waits for a message it expects: long for a loaded machine, never a measure
NAME = "Zephyrine"  # the person's name, which must never show in the metrics


def scrape(port: int, path: str = "/metrics") -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def samples(text: str) -> dict[str, float]:
    """Each sample of Prometheus's text format by its name and labels, as written."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


class Client:
    """One seat's WebSocket: hello, then the messages as they come, the last state kept."""

    def __init__(self, server: Server, tid: str, token: str) -> None:
        self.ws = connect(f"{server.ws_base}/ws/{tid}", origin=server.base, open_timeout=WAIT)
        self.state: dict[str, Any] = {}
        self.send({"type": "hello", "token": token})
        self.until(lambda m: m["type"] in ("sync", "catch_up", "in_sync"))

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def until(self, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if isinstance(msg.get("state"), dict):
                self.state = msg["state"]
            if pred(msg):
                return msg

    def my_turn(self) -> None:
        """Wait until the table waits for this seat (the computer players have played up to it)."""
        while True:
            self.send({"type": "ping"})
            self.until(lambda m: m["type"] == "pong")
            if self.state.get("to_act") == self.state.get("seat") and self.state.get("legal"):
                return
            time.sleep(0.05)

    def act(self, action: str, version: int, cid: str) -> dict[str, Any]:
        self.send({"type": "act", "action": action, "version": version, "id": cid})
        return self.until(lambda m: m.get("id") == cid and m["type"] in ("ack", "error"))


@pytest.fixture(scope="module")
def metered(serve_module: Any) -> tuple[Server, int]:
    port = free_port()
    server = serve_module("--metrics-port", str(port), "--log-format", "json", *FAST, name="metered")
    return server, port


@pytest.fixture(scope="module")
def played(metered: tuple[Server, int]) -> dict[str, Any]:
    """A person's table with three computer players: one move of his, a stale command, an empty one, a frame that is not JSON and an unknown message; the
    metrics scraped while he is still connected and the table waits for him."""
    server, port = metered
    status, data = http("POST", server.base + "/api/tables", {"rules": "classic"})
    assert status == 201, data
    tid = data["id"]
    status, seat = http("POST", f"{server.base}/api/tables/{tid}/seats", {"seat": 0, "name": NAME})
    assert status == 200, seat
    for s in (1, 2, 3):
        status, got = http(
            "POST", f"{server.base}/api/tables/{tid}/bots", {"seat": s, "strength": "random", "token": data["creator"]}
        )
        assert status == 200, got
    me = Client(server, tid, seat["token"])
    try:
        me.my_turn()
        version = me.state["version"]
        assert me.act(me.state["legal"][0], version, "m1")["type"] == "ack"
        me.my_turn()  # the computer players have played up to him again: the table is still
        assert me.act(me.state["legal"][0], me.state["version"] - 1, "m2")["code"] == "stale"
        assert me.act("", me.state["version"], "m3")["code"] == "bad_message"
        me.ws.send("{not json")
        assert me.until(lambda m: m["type"] == "error")["code"] == "bad_json"
        me.send({"type": "dance"})
        assert me.until(lambda m: m["type"] == "error")["code"] == "unknown_type"
        status, text = scrape(port)
    finally:
        me.ws.close()
    store = Store(server.db, run_migrations=False)
    try:
        stored = store.events(tid)
    finally:
        store.close()
    return {
        "status": status,
        "text": text,
        "tid": tid,
        "tokens": (data["creator"], seat["token"]),
        "players_actions": sum(1 for _, actor, _ in stored if actor >= 0),
    }


def test_the_metrics_count_moves_refusals_tables_and_connections(played: dict[str, Any]) -> None:
    assert played["status"] == 200
    m = samples(played["text"])
    # every action of a player stored (his and the computer players', not the shuffle) is a move counted
    assert played["players_actions"] >= 2
    assert m['barbu_moves_total{game="classic"}'] == played["players_actions"]
    assert m['barbu_commands_refused_total{code="stale"}'] >= 1
    assert m['barbu_commands_refused_total{code="bad_message"}'] == 1
    assert m['barbu_commands_refused_total{code="bad_json"}'] == 1
    assert m['barbu_commands_refused_total{code="unknown_type"}'] == 1
    assert m['barbu_tables{status="playing"}'] == 1
    assert m['barbu_websockets{kind="direct"}'] == 1
    assert m["barbu_players_connected"] == 1
    assert m["barbu_database_write_seconds_count"] >= 1
    assert m["barbu_journal_commits_total"] >= 1
    assert m["barbu_thinking_wait_seconds_count"] >= 1
    assert m['barbu_dependency_up{dependency="database"}'] == 1
    assert m["barbu_start_time_seconds"] > 1.7e9 and m["process_start_time_seconds"] > 1.7e9
    assert not any(name.startswith("barbu_log_errors_total") for name in m)  # no error logged


def test_the_metrics_hold_nothing_private(played: dict[str, Any]) -> None:
    text = played["text"]
    for secret in (played["tid"], *played["tokens"], NAME, "127.0.0.1"):
        assert secret not in text


def test_metrics_only_on_their_port_and_address(metered: tuple[Server, int]) -> None:
    server, port = metered
    assert scrape(server.port)[0] == 404  # the public port has no /metrics
    assert scrape(port, "/api/health")[0] == 404  # the metrics port serves nothing else
    assert scrape(port, "/")[0] == 404
    assert scrape(port)[0] == 200
    assert listening_on(port) == {"127.0.0.1"}  # this machine only: nothing else reaches it
    assert listening_on(server.port) == {"127.0.0.1"}


def listening_on(port: int) -> set[str]:
    """The addresses a TCP port listens on, from the kernel's table (Linux's /proc/net/tcp and tcp6)."""
    found: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            address, _, hexport = local.partition(":")
            if state == "0A" and int(hexport, 16) == port:  # LISTEN
                if len(address) == 8:
                    found.add(socket.inet_ntop(socket.AF_INET, bytes.fromhex(address)[::-1]))
                else:
                    found.add("ipv6:" + address)
    if not found:
        pytest.skip("no /proc/net/tcp to read the listening sockets from")
    return found


def test_a_metrics_port_equal_to_the_site_is_refused_in_words(tmp_path: Any) -> None:
    port = str(free_port())
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "barbu",
            "serve",
            "--port",
            port,
            "--metrics-port",
            port,
            "--db",
            str(tmp_path / "w.db"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )
    assert out.returncode == 2
    assert "--metrics-port is a port number from 1 to 65535 other than --port" in out.stderr
    assert "Traceback" not in out.stderr


def json_lines(log: str) -> list[dict[str, Any]]:
    """Every line the process logged (on its standard error), each parsed: all but the words ``barbu serve``
    prints for a person on its standard output before the server starts."""
    lines = [line for line in log.splitlines() if line.strip()]
    others = " ".join(line for line in lines if not line.startswith("{"))
    assert others.startswith("barbu web server on http://") and "(database" in others and "{" not in others, others
    return [json.loads(line) for line in lines if line.startswith("{")]


def test_json_logs_one_object_a_line_with_their_fields(metered: tuple[Server, int], played: dict[str, Any]) -> None:
    server, _ = metered
    records = json_lines(server.log())
    assert records
    for r in records:
        assert {"time", "level", "logger", "message"} <= set(r), r
        assert r["time"].endswith("+00:00")
        assert "color_message" not in r
    access = [r for r in records if r["logger"] == "barbu.access"]
    routes = {r["route"] for r in access}
    assert {"/api/tables", "/api/tables/{table_id}/seats", "/ws/{table_id}"} <= routes
    assert all(isinstance(r["status"], int) and isinstance(r["ms"], float) for r in access)
    text = "\n".join(json.dumps(r) for r in records)
    for secret in (played["tid"], *played["tokens"], "127.0.0.1"):  # no path sent, no address
        assert secret not in text
    assert '"WebSocket' not in text  # uvicorn's own handshake lines, which carry the address, are not written


def test_a_tables_log_lines_carry_its_id() -> None:
    """The JSON handler on a table's task (`logs.table_context`): its lines say which table; others do not."""
    import asyncio

    from barbu.web.common import logs

    stream = io.StringIO()
    logger = logging.getLogger("barbu.test.metrics")
    handler = logs.json_handler(stream)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logs.set_node("node-a")

    async def main() -> None:
        async def table() -> None:
            logger.warning("a table's line")

        await asyncio.get_running_loop().create_task(table(), context=logs.table_context("T1"))
        logger.info("the lobby's line")

    try:
        asyncio.run(main())
    finally:
        logger.removeHandler(handler)
        logs.set_node(None)
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["table"] == "T1" and first["node"] == "node-a" and first["level"] == "WARNING"
    assert first["message"] == "a table's line" and first["logger"] == "barbu.test.metrics"
    assert "table" not in second and second["node"] == "node-a"


@pytest.mark.slow
def test_each_worker_has_its_own_metrics_port_and_node(serve: Any) -> None:
    """``--workers 2``: worker i on the metrics port plus i, each with its broker's figures and its node."""
    port = free_port()
    while True:  # two free ports in a row
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 1))
                break
            except OSError:
                port = free_port()
    server = serve(
        "--workers", "2", "--broker", redis_url(), "--metrics-port", str(port), "--log-format", "json", *FAST
    )
    deadline = time.monotonic() + WAIT
    seen: dict[int, dict[str, float]] = {}
    while len(seen) < 2 or any(m.get("barbu_broker_round_trip_seconds_count", 0) < 1 for m in seen.values()):
        assert time.monotonic() < deadline, f"the workers' metrics never came: {seen}"
        for p in (port, port + 1):
            try:
                status, text = scrape(p)
            except (urllib.error.URLError, OSError):
                continue
            assert status == 200
            seen[p] = samples(text)
        time.sleep(0.2)
    for m in seen.values():
        assert m['barbu_broker_messages_total{direction="published"}'] >= 1
        assert m["barbu_tables_owned"] == 0
        assert m['barbu_dependency_up{dependency="broker"}'] == 1
    assert seen[port]["process_start_time_seconds"] != seen[port + 1]["process_start_time_seconds"] or (
        seen[port]["barbu_start_time_seconds"] != seen[port + 1]["barbu_start_time_seconds"]
    )
    nodes = {r["node"] for r in json_lines(server.log()) if "node" in r}
    assert len(nodes) == 2, nodes


def test_the_dashboard_and_the_scrape_config_name_real_metrics() -> None:
    """deploy/grafana/barbu.json's queries name only metrics the processes serve; deploy/prometheus.yml parses."""
    import re
    from pathlib import Path

    yaml = pytest.importorskip("yaml")

    root = Path(__file__).resolve().parents[2]
    source = (root / "src" / "barbu" / "web" / "common" / "metrics.py").read_text()
    served = set(re.findall(r'"(barbu_[a-z_]+)"', source))
    dashboard = json.loads((root / "deploy" / "grafana" / "barbu.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    assert len(exprs) >= 14
    used = {m for e in exprs for m in re.findall(r"\b((?:barbu|process)_[a-z_]+)", e)}
    for name in used:
        base = re.sub(r"_(total|bucket|sum|count)$", "", name)
        assert base in served or name in ("process_cpu_seconds_total", "process_resident_memory_bytes"), name
    for needed in (
        "barbu_tables",
        "barbu_moves",
        "barbu_websockets",
        "barbu_takeovers",
        "barbu_database_write_seconds",
    ):
        assert needed in {re.sub(r"_(total|bucket|sum|count)$", "", n) for n in used}
    config = yaml.safe_load((root / "deploy" / "prometheus.yml").read_text())
    job = next(j for j in config["scrape_configs"] if j["job_name"] == "barbu")
    assert job["metrics_path"] == "/metrics" and job["static_configs"][0]["targets"]


def test_errors_are_counted_once_wherever_uvicorn_logs_them() -> None:
    """An unhandled exception uvicorn logs is counted once: through its own handlers (text, not reaching the
    root) as through the root's (JSON)."""
    from barbu.web.common import metrics

    def count() -> float:
        return (
            metrics.REGISTRY.get_sample_value("barbu_log_errors_total", {"logger": "uvicorn.error", "traceback": "yes"})
            or 0
        )

    uv, root = logging.getLogger("uvicorn"), logging.getLogger()
    kept = (uv.propagate, list(uv.handlers), list(root.handlers))
    try:
        for propagate in (False, True):  # text: uvicorn's own handlers; json: the root's
            uv.propagate = propagate
            uv.handlers = [logging.NullHandler()]
            root.handlers = [h for h in root.handlers if not isinstance(h, metrics.ErrorCounter)]
            metrics.count_errors()
            before = count()
            try:
                raise RuntimeError("a bug")
            except RuntimeError:
                logging.getLogger("uvicorn.error").exception("Exception in ASGI application")
            assert count() == before + 1
    finally:
        uv.propagate, uv.handlers, root.handlers = kept[0], kept[1], kept[2]
