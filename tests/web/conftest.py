"""Fixtures for the web tests: databases (SQLite always, PostgreSQL where a URL is given), servers and browsers.

Servers: ``serve(*options)`` starts a real ``barbu serve`` (uvicorn on 127.0.0.1, a free port) with those
options, on a fresh SQLite database in a folder of its own (``db=`` for another, ``app=`` for an app made in
this process), and stops it when the test ends; ``serve_module`` does the same for a module's fixtures and stops
them when the module ends; ``server`` is the one server a module's tests share, started with the options of the
module's ``SERVE`` tuple.  People: ``person(size, lang)`` is a page of a person of his own in the module's
chromium (``webhelpers.person``), closed when the test ends.

The PostgreSQL tests read ``BARBU_TEST_POSTGRES_URL`` (``.ci/run`` starts Debian's
PostgreSQL and sets it), the many-process tests ``BARBU_TEST_REDIS_URL`` too (Debian's
redis-server).  Under CI (``CI=true``) a missing URL fails the run; elsewhere those
tests are skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from sqlalchemy import create_engine, text
from webhelpers import CHROMIUM, CHROMIUM_ARGS, AppServer, Server
from webhelpers import person as new_person

from barbu.web.db.storage import database_url

PG_ENV = "BARBU_TEST_POSTGRES_URL"

# One person's deals are replayed by the expert to compare (`barbu.web.tables.shadow`): only where a test asks for it
# (Settings(compare_with=…), ``barbu serve --compare-with``), not beside every test's table.
os.environ.setdefault("BARBU_COMPARE_WITH", "none")


#: This test process's own PostgreSQL schema and Redis database, once made or claimed: neither pytest-xdist's
#: processes nor two test runs at once on one machine share one; both are given back when the session ends.
_OWN: dict[str, Any] = {}


def postgres_url() -> str:
    """The test database, in a schema of this test process's own (pytest-xdist runs several at once)."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{PG_ENV} is not set: .ci/run must start PostgreSQL and export it", pytrace=False)
        pytest.skip(f"{PG_ENV} is not set (CI sets it); PostgreSQL storage not tested here")
    if "schema" not in _OWN:
        schema = f"barbu_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"
        engine = create_engine(database_url(url))
        with engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS {schema}"))
        engine.dispose()
        _OWN["schema"], _OWN["postgres"] = schema, url
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{_OWN['schema']}"


REDIS_ENV = "BARBU_TEST_REDIS_URL"


def redis_url() -> str:
    """The test broker: a Redis database of this test process's own (pytest-xdist runs several at once),
    emptied; the channels the processes talk on are named by each process's own id."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{REDIS_ENV} is not set: .ci/run must start redis-server and export it", pytrace=False)
        pytest.skip(f"{REDIS_ENV} is not set (CI sets it); the many-process server is not tested here")
    import redis

    server = url.rstrip("/").rsplit("/", 1)[0] if url.count("/") > 2 else url.rstrip("/")
    if "redis" not in _OWN:  # databases 1 to 15, claimed in database 0 (the claim lapses if this process dies)
        claims = redis.Redis.from_url(f"{server}/0")
        try:
            db = next(
                (n for n in range(1, 16) if claims.set(f"barbu-test:db:{n}", os.getpid(), nx=True, ex=REDIS_CLAIM)),
                None,
            )
        finally:
            claims.close()
        if db is None:
            pytest.fail("Redis databases 1 to 15 are all held by other test processes", pytrace=False)
        _OWN["redis"], _OWN["redis_server"] = db, server
    url = f"{server}/{_OWN['redis']}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


REDIS_CLAIM = 3 * 3600  # seconds a claim on a Redis database lasts (a test run is shorter)


@pytest.fixture(scope="session", autouse=True)
def _own_database_places() -> Iterator[None]:
    """At the end of the session: this process's PostgreSQL schema dropped, its Redis database emptied and given
    back."""
    yield
    if "schema" in _OWN:
        engine = create_engine(database_url(_OWN["postgres"]))
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {_OWN.pop('schema')} CASCADE"))
        engine.dispose()
    if "redis" in _OWN:
        import redis

        db = _OWN.pop("redis")
        client = redis.Redis.from_url(f"{_OWN['redis_server']}/{db}")
        client.flushdb()
        client.close()
        claims = redis.Redis.from_url(f"{_OWN['redis_server']}/0")
        if claims.get(f"barbu-test:db:{db}") == str(os.getpid()).encode():
            claims.delete(f"barbu-test:db:{db}")
        claims.close()


def reset_postgres(url: str) -> None:
    """Drop everything in this test process's schema so each test starts from an empty database."""
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        schema = conn.execute(text("SELECT current_schema()")).scalar_one()
        conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'barbu-test.db'}"
    url = postgres_url()
    reset_postgres(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'barbu-test.db'}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium driven by Playwright (no browser is downloaded); one per test module."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)", pytrace=False)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


# A loaded machine (CI runs the suite on two cores) may take a while to answer: Playwright's `expect` waits this
# long for what it looks for (its default is 5 s) before it fails.  A wait, never a measure of speed.
expect.set_options(timeout=30_000)


class Servers:
    """Starts servers, each in a temporary folder of its own with its log, and stops every one it started."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, name: str) -> None:
        self._tmp, self._name = tmp_path_factory, name
        self.started: list[Server | AppServer] = []

    def __call__(
        self, *options: str, db: str | None = None, app: Any = None, start: bool = True, name: str | None = None
    ) -> Any:
        """A ``barbu serve`` with these options on ``db`` (default: a new SQLite file in its folder), or ``app``
        served in this process; started unless ``start=False`` (a test that starts it itself)."""
        folder = self._tmp.mktemp(name or self._name)
        if app is not None:
            assert not options and db is None, "an app made in this process takes its settings from create_app"
            server: Server | AppServer = AppServer(app, folder / "server.log")
        else:
            server = Server(db or f"sqlite:///{folder / 'web.db'}", folder / "server.log", *options)
        self.started.append(server)
        return server.start() if start else server

    def stop(self) -> None:
        for server in reversed(self.started):
            server.stop()


@pytest.fixture
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """Start servers for this test alone: ``serve("--bot-delay", "0")``; stopped when the test ends."""
    servers = Servers(tmp_path_factory, "server")
    yield servers
    servers.stop()


@pytest.fixture(scope="module")
def serve_module(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Servers]:
    """Start servers for a module's tests to share; stopped when the module ends."""
    servers = Servers(tmp_path_factory, request.module.__name__.rsplit(".", 1)[-1])
    yield servers
    servers.stop()


@pytest.fixture(scope="module")
def server(serve_module: Servers, request: pytest.FixtureRequest) -> Server:
    """The server a module's tests share, with the options of its ``SERVE`` tuple.  The tests that share it must
    not depend on one another: each makes its own tables, names and accounts, and none counts what the others
    made (the per-address limits are off where several tests make things from 127.0.0.1)."""
    options = getattr(request.module, "SERVE", None)
    if options is None:
        pytest.fail(f"{request.module.__name__} uses the shared `server` but sets no SERVE = (options…)", pytrace=False)
    return serve_module(*options)


@pytest.fixture
def person(browser: Browser) -> Iterator[Callable[..., Page]]:
    """``person(size=LAPTOP, lang="en-GB", touch=False, **context)``: a page of a person of his own in the
    module's chromium (webhelpers.person), his context closed when the test ends."""
    pages: list[Page] = []

    def make(*args: Any, **kwargs: Any) -> Page:
        page = new_person(browser, *args, **kwargs)
        pages.append(page)
        return page

    yield make
    for page in pages:
        try:
            page.context.close()
        except Exception:  # closed by the test already, or the browser is gone: nothing left to close
            pass
