"""`barbu play` from the command line, and the settings it builds (no screen needed)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from barbu.agents import AGENT_KINDS
from barbu.tui import Settings

PLAYED = "classic(undoubled_negative=play)"


def test_settings_refuse_bad_seats_and_strengths():
    from barbu.core.errors import RulesetError

    with pytest.raises(RulesetError, match="there is no seat 4"):
        Settings(seat=4).check()
    with pytest.raises(RulesetError, match="unknown computer player"):
        Settings(opponents={1: "grandmaster"}).check()


def test_cli_play_plain_and_help(tmp_path):
    save = tmp_path / "plain.jsonl"
    out = subprocess.run(
        [sys.executable, "-m", "barbu", "play", "--plain", "--seed", "1", "--save", str(save)],
        input="zz\npass\nquit\n",  # a move made (seat 0's first decision is a double or a pass): kept
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "Not allowed" in out.stdout and save.exists()
    helptext = subprocess.run([sys.executable, "-m", "barbu", "play", "--help"], capture_output=True, text=True)
    for flag in ("--delay", "--opponents", "--plain", "--resume", "--start", "--confirm-forced"):
        assert flag in helptext.stdout


def test_cli_opponents_parsing():
    from barbu.core.errors import AgentError, RulesetError
    from barbu.play.options import parse_opponents

    kind = AGENT_KINDS[0]
    assert parse_opponents(kind, 4, 1) == {0: kind, 2: kind, 3: kind}
    assert parse_opponents(",".join([kind] * 3), 4, 0) == {1: kind, 2: kind, 3: kind}
    assert parse_opponents("search(samples=5, seconds=0.2),rule,random", 4, 3) == {
        0: "search(samples=5, seconds=0.2)",
        1: "rule",
        2: "random",
    }
    with pytest.raises(AgentError, match="unknown computer player"):
        parse_opponents("grandmaster", 4, 0)
    with pytest.raises(RulesetError, match="give one for all"):
        parse_opponents(f"{kind},{kind}", 4, 0)


def test_session_plays_a_deal_and_resumes_from_its_record(tmp_path):
    """The session (no screen): the person's and the bots' moves, deals reported once, the record's seats."""
    from barbu.classic.match import CHANCE
    from barbu.classic.ruleset import Ruleset
    from barbu.tui import Session

    save = tmp_path / "s.jsonl"
    s = Session.new(
        Settings(rules=Ruleset.parse("salad(players=3)"), seat=1, seed=3, save=save, opponents={0: AGENT_KINDS[0]})
    )
    assert s.match.seed == 3 and set(s.strengths) == {0, 2}
    while not s.match.results:
        actor = s.to_act()
        if actor == CHANCE:
            s.play_chance()
        elif actor == s.seat:
            assert s.human_to_act() and s.bot_seat() is None
            s.apply_human(s.view().legal[0])
        else:
            assert s.bot_seat() == actor
            view = s.bot_view(actor)
            assert view.seat == actor and view.hand == s.match.hands[actor]
            s.apply_bot(actor, s.agents[actor].act(view))
    assert [r.number for r in s.finished_deals()] == [1] and s.finished_deals() == []
    assert s.save() == save
    again = Session.resume(save)
    assert again.seat == 1 and again.strengths == s.strengths and again.moves == s.moves
    assert again.finished_deals() == []  # deals already played are not reported again
    other = Session.resume(save, seat=2)
    assert other.seat == 2 and set(other.strengths) == {0, 1}


def test_session_refuses_a_bad_typed_action_and_keeps_the_state():
    from barbu.classic.match import CHANCE
    from barbu.core.errors import BarbuError
    from barbu.tui import Session

    s = Session.new(Settings(seed=2, save=None))
    while s.to_act() == CHANCE or not s.human_to_act():
        if s.to_act() == CHANCE:
            s.play_chance()
        else:
            seat = s.bot_seat()
            s.apply_bot(seat, s.agents[seat].act(s.bot_view(seat)))
    before = s.moves
    with pytest.raises(BarbuError):
        s.apply_human("zz")
    assert s.moves == before


def test_barbu_play_opens_the_textual_game_in_a_terminal(tmp_path):
    """`barbu play` in a real (pseudo-)terminal: the table appears, Ctrl+Q saves and quits."""
    import fcntl
    import os
    import pty
    import select
    import struct
    import termios
    import time

    save = tmp_path / "tty.jsonl"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in a terminal of 120x40 from the start
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
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
        if not sent and b"Your hand" in seen and b"Your decision" in seen:
            time.sleep(0.5)
            os.write(fd, b"\r")  # one decision (the cursor's): a match quit before any move is not kept
            time.sleep(0.5)
            os.write(fd, b"\x11")  # Ctrl+Q
            sent = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert sent, seen[-2000:]
    assert os.waitstatus_to_exitcode(status) == 0
    assert save.exists() and b"Resume with: barbu play --resume" in seen


def plain_game(tmp_path, confirm: bool) -> str:
    """One deal of the line-by-line game, answering each question with the first choice offered."""
    import argparse
    import io

    from rich.console import Console

    from barbu.cli.textplay import play_in_terminal

    out = io.StringIO()
    console = Console(file=out, width=200, highlight=False)

    def read(_prompt: str) -> str:
        text = out.getvalue()
        if "Deal 2 over" in text or text.count("Not allowed") > 3:  # two deals: some forced move is all but sure
            return "quit"
        offered = text.rsplit("You may: ", 1)[-1].splitlines()[0]
        if offered.startswith("contract "):
            return "no-queens" if "no-queens" in offered.split() else " ".join(offered.split()[:2])
        return "pass" if "pass" in offered.split() else offered.split()[0]

    args = argparse.Namespace(
        resume=None,
        rules=PLAYED,
        players=None,
        sets=None,
        seed=5,
        seat=0,
        save=str(tmp_path / f"plain-{confirm}.jsonl"),
        opponents="rule",
        confirm_forced=confirm,
    )
    assert play_in_terminal(args, read=read, console=console) == 0
    assert "Not allowed" not in out.getvalue()
    return out.getvalue()


def test_the_plain_game_plays_forced_moves_too(tmp_path):
    auto = plain_game(tmp_path, confirm=False)
    assert "your only legal card" in auto  # a last card, or a lone card of the suit led
    asked = plain_game(tmp_path, confirm=True)
    assert "your only legal card" not in asked and "Deal 1 over" in asked
