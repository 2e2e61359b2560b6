"""The browser table, end to end: Playwright drives Debian's chromium against a real `barbu serve`.

Four browser players finish a deal; one browser player plays a whole match
against three computer players, created and seated through the lobby and
table pages, and asks for a rematch; a reload in the middle of a trick
restores the table.  Chromium comes from Debian (``.ci/run`` installs it):
Playwright never downloads a browser here.
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Callable

import pytest
from playwright.sync_api import Page, expect
from webhelpers import PHONE, Server, http, new_table, shot
from websockets.sync.client import connect as ws_connect

from barbu.classic.chinese import CATEGORY_NAMES, Arrange, Arrangements, fouled, rank_of
from barbu.core.cards import CardSet

pytestmark = pytest.mark.browser
SERVE = (
    "--bot-delay",
    "0",
    "--deal-pause",
    "0",
    "--grace",
    "1000",
    "--tables-per-hour",
    "0",
    "--bot-tables-per-address",
    "0",
)


def new_page(person: Callable[..., Page], phone: bool = False, touch: bool = False, motion: bool = False) -> Page:
    """A page of a person of his own (the ``person`` fixture), a laptop's or a phone's (``touch``: its touch
    screen); ``motion``: the cards fly as for a person who has not asked for less motion."""
    return person(PHONE if phone else (1280, 900), touch=touch, reduced_motion="no-preference" if motion else "reduce")


def attr(page: Page, name: str) -> str:
    return page.get_attribute("#table", f"data-{name}") or ""


def take_seat(page: Page, base: str, tid: str, seat: int, name: str) -> None:
    page.goto(f"{base}/t/{tid}")
    page.fill("#name", name)
    page.click(f"[data-seat-take='{seat}']")
    page.wait_for_function("s => document.querySelector('#table').dataset.seat === s", arg=str(seat))


def my_turn(page: Page) -> bool:
    return page.get_attribute("#turn", "data-mine") == "1"


def play_one(page: Page, rng: random.Random) -> None:
    """Take one decision the way a person would: a legal card from the hand, or a button."""
    version = attr(page, "version")
    phase = attr(page, "phase")
    page.wait_for_selector("#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])")
    # Read what may be clicked in one go and click through locators, which find the element again: the table
    # redraws its hand and buttons at every message (a clock tick, another player's move).
    cards = page.eval_on_selector_all("#hand .card[data-legal='1']", "cs => cs.map(c => c.dataset.card)")
    buttons = page.eval_on_selector_all(
        "#decision button[data-action]:not([disabled])", "bs => bs.map(b => b.dataset.action)"
    )
    assert cards or buttons, f"nothing to click in phase {phase}: {page.inner_text('#decision')}"
    if cards:
        page.locator(f"#hand .card[data-card='{rng.choice(cards)}']").click()
    else:  # in doubling, double as much as allowed, so that negative deals are played
        action = buttons[-1] if phase == "doubling" else buttons[0]
        page.locator(f"#decision button[data-action='{action}']").click()
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)


# The rest of a match played in the page itself, one round trip for it all instead of several a decision: at
# each of this seat's turns a legal card chosen at random (seeded), in doubling the last button (as much as
# allowed, so that negative deals are played), else the first; each clicked as a player clicks it, then the page
# waits for the table to move on.  Returns the clicks once the match is over.
PLAY_IN_PAGE = """async ([seed]) => {
  let x = seed >>> 0;
  const pick = (n) => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return x % n; };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const table = document.querySelector("#table");
  let clicks = 0;
  for (;;) {
    if (table.dataset.phase === "over") return clicks;
    const mine = document.querySelector("#turn").dataset.mine === "1";
    const cards = mine ? [...document.querySelectorAll("#hand .card[data-legal='1']")] : [];
    const buttons = mine ? [...document.querySelectorAll("#decision button[data-action]:not([disabled])")] : [];
    const target = cards.length ? cards[pick(cards.length)]
      : buttons.length ? buttons[table.dataset.phase === "doubling" ? buttons.length - 1 : 0] : null;
    if (!target) { await sleep(15); continue; }
    const version = table.dataset.version;
    target.click();
    clicks++;
    while (table.dataset.version === version && table.dataset.phase !== "over") await sleep(5);
  }
}"""


def hand(page: Page) -> list[str]:
    return [c.get_attribute("data-card") for c in page.query_selector_all("#hand .card")]


RANK_TEXT = {"T": "10"}


def check_svg_cards(page: Page, selector: str) -> int:
    """Every card under ``selector`` is drawn as an SVG face showing its own rank and suit."""
    faces = page.eval_on_selector_all(
        selector,
        """cards => cards.map(c => {
        const svg = c.querySelector('svg.face');
        return {card: c.dataset.card, svg: !!svg, rank: svg && svg.dataset.rank, suit: svg && svg.dataset.suit,
                text: svg ? [...svg.querySelectorAll('.index text')].map(t => t.textContent) : [],
                fill: svg ? getComputedStyle(svg.querySelector('.ink')).fill : '',
                shapes: svg ? svg.querySelectorAll('path').length : 0}; })""",
    )
    for f in faces:
        card = f["card"]
        assert f["svg"] and f["rank"] == card[0] and f["suit"] == card[1], f
        assert f["text"] and all(t == RANK_TEXT.get(card[0], card[0]) for t in f["text"]), f
        assert f["fill"] == ("rgb(200, 16, 46)" if card[1] in "HD" else "rgb(26, 26, 26)"), f
        assert f["shapes"] >= 2, f  # the suit drawn in the corners (and the pips in the middle)
    return len(faces)


def check_trick_labels(page: Page, names: dict[int, str]) -> int:
    """Each card in the trick on the felt carries the name of the seat that played it."""
    played = page.eval_on_selector_all(
        "#center .trick-card",
        """els => els.map(e => ({
        by: Number(e.dataset.by), label: e.querySelector('.by').textContent, card: !!e.querySelector('.card svg')}))""",
    )
    for p in played:
        assert p["card"] and p["label"] == names[p["by"]], (p, names)
    return len(played)


def test_four_browser_players_finish_a_deal(server: Server, person: Callable[..., Page]) -> None:
    status, data = http("POST", f"{server.base}/api/tables", {"rules": "classic"})
    tid = data["id"]
    pages = [new_page(person, phone=(i == 3), motion=True) for i in range(4)]  # a deal as most people see it
    for i, page in enumerate(pages):
        take_seat(page, server.base, tid, i, f"Player {i}")
    watcher = new_page(person)
    watcher.goto(f"{server.base}/t/{tid}")
    for page in pages:
        page.wait_for_function("() => document.querySelector('#table').dataset.phase === 'declare'")
        assert len(hand(page)) == 13
    dealt = [set(hand(p)) for p in pages]
    assert len(set().union(*dealt)) == 52
    assert check_svg_cards(pages[3], "#hand .card") == 13  # the phone too
    rng = random.Random(1)
    deadline = time.monotonic() + 240
    labelled = 0
    while attr(pages[0], "deal") == "1" and time.monotonic() < deadline:
        acted = False
        for page in pages:
            if my_turn(page):
                play_one(page, rng)
                acted = True
        if not acted:
            time.sleep(0.05)
        assert not watcher.query_selector_all("#hand .card"), "a spectator was shown a hand"
        if attr(watcher, "phase") in ("play", "domino"):
            labelled += check_trick_labels(watcher, {s: f"Player {s}" for s in range(4)})
            labelled += check_trick_labels(pages[1], {0: "Player 0", 1: "You", 2: "Player 2", 3: "Player 3"})
    assert attr(pages[0], "deal") == "2", "the first deal did not finish"
    for page in pages + [watcher]:
        page.wait_for_function("() => document.querySelectorAll('#sheet tbody tr.deal-row').length === 1")
        assert not page.errors
    if attr(watcher, "phase") != "domino":
        assert labelled, "no trick was ever seen on the felt"
    # The scoresheet: a column per player, and the deal under its dealer's name with its contract.
    headers = [h.inner_text().strip() for h in watcher.query_selector_all("#sheet thead th.player")]
    assert headers == [f"Player {s}" for s in range(4)]
    assert [h.inner_text().strip() for h in pages[2].query_selector_all("#sheet thead th.player")] == [
        "Player 0",
        "Player 1",
        "You",
        "Player 3",
    ]
    row = watcher.query_selector("#sheet tr.deal-row")
    dealer, contract = row.get_attribute("data-dealer"), row.get_attribute("data-contract")
    assert watcher.inner_text(f"#sheet tr.dealer-row[data-dealer='{dealer}']") == f"Player {dealer} deals"
    names = {c["key"]: c["name"] for c in http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["contracts"]}
    assert names[contract] in row.inner_text()
    assert len(row.query_selector_all("td")) == 4
    totals = {tuple(c.inner_text() for c in p.query_selector_all("#sheet tfoot th.num")) for p in pages + [watcher]}
    assert len(totals) == 1


@pytest.mark.slow
def test_one_browser_player_plays_a_whole_match_against_three_computer_players(
    server: Server, person: Callable[..., Page]
) -> None:
    page = new_page(person)
    page.goto(server.base + "/")
    page.select_option("#preset", "classic")
    page.select_option("#create-length", "short")  # two contracts each: a whole match in 8 deals
    page.click("#create-button")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    expect(page.locator("#rules")).to_have_text("Classic · short match: 2 contracts each")  # once the state is in
    page.fill("#name", "Solo")
    page.click("[data-seat-take='0']")
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    # A seat's computer player is a middling one unless changed, each strength worded for players.
    page.wait_for_selector("[data-seat-strength='1']")
    assert page.input_value("[data-seat-strength='1']") == "rule"
    assert page.eval_on_selector("[data-seat-strength='1']", "s => [...s.options].map(o => o.textContent)") == [
        "random",
        "good player",
        "strong",
        "expert",
    ]
    for s in (1, 2, 3):
        page.click(f"[data-seat-bot='{s}']")
        page.wait_for_selector(f"[data-seat-box='{s}'] .chip.bot")
    page.click("#invite")
    assert page.input_value("#invite-link") == f"{server.base}/t/{tid}"
    # The first deal decision by decision through Playwright (each click waits for its element to be there and
    # enabled), the other 7 in the page itself.
    rng = random.Random(2)
    deadline = time.monotonic() + 600
    while attr(page, "deal") in ("", "0", "1") and attr(page, "phase") != "over" and time.monotonic() < deadline:
        if my_turn(page):
            play_one(page, rng)
        else:
            page.wait_for_timeout(20)
    assert attr(page, "deal") == "2", "the first deal did not end"
    assert page.evaluate(PLAY_IN_PAGE, [2]) > 50
    assert attr(page, "phase") == "over", "the match did not end"
    page.wait_for_selector("#match-end:not([hidden])")
    assert len(page.query_selector_all("#standings li")) == 4
    assert len(page.query_selector_all("#sheet tbody tr.deal-row")) == 8
    assert len(page.query_selector_all("#sheet tbody tr.dealer-row")) == 4  # four series of two contracts
    for s in range(4):
        contracts = [
            r.get_attribute("data-contract") for r in page.query_selector_all(f"#sheet tr.deal-row[data-dealer='{s}']")
        ]
        assert len(contracts) == 2 and len(set(contracts)) == 2, contracts
    assert page.query_selector("#chart svg polyline")
    assert not page.errors
    page.click("#rematch")
    page.wait_for_function("t => !location.pathname.endsWith(t)", arg=tid)
    page.wait_for_function("() => document.querySelector('#table').dataset.seat === '0'")
    assert attr(page, "status") == "playing"


def test_on_a_phone_a_tap_shows_a_contracts_description_before_choosing(
    server: Server, person: Callable[..., Page]
) -> None:
    """No hover on a phone: the ⓘ beside each contract shows what it asks, in view, and chooses nothing."""
    tid, _ = new_table(server.base, "classic(rotation=quick)", bots={s: "random" for s in (1, 2, 3)})
    page = new_page(person, phone=True, touch=True)
    take_seat(page, server.base, tid, 0, "Tapper")
    rng = random.Random(6)
    deadline = time.monotonic() + 180
    while not (my_turn(page) and attr(page, "phase") == "declare") and time.monotonic() < deadline:
        if my_turn(page):
            play_one(page, rng)
        else:
            page.wait_for_timeout(20)
    assert attr(page, "phase") == "declare", "this seat never had to choose a contract"
    contracts = {c["key"]: c for c in http("GET", f"{server.base}/api/tables/{tid}")[1]["table"]["contracts"]}
    version = attr(page, "version")
    assert not page.query_selector_all("#decision button[data-action^='contract'][title]")  # no hover-only help
    for info in page.query_selector_all("#decision .info"):
        key = info.get_attribute("data-info")
        info.tap()
        desc = page.locator("#contract-desc")
        assert desc.get_attribute("data-contract") == key
        assert contracts[key]["help"] in desc.inner_text() and contracts[key]["name"] in desc.inner_text()
        assert info.get_attribute("aria-expanded") == "true"
        for shown in ("#contract-desc", "#hand"):  # the description and the hand in view (boxes are in the window)
            box = page.locator(shown).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, (shown, box)
    assert attr(page, "version") == version and attr(page, "phase") == "declare"  # reading chose nothing
    page.click("#decision button[data-action^='contract']")
    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)
    assert not page.errors


def test_a_reload_in_the_middle_of_a_trick_restores_the_table(server: Server, person: Callable[..., Page]) -> None:
    status, data = http("POST", f"{server.base}/api/tables", {"rules": "classic(undoubled_negative=play)"})
    tid = data["id"]
    for s in (1, 2, 3):
        http(
            "POST", f"{server.base}/api/tables/{tid}/bots", {"seat": s, "strength": "random", "token": data["creator"]}
        )
    page = new_page(person)
    take_seat(page, server.base, tid, 0, "Reloader")
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    # Play until it is our turn to play a card with cards already in the trick.
    while time.monotonic() < deadline:
        if (
            my_turn(page)
            and attr(page, "phase") == "play"
            and page.get_attribute("#center .trick", "data-trick")
            and not page.query_selector("#center .trick.faded")
        ):
            break
        if my_turn(page):
            play_one(page, rng)
        else:
            page.wait_for_timeout(20)
    else:
        pytest.fail("never reached the middle of a trick")
    before = {
        "hand": hand(page),
        "trick": page.get_attribute("#center .trick", "data-trick"),
        "version": attr(page, "version"),
        "deal": attr(page, "deal"),
        "contract": page.inner_text("#contract-info h2"),
    }
    page.reload()
    page.wait_for_function("v => document.querySelector('#table').dataset.version === v", arg=before["version"])
    page.wait_for_selector("#hand .card")
    after = {
        "hand": hand(page),
        "trick": page.get_attribute("#center .trick", "data-trick"),
        "version": attr(page, "version"),
        "deal": attr(page, "deal"),
        "contract": page.inner_text("#contract-info h2"),
    }
    assert after == before
    assert attr(page, "seat") == "0" and my_turn(page)
    play_one(page, rng)  # and the game goes on
    assert not page.errors


def ws_seat(ws_base: str, tid: str, token: str, stop: threading.Event, prefer: str) -> None:
    """A seat played from Python over the WebSocket: ``prefer`` is the contract it names when it can."""
    rng = random.Random(token)
    with ws_connect(f"{ws_base}/ws/{tid}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        done = None
        while not stop.is_set():
            try:
                msg = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            st = msg.get("state")
            if not st or st["to_act"] != st["seat"] or not st["legal_count"] or done == st["version"]:
                continue
            done = st["version"]
            if st["legal"] is None:  # Chinese poker: any split of the hand into 5, 5 and 3
                h = list(st["hand"])
                rng.shuffle(h)
                action = f"arrange {','.join(h[:5])} {','.join(h[5:10])} {','.join(h[10:])}"
            elif prefer in st["legal"]:
                action = prefer
            else:
                action = st["legal"][0]
            ws.send(json.dumps({"type": "act", "action": action, "version": st["version"]}))


def test_chinese_poker_rows_are_built_in_the_browser(server: Server, person: Callable[..., Page]) -> None:
    tid, tokens = new_table(server.base, "classic(chinese_poker=true)", seats={s: f"P{s}" for s in range(1, 4)})
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=ws_seat, args=(server.ws_base, tid, tokens[s], stop, "contract chinese-poker"), daemon=True
        )
        for s in (1, 2, 3)
    ]
    for t in threads:
        t.start()
    try:
        page = new_page(person)
        take_seat(page, server.base, tid, 0, "Arranger")
        rng = random.Random(4)
        deadline = time.monotonic() + 120
        clickable = "#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])"
        while attr(page, "phase") != "arrange" and time.monotonic() < deadline:
            if my_turn(page):
                # the turn line may say so as the table turns to the arrangement (read a moment before)
                page.wait_for_function(
                    "sel => document.querySelector('#table').dataset.phase === 'arrange' || document.querySelector(sel)",
                    arg=clickable,
                )
                if attr(page, "phase") == "arrange":
                    break
                chinese = page.query_selector("#decision button[data-action='contract chinese-poker']")
                if chinese:
                    version = attr(page, "version")
                    chinese.click()
                    page.wait_for_function("v => document.querySelector('#table').dataset.version !== v", arg=version)
                else:
                    play_one(page, rng)
            else:
                page.wait_for_timeout(20)
        page.wait_for_selector("#turn[data-mine='1']")
        assert attr(page, "phase") == "arrange"
        cards = hand(page)
        assert len(cards) == 13
        built = {}
        for row, k in (("back", 5), ("middle", 5), ("front", 3)):
            built[row] = hand(page)[:k]
            for c in built[row]:
                page.click(f"#hand .card[data-card='{c}']")
            page.click(f"[data-put='{row}']")
            assert len(page.query_selector_all(f"[data-row='{row}'] .card")) == k
        masks = {row: CardSet.parse(",".join(cs)).mask for row, cs in built.items()}
        for row, mask in masks.items():  # each full row shows its poker category, as the engine ranks it
            assert page.inner_text(f"[data-category='{row}']") == CATEGORY_NAMES[rank_of(mask)[0]]
        foul = fouled(Arrange(masks["back"], masks["middle"], masks["front"]))
        assert (page.query_selector("#foul-warning") is not None) == foul
        page.click("[data-suggest]")  # the server's suggestion from this seat's own hand
        suggested = Arrangements(CardSet.parse(",".join(cards)).mask).sensible()
        for row, mask in zip(("back", "middle", "front"), suggested.rows):
            shown = [c.get_attribute("data-card") for c in page.query_selector_all(f"[data-row='{row}'] .card")]
            assert CardSet.parse(",".join(shown)).mask == mask
        assert page.query_selector("#foul-warning") is None
        shot(page, "barbu-arrange")
        deal = attr(page, "deal")
        page.click("#decision button.primary[data-action^='arrange']")
        page.wait_for_function("d => document.querySelector('#table').dataset.deal !== d", arg=deal, timeout=60_000)
        page.wait_for_selector(".arrange-reveal")
        assert len(page.query_selector_all(".arrange-reveal")) == 4
        revealed = page.query_selector_all(".arrange-reveal")[0].query_selector_all(".card")
        assert sorted(c.get_attribute("data-card") for c in revealed) == sorted(cards)
        assert not page.errors
    finally:
        stop.set()
        for t in threads:
            t.join(5)


def test_the_browser_ranks_poker_rows_as_the_engine_does(server: Server, person: Callable[..., Page]) -> None:
    """The row builder's advice (category, foul warning) comes from poker.js: it must agree with
    `barbu.chinese.rank_of` on every kind of row."""
    rng = random.Random(9)
    deck = [str(c) for c in CardSet.parse("AKQJT98765432.AKQJT98765432.AKQJT98765432.AKQJT98765432")]
    rows = [rng.sample(deck, rng.choice((3, 5))) for _ in range(400)]
    rows += [
        ["AS", "2S", "3S", "4S", "5S"],
        ["AH", "2D", "3S", "4S", "5C"],
        ["TS", "JS", "QS", "KS", "AS"],
        ["9H", "9D", "9S", "4S", "4C"],
        ["9H", "9D", "4S", "4C", "2C"],
        ["7H", "7D", "7S"],
        ["7H", "7D", "2S"],
    ]
    page = new_page(person)
    page.goto(f"{server.base}/")
    got = page.evaluate(
        "async (rows) => { const m = await import('/static/js/poker.js'); return rows.map((r) => m.rowRank(r)); }", rows
    )
    for row, js in zip(rows, got):
        assert tuple(js) == rank_of(CardSet.parse(",".join(row)).mask), row
    pairs = [(rows[i], rows[i + 1]) for i in range(0, 200, 2)]
    signs = page.evaluate(
        "async (pairs) => { const m = await import('/static/js/poker.js');"
        " return pairs.map(([a, b]) => Math.sign(m.compareRanks(m.rowRank(a), m.rowRank(b)))); }",
        pairs,
    )
    for (a, b), sign in zip(pairs, signs):
        ra, rb = rank_of(CardSet.parse(",".join(a)).mask), rank_of(CardSet.parse(",".join(b)).mask)
        assert sign == (ra > rb) - (ra < rb)
    assert not page.errors


def test_play_against_the_computer_offers_the_strength_and_remembers_it(
    server: Server, person: Callable[..., Page]
) -> None:
    page = new_page(person)
    page.goto(server.base + "/")
    menu = page.locator("#play-strength")
    menu.wait_for()
    page.wait_for_function("() => document.querySelector('#play-strength').options.length > 0")  # filled in by JS
    assert menu.input_value() == "rule"  # the middling player first, not the strongest
    assert page.locator("#play-strength option").all_inner_texts() == ["random", "good player", "strong", "expert"]
    menu.select_option("random")
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1].split("#")[0]
    status, body = http("GET", f"{server.base}/api/tables/{tid}")
    assert status == 200 and [s["strength"] for s in body["table"]["seats"][1:]] == ["random"] * 3
    page.goto(server.base + "/")
    page.locator("#play-strength").wait_for()
    page.wait_for_function("() => document.querySelector('#play-strength').options.length > 0")
    assert page.locator("#play-strength").input_value() == "random"  # remembered in this browser
    assert not page.errors
    status, body = http("POST", f"{server.base}/api/play", {"rules": "classic", "name": "Ann", "strength": "god"})
    assert status == 400 and "unknown computer player" in body["error"]
