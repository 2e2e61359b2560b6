"""The table frame in the browser, at a Barbu and at a Bésigue table alike: the server's notice and its busy word
shown over the table, and a dropped connection that comes back by itself, asks for what it missed and plays on.
Both tables run the same code for these (static/js/tablebase.js), so one test pins them at both.

Playwright sits between the page and a real `barbu serve` (``route_web_socket``): it passes every message on,
says the server's words where a test needs them said, and drops the connection from the server's side.
"""

from __future__ import annotations

import json
import re
from typing import Callable

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from webhelpers import Server, http

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0.05",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
)

TABLES = {  # the game, its <main>, its turn line and what may be clicked on its turn
    "classic": ("#table", "#turn", "#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])"),
    "besigue": ("#bz", "#bz-turn", "#bz-hand .card.legal, #bz-decision button[data-action]"),
}


def table_against_computers(base: str, rules: str) -> tuple[str, str]:
    """A table with Ann in seat 0 and computer players in the others: (its id, Ann's credential)."""
    status, data = http("POST", base + "/api/tables", {"rules": rules})
    assert status == 201, data
    tid, creator, n = data["id"], data["creator"], data["table"]["players"]
    status, got = http("POST", f"{base}/api/tables/{tid}/seats", {"seat": 0, "name": "Ann"})
    assert status == 200, got
    for seat in range(1, n):
        status, bot = http(
            "POST", f"{base}/api/tables/{tid}/bots", {"seat": seat, "strength": "rule", "token": creator}
        )
        assert status == 200, bot
    return tid, got["token"]


@pytest.mark.parametrize("rules", list(TABLES))
def test_notices_and_a_dropped_connection_at_both_tables(
    server: Server, person: Callable[..., Page], rules: str
) -> None:
    main, turn, clickable = TABLES[rules]
    tid, token = table_against_computers(server.base, rules)
    page = person((1366, 768), "en", timeout=60_000)
    ctx = page.context
    ctx.add_init_script(
        f"localStorage.setItem('barbu:seat:{tid}', {json.dumps(json.dumps({'token': token, 'seat': 0}))});"
    )
    errors = page.errors  # type: ignore[attr-defined]
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []  # (the page's side, the server's side), per connection
    hellos: list[dict] = []

    def route(ws: WebSocketRoute) -> None:
        to_server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "hello":
                hellos.append(msg)
            to_server.send(message)

        ws.on_message(up)  # the page's messages pass on, the hellos noted
        sockets.append((ws, to_server))

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(f"{server.base}/t/{tid}")
    mine = page.locator(f"{turn}[data-mine='1']")
    expect(mine).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")

    # The server's notice (the clock ran out on someone) and its busy word, over the table.
    page_side, server_side = sockets[-1]
    page_side.send(json.dumps({"type": "notice", "message": "Bob's time ran out: the computer plays for him."}))
    expect(page.locator("#error")).to_have_text("Bob's time ran out: the computer plays for him.")
    expect(page.locator("#error")).to_be_visible()
    page_side.send(
        json.dumps({"type": "busy", "busy": True, "message": "The server is busy: the computer players think faster."})
    )
    expect(page.locator("#busy")).to_have_text("The server is busy: the computer players think faster.")
    expect(page.locator("#busy")).to_be_visible()

    # The server drops the connection: the page connects again by itself, with its credential and the version it
    # holds, and is back at the same decision.
    version = page.get_attribute(main, "data-version")
    server_side.close()
    for _ in range(600):  # Playwright hands over the new connection while the page waits
        if len(hellos) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(sockets) == 2 and len(hellos) == 2, hellos
    expect(page.locator("#conn")).to_have_attribute("data-status", "connected")
    again = hellos[-1]
    assert again["since"] == int(version) and again["token"] == token and again["lang"] == "en"
    expect(mine).to_be_visible()
    assert page.get_attribute(main, "data-version") == version

    # And plays on over the new connection.
    page.locator(clickable).first.click()
    page.wait_for_function(f"v => document.querySelector('{main}').dataset.version !== v", arg=version)
    assert not errors, errors
    ctx.close()
