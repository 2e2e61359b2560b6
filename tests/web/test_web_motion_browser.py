"""Cards that move on the web tables: a card played flies from the hand (yours) or from its player's seat to
the trick, a finished trick gathers to its winner, the "Animations" box turns it off (and is remembered),
the browser's reduced-motion preference turns it off by default, and a whole deal plays through at full
speed with no card lost or stuck.  Playwright drives Debian's chromium against a real `barbu serve`.

To look at a move, the tests freeze the page's animation clock (Chrome's DevTools protocol) and seek the
animations by hand: what is checked is where a card is at a given point of its move, never how long it took.
The page's WebSocket passes through the test (`Gate`), which holds the server's next messages while a move is
looked at: the next state (a computer player's card) cannot cut the move short under the test's eyes, however
slow the machine.  The Barbu tables play a trick-taking contract (never Domino, whose cards go to rows, not to
a trick), all thirteen tricks, without doubling.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import pytest
from playwright.sync_api import Page, WebSocketRoute
from webhelpers import Server, new_table
from webhelpers import shot as take_shot

pytestmark = pytest.mark.browser
SIZES = [(1366, 768), (390, 844)]
STEP = 60_000  # ms a step may take on a loaded machine (the server slows its computer players when busy)
# Every deal played through, no doubling: a deal's cards all go to tricks.
CLASSIC = "classic(doubling=none, undoubled_negative=play, stop_when_decided=false)"
TWIN_TURNS = 6  # cards played at most in Bésigue to find two of a card in the hand
TABLES = 8  # tables tried for a trick-taking contract (a computer dealer picks Domino one time in seven)


# `server`: computer players that move at once, as `fast`'s; a frozen move is looked at before the next because the
# `Gate` holds the server's later messages (a wait of 1.5 s a move before it, 6 to 10 s a test).
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


@pytest.fixture(scope="module")
def fast(serve_module: Any) -> Server:
    """Computer players that move at once: the page gets a new state in the middle of every move."""
    return serve_module(
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
        name="motion-fast",
    )


State = dict[str, Any]


class Gate:
    """The page's WebSocket, passed through the test.  `hold_after(wanted)` lets the server's messages through up
    to the first state `wanted` accepts and holds every later one until `release()`: the page rests on that state."""

    def __init__(self, page: Page) -> None:
        self.wanted: Callable[[State], Any] | None = None
        self.holding = False
        self.held: list[tuple[WebSocketRoute, str | bytes]] = []
        page.route_web_socket(re.compile(r"/ws/"), self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(lambda m: self.deliver(ws, m))

    def deliver(self, ws: WebSocketRoute, message: str | bytes) -> None:
        if self.holding:
            self.held.append((ws, message))
            return
        ws.send(message)
        try:
            state = json.loads(message).get("state")
        except (ValueError, AttributeError):
            state = None
        if self.wanted and isinstance(state, dict) and self.wanted(state):
            self.wanted, self.holding = None, True

    def hold_after(self, wanted: Callable[[State], Any]) -> None:
        self.wanted = wanted

    def release(self, then: Callable[[State], Any] | None = None) -> None:
        """Let the held messages through (holding again after the first state `then` accepts, if given)."""
        self.wanted, self.holding = then, False
        held, self.held = self.held, []
        for ws, message in held:
            self.deliver(ws, message)


def newer(version: str | None) -> Callable[[State], bool]:
    """The first state after the one the page shows (version `version`): the move just made."""
    return lambda s: s.get("version", -1) > int(version or -1)


def seat_me(
    person: Callable[..., Page], base: str, size: tuple[int, int], rules: str = "classic", reduced: bool = False
) -> Page:
    """Seat 0 taken in the browser against computer players who play at random; at a Barbu table, until a
    trick-taking contract is being played (another table when the computer dealer chose Domino)."""
    for _ in range(TABLES):
        page = open_seat(person, base, size, rules, reduced)
        if rules == "besigue" or until_phase(page, ("play", "domino")) == "play":
            return page
        page.context.close()
    raise AssertionError(f"Domino at {TABLES} tables in a row")


def open_seat(person: Callable[..., Page], base: str, size: tuple[int, int], rules: str, reduced: bool) -> Page:
    others = {1: "random"} if rules == "besigue" else {1: "random", 2: "random", 3: "random"}
    tid, _ = new_table(base, CLASSIC if rules == "classic" else rules, bots=others)
    page = person(size, timeout=STEP, reduced_motion="reduce" if reduced else "no-preference")
    page.gate = Gate(page)  # type: ignore[attr-defined]
    page.goto(f"{base}/t/{tid}")
    page.fill("#name", "Ada")
    page.click("[data-seat-take='0']")
    root = root_of(page)
    page.wait_for_function(f"() => document.querySelector('{root}').dataset.seat === '0'")
    return page


def until_phase(page: Page, phases: tuple[str, ...]) -> str:
    """Act at this seat's decisions (never choosing Domino) until the table is in one of `phases`: that one."""
    root = root_of(page)
    for _ in range(40):
        page.wait_for_function(f"""() => {json.dumps(phases)}.includes(document.querySelector('{root}').dataset.phase)
            || ({my_turn_js(root)})()""")
        phase = page.get_attribute(root, "data-phase")
        if phase in phases:
            return phase
        act(page)
    raise AssertionError(f"never in {phases}")


def root_of(page: Page) -> str:
    return "#bz" if page.query_selector("#bz") else "#table"


def freeze(page: Page) -> None:
    """Stop the page's animation clock: every move started stays at its first frame until seeked."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0})
    page.cdp = cdp  # type: ignore[attr-defined]


def my_turn_js(root: str) -> str:
    return (
        f"() => {{ const t = document.querySelector('{root}');"
        " return (t.dataset.toAct === t.dataset.seat && document.querySelector("
        "'#hand .card.legal, #decision button[data-action]:not([disabled]), #bz-hand button.card.legal,"
        " #laid-bottom button.card.legal, #bz-decision button:not([disabled])')) || t.dataset.phase === 'over'; }"
    )


def wait_my_turn(page: Page, root: str) -> None:
    try:
        page.wait_for_function(my_turn_js(root))
    except Exception as e:  # say what the table showed
        raise AssertionError(
            f"not my turn: {page.inner_text('#turn, #bz-turn')!r} "
            f"{page.inner_text('#decision, #bz-decision')!r} {page.get_attribute(root, 'data-phase')}"
        ) from e


def act(page: Page) -> str:
    """Take one decision when it is this seat's turn (a legal card, else the first choice, Domino only when it is
    the only one left); the phase acted in."""
    root = root_of(page)
    wait_my_turn(page, root)
    phase = page.get_attribute(root, "data-phase")
    if phase == "over":
        return phase
    version = page.get_attribute(root, "data-version")
    cards = page.locator("#hand .card[data-legal='1'], #bz-hand button.card.legal, #laid-bottom button.card.legal")
    if cards.count():
        tap(page, cards.first)
    else:
        none = page.locator("#bz-decision button.bz-none")
        choices = page.locator(
            "#decision button[data-action]:not([disabled]):not([data-action='contract domino']),"
            " #bz-decision button:not([disabled])"
        )
        tap(
            page,
            none
            if none.count()
            else choices.first
            if choices.count()
            else page.locator("#decision button[data-action]:not([disabled])").first,
        )
    page.wait_for_function(f"v => document.querySelector('{root}').dataset.version !== v", arg=version)
    return phase


def tap(page: Page, target) -> None:
    """A click where the element is on screen, as a finger would (no scrolling by the test)."""
    box = target.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def until_my_card(page: Page) -> None:
    """Act until this seat is to play a card."""
    root = root_of(page)
    for _ in range(60):
        wait_my_turn(page, root)
        if page.locator(
            "#hand .card[data-legal='1'], #bz-hand button.card.legal, #laid-bottom button.card.legal"
        ).count():
            return
        act(page)
    raise AssertionError("never asked for a card")


def act_until(page: Page, predicate: str, acts: int = 40):
    """Act at this seat's turns until `predicate` (a JavaScript expression, run in the page) gives something: that."""
    root = root_of(page)
    for _ in range(acts):
        got = page.wait_for_function(f"""() => {{ const found = {predicate};
            return found ? {{found}} : ({my_turn_js(root)})() ? {{mine: true}} : null; }}""").json_value()
        if "found" in got:
            return got["found"]
        if act(page) == "over":
            break
    raise AssertionError(f"never seen: {predicate}")


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def near(a: tuple[float, float], b: tuple[float, float], tolerance: float = 4) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def in_hand(ghost: tuple[float, float], card: tuple[float, float], size: dict) -> bool:
    """A ghost starting where the card lay in the hand: the same column, within a line of cards."""
    return abs(ghost[0] - card[0]) <= 4 and abs(ghost[1] - card[1]) <= size["height"] * 0.75


# In the page: the flights under way, each with where its ghost is now (frozen at the start of its move).
FLIGHTS = """() => {
  const rect = (e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const moving = [...document.querySelectorAll('[data-moving~="in"]')];
  if (!moving.length) return null;
  return moving.map((piece) => {
    const card = piece.dataset.card || piece.querySelector('[data-card]').dataset.card;
    const ghost = [...document.querySelectorAll('#motion-layer .motion-ghost:not(.motion-gather)')]
      .find((g) => (g.dataset.card || (g.querySelector('[data-card]') || {}).dataset?.card) === card);
    return {card, by: piece.dataset.by || null, animations: piece.getAnimations().length,
            visibility: getComputedStyle(piece).visibility, ghost: ghost ? rect(ghost) : null, rest: rect(piece)};
  });
}"""


# The cards' moves: the animations motion.js makes (the Web Animations API), not the page's CSS transitions and
# animations (a hand card's .08s lift, a seat's pulsing clock).
MOVES = "document.getAnimations().filter((a) => a.constructor === Animation)"


def seek(page: Page, ms: float) -> None:
    """Every move of the page to `ms` from its start (paused there)."""
    page.evaluate(f"ms => {MOVES}.forEach((a) => {{ a.pause(); a.currentTime = ms; }})", ms)


def finish(page: Page) -> None:
    """Every move of the page played to its end."""
    page.evaluate(f"() => {MOVES}.forEach((a) => a.finish())")


def shot(page: Page, name: str) -> None:
    take_shot(page, f"motion-{name}")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_card_played_flies_from_the_hand_to_the_trick(
    server: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = seat_me(person, server.base, size)
    assert page.is_checked("#motion-toggle")  # on by default
    freeze(page)
    until_my_card(page)
    card = page.locator("#hand .card[data-legal='1']").first
    played = card.get_attribute("data-card")
    was = centre(card.bounding_box())
    page.gate.hold_after(newer(page.get_attribute("#table", "data-version")))  # type: ignore[attr-defined]
    tap(page, card)
    flights = page.wait_for_function(
        FLIGHTS.replace("if (!moving.length)", f"if (!moving.some((p) => p.querySelector('[data-card=\"{played}\"]')))")
    ).json_value()
    mine = next(f for f in flights if f["card"] == played)
    assert mine["by"] == "0" and mine["animations"] >= 1 and mine["visibility"] == "hidden", mine
    # The move starts at the card's place in the hand (the hand may have risen a line meanwhile: the turn's
    # clock line leaves once the card is sent).
    assert mine["ghost"] and in_hand(centre(mine["ghost"]), was, mine["ghost"]), (mine, was)
    seek(page, 115)  # half-way: between the hand and the trick
    half = page.evaluate(FLIGHTS)
    mid = next(f for f in half if f["card"] == played)
    assert not near(centre(mid["ghost"]), was) and not near(centre(mid["ghost"]), centre(mid["rest"])), mid
    shot(page, "hand")
    finish(
        page
    )  # and at the end it lies in its place, the card itself shown again (gone with the trick if it ended it)
    end = page.wait_for_function(
        """c => { const p = document.querySelector(`#center .trick-card [data-card="${c}"]`).closest('.trick-card');
        return !p.dataset.moving && !document.querySelector(`#motion-layer .motion-ghost [data-card="${c}"]`)
          && [getComputedStyle(p).visibility, p.parentElement.classList.contains('faded')]; }""",
        arg=played,
    ).json_value()
    assert end == ["hidden", True] or end == ["visible", False], end
    assert int(page.get_attribute("#motion-layer", "data-flights")) >= 1
    page.gate.release()  # type: ignore[attr-defined]
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_another_players_card_flies_from_his_seat_and_the_trick_gathers_to_its_winner(
    server: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = seat_me(person, server.base, size)
    freeze(page)
    # A computer player's card: it starts on his seat's box.
    until_my_card(page)
    gate: Gate = page.gate  # type: ignore[attr-defined]
    gate.hold_after(lambda s: s.get("trick") and (s["leader"] + len(s["trick"]) - 1) % 4 != 0)
    act(page)
    flights = act_until(
        page,
        "("
        + FLIGHTS.replace(
            "if (!moving.length) return null;",
            "if (!moving.some((p) => p.dataset.by && p.dataset.by !== '0')) return null;",
        )
        + ")()",
    )
    other = next(f for f in flights if f["by"] != "0")
    seat_box = page.locator(f"[data-seat-box='{other['by']}']").bounding_box()
    assert other["ghost"] and near(centre(other["ghost"]), centre(seat_box)), (other, seat_box)
    seek(page, 115)
    shot(page, "seat")
    # A finished trick: its cards are gathered and slide to the winner's seat.
    gate.release(then=lambda s: not s.get("trick") and s.get("last_trick"))
    gathered = act_until(
        page,
        """(() => {
        const spot = document.querySelector('#center .trick.faded');
        const pieces = spot ? [...spot.querySelectorAll('.trick-card')] : [];
        if (!pieces.length || !pieces.every((p) => (p.dataset.moving || '').includes('gather'))) return null;
        return {cards: spot.dataset.trick, pieces: pieces.length,
                ghosts: document.querySelectorAll('#motion-layer .motion-ghost').length,
                animated: pieces.every((p) => p.getAnimations().length > 0)};
    })()""",
    )
    assert gathered["pieces"] == 4 and gathered["animated"] and gathered["ghosts"] >= 4, gathered
    winner = page.evaluate("""() => {
        const li = document.querySelector('#last-trick p.muted'); return li ? li.textContent : ''; }""")
    assert winner  # "won by …": the side panel names the winner
    seek(page, 789)  # at the end: the trick's ghosts are on the winner's seat
    ends = page.evaluate("""() => [...document.querySelectorAll('#motion-layer .motion-ghost')]
        .filter((g) => g.classList.contains('trick-card')).slice(-4)
        .map((g) => { const r = g.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""")
    boxes = [centre(b.bounding_box()) for b in page.locator(".seat-box").all()]
    won_by = min(boxes, key=lambda b: sum(abs(b[0] - e[0]) + abs(b[1] - e[1]) for e in ends))
    assert all(near(tuple(e), won_by, 8) for e in ends), (ends, won_by)
    seek(page, 550)
    shot(page, "gather")
    finish(page)  # once gathered, the trick is the winner's: no longer on the felt, and no ghost of it left
    page.wait_for_function("""() => !document.querySelector('#motion-layer .motion-ghost')
        && [...document.querySelectorAll('#center .trick.faded .trick-card')].every((p) => getComputedStyle(p).visibility === 'hidden')""")
    gate.release()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_besigue_cards_fly_and_the_trick_gathers(
    server: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = seat_me(person, server.base, size, rules="besigue")
    assert page.is_checked("#motion-toggle")
    freeze(page)
    # Two packs: the hand may hold two of a card; the one tapped is the one that flies.  The test taps the first
    # copy of a doubled card (motion.js once flew the last copy, whichever was tapped), playing a few cards to
    # find one (a plain card when none comes).
    legal = page.locator("#bz-hand button.card.legal")
    for turn in range(TWIN_TURNS):
        until_my_card(page)
        texts = [c.get_attribute("data-card") for c in legal.all()]
        twins = [i for i, c in enumerate(texts) if texts.count(c) > 1]
        if twins or turn == TWIN_TURNS - 1:
            break
        act(page)
    card = legal.nth(twins[0] if twins else 0)
    played = card.get_attribute("data-card")
    was = centre(card.bounding_box())
    gate: Gate = page.gate  # type: ignore[attr-defined]
    gate.hold_after(newer(page.get_attribute("#bz", "data-version")))
    tap(page, card)
    # Mine, from the bottom (the opponent may have led the same card, its move frozen).
    flights = page.wait_for_function(
        FLIGHTS.replace(
            "if (!moving.length)",
            f"if (!moving.some((p) => p.dataset.card === '{played}' && p.classList.contains('from-bottom')))",
        )
    ).json_value()
    mine = next(f for f in flights if f["card"] == played)
    assert (
        mine["animations"] >= 1
        and mine["visibility"] == "hidden"
        and in_hand(centre(mine["ghost"]), was, mine["ghost"])
    ), (mine, was, twins)
    seek(page, 115)
    shot(page, "besigue-hand")
    # Whoever completes the trick, its two cards are gathered to the winner's side (at once if this card did).
    gathering = """(() => {
        const pieces = [...document.querySelectorAll('#trick .card')];
        if (pieces.length !== 2 || !pieces.every((p) => (p.dataset.moving || '').includes('gather'))) return null;
        return {ghosts: document.querySelectorAll('#motion-layer .motion-ghost').length,
                animated: pieces.every((p) => p.getAnimations().length > 0)};
    })()"""
    gathered = page.evaluate(gathering)
    if not gathered:
        gate.release(then=lambda s: not s.get("trick") and s.get("last_trick"))
        gathered = act_until(page, gathering)
    assert gathered["animated"] and gathered["ghosts"] >= 2, gathered
    seek(page, 550)
    shot(page, "besigue-gather")
    finish(page)
    page.wait_for_function("""() => !document.querySelector('#motion-layer .motion-gather')
        && [...document.querySelectorAll('#trick .card')].every((c) => getComputedStyle(c).visibility === 'hidden')""")
    gate.release()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def play_some(page: Page, cards: int) -> None:
    """Act until `cards` cards of this seat have been played."""
    played = 0
    while played < cards:
        if act(page) in ("play", "domino") or root_of(page) == "#bz":
            played += 1


def moves(page: Page) -> tuple[int, int]:
    got = page.evaluate("""() => { const l = document.querySelector('#motion-layer');
        return l ? [Number(l.dataset.flights), Number(l.dataset.gathers)] : [0, 0]; }""")
    return got[0], got[1]


@pytest.mark.parametrize("rules", ["classic", "besigue"])
def test_the_animations_box_turns_the_moves_off_and_is_remembered(
    fast: Server, person: Callable[..., Page], rules: str
) -> None:
    page = seat_me(person, fast.base, (1366, 768), rules=rules)
    page.uncheck("#motion-toggle")
    assert page.evaluate("localStorage.getItem('barbu:motion')") == "off"
    before = moves(page)  # a computer player's first card may have moved before the box was unchecked
    play_some(page, 6)
    assert moves(page) == before
    assert not page.query_selector("[data-moving], #motion-layer .motion-ghost")
    page.reload()
    page.wait_for_selector("#motion-toggle")
    assert not page.is_checked("#motion-toggle")
    play_some(page, 2)
    assert moves(page) == (0, 0)
    page.check("#motion-toggle")  # and on again: the next cards move
    play_some(page, 3)
    assert moves(page)[0] >= 1, moves(page)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reduced_motion_turns_the_moves_off_by_default(
    fast: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    page = seat_me(person, fast.base, size, reduced=True)
    assert not page.is_checked("#motion-toggle")
    play_some(page, 6)
    assert moves(page) == (0, 0)
    # no card moves (a hand card's lift and a seat's pulsing clock are CSS, not moves: they do not count)
    assert page.evaluate(f"{MOVES}.length") == 0
    assert not page.query_selector("[data-moving], #motion-layer .motion-ghost")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_whole_deal_plays_through_at_full_speed_with_moves_on(
    fast: Server, person: Callable[..., Page], size: tuple[int, int]
) -> None:
    """Computer players that answer at once cut every move short: no card is lost on the way or stuck hidden."""
    page = seat_me(person, fast.base, size)
    assert page.is_checked("#motion-toggle")
    for _ in range(200):
        deal = page.get_attribute("#table", "data-deal")
        if deal and deal != "1":
            break
        act(page)
        # Once the table rests (no ghost flying, no card waiting for one: seen in one look, so that the next
        # state cannot come in between), every card of the trick in play is shown.
        shown = page.wait_for_function("""() => { if (document.querySelector('#motion-layer .motion-ghost, [data-moving]')) return null;
            const spot = document.querySelector('#center .trick');
            if (!spot || spot.classList.contains('faded')) return {resting: true};
            return {cards: spot.dataset.trick.split(' ').filter(Boolean).length,
                    pieces: [...spot.querySelectorAll('.trick-card')].filter((p) => getComputedStyle(p).visibility === 'visible').length}; }""").json_value()
        if "cards" in shown:
            assert shown["pieces"] == shown["cards"], shown
    assert page.get_attribute("#table", "data-deal") == "2"
    flights, gathers = moves(page)
    assert flights >= 13 and gathers >= 1, (flights, gathers)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
