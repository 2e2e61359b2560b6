"""The scorekeeper page in a real browser on a phone (390x844): a classic game started from the lobby,
deals entered by tapping (a double and a redouble, a deal not played, a correction, an undo, a save
refused because another device saved first), the sheet's totals checked against the keeper's own,
the read-only link, and a French deal for five with its cards set aside.  Playwright drives
Debian's chromium against a real `barbu serve`; BARBU_SHOTS=dir keeps screenshots."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Callable

import pytest
from playwright.sync_api import Page
from webhelpers import PHONE, Server
from webhelpers import shot as take_shot

from barbu import CHANCE, Match
from barbu.scorekeeper import new_keeper
from barbu.scorekeeper.fromplay import entries_from_actions

pytestmark = [pytest.mark.slow, pytest.mark.browser]
SERVE = ()
NAMES = ["Ann", "Bob", "Cat", "Dan"]


def phone(person: Callable[..., Page], size: tuple[int, int] = PHONE) -> tuple[Page, list[str]]:
    page = person(size)
    return page, page.errors  # type: ignore[attr-defined]


def shot(page: Page, name: str, full: bool = False) -> None:
    take_shot(page, name, full_page=full)


def start(page: Page, base: str, names: list[str], preset: str = "classic", players: int | None = None) -> str:
    page.goto(base + "/")
    page.click("#score-link")
    page.wait_for_selector("#new-names input")
    page.select_option("#new-preset", preset)
    if players:
        page.select_option("#new-players", str(players))
    for i, n in enumerate(names):
        page.locator("#new-names input").nth(i).fill(n)
    page.click("#new-start")
    page.wait_for_url("**/score/*")
    page.wait_for_selector("#entry .step")
    return page.url.rsplit("/", 1)[1]


def set_counts(page: Page, key: str, counts: list[int]) -> None:
    """Tap + until each player's count is reached; the last one takes the rest."""
    q = f".question[data-key='{key}']"
    for seat, k in enumerate(counts[:-1]):
        for _ in range(k):
            page.click(f"{q} [data-step='up'][data-seat='{seat}']")
    page.click(f"{q} [data-step='rest'][data-seat='{len(counts) - 1}']")
    for seat, k in enumerate(counts):
        assert page.locator(f"{q} output[data-seat='{seat}']").inner_text() == str(k)


def save(page: Page, deals_after: int) -> None:
    page.wait_for_selector("#preview")
    page.click("#save-deal")
    page.wait_for_function(f"() => document.querySelectorAll('#score-sheet tr.deal').length === {deals_after}")
    page.wait_for_selector(f"#entry[data-deal='{deals_after + 1}'], #entry[data-deal='over']")
    page.wait_for_selector("#entry .step, #entry .winner")


def sheet_totals(page: Page) -> list[int]:
    return [int(t) for t in page.locator("#score-sheet tfoot td").all_inner_texts()]


def test_classic_on_a_phone(server: Server, person: Callable[..., Page]) -> None:
    page, errors = phone(person)
    book = start(page, server.base, NAMES)
    shot(page, "score-phone-start")
    keeper = new_keeper("classic", NAMES, 0)

    # Deal 1: Ann declares No hearts; Bob doubles her and she redoubles (tap twice).
    page.click("[data-contract='no-hearts']")
    cell = ".dbl[data-doubler='1'][data-doubled='0']"
    page.click(cell)
    assert page.locator(cell).get_attribute("data-state") == "doubled"
    page.click(cell)
    assert page.locator(cell).get_attribute("data-state") == "redoubled"
    assert "owes 2" in page.locator(".double-grid").inner_text()  # the obligation shown
    shot(page, "score-phone-doubles")
    page.click("#doubles-done")
    set_counts(page, "hearts", [3, 5, 0, 5])
    assert "all 13 counted" in page.locator(".question[data-key='hearts'] .left").inner_text()
    page.click(".question[data-key='AH'] [data-seat='1']")
    page.wait_for_selector("#preview")
    assert page.locator("#preview td.num").all_inner_texts()[::2] == ["+10", "-30", "0", "-10"]
    shot(page, "score-phone-outcome", full=True)
    save(page, 1)
    keeper.add({"contract": "no-hearts", "doubles": [[1, 0, True]], "outcome": {"hearts": [3, 5, 0, 5], "AH": 1}})
    assert sheet_totals(page) == keeper.totals

    # Deal 2: Trumps, spades, Cat doubles Ann.
    page.click("[data-contract='trumps']")
    page.click("[data-trump='S']")
    page.click(".dbl[data-doubler='2'][data-doubled='0']")
    page.click("#doubles-done")
    set_counts(page, "tricks", [5, 3, 3, 2])
    save(page, 2)
    keeper.add({"contract": "trumps", "trump": "S", "doubles": [[2, 0, False]], "outcome": {"tricks": [5, 3, 3, 2]}})
    assert sheet_totals(page) == keeper.totals

    # Deal 3: No queens, nobody doubles: not played, the points are shared.
    page.click("[data-contract='no-queens']")
    page.click("#doubles-done")
    page.wait_for_selector("#preview")
    assert "Not played" in page.locator("#preview").inner_text()
    save(page, 3)
    keeper.add({"contract": "no-queens", "doubles": []})
    assert sheet_totals(page) == keeper.totals
    assert page.locator("#score-sheet").inner_text().count("Bob ✕✕ Ann") == 1
    assert "Cat ✕ Ann" in page.locator("#score-sheet").inner_text()
    assert "not played" in page.locator("#score-sheet").inner_text()
    shot(page, "score-phone-sheet", full=True)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")  # no sideways scroll

    # Correct deal 2: Ann took 6 tricks, Dan 1.
    page.click("#score-sheet tr.deal[data-index='1']")
    page.click("text=Correct deal 2")
    page.wait_for_selector("#preview")
    assert "Correcting deal 2" in page.locator("#entry h2").inner_text()
    page.click(".question[data-key='tricks'] [data-step='up'][data-seat='0']")
    page.click(".question[data-key='tricks'] [data-step='down'][data-seat='3']")
    page.click("#save-deal")
    keeper.replace(
        1, {"contract": "trumps", "trump": "S", "doubles": [[2, 0, False]], "outcome": {"tricks": [6, 3, 3, 1]}}
    )
    page.wait_for_function(
        f"() => document.querySelector('#score-sheet tfoot td').textContent === '{keeper.totals[0]}'"
    )
    assert sheet_totals(page) == keeper.totals

    # Undo the correction: the totals go back.
    assert page.locator("#undo").get_attribute("aria-label") == "Undo: take back the correction to deal 2"
    page.click("#undo")
    keeper.undo()
    page.wait_for_function(
        f"() => document.querySelector('#score-sheet tfoot td').textContent === '{keeper.totals[0]}'"
    )
    assert sheet_totals(page) == keeper.totals

    # Another phone saves first: this save is refused with a plain message, the entry kept, reload and save.
    key = page.evaluate(f"localStorage.getItem('barbu:score:key:{book}')")
    version = page.evaluate(
        "fetch(location.pathname.replace('/score/', '/api/score/'), "
        f"{{headers: {{'x-score-key': '{key}'}}}}).then(r => r.json()).then(d => d.game.version)"
    )
    page.click("[data-contract='no-tricks']")
    page.click(".dbl[data-doubler='3'][data-doubled='0']")
    page.click("#doubles-done")
    set_counts(page, "tricks", [4, 3, 3, 3])
    page.wait_for_selector("#preview")
    other = {
        "key": key,
        "version": version,
        "op": "add",
        "entry": {"contract": "no-king", "doubles": [[1, 0, False]], "outcome": {"KH": 2}},
    }
    req = urllib.request.Request(
        f"{server.base}/api/score/{book}/change", json.dumps(other).encode(), {"content-type": "application/json"}
    )
    urllib.request.urlopen(req).read()
    keeper.add(other["entry"])
    page.click("#save-deal")
    # The notice may still show the undo's "Done"; wait for the refusal to replace it.
    page.wait_for_function("() => document.querySelector('#game-notice').textContent.includes('changed elsewhere')")
    assert page.locator("#game-notice").is_visible()
    assert "entry is kept" in page.locator("#entry-error").inner_text()
    shot(page, "score-phone-conflict")
    page.click("#game-notice button")
    save(page, 5)
    keeper.add({"contract": "no-tricks", "doubles": [[3, 0, False]], "outcome": {"tricks": [4, 3, 3, 3]}})
    assert sheet_totals(page) == keeper.totals
    standings = page.locator("#standings li .who").all_inner_texts()
    assert standings == [NAMES[s] for s, _ in keeper.standings()]
    assert page.locator("#chart svg polyline").count() == 4

    # The read-only link shows the same sheet and offers no change.
    view = page.locator("#view-link").get_attribute("href")
    assert key not in view and book not in view
    reader, reader_errors = phone(person)
    reader.goto(view)
    reader.wait_for_selector("#score-sheet tfoot td")
    assert sheet_totals(reader) == keeper.totals
    assert reader.locator("#entry").is_hidden() and reader.locator("#undo").count() == 0
    assert reader.evaluate("Object.keys(localStorage).length") == 0
    shot(reader, "score-phone-view")

    # The keeper takes the last deal back: the open read-only page follows by itself.
    page.click("#undo")
    keeper.undo()
    reader.wait_for_function(
        f"() => document.querySelector('#score-sheet tfoot td').textContent === '{keeper.totals[0]}'"
    )
    assert sheet_totals(reader) == sheet_totals(page) == keeper.totals

    # The game is in this browser's list; deleting it there removes it.
    page.click("#games-link")
    page.wait_for_selector(".game-row")
    assert page.locator(".game-row").count() == 1 and "4 deal(s)" in page.locator(".game-row").inner_text()
    page.once("dialog", lambda d: d.accept())
    page.click(".game-row button.danger")
    page.wait_for_selector("text=No game kept here yet")
    assert not errors and not reader_errors, errors + reader_errors


def test_french_five_with_cards_set_aside(server: Server, person: Callable[..., Page]) -> None:
    names = ["Ann", "Bob", "Cat", "Dan", "Eve"]
    page, errors = phone(person)
    start(page, server.base, names, "french", 5)
    assert "2 card(s)" in page.locator("#entry h3").inner_text()
    page.click("[data-card='7C']")
    page.click("[data-card='2D']")
    shot(page, "score-phone-set-aside")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    page.click("text=These are the cards")
    page.click("[data-contract='no-hearts']")
    set_counts(page, "hearts", [2, 3, 4, 1, 3])
    save(page, 1)
    keeper = new_keeper("french(players=5)", names, 0)
    keeper.add({"set_aside": "7C 2D", "contract": "no-hearts", "outcome": {"hearts": [2, 3, 4, 1, 3]}})
    assert sheet_totals(page) == keeper.totals
    assert "7♣ 2♦" not in page.locator("#entry").inner_text()  # the next deal asks for its own cards

    # The keeper's private link opens the game for changes on his other device, and lists it there.
    book = page.url.rsplit("/", 1)[1]
    key = page.evaluate(f"localStorage.getItem('barbu:score:key:{book}')")
    tablet, tablet_errors = phone(person, (820, 1180))
    tablet.goto(f"{server.base}/score/{book}#key={key}")
    tablet.wait_for_selector("#entry .step")
    assert "#key" not in tablet.url and sheet_totals(tablet) == keeper.totals
    tablet.click("#games-link")
    tablet.wait_for_selector(".game-row")
    assert "1 deal(s)" in tablet.locator(".game-row").inner_text()

    # Export JSON from the read-only link, import it on the tablet: the same game, a new copy.
    text = tablet.evaluate(
        f"fetch('/score/view/' + {json.dumps(page.locator('#view-link').get_attribute('href').rsplit('/', 1)[1])} + '/game.json').then(r => r.text())"
    )
    tablet.set_input_files(
        "#import-file", files=[{"name": "game.json", "mimeType": "application/json", "buffer": text.encode()}]
    )
    tablet.wait_for_url(lambda url: "/score/" in url and book not in url)
    tablet.wait_for_selector("#score-sheet tfoot td")
    assert sheet_totals(tablet) == keeper.totals
    tablet.goto(f"{server.base}/score")
    tablet.wait_for_selector(".game-row")
    assert tablet.locator(".game-row").count() == 2
    assert not errors and not tablet_errors, errors + tablet_errors


def test_laptop_layout(server: Server, person: Callable[..., Page]) -> None:
    """On a laptop the form sits beside the sheet; a deal that broke the doubling obligation is flagged."""
    from test_web_score_api import DAN_OWES

    keeper = new_keeper("classic", NAMES, 0)
    for e in DAN_OWES[:5]:
        keeper.add(e)
    data = json.dumps({"text": json.dumps(keeper.to_dict()), "format": "json"}).encode()
    req = urllib.request.Request(f"{server.base}/api/score/import", data, {"content-type": "application/json"})
    made = json.loads(urllib.request.urlopen(req).read())
    page, errors = phone(person, (1366, 768))
    page.goto(f"{server.base}/score/{made['id']}#key={made['key']}")
    page.wait_for_selector("[data-contract]")
    page.click("[data-contract='trumps']")
    page.click("[data-trump='H']")
    assert "owes 2" in page.locator(".double-grid").inner_text()
    page.click(".dbl[data-doubler='1'][data-doubled='0']")
    page.click("#doubles-done")
    set_counts(page, "tricks", [4, 3, 3, 3])
    page.wait_for_selector("#preview .flag")
    assert "Dan did not double Ann" in page.locator("#preview").inner_text()
    save(page, 6)
    assert "Dan did not double Ann" in page.locator("#score-sheet tr.flag-row").inner_text()
    entry = page.locator("#entry").bounding_box()
    sheet = page.locator("#sheet-panel").bounding_box()
    assert entry and sheet and entry["x"] + entry["width"] <= sheet["x"]  # the form beside the sheet
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "score-laptop")
    assert not errors, errors


def test_ravage_city_and_chinese_poker_on_a_phone(server: Server, person: Callable[..., Page]) -> None:
    """The options chosen on the new-game form; Ravage City's longest suits tapped in, Chinese poker's rows typed
    with the phone's Enter key going on to the next player; a card in two rows refused; the dealer shown is the
    deal's own all along (the quick rotation)."""
    rules = "classic(rotation=quick, ravage_city=true, chinese_poker=true)"
    page, errors = phone(person)
    page.goto(server.base + "/score")
    page.wait_for_selector("#new-names input")
    page.click("#new-options-box summary")
    page.check("#opt-ravage_city")
    page.check("#opt-chinese_poker")
    page.select_option("#opt-rotation", "quick")
    for i, n in enumerate(NAMES):
        page.locator("#new-names input").nth(i).fill(n)
    page.click("#new-start")
    page.wait_for_url("**/score/*")
    page.wait_for_selector("#entry .step")
    keeper = new_keeper(rules, NAMES, 0)

    page.click("[data-contract='ravage-city']")
    page.click(".dbl[data-doubler='1'][data-doubled='0']")
    page.click("#doubles-done")
    q = ".question[data-key='longest']"
    for seat, k in enumerate([7, 3, 3]):
        for _ in range(k):
            page.click(f"{q} [data-step='up'][data-seat='{seat}']")
    save(page, 1)
    keeper.add({"contract": "ravage-city", "doubles": [[1, 0, False]], "outcome": {"longest": [7, 3, 3, 0]}})
    assert sheet_totals(page) == keeper.totals == [-48, 24, 0, 0]

    assert "Bob deals" in page.locator("#entry").inner_text()
    page.click("[data-contract='chinese-poker']")
    page.click(".dbl[data-doubler='2'][data-doubled='1']")
    page.click("#doubles-done")
    rows = [
        "AS KS QS JS TS / 9H 8H 7H 6H 5H / 4D 3D 2D",
        "AH KH QH JH TH / 9S 8S 7S 6S 5S / 4C 3C 2C",
        "AD KD QD JD TD / 9C 8C 7C 6C 5C / 4S 3S 2S",
        "AC KC QC JC 5D / 9D 8D 7D 6D TC / 4H 3H 2H",
    ]
    page.locator(".rows-input").first.click()
    for r in rows:
        page.keyboard.type(r)
        page.keyboard.press("Enter")  # on to the next player's rows; after the last, the preview
    page.wait_for_selector("#preview")
    assert "Bob deals" in page.locator("#entry").inner_text()  # still this deal's dealer, not the next one's
    assert "fouled" in page.locator("#preview").inner_text()  # Dan's middle row beats his back row
    page.locator(".rows-input").nth(3).fill(rows[3].replace("AC", "AS"))
    page.locator(".rows-input").nth(3).press("Enter")
    page.wait_for_function("() => document.querySelector('#entry-error').textContent.includes('two players')")
    assert page.locator("#save-deal").count() == 0
    page.locator(".rows-input").nth(3).fill(rows[3])
    page.locator(".rows-input").nth(3).press("Enter")
    save(page, 2)
    keeper.add({"contract": "chinese-poker", "doubles": [[2, 1, False]], "outcome": {"rows": rows}})
    assert sheet_totals(page) == keeper.totals
    # Domino: the players tapped in the order they went out; the one left is shown last.
    page.click("[data-contract='domino']")
    page.locator(".ranks button", has_text="J").click()
    page.click("#doubles-done")
    for seat in (3, 0, 2):
        page.click(f".question[data-key='order'] [data-seat='{seat}']")
    assert page.locator(".order-list li").all_inner_texts() == ["Dan", "Ann", "Cat", "Bob"]
    save(page, 3)
    keeper.add({"contract": "domino", "rank": "J", "doubles": [], "outcome": {"order": [3, 0, 2]}})
    assert sheet_totals(page) == keeper.totals
    # The quick rotation's sheet stays in play order (the running totals read down), each deal naming its dealer.
    sheet = page.locator("#score-sheet")
    assert sheet.locator("tr.deal .no").all_inner_texts() == ["1", "2", "3"]
    assert [sheet.locator(f"tr.deal[data-index='{i}']").inner_text().count(f"{NAMES[i]} deals") for i in range(3)] == [
        1,
        1,
        1,
    ]
    assert "Dan still chooses from: No tricks, No hearts" in sheet.inner_text()
    ticks = page.locator("#chart svg text.tick").all_text_contents()  # the totals' axis, then the deal numbers
    assert "-0" not in ticks and ["-40", "-20", "0", "20", "40"] == ticks[:5], ticks
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "score-phone-chinese-poker", full=True)
    assert not errors, errors


def test_a_played_match_record_imported_on_a_phone(server: Server, person: Callable[..., Page], tmp_path: Path) -> None:
    """A played match's record file (.jsonl) chosen on the import panel becomes a kept game with its totals."""
    from barbu.agents.play import agent_for, play_out
    from barbu.records.barbu import write_record

    m = Match("classic(rotation=quick)", seed=4)
    play_out(m, [agent_for(m, "random", seed=s) for s in range(4)])
    write_record(m, tmp_path / "played.jsonl", {"names": NAMES})
    page, errors = phone(person)
    page.goto(server.base + "/score")
    page.wait_for_selector("#new-names input")
    assert ".jsonl" in (page.locator("#import-file").get_attribute("accept") or "")
    page.set_input_files("#import-file", str(tmp_path / "played.jsonl"))
    page.wait_for_url("**/score/*")
    page.wait_for_selector("#score-sheet tfoot td")
    assert sheet_totals(page) == list(m.totals)
    assert page.locator("#score-sheet tr.deal").count() == 28
    assert not errors, errors


def scottish_to_silly_round() -> tuple[int, list[dict]]:
    """The entries of a Scottish match played (first legal actions, seeded chance) up to the Silly Round."""
    m = Match("scottish", seed=3)
    rng = random.Random(5)
    actions = []
    while not (m.phase_name == "draw" and m.view(0).scottish.state.silly):
        a = m.sample_chance(rng) if m.to_act() == CHANCE else m.legal_actions()[0]
        m.apply(a)
        actions.append(a)
    return entries_from_actions("scottish", actions)


def test_scottish_silly_round(server: Server, person: Callable[..., Page]) -> None:
    """A Scottish game kept up to its Silly Round (imported), then the draw for the dealer and the cuts tapped."""
    first, entries = scottish_to_silly_round()
    keeper = new_keeper("scottish", NAMES, first)
    for e in entries:
        keeper.add(e)
    data = json.dumps({"text": json.dumps(keeper.to_dict()), "format": "json"}).encode()
    req = urllib.request.Request(f"{server.base}/api/score/import", data, {"content-type": "application/json"})
    made = json.loads(urllib.request.urlopen(req).read())
    page, errors = phone(person)
    page.goto(f"{server.base}/score/{made['id']}#key={made['key']}")
    page.wait_for_selector("#entry .step")
    assert "Silly Round" in page.locator("#entry").inner_text()
    page.click("#entry .step >> text=Cat")  # the draw: Cat deals
    for code in ("3S", "4S", "6S"):  # King of hearts + Queens
        page.click(f"[data-cut='{code}']")
    page.wait_for_selector("text=Cut so far: 3♠, 4♠, 6♠")
    shot(page, "score-phone-silly-round")
    page.click("[data-cut='2H']")  # red: no passing
    page.wait_for_selector(".question[data-key='KH']")  # the cuts are settled: the outcome is asked
    assert "King of hearts + Queens" in page.locator("#entry .answered", has_text="from the cuts").inner_text()
    assert "3♠, 4♠, 6♠, 2♥" in page.locator("#entry").inner_text()
    for card, seat in (("KH", 0), ("QH", 1), ("QS", 2), ("QD", 3), ("QC", 0)):
        page.click(f".question[data-key='{card}'] [data-seat='{seat}']")
    page.click(".question[data-key='piranha'] >> text=No")
    save(page, len(entries) + 1)
    keeper.add(
        {
            "dealer": 2,
            "cuts": ["3S", "4S", "6S", "2H"],
            "outcome": {"KH": 0, "QH": 1, "QS": 2, "QD": 3, "QC": 0, "piranha": False},
        }
    )
    assert sheet_totals(page) == [int(t) for t in keeper.totals]
    sheet = page.locator("#score-sheet").inner_text()
    assert "Set 1, Silly Round" in sheet and "Set 1, Player Round 1" in sheet
    glyphs = [g for r in keeper.results for g in r.scottish.glyphs]
    assert glyphs and page.locator("#score-sheet .glyph").count() == len(glyphs)
    shot(page, "score-phone-scottish-sheet", full=True)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    assert not errors, errors
