"""The site on a phone's home screen (issue 45): the web app manifest and its icons, the service worker (it
registers and controls the pages, shows the offline page in the reader's language when the network is down,
keeps nothing but its own files, shows a push as a notification and takes a click on it to its page), and the
screen kept awake at the player's turn.  A real ``barbu serve`` and Debian's chromium; the push is delivered
by chromium's DevTools protocol (``ServiceWorker.deliverPushMessage``), no outside push service.
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any, Callable
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect
from starlette.routing import Route
from webhelpers import Server, http, shot

from barbu.web.app import ROUTES
from barbu.web.routes import app_shell

pytestmark = pytest.mark.browser
SERVE = ("--bot-delay", "0.2", "--deal-pause", "0", "--tables-per-hour", "0", "--bot-tables-per-address", "0")
OFFLINE_WORDS = {"en": "You are offline", "fr": "Vous êtes hors ligne", "it": "Sei offline"}


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """A GET's status, headers (lower-cased names) and body; a 4xx answers too."""
    try:
        with urlopen(Request(url, headers=headers)) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except HTTPError as e:  # urllib raises on 4xx: its answer is still the page
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, read from its IHDR header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_in_the_readers_language_with_icons_that_exist(server: Server) -> None:
    status, headers, body = get(server.base + "/manifest.webmanifest", **{"Accept-Language": "fr-FR,fr;q=0.9"})
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    m = json.loads(body)
    assert (m["name"], m["short_name"], m["start_url"], m["scope"], m["display"], m["id"]) == (
        "barbu",
        "barbu",
        "/",
        "/",
        "standalone",
        "/",
    )
    assert m["lang"] == "fr" and "cartes" in m["description"], m["description"]
    assert m["theme_color"] == "#1d5c3a" and m["background_color"] == "#eef1ee"
    _, _, italian = get(server.base + "/manifest.webmanifest?lang=it")
    assert json.loads(italian)["lang"] == "it" and json.loads(italian)["description"] != m["description"]
    purposes = set()
    for icon in m["icons"]:
        status, headers, data = get(server.base + icon["src"])
        assert status == 200 and headers["content-type"].startswith(icon["type"]), (icon, headers)
        if icon["type"] == "image/png":
            w, h = png_size(data)
            assert f"{w}x{h}" == icon["sizes"], icon
        else:
            assert icon["sizes"] == "any" and data.lstrip().startswith(b"<svg")
        purposes.add(icon.get("purpose", "any"))
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes and purposes == {"any", "maskable"}
    status, _, apple = get(server.base + "/static/icons/apple-touch-icon.png")
    assert status == 200 and png_size(apple) == (180, 180)


def page_addresses() -> list[str]:
    """Every page's address: each GET route that is not the API, a socket, health or the app's own files, with
    "nothing" for its parameters (a 404 page is a page too)."""
    skip = re.compile(r"^/(api|ws|health|sw\.js|manifest\.webmanifest|static)")
    out = []
    for r in ROUTES:
        if isinstance(r, Route) and "GET" in (r.methods or set()) and not skip.match(r.path):
            out.append(re.sub(r"\{[^}]+\}", "nothing", r.path))
    return out


def test_every_page_links_the_manifest_and_loads_the_worker(server: Server) -> None:
    pages = 0
    for path in page_addresses():
        status, headers, body = get(server.base + path)
        if not headers.get("content-type", "").startswith("text/html"):
            continue
        html = body.decode()
        pages += 1
        assert '<link rel="manifest" href="/manifest.webmanifest?lang=' in html, path
        assert '<script type="module" src="/static/js/pwa.js">' in html, path
        assert 'rel="apple-touch-icon"' in html, path
    assert pages >= 15, pages


def controlled(page: Page) -> None:
    """Wait until the service worker controls ``page`` (it claims the pages once it is active)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def back_online(page: Page) -> None:
    """Wait for the offline page to give way to the page asked for, pressing "Try again" while it is there."""
    for _ in range(100):
        try:
            if page.locator("#offline").count() == 0 and page.locator(".topbar").count() == 1:
                return
            page.locator("#offline-retry").click(timeout=1000)
        except Exception:  # the page is being loaded again meanwhile
            pass
        page.wait_for_timeout(200)
    raise AssertionError("still offline")


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_offline_a_navigation_shows_the_offline_page_in_the_readers_language(
    server: Server, person: Callable[..., Page], lang: str
) -> None:
    for size in [(1366, 768), (390, 844)]:
        page = person(size, {"en": "en-GB", "fr": "fr-FR", "it": "it-IT"}[lang])
        page.goto(server.base + "/")
        controlled(page)
        page.context.set_offline(True)
        page.goto(server.base + "/rules")
        expect(page.locator("#offline h2")).to_have_text(OFFLINE_WORDS[lang])
        assert page.evaluate("document.documentElement.lang") == lang
        # its look: the site's stylesheet, kept by the worker, is applied (the felt's green top bar)
        assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).backgroundColor") == "rgb(21, 74, 46)"
        shot(page, f"pwa-offline-{lang}")
        # back online, the page the player asked for comes back (by itself when the browser says it is online,
        # else with "Try again")
        page.context.set_offline(False)
        back_online(page)
        assert page.url.endswith("/rules")
        assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_offline_page_follows_the_switchers_choice_and_the_address(server: Server, person: Callable[..., Page]) -> None:
    page = person((390, 844), "en-GB")
    page.goto(server.base + "/?lang=it")  # the switcher's cookie says Italian
    controlled(page)
    page.context.set_offline(True)
    page.goto(server.base + "/clubs")
    expect(page.locator("#offline h2")).to_have_text(OFFLINE_WORDS["it"])
    page.goto(server.base + "/clubs?lang=fr")
    assert page.evaluate("location.search") == "?lang=fr", page.url
    expect(page.locator("#offline h2")).to_have_text(OFFLINE_WORDS["fr"])


def test_the_worker_keeps_only_its_own_files(server: Server, person: Callable[..., Page]) -> None:
    page = person()
    # an older release's cache, left in the browser: the new worker deletes it when it takes over
    page.goto(server.base + "/api/health")  # not a page: no worker yet
    page.evaluate("caches.open('barbu-0123456789abcdef').then(c => c.put('/offline/en', new Response('old')))")
    page.goto(server.base + "/")
    controlled(page)
    status, created = http("POST", server.base + "/api/tables", {"rules": "classic"})
    assert status == 201, created
    page.goto(f"{server.base}/t/{created['id']}")
    page.evaluate("fetch('/api/tables').then(r => r.json())")
    page.evaluate("fetch('/api/health').then(r => r.json())")
    kept = page.evaluate(
        """async () => {
            const out = {};
            for (const name of await caches.keys()) {
                out[name] = (await (await caches.open(name)).keys()).map(r => new URL(r.url).pathname);
            }
            return out;
        }"""
    )
    assert len(kept) == 1, kept
    [(name, paths)] = kept.items()
    assert name.startswith("barbu-")
    assert sorted(paths) == sorted(
        ["/offline/en", "/offline/fr", "/offline/it", "/static/css/barbu.css", "/static/js/display.js"]
        + ["/static/js/offline.js", "/static/js/pwa.js", "/static/favicon.svg", "/static/icons/icon-192.png"]
    )
    # offline, an API answer is not there: the worker never answers one from a cache
    page.context.set_offline(True)
    failed = page.evaluate("fetch('/api/health').then(() => 'answered', e => 'failed: ' + e.name)")
    assert failed == "failed: TypeError", failed
    page.context.set_offline(False)


def test_a_release_that_changes_a_kept_file_is_a_new_worker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in app_shell.OFFLINE_FILES:
        copy = tmp_path / name.removeprefix("/static/")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes((app_shell.STATIC / name.removeprefix("/static/")).read_bytes())
    monkeypatch.setattr(app_shell, "STATIC", tmp_path)

    def version() -> str:
        app_shell.worker_source.cache_clear()
        source = app_shell.worker_source("en")
        return json.loads(re.search(r"const SETTINGS = (\{.*?\});", source).group(1))["version"]  # type: ignore[union-attr]

    before = version()
    assert version() == before  # the same files, the same worker
    (tmp_path / "css" / "barbu.css").write_text("body { color: red; }", encoding="utf-8")
    assert version() != before
    app_shell.worker_source.cache_clear()


def test_the_worker_source_names_a_version_and_is_served_at_the_root(server: Server) -> None:
    status, headers, body = get(server.base + "/sw.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache"
    text = body.decode()
    assert "__SETTINGS__" not in text
    settings = json.loads(re.search(r"const SETTINGS = (\{.*?\});", text).group(1))  # type: ignore[union-attr]
    assert re.fullmatch(r"[0-9a-f]{16}", settings["version"]) and settings["languages"] == ["en", "fr", "it"]
    status, headers, body = get(server.base + "/offline/fr")
    assert status == 200 and headers["content-language"] == "fr" and "Vous êtes hors ligne" in body.decode()
    assert get(server.base + "/offline/xx")[0] == 404


def worker_of(page: Page) -> Any:
    """The page's service worker as Playwright sees it."""
    for _ in range(300):
        for worker in page.context.service_workers:
            if worker.url.endswith("/sw.js"):
                return worker
        page.wait_for_timeout(100)
    raise AssertionError("no service worker")


def pushed(page: Page, cdp: Any, registration: str, payload: dict, read: str) -> Any:
    """Deliver ``payload`` to the worker as a push (chromium's DevTools protocol), then ``read`` of its
    notifications once there is one.  The delivery is the harness's, not barbu's: on a loaded machine chromium
    may drop it while it starts the worker, so it is made again (the payload's tag makes a second one replace
    the first, never add to it)."""
    for _ in range(3):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": "/".join(page.url.split("/", 3)[:3]),
                "registrationId": registration,
                "data": json.dumps(payload),
            },
        )
        for _ in range(100):
            seen = page.evaluate(
                f"""async () => {{
                    const all = await (await navigator.serviceWorker.ready).getNotifications();
                    return all.length ? ({read})(all) : null;
                }}"""
            )
            if seen is not None:
                return seen
            page.wait_for_timeout(100)
    raise AssertionError("no notification")


def test_a_push_shows_a_notification_and_its_click_opens_its_page(server: Server, person: Callable[..., Page]) -> None:
    page = person()
    page.context.grant_permissions(["notifications"], origin=server.base)
    page.goto(server.base + "/")
    controlled(page)
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for _ in range(300):
        if any(not r.get("isDeleted") for r in registrations):
            break
        page.wait_for_timeout(100)
    [reg] = [r for r in registrations if not r.get("isDeleted")]
    payload = {"title": "Your turn", "body": "Ann waits for your move", "url": "/rules/classic", "tag": "turn"}
    shown = pushed(
        page,
        cdp,
        reg["registrationId"],
        payload,
        "all => all.map(n => ({title: n.title, body: n.body, url: n.data.url}))",
    )
    assert shown == [{"title": "Your turn", "body": "Ann waits for your move", "url": server.base + "/rules/classic"}]

    # A click on it (dispatched in the worker, as the system would) takes the open barbu window to its page.
    worker_of(page).evaluate(
        """async () => {
            const [notification] = await self.registration.getNotifications();
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
        }"""
    )
    page.wait_for_url(server.base + "/rules/classic")
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => n.length)") == 0

    # A push that names another site is taken to the lobby instead.
    away = {"title": "x", "url": "https://elsewhere.example/phish", "tag": "away"}
    url = pushed(page, cdp, reg["registrationId"], away, "all => all[0].data.url")
    assert url == server.base + "/"


WAKE_SPY = """
(() => {
  const spy = { requests: 0, releases: 0, held: null };
  window.__wake = spy;
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
    request: async (type) => {
      if (type !== "screen") throw new TypeError(type);
      spy.requests += 1;
      const sentinel = new EventTarget();
      sentinel.released = false;
      sentinel.release = async () => {
        if (sentinel.released) return;
        sentinel.released = true;
        spy.releases += 1;
        if (spy.held === sentinel) spy.held = null;
        sentinel.dispatchEvent(new Event("release"));
      };
      spy.held = sentinel;
      return sentinel;
    },
  }});
})();
"""


def test_the_screen_stays_awake_at_the_players_turn(server: Server, person: Callable[..., Page]) -> None:
    status, data = http("POST", server.base + "/api/tables", {"rules": "classic"})
    assert status == 201, data
    tid, creator = data["id"], data["creator"]
    status, ann = http("POST", f"{server.base}/api/tables/{tid}/seats", {"seat": 0, "name": "Ann"})
    assert status == 200, ann
    for bot in (1, 2, 3):
        status, got = http(
            "POST", f"{server.base}/api/tables/{tid}/bots", {"seat": bot, "strength": "rule", "token": creator}
        )
        assert status == 200, got
    page = person((390, 844), "en-GB", touch=True)
    seat = json.dumps(json.dumps({"token": ann["token"], "seat": 0}))
    page.context.add_init_script(f"localStorage.setItem('barbu:seat:{tid}', {seat});" + WAKE_SPY)
    page.goto(f"{server.base}/t/{tid}")
    expect(page.locator("#turn[data-mine='1']")).to_be_visible()  # Ann chooses the first contract
    page.wait_for_function("() => window.__wake.held !== null")
    assert page.evaluate("window.__wake.requests") == 1  # one lock, however often the page is drawn

    # The system lets go while the page is hidden; when it shows again at his turn, the lock is asked for again.
    page.evaluate("window.__wake.held.release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => window.__wake.requests === 2 && window.__wake.held !== null")

    # He moves: the turn passes to the computers and the lock is let go (and asked for at his next turn).
    page.locator("#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])").first.click()
    page.wait_for_function("() => window.__wake.releases >= 2")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
