"""`barbu.solver.fast` runs the compiled core when it is built, the pure one otherwise or when asked."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def which_core(env_extra: dict[str, str]) -> str:
    env = dict(os.environ, **env_extra)
    code = "from barbu.solver import fast; print(fast.COMPILED, fast.solve.__module__)"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_barbu_pure_forces_the_pure_core():
    assert which_core({"BARBU_PURE": "1"}) == "False barbu.solver.pure"


def test_the_compiled_core_is_used_when_built():
    if os.environ.get("CI", "").lower() != "true":  # CI's machine has gcc: the core must have been built there
        pytest.importorskip("barbu.solver._fast", reason="the C core is not built")
    assert which_core({"BARBU_PURE": ""}).startswith("True")


def test_without_the_extension_the_pure_core_is_used():
    """A tree without the compiled file (as after an install with no C compiler) falls back to pure."""
    import barbu

    src = os.path.dirname(os.path.dirname(barbu.__file__))
    code = "import sys; sys.modules['barbu.solver._fast'] = None\nfrom barbu.solver import fast; print(fast.COMPILED)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=src), capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "False"


def test_the_rule_playouts_are_compiled_only():
    """On the pure path the search players play their rollouts through the engine (`fast.rule_playouts` is None)."""
    code = "from barbu.solver import fast; print(fast.rule_cards is None, fast.rule_playouts is None)"
    env = dict(os.environ, BARBU_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"
