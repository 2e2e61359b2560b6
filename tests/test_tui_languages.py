"""The terminal game in French and Italian: whole deals by key presses, with the screen's words checked.

Each test speaks its language through `barbu.i18n.use` (what ``--lang`` and the setup screen's
language choice call) and goes back to English after, so the other tests read English.
"""

from __future__ import annotations

import re

import pytest
from textual.widgets import Select
from tuikit import SIZE, act, first_dealer, new_app, screen_text, settle

from barbu.besigue import BesigueRules
from barbu.i18n import current, number, translator, use, word_error
from barbu.play.besigue_session import BesigueSession
from barbu.play.labels import signed
from barbu.tui import BarbuApp, Settings
from barbu.tui.besigue_table import BesigueTableScreen
from barbu.tui.dialogs import DealOverDialog, InfoDialog
from barbu.tui.setup_screen import SetupScreen
from barbu.tui.widgets import HandView

pytestmark = pytest.mark.asyncio

PLAYED = "classic(undoubled_negative=play)"  # negative deals are played even when nobody doubles


@pytest.fixture
def french():
    use("fr")
    yield
    use("en")


@pytest.fixture
def italian():
    use("it")
    yield
    use("en")


def flat(text: str) -> str:
    """Screen text with its runs of blanks as one space, so a phrase reads across a wrapped cell."""
    return " ".join(text.split())


async def refuse_an_unplayable_card(pilot, table) -> str | None:
    """Move the hand's cursor to a card the rules forbid now and press Enter; the screen's text after it.

    None when every card of the hand may be played."""
    hand = table.query_one(HandView)
    bad = [c for c in hand.cards if c not in hand.legal]
    if not bad:
        return None
    while hand.current() != bad[0]:
        await pilot.press("right")
    moves = table.session.moves
    await pilot.press("enter")
    await pilot.pause()
    assert table.session.moves == moves  # refused: nothing changed
    return flat(screen_text(pilot.app))


async def test_a_deal_played_through_in_french(tmp_path, french):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    app = new_app(tmp_path, PLAYED, seed, seat, confirm_forced=True)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        text = flat(screen_text(app))
        # The person declares: the contracts as French players call them, with the table's words.
        for words in (
            "Pas de dames",
            "Pas de plis",
            "Pas de cœurs",
            "Barbu",
            "Les deux derniers",
            "Réussite",
            "Contrat : pas encore choisi",
            "Votre décision",
            "C'est vous qui choisissez",
            "Scores",
            "f1 Aide",
            "f2 Plis",
            "f3 Marque",
            "^q Quitter",
        ):
            assert words in text, words
        assert "No queens" not in text and "Your hand" not in text
        await pilot.press(*"pas de dames", "enter")  # typed in French
        refusal = None
        typed_card = False
        while True:
            table = await settle(pilot)
            if table.paused:
                break
            v = table.session.view()
            if refusal is None and v.phase == "play" and v.trick:
                refusal = await refuse_an_unplayable_card(pilot, table)
            action = v.legal[-1] if v.phase == "doubling" else v.legal[0]
            if v.phase == "play" and not typed_card:  # a card typed as the French write it: "dc", "10p"
                fr = translator("fr")
                typed = fr.rank_letter("23456789TJQKA"[action % 13].replace("T", "10"))
                typed = (typed + fr.suit_letter(action // 13)).lower()
                moves = table.session.moves
                await pilot.press(*typed, "enter")
                await pilot.pause()
                assert table.session.moves > moves, typed
                typed_card = True
                continue
            await act(pilot, table, action, typed=False)
        assert table.session.match.results[0].contract == "no-queens"
        assert refusal is not None, "no trick asked to follow suit"
        assert "Interdit : vous devez fournir : jouez un" in refusal
        text = flat(screen_text(app))
        assert isinstance(app.screen, DealOverDialog)
        for words in (
            "Fin de la donne",
            "Donne 1 : Pas de dames",
            "annoncée par vous",
            "points du contrat",
            "total cumulé",
            "Entrée : donne suivante",
        ):
            assert words in text, words
        await pilot.press("enter")
        table = await settle(pilot)
        text = flat(screen_text(app))
        # The score panel and the seats: French places, totals as French writes numbers.
        totals = table.session.view().totals
        assert "Scores" in text and "Vous" in text and "Ouest" in text and "Est" in text
        assert all(number(t) in text for t in totals)
        assert "donne 2 sur 28" in text and "Votre main (13 cartes)" in text
        assert "Classique, 1 option modifiée · donne 2 sur 28" in text  # the game in words, not "classic(…)"


async def test_french_words_typed_at_the_table(tmp_path, french):
    app = new_app(tmp_path, PLAYED, 5, first_dealer(PLAYED, 5))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"aide", "enter")
        await pilot.pause()
        assert isinstance(app.screen, InfoDialog)
        text = flat(screen_text(app))
        assert "Aide et règles" in text and "Touches" in text and "Cette donne" not in text
        assert "28 donnes ; le plus petit total gagne" in text or "28 donnes ; le plus haut total gagne" in text
        # The rules themselves, in French: scroll down to the guide's first section.
        body = app.screen.query_one("#dialog-body")
        body.scroll_to(y=14, animate=False)
        await pilot.pause()
        assert "Le déroulement d'une partie" in flat(screen_text(app))
        await pilot.press("escape")
        await pilot.press(*"feuille", "enter")
        await pilot.pause()
        assert "Feuille de marque" in screen_text(app) and "déclarant" in screen_text(app)


async def test_the_setup_and_the_table_in_italian(tmp_path, italian):
    seed = 5
    seat = first_dealer(PLAYED, seed)
    from barbu.classic.ruleset import Ruleset

    settings = Settings(rules=Ruleset.parse(PLAYED), seat=seat, seed=seed, delay=0, save=tmp_path / "g.jsonl")
    app = BarbuApp(settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = flat(screen_text(app))
        for words in (
            "una nuova partita",
            "Lingua",
            "Italiano",
            "Gioco",
            "Il gioco classico: 4 giocatori",
            "Il tuo posto",
            "Ovest gioca",
            "Chiave",
            "Inizia",
            "Esci",
        ):
            assert words in text, words
        await pilot.press("enter")
        table = await settle(pilot)
        text = flat(screen_text(app))
        for words in (
            "Niente donne",
            "Niente prese",
            "Niente cuori",
            "Contratto: non ancora scelto",
            "La tua decisione",
            "Punteggi",
            "La tua mano (13 carte)",
            "Aiuto",
            "Punti",
        ):
            assert words in text, words
        await act(
            pilot, table, next(a for a in table.choices if getattr(a, "contract", "") == "no-tricks"), typed=False
        )
        while True:
            table = await settle(pilot)
            v = table.session.view()
            if table.paused or (v.phase == "play" and v.trick):
                break
            await act(pilot, table, v.legal[-1] if v.phase == "doubling" else v.legal[0], typed=False)
        if not table.paused:
            text = flat(screen_text(app))
            assert "Contratto: Niente prese" in text and "Tocca a te:" in text and "Mazziere: tu" in text
            assert re.search(r"Presa \d+ di 13", text) and "ha attaccato a" in text
            refusal = await refuse_an_unplayable_card(pilot, table)
            if refusal is not None:
                assert "Non permesso: devi rispondere al seme" in refusal


async def test_the_language_is_chosen_on_the_setup_screen(tmp_path):
    settings = Settings(save=tmp_path / "g.jsonl", delay=0, seed=1)
    app = BarbuApp(settings)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert current() == "en" and "Language" in screen_text(app) and "Start" in screen_text(app)
            app.screen.query_one("#seed").value = "42"
            app.screen.query_one("#language", Select).value = "fr"
            for _ in range(20):
                await pilot.pause()
            text = flat(screen_text(app))
            assert current() == "fr"
            assert "Langue" in text and "Commencer" in text and "Le jeu classique" in text and "Start" not in text
            assert app.screen.query_one("#seed").value == "42"  # what was typed stays
            await pilot.press("ctrl+s")
            table = await settle(pilot)
            assert table.session.match.seed == 42
            assert "Votre main" in screen_text(app)
    finally:
        use("en")


async def test_refusals_on_the_setup_screen_are_worded_in_the_language(tmp_path, french):
    app = BarbuApp(Settings(save=tmp_path / "g.jsonl", delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#seed").value = "abc"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Impossible de commencer : la graine doit être un nombre entier, pas 'abc'" in flat(screen_text(app))
        assert isinstance(app.screen, SetupScreen)  # nothing started


async def test_the_setup_words_each_options_values_in_its_own_words(tmp_path, french):
    """ "none" is "sans contre" for the doubling and "à tout moment" for the heart lead, never one bare "aucun";
    the game list names the games in words, not by their identifiers."""
    app = BarbuApp(Settings(save=tmp_path / "g.jsonl", delay=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)

        def shown(wid: str) -> dict[str, str]:
            return {value: str(label) for label, value in screen.query_one(wid, Select)._options}

        doubling, heart_lead = shown("#opt-doubling"), shown("#opt-heart_lead")
        assert doubling["none"] == "sans contre" and heart_lead["none"] == "à tout moment"
        assert heart_lead["first_trick"] == "interdite au premier pli"
        games = shown("#preset")
        assert games["classic"] == "Classique" and games["italian"] == "Barbù italien"
        assert games["besigue-english"] == "Bésigue anglais (2 joueurs)"


async def test_the_record_stays_in_english(tmp_path, french):
    app = new_app(tmp_path, PLAYED, 5)
    async with app.run_test(size=SIZE) as pilot:
        table = await settle(pilot)
        header = table.session.header()
        assert header["players_names"][1] == "West, good player"
        assert table.session.who(1) == "Ouest, bon joueur"


async def test_bésigue_in_italian(tmp_path, italian):
    rules = BesigueRules.parse("besigue")
    settings = Settings(rules=rules, seat=0, seed=3, delay=0, save=tmp_path / "b.jsonl")  # type: ignore[arg-type]
    app = BarbuApp(settings, setup=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(500):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, BesigueTableScreen) and screen.waiting_for_human:
                break
        text = flat(screen_text(app))
        for words in (
            "smazzata 1",
            "sei Sud",
            "Avversario: computer (buon giocatore)",
            "Tallone",
            "La tua mano",
            "Punteggi, a 1.000",
            "Mosse",
            "Regole",
            "Consiglio",
        ):
            assert words in text, words
        table = app.screen
        assert isinstance(table.session, BesigueSession)
        await pilot.press(*"zz", "enter")  # not a card
        await pilot.pause()
        text = flat(screen_text(app))
        assert "Non permesso:" in text and "zz" in text


async def test_numbers_and_refusals_in_three_languages():
    from barbu.classic.refusals import FOLLOW_SUIT
    from barbu.core.errors import IllegalAction

    e = IllegalAction.of(FOLLOW_SUIT, suit=0)
    assert word_error(e, "en") == "you must follow suit: play a spade"
    assert word_error(e, "fr") == "vous devez fournir\u00a0: jouez un pique"
    assert word_error(e, "it").startswith("devi rispondere al seme")
    try:
        use("fr")
        assert signed(-1250) == translator("fr").number(-1250) and "1250" not in signed(-1250)
        assert signed(1250).startswith("+1") and signed(0) == "0"
        use("it")
        assert signed(1250) == "+1.250"
    finally:
        use("en")
    assert signed(1250) == "+1250"


async def test_barbu_play_in_a_french_terminal(tmp_path):
    """`barbu play` with a French system locale (BARBU_LANG=fr): the table speaks French, Ctrl+Q saves and says so."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import sys
    import termios
    import time

    save = tmp_path / "tty.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in a French terminal of 120x40
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.environ["BARBU_LANG"] = "fr"
        os.execvp(
            sys.executable,
            [sys.executable, "-m", "barbu", "play", "--start", "--seed", "3", "--delay", "0", "--save", str(save)],
        )
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    seen = b""
    deadline = time.monotonic() + 60
    sent = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        if not sent and "Votre main".encode() in seen and "Votre décision".encode() in seen:
            time.sleep(0.5)
            os.write(fd, b"\r")  # one decision (the cursor's): a match quit before any move is not kept
            time.sleep(0.5)
            os.write(fd, b"\x11")  # Ctrl+Q
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert sent, seen[-2000:]
    assert os.waitstatus_to_exitcode(status) == 0
    assert save.exists() and "Pour la reprendre\u00a0: barbu play --resume".encode() in seen
