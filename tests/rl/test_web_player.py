"""A trained policy offered in the web lobby by the operator (``barbu serve --player NAME=policy:PATH``)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)

import os
import subprocess
import sys
import time
from pathlib import Path

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from barbu.rl.policy import MaskedPolicy  # noqa: E402
from barbu.web import Settings, create_app
from barbu.web.db.storage import sqlite_url  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FAST = dict(bot_delay=0.0, deal_pause=0.0, burst=100_000, rate=100_000.0)


@pytest.fixture
def trained(tmp_path, plugin_path):
    barbu_file, besigue_file = tmp_path / "classic.npz", tmp_path / "besigue.npz"
    MaskedPolicy("barbu", hidden=8, seed=1).save(barbu_file)
    MaskedPolicy("besigue", hidden=8, seed=1).save(besigue_file)
    return barbu_file, besigue_file


def test_a_named_policy_sits_at_a_table_and_plays(tmp_path, trained):
    players = (("learned", f"policy:{trained[0]}"),)
    settings = Settings(db_url=sqlite_url(str(tmp_path / "web.db")), players=players, **FAST)
    with TestClient(create_app(settings)) as c:
        assert "learned" in c.get("/api/options").json()["strengths"]
        r = c.post("/api/tables", json={"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        for seat, strength in enumerate(["learned", "random", "learned", "rule"]):
            r = c.post(f"/api/tables/{tid}/bots", json={"seat": seat, "strength": strength, "token": creator})
            assert r.status_code == 200, r.text
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["seats"][0]["strength"] == "learned" and "learned" in info["strengths"]
        deadline = time.monotonic() + 120  # a bound on waiting, not a speed check
        while info["version"] < 150 and time.monotonic() < deadline:
            time.sleep(0.2)
            info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["version"] >= 150  # the policy's seats keep making moves: past the first deal


def test_a_policy_of_another_game_is_refused(tmp_path, trained):
    players = (("learned", f"policy:{trained[0]}"),)
    settings = Settings(db_url=sqlite_url(str(tmp_path / "web.db")), players=players, **FAST)
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/tables", json={"rules": "besigue"})
        tid, creator = r.json()["id"], r.json()["creator"]
        r = c.post(f"/api/tables/{tid}/bots", json={"seat": 1, "strength": "learned", "token": creator})
        assert r.status_code == 400 and "Bésigue" in r.json()["error"]
        r = c.post(f"/api/tables/{tid}/bots", json={"seat": 1, "strength": "policy:/etc/passwd", "token": creator})
        assert r.status_code == 400 and "unknown computer player" in r.json()["error"]  # no paths from browsers


def test_serve_refuses_a_bad_player(tmp_path, plugin_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(plugin_path)]))
    for arg, words in (
        (f"learned=policy:{tmp_path / 'none.npz'}", "no policy file"),
        ("rule=random", "NAME=PLAYER"),
        ("learned", "NAME=PLAYER"),
    ):
        out = subprocess.run(
            [sys.executable, "-m", "barbu", "serve", "--player", arg, "--db", str(tmp_path / "x.db")],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert out.returncode == 2 and words in " ".join(out.stderr.split()), out.stderr


def test_a_table_outlives_a_server_restarted_without_its_policy(tmp_path, trained):
    db = sqlite_url(str(tmp_path / "web.db"))
    with TestClient(create_app(Settings(db_url=db, players=(("learned", f"policy:{trained[0]}"),), **FAST))) as c:
        r = c.post("/api/tables", json={"rules": "classic"})
        tid, creator = r.json()["id"], r.json()["creator"]
        r = c.post(f"/api/tables/{tid}/bots", json={"seat": 0, "strength": "learned", "token": creator})
        assert r.status_code == 200, r.text
    with TestClient(create_app(Settings(db_url=db, **FAST))) as c:  # restarted without --player learned=…
        for seat in (1, 2, 3):
            r = c.post(f"/api/tables/{tid}/bots", json={"seat": seat, "strength": "random", "token": creator})
            assert r.status_code == 200, r.text
        info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["seats"][0]["strength"] == "learned" and "learned" not in info["strengths"]
        deadline = time.monotonic() + 120  # a bound on waiting, not a speed check
        while info["version"] < 150 and time.monotonic() < deadline:
            time.sleep(0.2)
            info = c.get(f"/api/tables/{tid}").json()["table"]
        assert info["version"] >= 150  # the stand-in plays the seat


@pytest.mark.slow
@pytest.mark.browser
def test_the_table_page_offers_the_named_policy_in_a_browser(tmp_path, trained, plugin_path, monkeypatch):
    """In Chromium: the seat menu offers ``learned``, the seat shows it, and the policy plays its turns."""
    pytest.importorskip("playwright")
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "web"))
    from playwright.sync_api import sync_playwright
    from webhelpers import CHROMIUM, CHROMIUM_ARGS, Server, person

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "src"), str(plugin_path)]))
    with (
        Server(
            f"sqlite:///{tmp_path / 'web.db'}",
            tmp_path / "server.log",
            "--bot-delay",
            "0",
            "--deal-pause",
            "0",
            "--player",
            f"learned=policy:{trained[0]}",
        ) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = person(browser, (1366, 768), timeout=20_000)
        page.goto(server.base + "/")
        page.select_option("#preset", "classic")
        page.click("#create-button")
        page.wait_for_url("**/t/*")
        page.wait_for_selector("[data-seat-strength='0']")  # the seats are drawn once the table's state arrives
        options = page.eval_on_selector("[data-seat-strength='0']", "s => [...s.options].map(o => o.value)")
        assert options[-1] == "learned" and {"random", "rule", "search"} <= set(options)
        for seat in range(4):  # four computer players, two of them the trained policy: the match plays itself
            page.select_option(f"[data-seat-strength='{seat}']", "learned" if seat % 2 == 0 else "random")
            page.click(f"[data-seat-bot='{seat}']")
            # asked by value every quarter second: once the last seat is a computer the match plays itself at full
            # speed and redraws the seats faster than an element handle stays attached
            page.wait_for_function(
                "sel => document.querySelector(sel) !== null", arg=f"[data-seat-box='{seat}'] .chip.bot", polling=250
            )
        assert "learned" in page.inner_text("[data-seat-box='0']")
        page.wait_for_function("() => Number(document.querySelector('#table').dataset.version) > 120", polling=250)
        browser.close()
    assert "Traceback" not in server.log()
