"""Retake the README's pictures of the terminal game and of the web table, lobby, replay and guided first deal.

    python tools/readme_pictures.py                      # English, into docs/images/
    python tools/readme_pictures.py --lang fr --out /tmp/pics   # the same screens in French, to look at

The web pictures come from a real ``barbu serve`` (a temporary SQLite database, 127.0.0.1, a free port)
driven by Debian's chromium through Playwright; the terminal ones from the Textual app driven by its pilot,
saved as SVG and turned into PNG with ``rsvg-convert``.  The server is started with its table seeds and keys
drawn from a fixed seed, and every move of "our" player is the first legal one (or a fixed choice), so the
pictures are the same from run to run.  Every process started here is stopped by its own id.

Needs the test extras (``pip install -e '.[test]'``), /usr/bin/chromium, rsvg-convert (librsvg2-bin) and Pillow,
which stores each picture as a 256-colour PNG.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "web")]  # the tests' helpers drive the same screens

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from tuikit import act, is_card, new_app, settle  # noqa: E402
from webhelpers import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

from barbu.i18n import use  # noqa: E402
from barbu.tui import BarbuApp  # noqa: E402
from barbu.tui.besigue_session import besigue_settings  # noqa: E402
from barbu.tui.besigue_table import BesigueTableScreen  # noqa: E402

SEED = 7
DESKTOP, PHONE = (1366, 768), (390, 844)
STEP = 60_000  # ms a page may take to answer on a loaded machine
NAMES = ["Anna", "Bernard", "Carla", "Dario"]  # the players of the replayed record

# `barbu serve` with the seeds and keys of its tables drawn from SEED instead of `secrets`: the same deals
# and the same computer players' choices every run.  Credentials stay random.
SEEDED_SERVE = f"""
import random, secrets, sys
import barbu.web.tables.lobby as lobby
rng = random.Random({SEED})
class Seeded:
    token_urlsafe = staticmethod(secrets.token_urlsafe)
    randbelow = staticmethod(rng.randrange)
lobby.secrets = Seeded
lobby.new_secret = lambda: rng.randbytes(32)
from barbu.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


class SeededServer(Server):
    """`webhelpers.Server`, its process started through `SEEDED_SERVE`."""

    def start(self, timeout: float = 60) -> "SeededServer":
        import webhelpers

        real = webhelpers.subprocess.Popen

        def popen(cmd: list[str], *args: Any, **kw: Any) -> subprocess.Popen:
            assert cmd[1:3] == ["-m", "barbu"]
            return real([cmd[0], "-c", SEEDED_SERVE, *cmd[3:]], *args, **kw)

        webhelpers.subprocess.Popen = popen  # type: ignore[assignment]
        try:
            super().start(timeout)
        finally:
            webhelpers.subprocess.Popen = real  # type: ignore[assignment]
        return self


# --- the web --------------------------------------------------------------------------------------------


def open_page(browser: Browser, url: str, size: tuple[int, int], lang: str) -> Page:
    """A page of its own (its own storage, like another person), in ``lang``, with no motion."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=lang, reduced_motion="reduce")
    ctx.add_init_script("localStorage.getItem('barbu:name') || localStorage.setItem('barbu:name', 'Anna')")
    page = ctx.new_page()
    page.set_default_timeout(STEP)
    page.goto(url)
    return page


def table_data(page: Page, key: str) -> str:
    return page.eval_on_selector("main", f"m => m.dataset.{key} || ''")


def play_to_mid_trick(page: Page, deal: int, held: int) -> None:
    """Play our seat's first legal card or first choice (doubling as much as allowed) until, in ``deal``, it
    is our turn with at most ``held`` cards in hand and two or more cards on the felt."""
    while True:
        page.wait_for_selector("#hand .card[data-legal='1'], #decision button[data-action]:not([disabled])")
        cards = page.eval_on_selector_all("#hand .card[data-legal='1']", "cs => cs.map(c => c.dataset.card)")
        in_hand = page.locator("#hand .card").count()
        on_felt = page.locator("#center .trick-card").count()
        if cards and int(table_data(page, "deal") or 0) >= deal and in_hand <= held and on_felt >= 2:
            return
        version = table_data(page, "version")
        if cards:
            page.locator(f"#hand .card[data-card='{cards[0]}']").click()
        else:
            buttons = page.eval_on_selector_all(
                "#decision button[data-action]:not([disabled])", "bs => bs.map(b => b.dataset.action)"
            )
            choice = buttons[-1] if table_data(page, "phase") == "doubling" else buttons[0]
            page.locator(f"#decision button[data-action='{choice}']").click()
        page.wait_for_function("v => document.querySelector('main').dataset.version !== v", arg=version)


def web_table(browser: Browser, base: str, size: tuple[int, int], lang: str, deal: int, held: int) -> Page:
    """A match against the computer started from the lobby's button, played to the middle of a trick."""
    page = open_page(browser, base + "/", size, lang)
    page.click("#play-computer")
    page.wait_for_url("**/t/*")
    play_to_mid_trick(page, deal, held)
    page.mouse.move(0, 0)  # no hover lighting a card
    page.evaluate("window.scrollTo(0, 0)")  # a phone shows the felt from its top, the hand below
    return page


def web_lobby(page: Page, base: str) -> None:
    """The lobby in the same browser as a match in progress (so "My tables" lists it), one open table."""
    page.goto(base + "/")
    page.wait_for_selector("#mine .mine-row, #mine a, #mine li")
    page.wait_for_selector("#tables a, #tables button, #tables tr")


def open_table(base: str) -> None:
    """A table waiting for players, for the lobby's list: one person and one computer player seated."""
    from webhelpers import new_table

    new_table(base, "classic", seats={0: "Bernard"}, bots={1: "rule"})


def web_learn(browser: Browser, base: str, size: tuple[int, int], lang: str) -> Page:
    """The guided first deal, a few cards into its first lesson, its advice beside the felt."""
    from barbu.guide.lesson import KEYS, replay

    page = open_page(browser, base + "/learn", size, lang)
    ready = (
        "() => { const t = document.querySelector('#table'); return t.dataset.busy === '0' && t.dataset.phase !== ''; }"
    )
    page.wait_for_function(ready)
    actions: list[str] = []
    for _ in range(2):
        expected = str(replay(KEYS[0], actions).expected[0])
        step = page.eval_on_selector("#table", "t => t.dataset.step")
        page.click(f"#hand [data-card='{expected}']" if len(expected) == 2 else f"#decision [data-action='{expected}']")
        actions.append(expected)
        page.wait_for_function(f"() => document.querySelector('#table').dataset.step !== '{step}'")
        page.wait_for_function(ready)
    page.mouse.move(0, 0)
    return page


def web_replay(browser: Browser, base: str, size: tuple[int, int], lang: str, folder: Path) -> Page:
    """A seeded selfplay record, its players named, uploaded from the lobby and stepped into deal 2."""
    record = folder / "selfplay.jsonl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "barbu",
            "selfplay",
            "--bots",
            "rule,rule,rule,rule",
            "--seed",
            str(SEED),
            "--out",
            str(record),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    lines = record.read_text().splitlines()
    header = json.loads(lines[0])
    header["players_names"] = NAMES
    record.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    page = open_page(browser, base + "/", size, lang)
    page.click("#replay-link")
    page.wait_for_selector("#upload:not([hidden])")
    page.set_input_files("#record-file", str(record))
    page.wait_for_url("**/replay/u*")
    page.wait_for_function("() => document.querySelector('#replay').dataset.step === '0'")
    page.click("#next-deal")
    page.wait_for_function("() => document.querySelector('#replay').dataset.deal === '2'")
    for _ in range(30):  # to the middle of a trick, one move at a time as a reader steps
        step = page.eval_on_selector("#replay", "r => r.dataset.step")
        page.click("#next")
        page.wait_for_function(f"() => document.querySelector('#replay').dataset.step !== '{step}'")
    page.wait_for_function("() => document.querySelector('#move').dataset.state === 'done'", timeout=600_000)
    page.mouse.move(0, 0)
    return page


def rules_page(browser: Browser, base: str, size: tuple[int, int], lang: str) -> Page:
    return open_page(browser, base + "/rules/classic", size, lang)


def shoot(page: Page, path: Path) -> None:
    page.screenshot(path=str(path))
    shrink(path)
    print(path)


def shrink(png: Path) -> None:
    """The picture as a 256-colour PNG: a quarter to a third of its size, the same to the eye (docs/images stays
    small in every clone)."""
    from PIL import Image

    with Image.open(png) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    small.save(png, optimize=True)


def web_pictures(out: Path, lang: str, readme: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = SeededServer(
            f"sqlite:///{folder / 'web.db'}",
            folder / "server.log",
            "--bot-delay",
            "0",
            "--deal-pause",
            "0",
            "--tables-per-hour",
            "0",
            "--bot-tables-per-address",
            "0",
            "--open-tables-per-address",
            "0",
            "--analysis-samples",
            "20",
        )
        with server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                suffix = "" if readme else f"-{lang}"
                table = web_table(browser, server.base, DESKTOP, lang, deal=3, held=9)
                shoot(table, out / f"web-table-1366x768{suffix}.png")
                open_table(server.base)
                web_lobby(table, server.base)
                shoot(table, out / (f"web-lobby{suffix}.png"))
                phone = web_table(browser, server.base, PHONE, lang, deal=2, held=8)
                shoot(phone, out / f"web-table-phone{suffix}.png")
                shoot(web_learn(browser, server.base, DESKTOP, lang), out / f"web-learn-1366x768{suffix}.png")
                if readme:
                    shoot(web_replay(browser, server.base, DESKTOP, lang, folder), out / "web-replay-1366x768.png")
                else:
                    web_lobby(phone, server.base)
                    shoot(phone, out / f"web-lobby-phone{suffix}.png")
                    shoot(web_learn(browser, server.base, PHONE, lang), out / f"web-learn-phone{suffix}.png")
                    shoot(rules_page(browser, server.base, DESKTOP, lang), out / f"web-rules-1366x768{suffix}.png")
                    shoot(rules_page(browser, server.base, PHONE, lang), out / f"web-rules-phone{suffix}.png")
            finally:
                browser.close()


# --- the terminal ---------------------------------------------------------------------------------------


def svg_to_png(svg: Path, png: Path) -> None:
    subprocess.run(["rsvg-convert", "-o", str(png), str(svg)], check=True)
    shrink(png)
    svg.unlink()
    print(png)


async def terminal_classic(out: Path, name: str, size: tuple[int, int], folder: Path) -> None:
    """A classic match against three good players, the person playing his first legal card (No queens when he
    declares, doubling as much as allowed), shown in deal 2 in the middle of a trick."""
    app = new_app(folder, "classic", seed=SEED, seat=0)
    async with app.run_test(size=size) as pilot:
        while True:
            table = await settle(pilot)
            v = table.session.view()
            if table.paused:
                await pilot.press("enter")
                continue
            cards = [a for a in v.legal if is_card(a)]
            if cards and len(v.trick) >= 2 and bin(v.hand).count("1") <= 12 and v.deal_number >= 2:
                break
            if cards:
                action = cards[0]
            elif v.phase == "declare":
                action = next((a for a in v.legal if getattr(a, "contract", "") == "no-queens"), v.legal[0])
            else:
                action = v.legal[-1] if v.phase == "doubling" else v.legal[0]
            await act(pilot, table, action, typed=False)
            await pilot.pause()
        app.save_screenshot(filename=f"{name}.svg", path=str(folder))
    svg_to_png(folder / f"{name}.svg", out / f"{name}.png")


async def terminal_besigue(out: Path, name: str, folder: Path) -> None:
    """Bésigue against the good player, a few tricks in, the person to play."""
    app = BarbuApp(besigue_settings("besigue", 0, "rule", SEED, 0, folder / "b.jsonl", False), setup=False)
    async with app.run_test(size=(140, 45)) as pilot:
        turns = 0
        while True:
            await pilot.pause()
            screen = app.screen
            if not (isinstance(screen, BesigueTableScreen) and screen.waiting_for_human):
                continue
            game = screen.session.game
            if turns >= 40 or (turns >= 6 and game.phase == "play" and game.table[1] and game.trick):
                break  # the computer's melds laid, his card led: something on every part of the table
            await pilot.press("enter")
            turns += 1
        app.save_screenshot(filename=f"{name}.svg", path=str(folder))
    svg_to_png(folder / f"{name}.svg", out / f"{name}.png")


def terminal_pictures(out: Path, lang: str, readme: bool) -> None:
    use(lang)
    suffix = "" if readme else f"-{lang}"
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        asyncio.run(terminal_classic(out, f"terminal-80x24{suffix}", (80, 24), folder))
        if readme:
            asyncio.run(terminal_classic(out, "terminal-140x45", (140, 45), folder))
            asyncio.run(terminal_besigue(out, "terminal-besigue", folder))
    use("en")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument(
        "--lang",
        default="en",
        choices=["en", "fr", "it"],
        help="English retakes the README's pictures; French or Italian takes the same screens "
        "(and the rules page, the lobby and the lesson on a phone) to look at",
    )
    parser.add_argument("--only", choices=["web", "terminal"])
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    readme = args.lang == "en"
    if args.only != "web":
        terminal_pictures(args.out, args.lang, readme)
    if args.only != "terminal":
        web_pictures(args.out, args.lang, readme)


if __name__ == "__main__":
    main()
