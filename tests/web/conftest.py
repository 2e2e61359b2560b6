"""Fixtures for the web tests: databases (SQLite always, PostgreSQL where a URL is given) and servers.

The PostgreSQL tests read ``BARBU_TEST_POSTGRES_URL`` (``.ci/run`` starts Debian's
PostgreSQL and sets it), the many-process tests ``BARBU_TEST_REDIS_URL`` too (Debian's
redis-server).  Under CI (``CI=true``) a missing URL fails the run; elsewhere those
tests are skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from playwright.sync_api import Browser, sync_playwright

from barbu.web.storage import database_url

from webhelpers import CHROMIUM, CHROMIUM_ARGS

PG_ENV = "BARBU_TEST_POSTGRES_URL"

# One person's deals are replayed by the expert to compare (`barbu.web.shadow`): only where a test asks for it
# (Settings(compare_with=…), ``barbu serve --compare-with``), not beside every test's table.
os.environ.setdefault("BARBU_COMPARE_WITH", "none")


def postgres_url() -> str:
    """The test database, in a schema of this test process's own (pytest-xdist runs several at once)."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{PG_ENV} is not set: .ci/run must start PostgreSQL and export it", pytrace=False)
        pytest.skip(f"{PG_ENV} is not set (CI sets it); PostgreSQL storage not tested here")
    schema = "barbu_" + os.environ.get("PYTEST_XDIST_WORKER", "main")
    engine = create_engine(database_url(url))
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS {schema}"))
    engine.dispose()
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


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
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    db = 1 + (int(worker[2:]) if worker[2:].isdigit() else 0) % 15
    url = f"{url.rstrip('/').rsplit('/', 1)[0] if url.count('/') > 2 else url.rstrip('/')}/{db}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    return url


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
