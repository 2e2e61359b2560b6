"""Run the web server with uvicorn: what ``barbu serve`` does."""

from __future__ import annotations

import errno
import gc
import logging
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import uvicorn

from .app import create_app
from .common.metrics import count_errors
from .common.settings import Settings
from .connections import guarded_protocol, quiet_client_errors

#: The largest WebSocket frame uvicorn accepts; the app refuses messages above Settings.max_message anyway.
WS_MAX_SIZE = 64 * 1024
#: Seconds between the server's pings on each WebSocket, and how long it waits for the pong: a hung peer is
#: closed 8 to 10 s after it stopped, a busy event loop (a pong read late) is allowed 8 s.  The pings are also
#: what nginx reads on a quiet socket: 5 s without one (deploy/nginx-barbu.conf) means a hung process.
PING_INTERVAL, PING_TIMEOUT = 2.0, 8.0
#: After SIGTERM, the longest a process drains (uvicorn's 5 s for its connections, then the hand-over of its
#: tables) before it exits anyway: its leases end by themselves, and every acknowledged move is stored.
DRAIN_BOUND = 15.0


class StartupError(Exception):
    """Why the server cannot start, in one line for the person who started it."""


def check_startup(settings: Settings, host: str, port: int) -> None:
    """Open the database and try the address before starting, so a mistake is one clear line."""
    from sqlalchemy.exc import SQLAlchemyError

    from .db.storage import Store, database_url

    url = database_url(settings.db_url)
    shown = _shown(settings.db_url)
    check_driver(url, shown)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :])
        if not path.parent.is_dir():
            raise StartupError(f"cannot open the database {path.name}: the folder {path.parent} does not exist")
        if path.is_dir():
            raise StartupError(f"cannot open the database {path}: it is a folder")
    try:
        Store(settings.db_url).close()  # creates or upgrades the schema
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise StartupError(f"cannot open the database {shown}: {reason}") from None
    except ImportError as e:  # a driver that check_driver could not foresee, imported on connecting
        raise StartupError(f"cannot open the database {shown}: its driver {e.name or ''} is not installed") from None
    except OSError as e:
        raise StartupError(f"cannot open the database: {e.strerror or e}") from None
    if settings.broker_url:
        check_broker(settings.broker_url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise StartupError(f"cannot listen on {host}: no such address on this machine") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except PermissionError:
            raise StartupError(f"not allowed to listen on port {port} (ports below 1024 need privileges)") from None
        except OSError as e:
            if e.errno in (errno.EADDRINUSE,):
                raise StartupError(
                    f"port {port} is in use on {host}: is another server running? Choose another with --port"
                ) from None
            raise StartupError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def check_broker(url: str) -> None:
    """The broker answers, or one line says why not (its password never printed)."""
    shown = _shown(url)
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise StartupError(f"--broker takes a Redis URL such as redis://127.0.0.1:6379/0, not {shown}")
    try:
        import redis
    except ImportError:
        raise StartupError("the broker's client (redis) is not installed: pip install -e .") from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError, OSError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise StartupError(f"cannot reach the broker {shown}: {reason}") from None


def _shown(url: str) -> str:
    """A database URL as it may be printed: never its password (nor anything before the host)."""
    return url.rsplit("@", 1)[-1] if "@" in url else url


def check_driver(url: str, shown: str) -> None:
    """The URL is well formed and names a database whose driver is installed, or one line says which not."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else "it is not a database URL"
        if "int()" in reason:  # Python's words for a port that is not a number
            reason = "its port is not a number"
        raise StartupError(
            f"cannot open the database {shown}: the URL is malformed ({reason}); "
            "give a SQLite file path or a URL such as postgresql://user:password@host/dbname"
        ) from None
    try:
        parsed.get_dialect().import_dbapi()
    except NoSuchModuleError:
        raise StartupError(
            f"cannot open the database {shown}: {parsed.get_backend_name()!r} is not a database "
            "this server knows (SQLite or PostgreSQL)"
        ) from None
    except ImportError as e:
        raise StartupError(
            f"cannot open the database {shown}: its driver ({e.name or parsed.drivername}) is not "
            "installed; this server runs on SQLite or PostgreSQL"
        ) from None


def _config(
    settings: Settings,
    host: str,
    port: int,
    log_level: str,
    access_log: bool,
    log_format: str = "text",
    metrics_port: int = 0,
) -> "Any":
    import uvicorn

    from .common import logs
    from .common.metrics import Metrics, MetricsPort

    app: Any = create_app(settings)
    lobby = app.state.lobby
    logs.set_node(lobby.cluster.node if lobby.cluster is not None else None)
    if log_format == "json":  # its own access lines: by route, never a client's address (`logs.AccessLog`)
        app = logs.AccessLog(app)
    if metrics_port:  # GET /metrics on that port only (`barbu.web.common.metrics`)
        app = MetricsPort(app, Metrics(lobby), metrics_port)
    tune_runtime()
    # No per-message compression: the messages are small, and deflating each one costs more CPU
    # than it saves on the wire.
    # X-Forwarded-For and -Proto are believed only from the proxies the operator named (none by default,
    # not uvicorn's 127.0.0.1: a local client is not a proxy unless said so).
    proxies = list(settings.forwarded_allow_ips)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=access_log and log_format == "text",
        log_config=logs.uvicorn_log_config(log_format),
        ws_max_size=WS_MAX_SIZE,
        # A peer that stopped answering (a browser on a lost network, a hung proxy) is taken out within
        # PING_INTERVAL + PING_TIMEOUT seconds (8 to 10), and the pings keep nginx's read timeout (5 s for
        # sockets in deploy/nginx-barbu.conf) from closing a quiet but healthy table's WebSocket.
        ws_ping_interval=PING_INTERVAL,
        ws_ping_timeout=PING_TIMEOUT,
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        # an idle connection is closed, a half-sent head is cut off, an address is capped
        http=guarded_protocol(settings),
        timeout_keep_alive=settings.idle_timeout,  # type: ignore[arg-type]
        h11_max_incomplete_event_size=16 * 1024,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
    )


def _logging(log_level: str, log_format: str = "text") -> None:
    from .common import logs

    logs.configure(log_level, log_format)  # plain lines, or one JSON object a line (`--log-format json`)
    count_errors()  # the log's errors, counted for /metrics


def _listening(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, to be handed to uvicorn (or inherited by the workers)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    return sock


def check_metrics(host: str, port: int, workers: int = 1) -> None:
    """The metrics ports (one per process) can be listened on, or one line says why not."""
    for p in range(port, port + workers):
        try:
            _listening(host, p).close()
        except OSError as e:
            raise StartupError(f"cannot serve the metrics on {host}:{p}: {e.strerror or e}") from None


def serve(
    settings: Settings,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    access_log: bool = True,
    sock: socket.socket | None = None,
    log_format: str = "text",
    metrics: tuple[str, int] | None = None,
) -> bool:
    """Run until stopped; False if the server could not start.  ``sock``: a socket already listening
    (one of `serve_workers`'s processes), else the server binds ``host:port`` itself.  ``log_format``: "text"
    or "json" (`barbu.web.common.logs`); ``metrics``: the address (host, port) of its ``GET /metrics``."""

    _logging(log_level, log_format)
    config = _config(settings, host, port, log_level, access_log, log_format, metrics[1] if metrics else 0)
    metrics_sock: socket.socket | None = None
    if metrics is not None:  # two listening sockets: the site's, and the metrics' own
        if sock is None:
            sock = _listening(host, port)
        try:
            metrics_sock = _listening(*metrics)
        except OSError as e:
            logging.getLogger("barbu.web").error("cannot serve the metrics on %s:%d: %s", *metrics, e.strerror or e)
            return False
    quiet_client_errors()  # after uvicorn has set its logging up
    count_errors()  # uvicorn's lines too, wherever its logging sends them
    server = DrainingServer(config)
    try:
        server.run(sockets=[s for s in (sock, metrics_sock) if s is not None] or None)
    except SystemExit as e:  # uvicorn exits when it cannot bind; it has said why in one line
        return not e.code
    return server.started


def _drain_bound_reached() -> None:
    logging.getLogger("barbu.web").warning("the drain took longer than %.0f s; exiting now", DRAIN_BOUND)
    logging.shutdown()
    os._exit(0)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, stopped by SIGTERM or Ctrl-C the way a supervisor expects: readiness turns 503 at
    once (``app.state.draining``, read by ``/health/ready``), the process drains for at most `DRAIN_BOUND`
    seconds, and it exits 0 (uvicorn raises the signal again once it has shut down, so the process would
    end by SIGTERM, status -15)."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        first = not self.should_exit
        super().handle_exit(sig, frame)
        captured = getattr(self, "_captured_signals", None)
        if isinstance(captured, list):
            captured.clear()  # the drain ends in an ordinary exit, status 0
        if first:
            state = getattr(self.config.app, "state", None)
            if state is not None:
                state.draining = True
            logging.getLogger("barbu.web").info(
                "stopping: draining for at most %.0f s (readiness answers 503)", DRAIN_BOUND
            )
            timer = threading.Timer(DRAIN_BOUND, _drain_bound_reached)
            timer.daemon = True
            timer.start()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Many processes: the tables are handed to their successor before uvicorn closes the WebSockets, so each
        browser reconnects once, straight to its table's new owner (`barbu.web.cluster.node.Cluster.hand_over`)."""
        lobby = getattr(getattr(self.config.app, "state", None), "lobby", None)
        cluster = getattr(lobby, "cluster", None)
        if cluster is not None:
            try:
                await cluster.hand_over()
            except Exception as exc:  # the lifespan's close releases what is left
                logging.getLogger("barbu.web").warning("stopping: the tables could not be handed over (%s)", exc)
        await super().shutdown(sockets)


def serve_workers(
    settings: Settings,
    workers: int,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    access_log: bool = True,
    log_format: str = "text",
    metrics: tuple[str, int] | None = None,
) -> bool:
    """``barbu serve --workers N``: N server processes on one listening socket, each a node of one server
    (they share the database and the broker; the kernel hands each new connection to one of them).

    This process only watches them: a worker that dies is started again (its tables were taken over by
    the others meanwhile); SIGTERM or Ctrl-C stops them all, each handing its tables over as it drains.
    ``metrics``: worker i serves its own ``/metrics`` on the port given plus i."""
    import multiprocessing
    import signal
    import time

    _logging(log_level, log_format)
    log = logging.getLogger("barbu.web")
    sock = _listening(host, port)
    sock.set_inheritable(True)
    ctx = multiprocessing.get_context("spawn")

    def start(i: int) -> Any:
        proc = ctx.Process(
            target=serve,
            args=(settings, host, port, log_level, access_log, sock, log_format),
            kwargs={"metrics": (metrics[0], metrics[1] + i) if metrics else None},
            name=f"barbu-worker-{i}",
            daemon=False,
        )
        proc.start()
        log.info("worker %d started (pid %s)", i, proc.pid)
        return proc

    procs = [start(i) for i in range(workers)]
    stopping = False

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for proc in procs:
            if proc.is_alive() and proc.pid is not None:
                os.kill(proc.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.5)
        for i, proc in enumerate(procs):
            if not stopping and not proc.is_alive():
                log.warning("worker %d (pid %s) stopped with code %s; starting another", i, proc.pid, proc.exitcode)
                procs[i] = start(i)
    for proc in procs:
        proc.join(30)
        if proc.is_alive():
            proc.kill()
    sock.close()
    return True


def tune_runtime() -> None:
    """Settings for a busy server process, measured with benchmarks/web_load.py (125 tables).

    - The database writer thread must win Python's lock back quickly after each call into the
      driver; at the default 5 ms switch interval a commit behind a busy event loop took up to
      90 ms, and every table waits for its commit before it answers.
    - Young-generation collections every 10,000 allocations rather than 700, and the objects of
      start-up (modules, classes, functions) frozen out of the collector's reach, so that a full
      collection, which stops every table, comes less often and has less to walk.
    """
    sys.setswitchinterval(0.0002)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
