"""What the command line says when something is off: plain words that fit the case (the commands run in this
process, `tests/inprocess.py`: a process a command was most of the module's 6 s of processor)."""

from __future__ import annotations

import json
from pathlib import Path

from inprocess import Ran
from inprocess import barbu as in_process


def barbu(*args: str, columns: int = 80) -> Ran:
    return in_process(*args, columns=columns)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_player_count_is_refused_with_what_the_game_allows() -> None:
    out = barbu("selfplay", "--players", "9")
    assert out.returncode == 2 and "classic is played by 4 players, not 9" in flat(out.stderr)
    out = barbu("selfplay", "--rules", "salad", "--players", "9")
    assert "salad is played by 3 to 6 players, not 9" in flat(out.stderr)
    out = barbu("selfplay", "--rules", "french(players=2)")
    assert "french is played by 3 to 6 players, not 2" in flat(out.stderr)


def test_no_user_facing_text_names_the_seed_documents() -> None:
    out = barbu("rules")
    assert out.returncode == 0 and "seed 00" not in out.stdout
    for name in ("classic", "italian", "salad", "french", "scottish"):
        assert "seed 00" not in barbu("rules", name).stdout


def test_replay_fits_80_columns_and_finds_edited_contract_points(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    assert barbu("selfplay", "--seed", "3", "--out", str(rec)).returncode == 0
    out = barbu("replay", str(rec))
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert "…" not in out.stdout  # nothing cut off
    assert any("No King of" in line for line in lines)
    edited = []
    for line in rec.read_text().splitlines():
        d = json.loads(line)
        if d["type"] == "deal" and d["number"] == 2:
            d["base"] = [d["base"][0] + 5] + d["base"][1:]
        edited.append(json.dumps(d))
    bad = tmp_path / "edited.jsonl"
    bad.write_text("\n".join(edited) + "\n")
    out = barbu("replay", str(bad))
    assert out.returncode == 1 and "deal 2" in flat(out.stderr) and "contract points" in flat(out.stderr)


def test_the_arena_progress_bar_ends_full_when_matches_end_early(tmp_path: Path) -> None:
    out = barbu(
        "arena",
        "--rules",
        "scottish",
        "--bots",
        "rule,random,random,random",
        "--deals",
        "10",
        "--workers",
        "1",
        "--out",
        str(tmp_path / "a"),
        columns=120,
    )
    assert out.returncode == 0
    bars = [line for line in out.stdout.splitlines() if line.startswith("deals played")]
    counts = [w for w in bars[-1].split() if "/" in w and w.replace("/", "").isdigit()]
    done, total = counts[-1].split("/")
    assert done == total
