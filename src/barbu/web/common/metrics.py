"""What an operator's Prometheus reads of one server process: ``GET /metrics`` on its metrics port.

Two kinds of figures, in one registry of this process's own (`REGISTRY`):

- **Events counted as they happen**, by the code that sees them, with prometheus-client's own counters and
  histograms defined here (a line at each place): moves applied by game, commands refused by code, each
  database transaction's time (the journal's writer thread), the broker's round trip, a computer player's
  wait for a thinking slot, and the log's errors (`ErrorCounter`, a logging handler).
- **What the process holds, read at scrape time** (`ServerCollector`) from the counts its parts already keep:
  the lobby's tables by status and its connections, the cluster's leases, relays, takeovers and broker
  messages, the thinking pool's queue, the outages of the database and the broker.  Nothing is counted
  twice, and a scrape costs a walk over the tables held (no database, no broker).

Nothing private is exposed: no table id, token, user name or address, only counts with labels from small
fixed sets (a game's name, a refusal's code, a table's status, a logger's name).

The endpoint is served only on a port of its own (``barbu serve --metrics-port``, off by default, on
127.0.0.1 unless ``--metrics-host`` says otherwise): `MetricsPort` answers there and nowhere else, so the
public port never shows it.  Each process of ``--workers N`` has its own metrics port (the first one plus
its index): its figures are its own, and Prometheus scrapes each (deploy/prometheus.yml).
"""

from __future__ import annotations

import functools
import logging
from collections import Counter as Tally
from typing import Any, Iterable, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from starlette.responses import PlainTextResponse, Response

from . import outages

disable_created_metrics()  # no ``_created`` series beside each counter: Prometheus needs none

#: Every metric of this process: the ones below, the process's own (CPU, memory, file descriptors, start
#: time) and, once an application is made, its `ServerCollector`.
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)

_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("barbu_moves", "Moves applied at the tables this process plays, by game", ["game"], registry=REGISTRY)
REFUSED = Counter(
    "barbu_commands_refused",
    "Messages of the tables' players refused, by the refusal's code (stale, not_your_turn, illegal…)",
    ["code"],
    registry=REGISTRY,
)
DATABASE_WRITE = Histogram(
    "barbu_database_write_seconds",
    "One transaction of the journal's writer (a group of moves and other writes), begin to commit",
    buckets=_FAST,
    registry=REGISTRY,
)
BROKER_ROUND_TRIP = Histogram(
    "barbu_broker_round_trip_seconds",
    "A message this process publishes to itself through the broker, measured every lease round",
    buckets=_FAST,
    registry=REGISTRY,
)
THINKING_WAIT = Histogram(
    "barbu_thinking_wait_seconds",
    "How long a computer player's decision waited for a thinking slot",
    buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
LOG_ERRORS = Counter(
    "barbu_log_errors",
    "Log lines at ERROR or above (unhandled exceptions among them), by logger and whether a traceback came with it",
    ["logger", "traceback"],
    registry=REGISTRY,
)


def game_of(rules: object) -> str:
    """A table's game for a label: its preset's name (``classic``, ``scottish``, ``besigue``…), never options."""
    return str(rules).partition("(")[0][:32] or "unknown"


@functools.lru_cache(maxsize=256)
def _moves_of(rules: object) -> Any:
    return MOVES.labels(game_of(rules))


def moved(rules: object) -> None:
    """A move was applied at a table playing ``rules`` (rules are frozen: each one's label is worked out once,
    not at every move)."""
    try:
        _moves_of(rules).inc()
    except TypeError:  # rules that cannot be hashed
        MOVES.labels(game_of(rules)).inc()


def refused(code: str) -> None:
    """A player's message was refused with ``code`` (one of the tables' fixed codes)."""
    REFUSED.labels(code[:40]).inc()


class ErrorCounter(logging.Handler):
    """Counts the log's errors as they are written (a handler of the root logger; it writes nothing)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        LOG_ERRORS.labels(record.name[:40], "yes" if record.exc_info else "no").inc()


def count_errors() -> None:
    """Have the log count its errors (once per process): at the root, and on uvicorn's logger when its lines do not
    reach the root (its own plain-text handlers, ``--log-format text``), so an unhandled exception is counted once."""
    for logger in (logging.getLogger(), logging.getLogger("uvicorn")):
        if logger is not logging.root and logger.propagate:
            continue
        if not any(isinstance(h, ErrorCounter) for h in logger.handlers):
            logger.addHandler(ErrorCounter())


class Held(Protocol):
    """What the collector reads of the process: the lobby (`barbu.web.tables.lobby.Lobby`), by duck typing."""

    tables: Any
    cluster: Any
    journal: Any
    thinking: Any
    settings: Any
    started_at: float

    def health(self) -> dict[str, Any]: ...


class ServerCollector(Collector):
    """The process's state at scrape time, read from the counts its parts keep."""

    def __init__(self, lobby: Held) -> None:
        self.lobby = lobby

    def collect(self) -> Iterable[Metric]:
        lobby = self.lobby
        health = lobby.health()
        tables = GaugeMetricFamily(
            "barbu_tables", "Tables held in memory by this process, by status", labels=["status"]
        )
        for status, n in sorted(Tally(t.status for t in list(lobby.tables.values())).items()):
            tables.add_metric([str(status)], n)
        yield tables
        yield GaugeMetricFamily(
            "barbu_tables_limit", "Unfinished tables the server holds at most", value=lobby.settings.max_tables
        )
        yield GaugeMetricFamily(
            "barbu_players_connected", "Seats with at least one connection", value=health.get("players_connected", 0)
        )
        cluster = lobby.cluster
        relayed = len(cluster.links) if cluster is not None else 0
        sockets = GaugeMetricFamily(
            "barbu_websockets",
            "WebSockets: held here and served here (direct), held here and relayed to the table's owner (relayed), "
            "held by another process for a table owned here (served_for_others)",
            labels=["kind"],
        )
        sockets.add_metric(["direct"], max(0, int(health.get("connections", 0)) - relayed))
        sockets.add_metric(["relayed"], relayed)
        sockets.add_metric(["served_for_others"], len(cluster.remote) if cluster is not None else 0)
        yield sockets
        yield GaugeMetricFamily(
            "barbu_journal_queue", "Writes waiting for the database writer", value=health.get("journal_queue", 0)
        )
        yield CounterMetricFamily(
            "barbu_journal_commits",
            "Transactions committed by the database writer",
            value=health.get("journal_commits", 0),
        )
        thinking = lobby.thinking
        yield GaugeMetricFamily(
            "barbu_thinking_queue",
            "Computer players' decisions waiting for a thinking slot",
            value=thinking.bots.waiting(),
        )
        yield GaugeMetricFamily("barbu_thinking_busy", "Thinking slots in use", value=thinking.bots.held)
        yield GaugeMetricFamily(
            "barbu_thinking_slots", "Thinking slots (decisions thought at once)", value=thinking.workers
        )
        yield GaugeMetricFamily(
            "barbu_start_time_seconds", "When this server process started (Unix time)", value=lobby.started_at
        )
        if cluster is not None:
            yield from self._cluster(cluster)
        yield from self._outage_metrics()

    def _cluster(self, cluster: Any) -> Iterable[Metric]:
        yield GaugeMetricFamily(
            "barbu_tables_owned", "Tables whose lease this process holds", value=len(cluster.epochs)
        )
        yield CounterMetricFamily(
            "barbu_takeovers", "Tables this process took over after their owner's lease ended", value=cluster.taken_over
        )
        broker = cluster.broker
        messages = CounterMetricFamily(
            "barbu_broker_messages",
            "Messages through the broker (relayed frames, requests, pings)",
            labels=["direction"],
        )
        messages.add_metric(["published"], broker.published)
        messages.add_metric(["received"], broker.received)
        yield messages
        yield CounterMetricFamily(
            "barbu_lobby_listing_bytes",
            "Bytes of the shared lobby listing (rows and per-address counts) this process wrote to and read from the broker",
            value=getattr(broker, "listing_bytes", 0),
        )
        if cluster.lag_ms is not None:
            yield GaugeMetricFamily(
                "barbu_broker_lag_seconds", "The broker's last measured round trip", value=cluster.lag_ms / 1000
            )

    def _outage_metrics(self) -> Iterable[Metric]:
        """The database's and (with --broker) the broker's outages, as `barbu.web.common.outages` keeps them."""
        found = [outages.database] + ([outages.broker] if self.lobby.cluster is not None else [])
        up = GaugeMetricFamily(
            "barbu_dependency_up", "Whether the dependency answers (1) or not (0)", labels=["dependency"]
        )
        count = CounterMetricFamily(
            "barbu_outages", "Outages of a dependency since the process started", labels=["dependency"]
        )
        seconds = CounterMetricFamily(
            "barbu_outage_seconds",
            "Seconds a dependency was unreachable, the current outage included",
            labels=["dependency"],
        )
        for o in found:
            up.add_metric([o.name], 1 if o.up else 0)
            count.add_metric([o.name], o.outages)
            seconds.add_metric([o.name], o.seconds_down + o.down_for())
        yield from (up, count, seconds)


class Metrics:
    """One application's metrics: the shared counters and its lobby's state, as Prometheus's text."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self, lobby: Held) -> None:
        self.own = CollectorRegistry(auto_describe=False)
        self.own.register(ServerCollector(lobby))

    def exposition(self) -> bytes:
        return generate_latest(REGISTRY) + generate_latest(self.own)


class MetricsPort:
    """The application as seen from the metrics port: ``GET /metrics`` there, 404 for anything else there, and
    the application itself on every other port (where ``/metrics`` is no route at all).

    The port is told by the listening socket a request came in on (``scope["server"]``), never by a header a
    client could write; 0: no metrics port."""

    def __init__(self, app: Any, metrics: Metrics, port: int) -> None:
        self.app, self.metrics, self.port = app, metrics, port

    @property
    def state(self) -> Any:
        """The application's state, as the server reads it (``state.draining``)."""
        return self.app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        server = scope.get("server") if scope["type"] in ("http", "websocket") else None
        if not self.port or not server or server[1] != self.port:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["path"] == "/metrics" and scope["method"] in ("GET", "HEAD"):
            response = Response(self.metrics.exposition(), media_type=self.metrics.content_type)
        else:
            response = PlainTextResponse("not found: this port serves /metrics only\n", status_code=404)
        response.headers["cache-control"] = "no-store"
        await response(scope, receive, send)
