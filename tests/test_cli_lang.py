"""The command line in English, French and Italian: --lang on every command, the system locale, refusals.

The commands' output is what a player reads (run in this process; in a process of their own where the system's
locale is what is tested); the plain game is played from a
record resumed at a trick where the person holds a card that does not follow suit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from inprocess import Ran
from inprocess import barbu as in_process
from rich.console import Console

from barbu.agents import make_agent
from barbu.classic.match import CHANCE, Match
from barbu.classic.ruleset import Ruleset
from barbu.core.cards import RANKS
from barbu.i18n import translator
from barbu.records.barbu import load_match, write_record

LOCALE_VARS = ("BARBU_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def barbu(*args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path | None = None) -> Ran:
    """``barbu ARGS`` in English unless ``--lang`` or ``env`` says otherwise: in this process
    (`tests/inprocess.py`: a process a command cost 20 s of this module's 24 s of processor), and in a process of
    its own with the locale ``env`` when the system's language is what is tested."""
    if env is None:
        return in_process(*args, input=stdin, cwd=cwd, columns=100)
    base = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    full = {**base, "LANG": "C.UTF-8", "COLUMNS": "100", **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "barbu", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=full,
        cwd=cwd,
        timeout=300,
    )
    return Ran(done.returncode, done.stdout, done.stderr)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_help_in_french_with_lang_before_or_after_the_command() -> None:
    top = barbu("--lang", "fr", "--help")
    assert top.returncode == 0
    out = flat(top.stdout)
    assert out.startswith("usage : barbu") and "Le Barbu et sa famille de jeux de cartes." in out
    assert "afficher cette aide et quitter" in out and "jouer contre des joueurs ordinateur dans le terminal" in out
    assert "show this help message" not in out
    before, after = barbu("--lang", "fr", "play", "--help"), barbu("play", "--help", "--lang", "fr_BE")
    assert before.stdout == after.stdout and "le jeu ligne par ligne au lieu du plein écran" in flat(before.stdout)


@pytest.mark.parametrize(
    "command",
    [
        ["rules"],
        ["selfplay"],
        ["replay"],
        ["sheet"],
        ["show"],
        ["arena"],
        ["analyze"],
        ["play"],
        ["serve"],
        ["score"],
        ["score", "list"],
    ],
)
def test_every_command_takes_lang(command: list[str]) -> None:
    out = barbu(*command, "--lang", "it", "--help")
    assert out.returncode == 0, out.stderr
    text = flat(out.stdout)
    assert text.startswith("uso: barbu") and "mostra questo aiuto ed esce" in text and "--lang LANG" in text


def test_rules_in_italian() -> None:
    out = barbu("rules", "--lang", "it")
    assert out.returncode == 0
    text = flat(out.stdout)
    assert "Varianti" in text and "Le opzioni di una variante: barbu rules NOME" in text
    one = flat(barbu("rules", "classic", "--lang", "it").stdout)
    assert "vince il totale più alto" in one and "Niente donne" in one and "Contratti" in one
    # the rules' own texts (descriptions, options' and contracts' help) come from the catalogs too
    english = flat(barbu("rules", "classic").stdout)
    for text in ("The standard game", "number of players", "Each queen you take costs points", "true or false"):
        assert text in english and text not in one


def test_refusals_of_the_command_line_in_three_languages() -> None:
    words = {
        "en": "--port is a port number from 1 to 65535, not 0",
        "fr": "barbu : erreur : --port est un numéro de port de 1 à 65535, pas 0",
        "it": "barbu: errore: --port è un numero di porta da 1 a 65535, non 0",
    }
    for lang, text in words.items():
        out = barbu("serve", "--port", "0", "--lang", lang)
        assert out.returncode == 2 and text in flat(out.stderr)
    # argparse's own refusals, routed through the catalog
    out = barbu("--lang", "fr", "selfplay", "--seed", "abc")
    assert out.returncode == 2
    assert "barbu selfplay : erreur : argument --seed : valeur int invalide : 'abc'" in flat(out.stderr)
    out = barbu("--lang", "it", "rules", "--nope")
    assert out.returncode == 2 and "errore: argomenti non riconosciuti: --nope" in flat(out.stderr)
    out = barbu("--lang", "de", "rules")
    assert out.returncode == 2 and "'de' is not a language barbu speaks: choose en, fr or it" in flat(out.stderr)


def test_a_record_error_is_worded_in_french(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    assert barbu("selfplay", "--seed", "3", "--out", str(rec)).returncode == 0
    out = barbu("show", str(rec), "--deal", "99", "--lang", "fr")
    assert out.returncode == 2
    assert "barbu : erreur : la partie enregistrée compte 28 donnes finies ; il n'y a pas de donne 99" in flat(
        out.stderr
    )
    edited = tmp_path / "edited.jsonl"
    lines = [json.loads(line) for line in rec.read_text(encoding="utf-8").splitlines()]
    for obj in lines:
        if obj.get("type") == "deal" and obj.get("number") == 2:
            obj["scores"][0] += 10
    edited.write_text("".join(json.dumps(obj) + "\n" for obj in lines), encoding="utf-8")
    out = barbu("replay", str(edited), "--lang", "it")
    assert out.returncode == 1
    assert "incoerente: smazzata 2 (riga" in flat(out.stderr) and "ma il gioco dà" in flat(out.stderr)
    edited.write_text('{"type": "header", "format": "barbu-record", "version": 1, "seed": "x"}\n', encoding="utf-8")
    out = barbu("replay", str(edited), "--lang", "it")
    assert out.returncode == 2
    # the engine's refusal inside the record's is worded in the same language
    assert "barbu: errore: registrazione malformata: riga 1: regole non valide: '' non è un insieme di regole" in flat(
        out.stderr
    )
    edited.write_text(
        '{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic", "seed": "x"}\n',
        encoding="utf-8",
    )
    out = barbu("replay", str(edited), "--lang", "fr")
    assert (
        "barbu : erreur : partie enregistrée mal formée : ligne 1 : la graine doit être un nombre entier ou null"
        in flat(out.stderr)
    )
    assert "line 1: the seed must be a whole number or null" in flat(barbu("replay", str(edited)).stderr)
    shown = flat(barbu("show", str(rec), "--deal", "1", "--lang", "it").stdout)
    assert (
        "Smazzata 1" in shown
        and "mazziere Nord, giocatore a caso" in shown
        and "Totale progressivo".lower() in shown.lower()
    )


def test_the_system_locale_is_the_default_and_english_stays_the_default() -> None:
    fr = barbu("--help", env={"LANG": "fr_FR.UTF-8"})
    assert flat(fr.stdout).startswith("usage : barbu") and "afficher cette aide" in fr.stdout
    it = barbu("rules", env={"LC_ALL": "it_IT.UTF-8", "LANG": "fr_FR.UTF-8"})  # LC_ALL before LANG
    assert "Varianti" in it.stdout
    assert "Variantes" in barbu("rules", env={"BARBU_LANG": "fr", "LC_ALL": "it_IT.UTF-8"}).stdout
    assert "Presets" in barbu("rules", "--lang", "en", env={"LANG": "fr_FR.UTF-8"}).stdout  # --lang wins
    en = barbu("--help")
    assert en.stdout.startswith("usage: barbu") and "show this help message and exit" in en.stdout
    assert "Show one preset's options with barbu rules NAME" in flat(barbu("rules").stdout)


def awaiting_a_card_off_suit(seed: int) -> tuple[Match, int, int]:
    """A match played by computer players up to a trick where seat 0 must follow suit and holds another suit:
    returns the match, the suit led and a card of seat 0 that does not follow it."""
    m = Match(Ruleset.parse("classic(undoubled_negative=play)"), seed)
    bots = {s: make_agent("rule", seed * 10 + s) for s in range(4)}
    while not m.is_over:
        actor = m.to_act()
        if actor == CHANCE:
            m.play_chance()
            continue
        v = m.view(actor)
        if actor == 0 and v.phase == "play" and v.trick:
            led = v.trick[0] // 13
            hand = [c for c in range(52) if v.hand >> c & 1]
            off = [c for c in hand if c // 13 != led]
            if off and any(c // 13 == led for c in hand):
                return m, led, off[0]
        m.apply(bots[actor].act(v))
    raise AssertionError("no such trick")


def typed_card(card: int, lang: str) -> str:
    """A card as a player of ``lang`` types it: rank letter then suit letter (``dk``: dame de carreau)."""
    w = translator(lang)
    rank = w.pgettext("rank letter", RANKS[card % 13].replace("T", "10"))
    return (rank + w.pgettext("suit letter", "SHDC"[card // 13])).lower()


@pytest.mark.parametrize(
    "lang,refusal,suits",
    [
        ("fr", "Refusé : vous devez fournir : jouez un", ("pique", "cœur", "carreau", "trèfle")),
        ("it", "Non ammesso: devi rispondere al seme", ("picche", "cuori", "quadri", "fiori")),
        ("en", "Not allowed: you must follow suit: play a", ("spade", "heart", "diamond", "club")),
    ],
)
def test_an_illegal_card_in_the_plain_game_is_refused_in_the_players_language(
    tmp_path: Path, lang: str, refusal: str, suits: tuple[str, ...]
) -> None:
    m, led, off = awaiting_a_card_off_suit(7)
    rec = tmp_path / "game.jsonl"
    write_record(m, rec)
    out = barbu(
        "play",
        "--plain",
        "--resume",
        str(rec),
        "--lang",
        lang,
        "--confirm-forced",
        stdin=f"{typed_card(off, lang)}\nquit\n",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    text = flat(out.stdout)
    assert refusal in text, text
    said = text[text.index(refusal) :][: len(refusal) + 40]
    assert suits[led] in said
    assert load_match(rec).to_act() == 0 and len(load_match(rec).trick_log) == len(m.trick_log)  # nothing changed


def test_a_french_deal_in_the_plain_game(tmp_path: Path) -> None:
    """A deal declared, doubled and played through with French words: a contract by its name, passe or
    contre, cards by French letters (``5t``: the five of clubs, trèfle)."""
    from barbu.cli.textplay import play_in_terminal
    from barbu.i18n import use

    typed: list[str] = []
    letters = {sym: translator("fr").pgettext("suit letter", "SHDC"[i]).lower() for i, sym in enumerate("♠♥♦♣")}

    def player(prompt: str) -> str:
        """Types the first action on offer, as a French player writes it."""
        assert prompt == "votre coup> "
        offered = out.getvalue().rsplit("Vous pouvez\u00a0: ", 1)[1].split("\n")[0]
        choice = offered.split(", ")[0].strip()
        if choice[-1] in letters:  # a card: rank letter and suit letter, as typed
            choice = choice[:-1].lower() + letters[choice[-1]]
        typed.append(choice)
        return choice if "Donne 1 finie" not in out.getvalue() else "quitter"

    out = StringIO()
    use("fr")
    try:
        args = argparse.Namespace(
            resume=None,
            rules="classic",
            players=None,
            seed=11,
            seat=3,
            save=str(tmp_path / "g.jsonl"),
            opponents="random",
            confirm_forced=True,
        )
        assert play_in_terminal(args, read=player, console=Console(file=out, width=100)) == 0
    finally:
        use("en")
    text = flat(out.getvalue())
    # the game in words, the players by their places from the person's chair (seat 3): seat 0 on his left
    assert (
        "Vous êtes Sud, contre 3 joueurs ordinateur : Ouest, joueur au hasard; Nord, joueur au hasard; Est, joueur au hasard ; jeu : Classique."
        in text
    )
    assert "Donne 1 sur 28 — donneur vous" in text and "Votre main : ♠" in text
    assert "Contrat : Pas de plis" in text and "Plis gagnés : Ouest : " in text
    assert "Donne 1 finie (Pas de plis) : points Ouest : " in text and "Refusé" not in text
    assert typed[0] == "pas de plis"
    assert any(t == "passe" or t.startswith("contre") for t in typed)
    assert sum(t[-1] in letters.values() for t in typed) >= 10  # the cards of the deal, typed in French
    assert "Enregistré dans" in text


@pytest.mark.parametrize(
    "argv,env,expected",
    [
        (["--lang", "it", "serve"], {}, "it"),
        (["serve", "--lang", "fr_CH"], {"LANG": "it_IT.UTF-8"}, "fr"),
        (["serve"], {"LANG": "fr_FR.UTF-8"}, "fr"),
        (["serve"], {"LANG": "C.UTF-8"}, "en"),
    ],
)
def test_serve_gives_its_language_to_the_web_as_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, argv: list[str], env: dict[str, str], expected: str
) -> None:
    """The pages' language when a browser names none: --lang, else the system's (the server is not started)."""
    import barbu.web.server as server
    from barbu.cli.main import main
    from barbu.i18n import current, use

    for var in LOCALE_VARS:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    seen = {}
    monkeypatch.setattr(server, "check_startup", lambda settings, host, port: None)
    monkeypatch.setattr(server, "serve", lambda settings, **kw: seen.setdefault("lang", settings.default_lang) and True)
    try:
        assert main([*argv, "--db", str(tmp_path / "w.db")]) == 0
        assert seen["lang"] == expected == current()
    finally:
        use("en")


def test_besigue_plain_game_in_italian(tmp_path: Path) -> None:
    """Italian words for Bésigue: a card typed with Italian letters is played, a bad text refused in Italian,
    the game's own commands (ultima, punteggi, esci) understood, numbers written the Italian way."""
    out = barbu(
        "play",
        "--plain",
        "--rules",
        "besigue",
        "--seed",
        "2",
        "--lang",
        "it",
        stdin="xx\ndp\nultima\npunteggi\nesci\n",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    text = flat(out.stdout)
    assert "Sei Sud, contro il computer seduto Nord" in text and "gioco: Bésigue." in text  # the game in words
    assert "Smazzata 1, atout" in text and "(a 1.000)" in text and "La tua mano:" in text
    assert "Non ammesso: non riesco a leggere l'azione 'xx'" in text
    assert "tu: D♠" in text and "Ultima presa: computer 9♦, tu D♠" in text and "Totali: tu 0, computer 0" in text
    assert "Salvata in barbu-game.jsonl" in text and (tmp_path / "barbu-game.jsonl").exists()


def test_arena_in_italian_writes_numbers_and_contracts_the_italian_way(tmp_path: Path) -> None:
    out = barbu(
        "arena",
        "--deals",
        "1",
        "--bots",
        "random",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "a"),
        "--lang",
        "it",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    text = flat(out.stdout)
    assert "smazzate in duplicato" in text and "punti per smazzata" in text
    assert re.search(r"[+-]\d+,\d\d ± \d+,\d\d", text)  # a decimal comma
    assert "Per contratto" in text and "no-queens" not in text and "no-tricks" not in text


def test_the_persons_own_doubles_read_as_sentences_in_french_and_italian():
    """ "vous a contré Est" was "you" put where a name goes; the person's doubles have sentences of their own."""
    from barbu.cli.textplay import double_words
    from barbu.cli.wording import seat_names
    from barbu.i18n import current, use

    before = current()
    try:
        use("fr")
        with seat_names(("vous", "Ouest", "Nord", "Est")):
            assert double_words(0, 3, False, 0) == "vous avez contré Est"
            assert double_words(3, 0, True, 0) == "Est vous a contré (surcontré)"
            assert double_words(3, 2, False, 0) == "Est a contré Nord"
        use("it")
        with seat_names(("tu", "Ovest", "Nord", "Est")):
            assert double_words(0, 3, False, 0) == "hai contrato Est"
            assert double_words(3, 0, False, 0) == "Est ti ha contrato"
    finally:
        use(before)
