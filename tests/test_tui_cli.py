"""`barbu play` from the command line, and the settings it builds (no screen needed)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from barbu.agents import AGENT_KINDS
from barbu.tui import Settings


def test_settings_refuse_bad_seats_and_strengths():
    from barbu.errors import RulesetError
    with pytest.raises(RulesetError, match="there is no seat 4"):
        Settings(seat=4).check()
    with pytest.raises(RulesetError, match="unknown computer player"):
        Settings(opponents={1: "grandmaster"}).check()


def test_cli_play_plain_and_help(tmp_path):
    save = tmp_path / "plain.jsonl"
    out = subprocess.run([sys.executable, "-m", "barbu", "play", "--plain", "--seed", "1", "--save", str(save)],
                         input="zz\nquit\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Not allowed" in out.stdout and save.exists()
    helptext = subprocess.run([sys.executable, "-m", "barbu", "play", "--help"], capture_output=True, text=True)
    for flag in ("--delay", "--opponents", "--plain", "--resume", "--start"):
        assert flag in helptext.stdout


def test_cli_opponents_parsing():
    from barbu.errors import RulesetError
    from barbu.tui.launch import parse_opponents
    kind = AGENT_KINDS[0]
    assert parse_opponents(kind, 4, 1) == {0: kind, 2: kind, 3: kind}
    assert parse_opponents(",".join([kind] * 3), 4, 0) == {1: kind, 2: kind, 3: kind}
    with pytest.raises(RulesetError, match="unknown computer player"):
        parse_opponents("grandmaster", 4, 0)
    with pytest.raises(RulesetError, match="give one for all"):
        parse_opponents(f"{kind},{kind}", 4, 0)
