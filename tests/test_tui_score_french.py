"""`barbu score` in the terminal in French: the kept games, a new game, a deal entered with a double, a
refusal that keeps the form, the sheet with its contract names and the footer's keys, all read on screen."""

from __future__ import annotations

import pytest
from test_tui_score import ask, choose, type_counts, wait_for
from textual.widgets import Input
from tuikit import save_shot, screen_text

from barbu.i18n import use
from barbu.scorekeeper import new_keeper
from barbu.tui.score_app import BooksScreen, GameScreen, NewGameScreen, ScoreApp
from barbu.tui.score_entry import DealScreen
from barbu.tui.score_store import KeyRing, ScoreStore
from barbu.tui.score_widgets import DoublesGrid

pytestmark = pytest.mark.asyncio
NAMES = ["Anne", "Bruno", "Chloé", "Denis"]


@pytest.fixture(autouse=True)
def french():
    use("fr")
    yield
    use("en")


def shot(app, name: str) -> None:
    save_shot(app, f"{name}.svg")  # only when BARBU_SHOTS names a folder


async def test_a_new_game_and_a_deal_entered_in_french(tmp_path):
    store = ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))
    app = ScoreApp(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, BooksScreen)
        text = screen_text(app)
        assert "Aucune partie notée pour l'instant" in text
        assert "Nouvelle partie" in text and "Importer" in text  # the footer's keys
        await pilot.press("n")
        screen = await wait_for(pilot, NewGameScreen)
        text = screen_text(app)
        assert "Une nouvelle partie à noter" in text and "Premier donneur" in text and "Joueurs" in text
        screen.query_one("#title", Input).value = "Vendredi"
        await pilot.press("ctrl+s")  # no names yet: refused in French, nothing made
        await pilot.pause()
        assert "Donnez un nom à chaque joueur (joueurs 1, 2, 3, 4)." in screen_text(app)
        for s, name in enumerate(NAMES):
            screen.query_one(f"#name-{s}", Input).value = name
        await pilot.pause()
        await pilot.press("ctrl+s")
        game = await wait_for(pilot, GameScreen)
        text = screen_text(app)
        assert "aucune donne : A" in text and "donneur" in text and "contrat" in text
        assert "Ajouter une donne" in text
        await pilot.press("a")
        deal = await wait_for(pilot, DealScreen)
        assert await ask(pilot) == "contract"
        text = screen_text(app)
        assert "donne 1" in text and "Le contrat" in text and "Pas de cœurs" in text and "Pas de dames" in text
        await choose(pilot, "no-hearts")
        assert await ask(pilot) == "doubles"
        assert "Qui a contré qui ?" in screen_text(app) and "contre" in screen_text(app)
        grid = deal.query_one(DoublesGrid)
        grid.focus()
        await pilot.pause()
        grid.action_cell(0, 0)  # Bruno contre Anne
        await pilot.pause()
        assert "Bruno contre Anne" in screen_text(app)
        await pilot.press("enter")
        assert await ask(pilot) == "outcome"
        text = screen_text(app)
        assert "Cœurs ramassés par chaque joueur" in text and "Qui a pris le A♥ ?" in text
        await type_counts(pilot, 0, [3, 5, 0, 4])
        assert "12 sur 13" in screen_text(app)
        deal.query_one("#q1-0").focus()
        await pilot.press("2")  # Bruno took the A♥: the form checks the deal, and refuses the count
        await pilot.pause()
        assert await ask(pilot) == "outcome"
        assert "Cœurs ramassés par chaque joueur : la somme fait 12, pas 13" in screen_text(app)
        shot(app, "score-fr-refusal")
        deal.query_one("#q0-3", Input).value = "5"
        await pilot.press("ctrl+s")
        assert await ask(pilot) == "done"
        text = screen_text(app)
        assert "points du contrat" in text and "total cumulé" in text and "cette donne" in text
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.pause()
        assert game.keeper.totals == [2, -22, 0, -10]  # Bruno doubled Anne: the 8 between them moves
        text = screen_text(app)
        assert "Pas de cœurs" in text and "suivante : donne 2" in text and "Classement" in text
        shot(app, "score-fr-sheet")


async def test_a_kept_game_with_a_flag_reads_in_french(tmp_path):
    store = ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))
    keeper = new_keeper("classic", NAMES, 0)
    keeper.add({"contract": "no-king", "doubles": []})
    keeper.add({"contract": "trumps", "trump": "S", "doubles": [[1, 0]], "outcome": {"tricks": [4, 3, 3, 3]}})
    for key in ("no-hearts", "no-queens", "no-tricks", "no-last-two"):  # nobody doubles the dealer any more
        keeper.add({"contract": key, "doubles": []})
    keeper.add({"contract": "domino", "rank": "7", "doubles": [], "outcome": {"order": [1, 2, 3]}})
    store.create(keeper, "Samedi")
    app = ScoreApp(store)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, BooksScreen)
        assert "Samedi" in screen_text(app) and "modifiée" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Barbu (non jouée)" in text and "Atout ♠" in text
        # the missed obligation is flagged in the side panel; a deal not played says so on its row only
        assert "Remarques" in text and "! donne 7 :" in text and "obligation" in text
        assert "donne 1 : non jouée" not in text
        assert "Totaux au fil de la partie" in text
        shot(app, "score-fr-game")


async def test_the_doubles_grid_in_italian(tmp_path):
    use("it")
    store = ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))
    store.create(new_keeper("classic", ["Anna", "Bruno", "Carla", "Dario"], 0), "Venerdì")
    app = ScoreApp(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.press("a")
        deal = await wait_for(pilot, DealScreen)
        assert await ask(pilot) == "contract"
        assert "Niente donne" in screen_text(app) and "Il contratto" in screen_text(app)
        await choose(pilot, "no-queens")
        assert await ask(pilot) == "doubles"
        grid = deal.query_one(DoublesGrid)
        grid.focus()
        await pilot.pause()
        grid.action_cell(0, 0)
        grid.action_cell(0, 0)
        grid.action_cell(1, 3)
        await pilot.pause()
        text = screen_text(app)
        assert "Bruno  contra" in text and "deve ancora a Anna" in text and "2 contro" in text and "contri" not in text
        assert "Bruno contra Anna, surcontrato; Carla contra Dario" in text
        assert "Contro/surcontro" in text and "Avanti / salva" in text  # the footer's keys
        shot(app, "score-it-doubles")


async def test_the_trump_suit_is_named_in_the_singular(tmp_path):
    """French names a suit as trumps in the singular, « atout pique »: the choice reads ♠ pique, not ♠ piques."""
    store = ScoreStore(str(tmp_path / "score.db"), KeyRing(tmp_path / "keys.json"))
    store.create(new_keeper("classic", NAMES, 0), "Dimanche")
    app = ScoreApp(store)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, BooksScreen)
        await pilot.press("enter")
        await wait_for(pilot, GameScreen)
        await pilot.press("a")
        await wait_for(pilot, DealScreen)
        assert await ask(pilot) == "contract"
        await choose(pilot, "trumps")
        assert await ask(pilot) == "trump"
        text = screen_text(app)
        assert "♠ pique" in text and "♥ cœur" in text and "♦ carreau" in text and "♣ trèfle" in text
        assert "piques" not in text and "cœurs" not in text.replace("Pas de cœurs", "")
        await choose(pilot, "S")
        assert await ask(pilot) == "doubles"
        text = screen_text(app)
        assert "♠ pique" in text  # the deal's summary line names the trump as chosen
        assert "Aucun contre." in text and "No double" not in text
        shot(app, "score-fr-trump")
