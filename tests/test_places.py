"""Places, never numbers: wherever a person reads the terminal, the plain game or a record's display, the players
are called by their places (South, West, North, East; Sud, Ouest…; Sud, Ovest…) or by the record's names, and a
computer player by its place and strength in words ("West, good player"), never "seat 2" nor "rule (computer)";
typed doubles take places and names as well as numbers.  In English, French and Italian."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from helpers import shot_path
from tuikit import screen_text, settle

from barbu.agents import make_agent
from barbu.classic.match import Match
from barbu.cli.main import main as barbu
from barbu.cli.textplay import describe
from barbu.cli.wording import seat_names
from barbu.core.actions import Double
from barbu.core.errors import BarbuError
from barbu.core.game import CHANCE
from barbu.i18n import use, word_error
from barbu.play.labels import computer_name, place, place_name, seat_name, table_place, typed_action, typed_seats
from barbu.play.names import record_names
from barbu.play.session import Session, Settings
from barbu.records.barbu import write_record
from barbu.tui.app import BarbuApp
from barbu.tui.setup_screen import SetupScreen

GOLDEN = Path(__file__).parent / "golden" / "classic-seed7.jsonl"
LANGS = ("en", "fr", "it")
#: What a person must never read: a seat by its number (in the three languages), an engine's name for a player.
FORBIDDEN = re.compile(
    r"\b(?:seat|place|posto) \d|\b(?:rule|random|search|expert) \((?:computer|seat \d+)\)"
    r"|\bcomputer \((?:rule|random|search|expert)\)",
    re.IGNORECASE,
)
#: How each kind of record names its players (the engine specs kept for machines).
HEADERS = {
    "daily": ["Alice", "rule (computer)", "rule (computer)", "rule (computer)"],
    "terminal": ["you", "West, computer (good player)", "North, computer (expert)", "East, good player"],
    "arena": ["rule (seat 0)", "random (seat 1)", "search (seat 2)", "rule (seat 3)"],
    "selfplay": ["random 0", "random 1", "random 2", "random 3"],
}


@pytest.fixture(params=LANGS)
def lang(request):
    use(request.param)
    yield request.param
    use("en")


def clean(text: str) -> None:
    found = FORBIDDEN.search(text)
    assert found is None, f"{found.group(0)!r} in: …{text[max(0, found.start() - 80) : found.end() + 80]}…"


def record_with(tmp_path: Path, names: list[str], **header) -> Path:
    """The golden classic match under other players' names."""
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head.update(players_names=names, **header)
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- one name for each computer player
def test_one_name_for_each_computer_player(lang):
    west, good = place_name("West"), computer_name(None, "rule")
    assert (
        computer_name("West", "rule") == f"{west}, {good}"
        and good == {"en": "good player", "fr": "bon joueur", "it": "buon giocatore"}[lang]
    )
    assert computer_name("West", "search(samples=20)", english=True) == "West, strong"
    names = record_names({"players_names": HEADERS["daily"]}, 4)
    assert names == ["Alice", *(f"{place_name(p)}, {good}" for p in ("West", "North", "East"))]
    assert record_names({"players_names": HEADERS["terminal"], "tui": {"seat": 0}}, 4)[2] == computer_name(
        "North", "expert"
    )
    # the daily record from the second seat: the places are seen from Alice's chair
    assert record_names({"players_names": ["rule (computer)", "Alice", "rule (computer)"]}, 3) == [
        computer_name("East", "rule"),
        "Alice",
        computer_name("West", "rule"),
    ]
    assert record_names({}, 6) == [
        place_name(p) for p in ("South", "West", "North-west", "North", "North-east", "East")
    ]


# ---------------------------------------------------------------- typed places and names
def test_typed_doubles_take_places_and_names(lang):
    west, north = place_name("West").lower(), place_name("North")
    assert typed_seats(f"double {west} {north}", 0, 4) == "double 1 2"
    assert typed_seats(f"double {west}, East", 2, 4) == "double 3 1"  # English places are understood too
    assert typed_seats("double Alice", 0, 4, ["", "", "Alice", ""]) == "double 2"
    assert typed_seats("double 1 3", 0, 4) == "double 1 3" and typed_seats("QH", 0, 4) == "QH"


def doubling_turn() -> tuple[Match, int]:
    """A classic match played by rule players until a seat may double another than the dealer."""
    for seed in range(60):
        m = Match("classic", seed)
        bots = [make_agent("rule", s) for s in range(4)]
        while not m.is_over and len(m.results) < 3:
            actor = m.to_act()
            if actor == CHANCE:
                m.apply(m.sample_chance())
                continue
            legal = m.legal_actions()
            if any(isinstance(a, Double) and a.targets and m.dealer not in a.targets for a in legal):
                return m, actor
            m.apply(bots[actor].act(m.view(actor)))
    raise AssertionError("no free double in 60 matches")


def test_a_double_typed_by_place_in_the_terminal(tmp_path, lang):
    m, seat = doubling_turn()
    (target,) = next(a for a in m.legal_actions() if isinstance(a, Double) and len(a.targets) == 1).targets
    path = tmp_path / "g.jsonl"
    write_record(m, path, {"tui": {"seat": seat, "opponents": {}}})
    session = Session.resume(path)
    where = place(target, seat, 4)
    assert where is not None
    word = {"en": "double", "fr": "contre", "it": "contro"}[lang]
    session.apply_human(f"{word} {place_name(where)}")  # "contre Ouest": the engine reads "double 1"
    assert [(b.doubler, b.doubled) for b in session.view().doubles][-1] == (seat, target)


def test_a_person_names_the_players_he_doubles_never_their_numbers(lang):
    """ "double 1 3" meant other players in the daily deals than at the table (the numbers move with the seat)."""
    m, seat = doubling_turn()
    (target,) = next(a for a in m.legal_actions() if isinstance(a, Double) and len(a.targets) == 1).targets
    word = {"en": "double", "fr": "contre", "it": "contro"}[lang]
    with pytest.raises(BarbuError) as refused:
        typed_action(m, f"{word} {target}", seat, 4)
    said = word_error(refused.value, lang)
    assert refused.value.code == "places-not-numbers" and f"{word} {place_name('West').lower()}" in said, said
    where = place(target, seat, 4)
    assert where is not None and typed_action(m, f"{word} {place_name(where)}", seat, 4) == Double(frozenset({target}))


def test_a_refused_command_quotes_the_places_typed_never_the_seat_numbers(lang):
    """ "double east" typed while a card is due was refused as "'double 3' is not a card"."""
    m = Match("classic", 3)
    while m.to_act() == CHANCE or m.view(m.to_act()).phase != "play":
        m.apply(m.sample_chance()) if m.to_act() == CHANCE else m.apply(m.legal_actions()[0])
    seat = m.to_act()
    word = {"en": "double", "fr": "contre", "it": "contro"}[lang]
    typed = f"{word} {place_name(table_place((seat + 3) % 4, seat, 4))}"
    with pytest.raises(BarbuError) as refused:
        typed_action(m, typed, seat, 4)
    said = word_error(refused.value, lang)
    assert repr(typed) in said and not re.search(r"\d", said.split(":")[0]), said


def test_a_refusal_names_the_seat_it_speaks_of_by_its_place(lang):
    """The engine's refusals said "waiting for seat 2", "you must double the dealer (seat 2)" in the terminal."""
    m = Match("classic", 3)
    while m.to_act() == CHANCE:
        m.apply(m.sample_chance())
    actor = m.to_act()
    me = (actor + 1) % 4
    with pytest.raises(BarbuError) as refused:
        m.apply(m.legal_actions()[0], seat=me)
    names = [seat_name(s, me, 4) for s in range(4)]
    with seat_names(names):
        said = word_error(refused.value, lang)
    clean(said)
    assert said.endswith(names[actor]), said
    assert re.search(r"\d", word_error(refused.value, lang))  # no names given (an API's client): its number


# ---------------------------------------------------------------- the plain game
def test_the_plain_game_names_places(lang):
    m, seat = doubling_turn()
    names = [seat_name(s, seat, 4) for s in range(4)]
    with seat_names(names):
        text = describe(m, seat)
    clean(text)
    assert names[m.dealer] in text


def test_the_plain_game_from_start_to_quit(tmp_path, monkeypatch, capsys, lang):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nscores\nzz\nquit\n"))
    assert barbu(["--lang", lang, "play", "--plain", "--seed", "3", "--no-compare"]) == 0
    out = capsys.readouterr().out
    clean(out)
    assert {"en": "You sit South", "fr": "Vous êtes Sud", "it": "Sei Sud"}[lang] in out
    assert computer_name("West", "rule") in " ".join(out.split())


@pytest.mark.parametrize("rules", ["besigue", "scottish"])
def test_the_plain_bésigue_and_scottish_games_start_by_places(tmp_path, monkeypatch, capsys, lang, rules):
    """Bésigue's plain game said "You are seat 0"; the Scottish draw said "seat 2 is the first Caller"."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert barbu(["--lang", lang, "play", "--plain", "--rules", rules, "--seed", "3", "--no-compare"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    clean(out)
    if rules == "besigue":
        assert {"en": "You sit South", "fr": "Vous êtes Sud", "it": "Sei Sud"}[lang] in out
    else:
        caller = {"en": "is the first Caller", "fr": "est le premier meneur", "it": "è il primo a chiamare"}[lang]
        assert caller in out and re.search(r"— \w+.* " + caller, out)


# ---------------------------------------------------------------- the records' displays
@pytest.mark.parametrize("kind", sorted(HEADERS))
def test_replay_and_show_name_the_players(tmp_path, capsys, lang, kind):
    path = record_with(tmp_path, HEADERS[kind])
    assert barbu(["--lang", lang, "replay", str(path)]) == 0
    assert barbu(["--lang", lang, "show", str(path), "--deal", "2"]) == 0
    out = capsys.readouterr().out
    clean(out)
    for name in record_names({"players_names": HEADERS[kind]}, 4):
        assert name in out  # each hand of the deal shown is headed by its player
    if kind == "daily":
        assert "Alice" in out


def test_show_words_the_persons_own_doubles_and_replay_names_the_game(tmp_path, capsys, lang):
    """ "vous avez contré Ouest", "Nord vous a contré", not "vous a contré Ouest" ("tu ha contrato"); the replay's
    title names the game in words ("Classico"), not by its ruleset text."""
    path = record_with(tmp_path, HEADERS["terminal"])
    assert barbu(["--lang", lang, "show", str(path), "--deal", "6"]) == 0
    assert barbu(["--lang", lang, "replay", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    mine, theirs = {
        "en": ("you doubled West,", "North doubled you (redoubled)"),
        "fr": ("vous avez contré Ouest,", "Nord vous a contré (surcontré)"),
        "it": ("hai contrato Ovest,", "Nord ti ha contrato (surcontrato)"),
    }[lang]
    assert mine in out and theirs in out, out
    assert f"r.jsonl — {dict(en='Classic', fr='Classique', it='Classico')[lang]} " in out


def test_analyze_names_the_players(tmp_path, capsys, lang):
    path = record_with(tmp_path, HEADERS["daily"])
    args = ["--lang", lang, "analyze", str(path), "--deal", "1", "--no-dd", "--samples", "2", "--seconds", "0.05"]
    assert barbu([*args, "--exact-cards", "0"]) == 0
    out = capsys.readouterr().out
    clean(out)
    assert "Alice" in out and computer_name("East", "rule") in out
    # the decisions by when they came, never a move number (issue 43, finding 6)
    when = {"en": ("trick ", "the contract"), "fr": ("pli ", "le contrat"), "it": ("presa ", "il contratto")}[lang]
    assert any(w in out for w in when) and not re.search(r"\b(?:move|coup|mossa) \d", out)


# ---------------------------------------------------------------- the Textual table
@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_table_and_its_setup_name_places(tmp_path, lang, size):
    """The setup's rows ("West plays") and the table (its title, the doubling choices, the dealer) by place."""
    app = BarbuApp(Settings(seed=4, delay=0, save=tmp_path / "s.jsonl"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        text = screen_text(app)
        shot(app, f"places-setup-{lang}-{size[0]}x{size[1]}.svg")
    clean(text)
    assert f"{place_name('West')}" in text
    m, seat = doubling_turn()
    path = tmp_path / "g.jsonl"
    write_record(m, path, {"tui": {"seat": seat, "opponents": {}}})
    app = BarbuApp(session=Session.resume(path), delay=0, confirm_forced=True)
    async with app.run_test(size=size) as pilot:
        table = await settle(pilot)
        assert table.session.view().phase == "doubling"
        text = screen_text(app)
        shot(app, f"places-table-{lang}-{size[0]}x{size[1]}.svg")
    clean(text)
    assert {"en": "you are South", "fr": "vous êtes Sud", "it": "sei Sud"}[lang] in text
    (target,) = next(a for a in m.legal_actions() if isinstance(a, Double) and len(a.targets) == 1).targets
    assert place_name(place(target, seat, 4) or "") in text


def shot(app: BarbuApp, name: str) -> None:
    """A screenshot for people when BARBU_SHOTS asks for one (helpers.shot_path)."""
    path = shot_path(name)
    if path is not None:
        app.save_screenshot(path.name, str(path.parent))


def test_the_daily_deals_line_by_line_name_places(tmp_path, monkeypatch, capsys, lang):
    """The plain daily deals: the players by place from your chair whatever your seat, the strength in words."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nzz\nquit\n"))
    db = str(tmp_path / "web.db")
    assert barbu(["--lang", lang, "play", "--daily", "--plain", "--date", "2026-11-27", "--db", db]) == 1
    out = capsys.readouterr().out
    clean(out)
    assert computer_name("West", "rule") in " ".join(out.split())
    refused = {"en": "Not allowed: 'zz'", "fr": "Refusé\u00a0: 'zz'", "it": "Non ammesso: 'zz'"}[lang]
    assert refused in out  # his language


def test_a_besigue_replay_names_the_players(tmp_path, capsys, lang):
    path = tmp_path / "b.jsonl"
    assert barbu(["selfplay", "--rules", "besigue-english", "--seed", "3", "--bots", "random", "--out", str(path)]) == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    assert head["players_names"] == ["South, random", "North, random"]  # people's words; the specs under "agents"
    head["players_names"] = ["you", "computer (good player)"]  # as the terminal game wrote them before
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert barbu(["--lang", lang, "replay", str(path)]) == 0
    out = capsys.readouterr().out
    clean(out)
    assert place_name("North") in out  # a column head, a word a line (its strength may be cut at 80 columns)
    assert {"en": "you win", "fr": "vous gagnez", "it": "hai vinto"}[lang] in out or "wins" not in out


def test_a_scottish_replay_names_the_players_on_its_set_sheet(tmp_path, capsys, lang):
    """The Set sheet under `barbu replay` said "seat 0 … seat 3", "caller seat 3", "running total: seat 0 +100"."""
    path = tmp_path / "s.jsonl"
    assert barbu(["selfplay", "--rules", "scottish", "--seed", "2", "--bots", "random", "--out", str(path)]) == 0
    capsys.readouterr()
    assert barbu(["--lang", lang, "replay", str(path)]) == 0
    out = capsys.readouterr().out
    clean(out)
    # the sheet in the reader's words too (it was English in every language): its Set, columns, running total
    first, running, place = {
        "en": ("Set 1", "running total: ", " 1st"),
        "fr": ("Manche 1", "total cumulé\u00a0: ", " 1er"),
        "it": ("Set 1", "totale progressivo: ", " 1º"),
    }[lang]
    sheet = out[out.index(first) :]
    assert f"  {place_name('West')} " in sheet and place_name("North") in sheet.split(running)[1]
    assert place in sheet
    if lang != "en":
        assert "running total" not in sheet and "Set position" not in sheet and "caller" not in sheet, sheet[:600]


@pytest.mark.parametrize("deal", [[], ["--deal", "1"]], ids=["all", "one"])
def test_a_besigue_show_names_the_players_in_the_readers_words(tmp_path, capsys, lang, deal):
    """`barbu show` of a Bésigue record printed its English text form: "seat 0 holds …", "seat 1 JS, seat 0 AC"."""
    path = tmp_path / "b.jsonl"
    assert barbu(["selfplay", "--rules", "besigue", "--seed", "4", "--bots", "rule", "--out", str(path)]) == 0
    capsys.readouterr()
    assert barbu(["--lang", lang, "show", str(path), *deal]) == 0
    out = capsys.readouterr().out
    clean(out)
    assert f"  {computer_name('North', 'rule')}" in out  # a hand, by its player's name
    trick = {"en": "trick 1: ", "fr": "pli 1\u00a0: ", "it": "presa 1: "}[lang]
    assert trick in out and "holds" not in out


#: The places of an unnamed sheet's players, seat 0 first, by table size and language.
SHEET_PLACES = {
    ("classic", "en"): ["South", "West", "North", "East"],
    ("classic", "fr"): ["Sud", "Ouest", "Nord", "Est"],
    ("classic", "it"): ["Sud", "Ovest", "Nord", "Est"],
    ("salad(players=3)", "en"): ["South", "West", "East"],
    ("salad(players=5)", "en"): ["South", "West", "North-west", "North-east", "East"],
    ("salad(players=6)", "it"): ["Sud", "Ovest", "Nord-ovest", "Nord", "Nord-est", "Est"],
}


@pytest.mark.parametrize("rules,language", list(SHEET_PLACES), ids=lambda x: str(x))
def test_the_score_sheets_name_unnamed_players_by_their_places(rules, language):
    """A sheet of a match whose players have no names (a record without them): the screen sheet, its HTML and
    its PDF head the columns with places, never "seat N"."""
    import random

    import pypdfium2 as pdfium

    from barbu.scorekeeper.pdf import render_pdf
    from barbu.scorekeeper.printhtml import render_html
    from barbu.scorekeeper.sheet import sheet_for
    from barbu.scorekeeper.textsheet import render_text

    m = Match(rules, 3)
    rng = random.Random(3)
    while len(m.results) < 2:
        m.play_chance() if m.to_act() == CHANCE else m.apply(rng.choice(m.legal_actions()))
    sheet = sheet_for(m.rules, None, m.results, lang=language)
    assert list(sheet.names) == SHEET_PLACES[(rules, language)]
    html = render_html(sheet)
    pdf = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(render_pdf(sheet)))
    for text in (render_text(sheet), html, pdf):
        clean(text)
        assert SHEET_PLACES[(rules, language)][1] in text


@pytest.mark.parametrize("rules", ["besigue", "scottish"])
def test_a_selfplay_text_form_names_the_players(tmp_path, capsys, rules):
    """`barbu selfplay --text` wrote "seat 0 holds …" for Bésigue and "seat 0" on a Scottish scoresheet."""
    text = tmp_path / "t.txt"
    args = ["selfplay", "--rules", rules, "--seed", "3", "--bots", "random", "--text", str(text)]
    assert barbu([*args, "--out", str(tmp_path / "r.jsonl")]) == 0
    capsys.readouterr()
    out = text.read_text(encoding="utf-8")
    clean(out)
    assert "South, " in out, out[:400]


def test_a_scottish_glyph_names_its_call_in_the_readers_words(lang):
    """A glyph beside its call said the call in English in every language ("Egg (Queens)", "Banana (Pat. 1)")."""
    from barbu.i18n import words
    from barbu.scottish.scoresheet import Glyph, row_glyphs

    line = row_glyphs([Glyph(0, "egg", "queens"), Glyph(1, "banana", "patience-1")], 0, words())
    assert line == {"en": "Egg (Queens)", "fr": "Egg (Dames)", "it": "Egg (Donne)"}[lang]
