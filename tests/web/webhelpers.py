"""Helpers shared by the web tests: a real `barbu serve` process, and small clients."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

SRC = str(Path(__file__).resolve().parents[2] / "src")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m barbu serve`` as a real uvicorn process on 127.0.0.1 and a free port."""

    def __init__(self, db: str, log_path: Path, *args: str, port: int | None = None) -> None:
        self.db = db
        # Every browser of a test comes from 127.0.0.1, several pages at once each holding keep-alive
        # connections: no per-address cap on HTTP connections unless a test sets one (the last value given wins).
        self.args = ("--http-connections-per-address", "0", *args)
        self.port = port or free_port()
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> "Server":  # a wait on a loaded machine, never a measure
        log = open(self.log_path, "ab")
        # the server runs the code under test (this checkout's src first), wherever another copy of barbu is
        # installed, in the test's own folder (the one its log is in)
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=SRC + (os.pathsep + path if path else ""))
        self.proc = subprocess.Popen(
            # no double-dummy tables solved in the background unless a test asks (``--solver-workers`` in its args)
            [
                sys.executable,
                "-m",
                "barbu",
                "serve",
                "--port",
                str(self.port),
                "--db",
                self.db,
                "--solver-workers",
                "0",
                *self.args,
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=self.log_path.parent,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                urllib.request.urlopen(self.base + "/api/tables", timeout=2).read()
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start in {timeout}s:\n{self.log()}")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    @property
    def route(self) -> str:
        """The process's route for nginx (``barbu serve --route``, by default "p" and its port)."""
        args = list(self.args)
        return args[len(args) - 1 - args[::-1].index("--route") + 1] if "--route" in args else f"p{self.port}"

    def __enter__(self) -> "Server":
        return self if self.running else self.start()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class AppServer:
    """An app made in this process (``create_app(Settings(...))``, for what no option of ``barbu serve`` sets)
    served by uvicorn in a thread on 127.0.0.1 and a free port: the same ``base``, ``start`` and ``stop``."""

    def __init__(self, app: Any, log_path: Path, port: int | None = None) -> None:
        self.app, self.log_path = app, log_path
        self.port = port or free_port()
        self.db = getattr(getattr(app.state, "settings", None), "db_url", "")
        self._server: Any = None
        self._thread: threading.Thread | None = None

    base = Server.base
    ws_base = Server.ws_base

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, timeout: float = 30) -> "AppServer":
        import uvicorn

        self._server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start in {timeout}s")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        if self.running:
            self._server.should_exit = True
            self._thread.join(20)

    def log(self) -> str:
        return ""

    def __enter__(self) -> "AppServer":
        return self if self.running else self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def http(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        url, data=data, method=method, headers={"content-type": "application/json"} if data else {}
    )
    try:  # a generous limit: a busy two-core machine may take long, and tests never assert on timing
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def new_table(
    base: str, rules: str = "classic", seats: dict[int, str] | None = None, bots: dict[int, str] | None = None
) -> tuple[str, dict[int, str]]:
    """Create a table, seat guests (name by seat) and computer players; returns (id, tokens by seat)."""
    status, data = http("POST", base + "/api/tables", {"rules": rules})
    assert status == 201, data
    tid, creator = data["id"], data["creator"]
    tokens = {}
    for seat, name in (seats or {}).items():
        status, data = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": seat, "name": name})
        assert status == 200, data
        tokens[seat] = data["token"]
    for seat, strength in (bots or {}).items():
        status, data = http(
            "POST", f"{base}/api/tables/{tid}/bots", {"seat": seat, "strength": strength, "token": creator}
        )
        assert status == 200, data
    return tid, tokens


NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx-barbu.conf"


class Nginx:
    """Debian's nginx on 127.0.0.1 in front of server processes, with the repository's own configuration
    (deploy/nginx-barbu.conf), its upstream servers, routes and listening port replaced by the test's
    (`site`)."""

    def __init__(self, servers: list[Server], folder: Path) -> None:
        self.servers, self.folder = servers, folder
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 15) -> "Nginx":
        import shutil

        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            raise RuntimeError("nginx is missing: install Debian's nginx-light (apt-get install nginx-light)")
        (self.folder / "barbu-site.conf").write_text(self.site(NGINX_CONF.read_text()))
        tmp = self.folder / "nginx-tmp"
        tmp.mkdir(exist_ok=True)
        (self.folder / "nginx.conf").write_text(f"""
user root;
daemon off;
worker_processes 1;
worker_rlimit_nofile 65536;
pid {self.folder}/nginx.pid;
error_log {self.folder}/nginx-error.log warn;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {self.folder}/barbu-site.conf;
}}
""")
        self.proc = subprocess.Popen(
            [nginx, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.folder / 'nginx-error.log').read_text(errors='replace')}")
            try:
                urllib.request.urlopen(self.base + "/api/health", timeout=2).read()
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("nginx did not start")

    def site(self, site: str) -> str:
        """The repository's configuration for this test's processes: the round-robin upstream's servers, one
        routed upstream per process (that process first, the others as backups) and its line in the route map,
        all with the parameters (max_fails …) of the configuration's first server; and the listening port."""
        import re

        first = re.search(r"(?m)^    server 127\.0\.0\.1:\d+([^;\n]*);", site)
        params = first.group(1) if first else ""
        upstreams = "".join(f"    server 127.0.0.1:{s.port}{params};\n" for s in self.servers)
        site, n = re.subn(
            r"(?m)^    server 127\.0\.0\.1:\d+[^\n]*\n(    server 127\.0\.0\.1:\d+[^\n]*\n)*", upstreams, site, count=1
        )
        assert n == 1, "deploy/nginx-barbu.conf has no upstream servers to replace"
        routed = "\n".join(
            f"upstream barbu_{s.route} {{\n    server 127.0.0.1:{s.port}{params};\n"
            + "".join(f"    server 127.0.0.1:{o.port}{params} backup;\n" for o in self.servers if o is not s)
            + "}\n"
            for s in self.servers
        )
        blocks = list(re.finditer(r"(?m)^upstream barbu_\w+ \{\n(?:    [^\n]*\n)*\}\n\n?", site))
        assert blocks, "deploy/nginx-barbu.conf has no routed upstreams to replace"
        site = site[: blocks[0].start()] + routed + "\n" + site[blocks[-1].end() :]
        lines = "".join(f"    {s.route} barbu_{s.route};\n" for s in self.servers)
        site, n = re.subn(
            r"(?m)^(map \$arg_route \$barbu_upstream \{\n    default barbu;\n)(?:    [^\n]*\n)*\}",
            rf"\g<1>{lines}}}",
            site,
        )
        assert n == 1, "deploy/nginx-barbu.conf has no route map to replace"
        site, n = re.subn(r"listen 127\.0\.0\.1:\d+;", f"listen 127.0.0.1:{self.port};", site)
        assert n == 1, "deploy/nginx-barbu.conf has no listen line to replace"
        return site

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# ---------------------------------------------------------------------------- people with a browser
LAPTOP, PHONE = (1280, 800), (390, 844)
#: How long a page waits for one step (ms): long enough for a loaded machine; never a measure of speed.
STEP = 30_000


def person(
    browser: Any,
    size: tuple[int, int] | dict[str, int] = LAPTOP,
    lang: str = "en-GB",
    *,
    timeout: float = STEP,
    touch: bool = False,
    **context: Any,
) -> Any:
    """A page of a person of his own: a browser context (its own cookies and storage, another device) of this
    size and language (the page's Accept-Language and Intl; never the machine's), ``touch`` for a phone's touch
    screen; its script errors are kept in ``page.errors``; other ``context`` options go to Playwright."""
    if isinstance(size, dict):
        size = (size["width"], size["height"])
    if touch:
        context.setdefault("has_touch", True)
        context.setdefault("is_mobile", True)
    # A person who asks for less motion, unless the test says otherwise: the cards' flight, the trick's hold and
    # gathering are tested where they are the point (test_web_motion_browser.py, the lessons, four players'
    # deal in test_web_browser.py); elsewhere they are only time and processor the page and the machine spend
    # (about a quarter of a whole match's wall time through a page, docs/development.md).
    context.setdefault("reduced_motion", "reduce")
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang, **context)
    return _watched(ctx.new_page(), timeout)


def another_page(page: Any, timeout: float = STEP) -> Any:
    """Another page of the same person (his context: his cookies and storage), watched like his first."""
    return _watched(page.context.new_page(), timeout)


def _watched(page: Any, timeout: float) -> Any:
    page.set_default_timeout(timeout)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A screenshot for people, ``name-WIDTHxHEIGHT.png``, only when BARBU_SHOTS names a folder."""
    from helpers import shot_path

    size = page.viewport_size or {}
    path = shot_path(f"{name}-{size.get('width')}x{size.get('height')}.png")
    if path is not None:
        page.screenshot(path=str(path), full_page=full_page)
