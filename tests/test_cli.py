"""The command line, end to end: its commands run through its entry point in this process (`tests/inprocess.py`:
a process a command cost 18 s of the module's 23.5 s of processor); the first test starts one, as a player
does, and `tests/test_light_install.py` starts others."""

import json
import subprocess
import sys

import pytest
from inprocess import barbu


def test_rules_lists_presets_and_options():
    out = subprocess.run([sys.executable, "-m", "barbu", "rules"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "classic" in out.stdout
    one = barbu("rules", "classic(rotation=quick)")
    assert one.returncode == 0
    assert "undoubled_negative" in one.stdout and "No King of hearts" in one.stdout and "quick" in one.stdout


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_rules_options_fit_80_columns(monkeypatch, lang):
    """The options table was 81 columns wide at 80: a terminal cut its right-hand column and border."""
    import argparse
    import io

    from rich.console import Console

    import barbu.cli.rules as rules
    from barbu.i18n import use

    buf = io.StringIO()
    monkeypatch.setattr(rules, "console", Console(file=buf, width=80, highlight=False))
    use(lang)
    try:
        rules.cmd_rules(argparse.Namespace(name="classic"))
    finally:
        use("en")
    tops = [line for line in buf.getvalue().splitlines() if line.startswith("┏")]
    assert len(tops) == 2 and all(line.endswith("┓") for line in tops), tops


def test_rules_bad_option_is_a_clear_error():
    out = barbu("rules", "classic(rotation=fast)")
    assert out.returncode == 2
    assert "option rotation: 'fast' is not allowed; use dealer, quick" in out.stderr


def test_selfplay_replay_show(tmp_path):
    rec = tmp_path / "game.jsonl"
    out = barbu("selfplay", "--rules", "classic", "--seed", "7", "--out", str(rec))
    assert out.returncode == 0, out.stderr
    assert "Final standings" in out.stdout and "167" in out.stdout  # seed 7 is the golden match
    rep = barbu("replay", str(rec))
    assert rep.returncode == 0 and "consistent" in rep.stdout and "76 167 -282 39" in rep.stdout
    show = barbu("show", str(rec), "--deal", "3")
    assert show.returncode == 0
    assert "Deal 3" in show.stdout and "Tricks" in show.stdout and "with doubles" in show.stdout
    assert "♠" in show.stdout
    whole = barbu("show", str(rec))
    assert whole.returncode == 0 and '[Deal "28"]' in whole.stdout
    missing = barbu("show", str(rec), "--deal", "40")
    assert missing.returncode == 2 and "no deal 40" in missing.stderr


def test_selfplay_is_deterministic(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    barbu("selfplay", "--seed", "3", "--out", str(a))
    barbu("selfplay", "--seed", "3", "--out", str(b))
    assert a.read_text() == b.read_text()


def test_replay_of_an_inconsistent_record_exits_non_zero(tmp_path):
    rec = tmp_path / "game.jsonl"
    barbu("selfplay", "--seed", "2", "--out", str(rec))
    lines = rec.read_text().splitlines()
    for i, raw in enumerate(lines):
        obj = json.loads(raw)
        if obj["type"] == "deal" and obj["number"] == 4:
            obj["scores"][1] -= 5
            lines[i] = json.dumps(obj)
    rec.write_text("\n".join(lines) + "\n")
    out = barbu("replay", str(rec))
    assert out.returncode == 1 and "deal 4" in out.stderr


def test_malformed_record_gives_line_number(tmp_path):
    rec = tmp_path / "bad.jsonl"
    rec.write_text('{"type": "header", "format": "barbu-record", "version": 1, "rules": "classic"}\n{oops\n')
    out = barbu("replay", str(rec))
    assert out.returncode == 2 and "line 2" in out.stderr
    out = barbu("replay", str(tmp_path / "missing.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr


def test_play_against_the_computer_quit_and_resume(tmp_path):
    """Drive `barbu play` through stdin: refuse a bad move, play legal ones, quit, resume."""
    save = tmp_path / "mine.jsonl"
    # Quit before any move: nothing is kept (no "0 of 28 deals played" left behind; issue 43, finding 10).
    out = barbu("play", "--seed", "1", "--save", str(save), input="zz\nquit\n")
    assert out.returncode == 0 and "Nothing was played: nothing is saved." in out.stdout
    assert not save.exists()
    # "zz" is not an action: refused; seat 0's first decision is a double or a pass; then quit saves.
    out = barbu("play", "--seed", "1", "--save", str(save), input="zz\nhelp\npass\nquit\n")
    assert out.returncode == 0, out.stderr
    assert "Not allowed" in out.stdout and "Saved to" in out.stdout
    assert save.exists()
    again = barbu("play", "--resume", str(save), input="quit\n")
    assert again.returncode == 0 and "Resumed" in again.stdout


@pytest.mark.parametrize(
    "rules,players",
    [
        ("italian", None),
        ("italian-six", None),
        ("salad", "3"),
        ("salad", "6"),
        ("french", "3"),
        ("french", "5"),
        ("classic(chinese_poker=true, ravage_city=true)", None),
        ("scottish", None),
    ],
)
def test_every_preset_selfplays_replays_and_shows(tmp_path, rules, players):
    rec = tmp_path / "g.jsonl"
    args = ["selfplay", "--rules", rules, "--seed", "5", "--out", str(rec)]
    if players:
        args += ["--players", players]
    out = barbu(*args)
    assert out.returncode == 0, out.stderr
    assert "Final standings" in out.stdout
    rep = barbu("replay", str(rec))
    assert rep.returncode == 0 and "consistent" in rep.stdout, rep.stderr
    show = barbu("show", str(rec), "--deal", "2")
    assert show.returncode == 0 and "Deal 2" in show.stdout
    assert barbu("rules", rules.split("(")[0]).returncode == 0


def test_wrong_player_count_is_refused_with_what_is_allowed():
    out = barbu("selfplay", "--rules", "french", "--players", "2")
    assert out.returncode == 2 and "french is played by 3 to 6 players, not 2" in out.stderr
    out = barbu("selfplay", "--rules", "classic", "--players", "5")
    assert out.returncode == 2 and "classic is played by 4 players, not 5" in out.stderr


def test_rules_shows_each_family():
    for name, expect in (("french", "Success"), ("italian-six", "Misère"), ("salad", "Salad"), ("italian", "Atout")):
        out = barbu("rules", name)
        assert out.returncode == 0 and expect in out.stdout


def test_a_mistyped_argument_is_one_line_that_names_it():
    for args, wrong in (
        (["serve", "--port", "abc"], "--port"),
        (["play", "--delay", "-3"], "--delay"),
        (["play", "--players", "x"], "--players"),
    ):
        out = barbu(*args)
        lines = out.stderr.strip().splitlines()
        assert out.returncode == 2 and len(lines) == 1, out.stderr
        assert wrong in lines[0] and "error:" in lines[0] and "--help" in lines[0] and "usage" not in out.stderr


def test_analyze_refuses_a_missing_file_and_a_deal_the_record_lacks(tmp_path):
    out = barbu("analyze", str(tmp_path / "missing.jsonl"))
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"barbu: error: cannot read {tmp_path / 'missing.jsonl'}: No such file or directory"
    ]
    record = tmp_path / "m.jsonl"
    assert (
        barbu(
            "selfplay", "--rules", "classic(rotation=quick)", "--seed", "4", "--bots", "random", "--out", str(record)
        ).returncode
        == 0
    )
    out = barbu("analyze", str(record), "--deal", "99")
    assert out.returncode == 2 and "there is no deal 99" in out.stderr and out.stderr.startswith("barbu: error:")
