"""``barbu serve`` on the command line: its options, and a clear error for a bad one."""

from __future__ import annotations

import pytest

from barbu.agents import AGENT_KINDS
from barbu.cli.main import build_parser, main


def test_serve_lists_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--db", "--grace", "--bot-delay", "--deal-pause", "--stand-in"):
        assert option in out


def test_serve_defaults_to_loopback_and_sqlite() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and args.db is None


def test_an_unknown_stand_in_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["serve", "--stand-in", "grandmaster"])
    assert e.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    assert build_parser().parse_args(["serve", "--stand-in", AGENT_KINDS[0]]).stand_in == AGENT_KINDS[0]


def test_extra_origins_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--allow-origin", "cards.example.org"]) == 2
    assert "--allow-origin takes an origin such as https://" in capsys.readouterr().err
    args = build_parser().parse_args(
        ["serve", "--allow-origin", "https://a.example", "--allow-origin", "http://b:8080"]
    )
    assert args.allow_origin == ["https://a.example", "http://b:8080"]


def test_a_negative_unload_delay_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--unload-after", "-5"]) == 2
    assert "--unload-after is 0 or more" in capsys.readouterr().err
