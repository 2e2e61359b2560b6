"""One style: the tree is as `ruff format` leaves it and passes `ruff check` (the configuration is pyproject.toml's)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["src", "tests", "benchmarks", "tools"]


def ruff(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    command = [shutil.which("ruff") or "", *args] if shutil.which("ruff") else [sys.executable, "-m", "ruff", *args]
    return subprocess.run([*command, "--cache-dir", str(cache), *FOLDERS], cwd=ROOT, capture_output=True, text=True)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ruff-cache")


def test_the_tree_is_formatted(cache: Path) -> None:
    run = ruff("format", "--check", cache=cache)
    assert run.returncode == 0, "run `ruff format` on:\n" + run.stdout + run.stderr


def test_the_tree_passes_the_lint(cache: Path) -> None:
    run = ruff("check", "--no-fix", cache=cache)
    assert run.returncode == 0, "run `ruff check --fix`, then mend what is left:\n" + run.stdout + run.stderr
