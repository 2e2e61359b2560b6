"""The package type-checks: mypy, with pyproject.toml's settings (strict on the rules core and its floor), finds
no error anywhere in ``src/barbu``: the engine, the front ends (terminal, command line, web) and the packages
between them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "barbu"


@pytest.mark.slow
def test_mypy_finds_no_error(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    out, err, _status = api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--no-error-summary",
            str(SRC),
        ]
    )
    assert "error: " not in err, err
    errors = [line for line in out.splitlines() if re.match(r"^[^:]+:\d+: error: ", line)]
    assert not errors, f"{len(errors)} type errors:\n" + "\n".join(errors)
