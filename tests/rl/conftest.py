"""The training adapters need the optional ``rl`` extra: each test module skips itself without it
(``pytest.importorskip("pettingzoo")`` first, which brings gymnasium and numpy)."""

import importlib.util
import os

import pytest

if os.environ.get("CI", "").lower() == "true":  # CI installs the extra: a skip there would hide a failure
    missing = [m for m in ("pettingzoo", "gymnasium", "numpy", "pyspiel") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.exit(
            f"CI: the rl extra is not installed ({', '.join(missing)} missing): pip install -e '.[test,rl]'",
            returncode=1,
        )


@pytest.fixture(scope="session")
def plugin_path(tmp_path_factory):
    """A folder that makes the ``policy`` computer player visible as an installed entry point.

    ``pip install -e '.[rl]'`` installs it from pyproject.toml; a checkout used through PYTHONPATH
    (another copy installed) lacks it, so the tests add the same entry point in a throwaway
    distribution.  Returns the folder, for the PYTHONPATH of subprocesses.
    """
    import sys

    from barbu.agents.base import plugin_factory

    folder = tmp_path_factory.mktemp("plugin")
    info = folder / "barbu_rl_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: barbu-rl-test\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[barbu.agents]\npolicy = barbu.rl.policy:policy_agent\n")
    if plugin_factory("policy") is None:
        sys.path.append(str(folder))
    assert plugin_factory("policy") is not None
    return folder
