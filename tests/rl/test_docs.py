"""docs/rl.md's Python examples run as written (each in a fresh interpreter, from a file: the vector example
starts worker processes)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the rl extra (with gymnasium and numpy)
pytest.importorskip("pyspiel")

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "rl.md").read_text(), re.DOTALL)


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 4 and any("barbu.rl.env(" in b for b in BLOCKS) and any("pyspiel" in b for b in BLOCKS)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_example_runs(index, tmp_path):
    script = tmp_path / f"example{index}.py"
    script.write_text(BLOCKS[index])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=600, check=False, cwd=tmp_path
    )
    assert run.returncode == 0, f"{BLOCKS[index]}\n{run.stderr}"
