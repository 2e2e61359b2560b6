"""`barbu score` in the terminal, driven by Textual's pilot: a new game, a deal with a double and a
redouble, a refusal that keeps the form, a correction, a deletion and an undo, at 80x24 and larger."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input, OptionList
from tuikit import screen_text

from barbu.scorekeeper import new_keeper
from barbu.tui.score_app import BooksScreen, GameScreen, NewGameScreen, ScoreApp
from barbu.tui.score_entry import DealScreen, OutcomeForm
from barbu.tui.score_store import KeyRing, ScoreStore
from barbu.tui.score_widgets import DoublesGrid, Picker
from barbu.web.scorebooks.store import Scorebooks

pytestmark = pytest.mark.asyncio
SIZES = [(80, 24), (140, 45)]
NAMES = ["Ann", "Bob", "Cy", "Di"]


def store_at(tmp_path) -> ScoreStore:
    return ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))


async def wait_for(pilot, kind, limit: int = 200):
    for _ in range(limit):
        await pilot.pause()
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
    raise AssertionError(f"never reached {kind.__name__}: on {type(pilot.app.screen).__name__}")


async def choose(pilot, key: str) -> None:
    """Pick the option ``key`` in the step's list by moving the cursor to it and pressing Enter."""
    ol = pilot.app.screen.query_one("#choices", OptionList)
    index = next(i for i in range(ol.option_count) if ol.get_option_at_index(i).id == key)
    ol.focus()
    ol.highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def ask(pilot) -> str:
    await pilot.pause()
    await pilot.pause()
    return pilot.app.screen.need.ask


async def type_counts(pilot, qi: int, values) -> None:
    for s, v in enumerate(values):
        box = pilot.app.screen.query_one(f"#q{qi}-{s}", Input)
        box.focus()
        box.value = str(v)
    await pilot.pause()


def game_with(tmp_path, rules="classic"):
    store = store_at(tmp_path)
    keeper = new_keeper(rules, NAMES, 0)
    book = store.create(keeper, "Friday")
    return store, book


@pytest.mark.parametrize("size", SIZES)
async def test_a_new_game_then_a_deal_with_a_double_and_a_redouble(tmp_path, size):
    store = store_at(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, BooksScreen)
        assert "No kept game yet" in screen_text(app)
        await pilot.press("n")
        screen = await wait_for(pilot, NewGameScreen)
        screen.query_one("#title", Input).value = "Friday"
        for s, name in enumerate(NAMES):
            screen.query_one(f"#name-{s}", Input).value = name
        await pilot.pause()
        await pilot.press("ctrl+s")
        game = await wait_for(pilot, GameScreen)
        assert "Friday" in screen_text(app)
        await pilot.press("a")
        deal = await wait_for(pilot, DealScreen)
        assert await ask(pilot) == "contract"
        await choose(pilot, "no-hearts")
        assert await ask(pilot) == "doubles"
        grid = deal.query_one(DoublesGrid)
        # Bob doubles Ann, who redoubles; Cy doubles Di.
        grid.focus()
        await pilot.pause()
        grid.action_cell(0, 0)
        grid.action_cell(0, 0)
        grid.action_cell(1, 3)
        assert grid.value() == [[1, 0, True], [2, 3, False]]
        await pilot.press("enter")
        assert await ask(pilot) == "outcome"
        await type_counts(pilot, 0, [3, 5, 0, 5])
        assert "13 of 13" in screen_text(app)
        deal.query_one("#q1-0", Picker).focus()
        await pilot.press("2")  # Bob took the A♥: chosen by its number, the form goes on to the preview
        assert await ask(pilot) == "done"
        text = screen_text(app)
        assert "running total" in text and "-30" in text
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        assert game.keeper.totals == [10, -30, 10, -20]
        text = screen_text(app)
        assert "B⇄A" in text and "C→D" in text
    # saved in the database at once
    books = store.list()
    assert len(books) == 1 and books[0].version == 2 and len(books[0].data["entries"]) == 1


@pytest.mark.parametrize("size", SIZES)
async def test_tricks_not_adding_up_are_refused_and_the_form_kept(tmp_path, size):
    store, _ = game_with(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.press("a")
        deal = await wait_for(pilot, DealScreen)
        await choose(pilot, "trumps")
        assert await ask(pilot) == "trump"
        await choose(pilot, "S")
        assert await ask(pilot) == "doubles"
        await pilot.press("enter")
        assert await ask(pilot) == "outcome"
        await type_counts(pilot, 0, [3, 3, 3, 3])
        assert "12 of 13" in screen_text(app)
        await pilot.press("ctrl+s")
        assert await ask(pilot) == "outcome"
        assert "add up to 12, not 13" in screen_text(app)
        assert deal.query_one("#q0-0", Input).value == "3"  # nothing lost
        deal.query_one("#q0-3", Input).value = "4"
        await pilot.press("ctrl+s")
        assert await ask(pilot) == "done"
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        assert len(game.keeper.results) == 1
        assert game.keeper.totals[3] == 20  # 4 tricks of trumps at +5


@pytest.mark.parametrize("size", SIZES)
async def test_a_correction_a_deletion_and_undo(tmp_path, size):
    store, book = game_with(tmp_path)
    _, keeper = store.open(book.id)
    keeper.add({"contract": "no-king", "doubles": [[1, 0]], "outcome": {"KH": 2}})
    keeper.add({"contract": "no-queens", "doubles": [[3, 0]], "outcome": {"QS": 1, "QH": 1, "QD": 2, "QC": 3}})
    book = store.save(book, keeper)
    app = ScoreApp(store)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        before = list(game.keeper.totals)
        table = game.query_one("#sheet", DataTable)
        table.move_cursor(row=0)
        await pilot.press("e")
        deal = await wait_for(pilot, DealScreen)
        # the form opens on the deal's own answers
        assert deal.query_one("#choices", OptionList).highlighted is not None
        await pilot.press("enter")  # No King of hearts, as before
        assert await ask(pilot) == "doubles"
        assert deal.query_one(DoublesGrid).value() == [[1, 0, False]]
        await pilot.press("enter")
        assert await ask(pilot) == "outcome"
        assert deal.query_one("#q0-0", Picker).value == 2
        deal.query_one("#q0-0", Picker).focus()
        await pilot.press("right")  # Di took the King, not Cy
        assert deal.query_one("#q0-0", Picker).value == 3
        await pilot.press("enter")
        assert await ask(pilot) == "done"
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        assert game.keeper.entries[0]["outcome"] == {"KH": 3}
        corrected = list(game.keeper.totals)
        assert corrected != before
        assert store.get(book.id).data["entries"][0]["outcome"] == {"KH": 3}
        # delete the second deal, with confirmation
        game.query_one("#sheet", DataTable).move_cursor(row=1)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert len(game.keeper.entries) == 1
        assert len(store.get(book.id).data["entries"]) == 1
        # undo brings it back, and the database follows
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert game.keeper.totals == corrected
        assert len(store.get(book.id).data["entries"]) == 2
        await pilot.press("ctrl+z")  # and the correction
        await pilot.pause()
        assert game.keeper.totals == before


async def test_a_change_made_elsewhere_is_not_overwritten(tmp_path):
    store, book = game_with(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        # the web page saves a deal meanwhile
        other = Scorebooks.open(store.url)
        _, k = store.open(book.id)
        k.add({"contract": "no-king", "doubles": [[1, 0]], "outcome": {"KH": 2}})
        other.save(book.id, store.key(book.id), k.to_dict(), book.version)
        await pilot.press("a")
        await wait_for(pilot, DealScreen)
        await choose(pilot, "no-queens")
        await pilot.press("enter")  # no double: not played
        assert await ask(pilot) == "done"
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.pause()
        # refused, reloaded: the web's deal is there, nothing overwritten
        assert [e["contract"] for e in game.keeper.entries] == ["no-king"]
        assert [e["contract"] for e in store.get(book.id).data["entries"]] == ["no-king"]


async def test_delete_a_kept_game_asks_first(tmp_path):
    store, _ = game_with(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert len(store.list()) == 1
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert store.list() == []


# ---------------------------------------------------------------------- every kind of step, from played deals
def played_entries(rules: str, deals: int, seed: int = 5):
    """(first dealer, entries) of the first ``deals`` deals of a match played by random players: real deals."""
    from barbu.agents.play import agent_for
    from barbu.classic.match import Match
    from barbu.core.game import CHANCE
    from barbu.scorekeeper.fromplay import entries_from_actions

    m = Match(rules, seed)
    agents = [agent_for(m, "random", seed * 10 + s) for s in range(m.n)]
    while not m.is_over and len(m.results) < deals:
        seat = m.to_act()
        if seat == CHANCE:
            m.play_chance()
        else:
            m.apply(agents[seat].act(m.view(seat)))
    first, entries = entries_from_actions(m.rules, m.history)
    return first, entries[:deals]


async def enter_through_form(pilot, entry: dict) -> None:
    """Answer each step of the deal form with the entry's answer, by keys and clicks as a scorer would."""
    screen = pilot.app.screen
    for _ in range(12):
        step = await ask(pilot)
        if step == "done":
            await pilot.press("enter")
            return
        if step in ("contract", "trump", "rank", "dealer"):
            await choose(pilot, str(entry[step]))
        elif step in ("set_aside", "cuts"):
            box = screen.query_one("#text-answer", Input)
            box.value = " ".join(entry[step]) if step == "cuts" else entry[step]
            box.focus()
            await pilot.press("ctrl+s" if step == "cuts" else "enter")  # both go on
        elif step == "doubles":
            grid = screen.query_one(DoublesGrid)
            rows = grid.rows
            for a, b, *redo in entry.get("doubles", []):
                grid.action_cell(rows.index(a), b)
                if redo and redo[0]:
                    grid.action_cell(rows.index(a), b)
            await pilot.press("ctrl+s")
        elif step == "outcome":
            form = screen.query_one(OutcomeForm)
            for qi, q in enumerate(form.questions):
                value = entry["outcome"][q.key]
                if q.kind == "counts":
                    for s, v in enumerate(value):
                        form.query_one(f"#q{qi}-{s}", Input).value = str(v) if v else ""
                elif q.kind in ("seat", "yesno"):
                    form.query_one(f"#q{qi}-0", Picker).action_pick(int(value), final=False)
                elif q.kind in ("seats", "order"):
                    for i, seat in enumerate(value):
                        form.query_one(f"#q{qi}-{i}", Picker).action_pick(seat, final=False)
                elif q.kind == "rows":
                    for s, text in enumerate(value):
                        form.query_one(f"#q{qi}-{s}", Input).value = text
                elif q.kind == "melds":
                    for s, counts in enumerate(value):
                        for kind, c in counts.items():
                            form.query_one(f"#q{qi}-{s}-{kind}", Input).value = str(c)
                else:
                    raise AssertionError(f"no way to answer {q.kind}")
            await pilot.pause()
            await pilot.press("ctrl+s")
        else:
            raise AssertionError(f"unexpected step {step}")
    raise AssertionError("the form never reached its end")


@pytest.mark.parametrize(
    "rules,deals,typed",
    [
        ("classic(ravage_city=true, chinese_poker=true)", 9, 0),
        ("french(players=5)", 4, 0),
        ("italian", 4, 0),
        ("scottish", 8, 0),
        pytest.param("scottish", 23, 18, marks=pytest.mark.slow),  # the Silly Round: a draw for the dealer, cuts
    ],
)
async def test_played_deals_entered_through_the_form_score_as_played(tmp_path, rules, deals, typed):
    """The deals of a played match entered through the form (the first ``typed`` stored beforehand)."""
    first, entries = played_entries(rules, deals)
    if typed:  # the deals typed in include the Silly Round's: its dealer is drawn, its calls cut
        assert any(e.get("cuts") for e in entries[typed:])
    from barbu.classic.ruleset import Ruleset

    names = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay"][: Ruleset.parse(rules).players]
    expect = new_keeper(rules, names, first)
    for e in entries:
        expect.add(e)
    store = store_at(tmp_path)
    start = new_keeper(rules, expect.names, first)
    for e in entries[:typed]:
        start.add(e)
    book = store.create(start, "played")
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        for e in entries[typed:]:
            await pilot.press("a")
            await wait_for(pilot, DealScreen)
            await enter_through_form(pilot, e)
            await wait_for(pilot, GameScreen)
        assert len(game.keeper.results) == len(entries) >= deals - 1
        assert game.keeper.totals == expect.totals
    assert keeper_totals(store, book.id) == expect.totals


def keeper_totals(store, book_id):
    return store.open(book_id)[1].totals


async def test_a_besigue_deal_with_its_declarations(tmp_path):
    store = store_at(tmp_path)
    store.create(new_keeper("besigue", ["Ann", "Bob"], 0), "Bésigue")
    entry = {
        "outcome": {
            "melds": [{"bezique": 1, "marriage": 2}, {"four-aces": 1}],
            "sevens": [1, 0],
            "brisques": [5, 3],
            "last": [1],
        }
    }
    expect = new_keeper("besigue", ["Ann", "Bob"], 0)
    expect.add(entry)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        await pilot.press("a")
        await wait_for(pilot, DealScreen)
        await enter_through_form(pilot, entry)
        await wait_for(pilot, GameScreen)
        assert game.keeper.totals == expect.totals
        assert "decl." in screen_text(app)


async def test_export_writes_a_csv_that_reads_back(tmp_path, monkeypatch):
    from barbu.scorekeeper.exchange import from_csv

    store, book = game_with(tmp_path)
    _, keeper = store.open(book.id)
    keeper.add({"contract": "no-king", "doubles": [[1, 0]], "outcome": {"KH": 2}})
    store.save(book, keeper)
    monkeypatch.chdir(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("enter")  # CSV, the first choice
        await pilot.pause()
    written = tmp_path / "friday.csv"
    assert from_csv(written.read_text(encoding="utf-8")).totals == keeper.totals


async def test_import_a_file_from_the_list(tmp_path):
    from barbu.scorekeeper.exchange import to_csv

    k = new_keeper("classic", NAMES, 2)
    k.add({"contract": "no-king", "doubles": [[0, 2]], "outcome": {"KH": 1}})
    (tmp_path / "club.csv").write_text(to_csv(k), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    store = store_at(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        for name in ("broken.json", "club.csv"):
            await pilot.press("i")
            await pilot.pause()
            app.screen.query_one("#import-path", Input).value = str(tmp_path / name)
            await pilot.press("enter")
            await pilot.pause()
            if name == "broken.json":
                assert any("cannot read this game" in n.message for n in app._notifications)
                assert store.list() == []
    books = store.list()
    assert len(books) == 1 and books[0].title == "club" and books[0].data["first"] == 2


async def test_a_correction_that_breaks_a_later_deal_is_refused_and_kept(tmp_path):
    store, book = game_with(tmp_path)
    _, keeper = store.open(book.id)
    keeper.add({"contract": "no-king", "doubles": [[1, 0]], "outcome": {"KH": 2}})
    keeper.add({"contract": "no-queens", "doubles": [[3, 0]], "outcome": {"QS": 1, "QH": 1, "QD": 2, "QC": 3}})
    book = store.save(book, keeper)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        game = await wait_for(pilot, GameScreen)
        game.query_one("#sheet", DataTable).move_cursor(row=0)
        await pilot.press("enter")
        deal = await wait_for(pilot, DealScreen)
        await choose(pilot, "no-queens")  # Ann's second deal is No queens already
        assert await ask(pilot) == "doubles"
        await pilot.press("enter")
        assert await ask(pilot) == "outcome"
        for i, seat in enumerate((1, 1, 2, 3)):
            deal.query_one(f"#q{i}-0", Picker).action_pick(seat, final=False)
        await pilot.press("ctrl+s")
        assert await ask(pilot) == "done"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DealScreen)  # refused: the form stays, with the reason
        assert "deal 2" in screen_text(app)
        assert [e["contract"] for e in game.keeper.entries] == ["no-king", "no-queens"]
        await pilot.press("escape")  # back to the outcome, answers kept
        assert await ask(pilot) == "outcome"
        assert deal.query_one("#q3-0", Picker).value == 3
    assert [e["contract"] for e in store.get(book.id).data["entries"]] == ["no-king", "no-queens"]


async def test_a_new_game_with_options_five_players_and_a_refused_option(tmp_path):
    from textual.widgets import Select

    store = store_at(tmp_path)
    app = ScoreApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("n")
        screen = await wait_for(pilot, NewGameScreen)
        screen.query_one("#game", Select).value = "french"
        await pilot.pause()
        screen.query_one("#count", Select).value = 5
        await pilot.pause()
        for s, name in enumerate(["Ann", "Bob", "Cy", "Di", "Eve"]):
            screen.query_one(f"#name-{s}", Input).value = name
        screen.query_one("#options", Input).value = "no_such_option=1"
        await pilot.pause()
        screen.query_one("#first", Select).value = 2
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert "unknown option" in screen_text(app)
        screen.query_one("#options", Input).value = "doubling=none"
        await pilot.press("ctrl+s")
        game = await wait_for(pilot, GameScreen)
        assert game.keeper.n == 5 and game.keeper.first == 2 and game.keeper.rules.doubling == "none"
    book = store.list()[0]
    assert book.data["names"] == ["Ann", "Bob", "Cy", "Di", "Eve"] and "players=5" in book.rules
