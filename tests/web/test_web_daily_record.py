"""The daily result page's download of one's own record (issue 43): the file `barbu replay` reads, named for the
game, the day and the deal; given only to the one who finished the set (never before, never to another player),
without the day's key while the day lasts, its computer players named by place and strength.

The API through the real app (Starlette's TestClient); the link in a real browser against `barbu serve`, its
set played from the page itself (a guest's own cookie), in English and French.
"""

from __future__ import annotations

import io
import json
from typing import Any, Callable

import pytest
from playwright.sync_api import Page
from test_web_daily import play_set, settings
from test_web_names44_browser import clean
from test_web_private import client, post
from webhelpers import PHONE, Server, shot

from barbu.core.daily_keys import day_key
from barbu.play.names import record_names
from barbu.records.barbu import read_record, replay

SERVE = ("--bot-delay", "0", "--deal-pause", "0", "--daily-boards", "2", "--signups-per-hour", "0")


def test_the_record_is_the_finishers_alone_and_barbu_replay_reads_it(sqlite_url: str) -> None:
    with client(settings(sqlite_url)) as c:
        daily = c.app.state.daily
        today = daily.today()
        # a guest who has started but not finished gets nothing
        assert post(c, "/api/daily/classic/start", {}).status_code == 200
        r = c.get("/api/daily/classic/boards/0/record")
        assert r.status_code == 403 and r.json()["code"], r.text
        c.cookies.clear()
        answers = play_set(c)
        seat, players = answers[0]["seat"], answers[0]["players"]
        r = c.get(f"/api/daily/classic/boards/0/record?day={today}")
        assert r.status_code == 200, r.text
        assert r.headers["content-disposition"] == f'attachment; filename="barbu-daily-classic-{today}-deal-1.jsonl"'
        assert r.headers["cache-control"] == "no-store"
        record = read_record(io.StringIO(r.text))  # what `barbu replay` reads
        assert record.header["players"] == players and record.actions
        played = replay(record)  # every action applied again, each stated score checked
        assert played.consistent and played.match.results, played.inconsistencies
        names = record_names(record.header, players)
        assert not [n for n in names if "seat" in n.lower() or "(computer)" in n or "rule" in n], names
        assert sum(", good player" in n for n in names) == players - 1
        secret = daily.secret()  # the day lasts: neither key rides in it
        assert secret.hex() not in r.text and day_key(secret, today).hex() not in r.text
        assert c.get("/api/daily/classic/boards/1/record").status_code == 200
        assert c.get("/api/daily/classic/boards/9/record").status_code == 404
        # another guest, who never played, gets nothing of it
        c.cookies.clear()
        r = c.get("/api/daily/classic/boards/0/record")
        assert r.status_code in (403, 404) and r.json()["code"], r.text
        assert seat is not None


PLAY = """async (game) => {
  const post = async (url, body) => (await fetch(url, {method: 'POST', headers: {'content-type': 'application/json'},
    body: JSON.stringify(body)})).json();
  let body = await post(`/api/daily/${game}/start`, {});
  while (!body.finished) body = await post(`/api/daily/${game}/move`, {board: body.board, move: body.state.legal[0]});
  return true;
}"""


@pytest.mark.browser
def test_the_results_page_offers_each_board_s_record_to_download(
    server: Server, person: Callable[..., Page], tmp_path: Any
) -> None:
    for lang, size in (("en", (1366, 768)), ("fr", PHONE)):
        page = person(size)
        page.goto(f"{server.base}/daily/classic?lang={lang}")
        assert page.evaluate(PLAY, "classic")
        page.goto(f"{server.base}/daily/classic?lang={lang}")
        link = page.locator("[data-record='0']")
        link.wait_for()
        assert link.inner_text() == {"en": "Download the record", "fr": "Télécharger la feuille de partie"}[lang]
        with page.expect_download() as got:
            link.click()
        download = got.value
        assert download.suggested_filename.startswith("barbu-daily-classic-")
        assert download.suggested_filename.endswith("-deal-1.jsonl")
        path = tmp_path / f"{lang}.jsonl"
        download.save_as(path)
        head = json.loads(path.read_text().splitlines()[0])
        assert head["players_names"] and replay(read_record(path)).consistent
        clean(page.inner_text("body"))  # no "seat N", no engine's name on the results page either
        shot(page, f"daily-record-{lang}")
        assert not page.errors, page.errors  # type: ignore[attr-defined]
        page.context.close()
