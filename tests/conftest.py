"""What every test gets: a machine of its own.

A test reads and writes only its own temporary folders (pytest's ``tmp_path`` and ``tmp_path_factory``): each
test runs in its own empty ``tmp_path`` as the current folder, so a command that writes "here" (a saved match,
``barbu-web.db``) writes there; HOME and the XDG folders are temporary folders of this run; the language
variables of the machine (``BARBU_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) are set aside, so
every test speaks English unless it asks for another language; Hypothesis keeps no example database (a failure
found once is not replayed by a later run from a file in the repository), and what else it keeps goes to a
folder removed at the end; pytest-benchmark (no test uses it) is left out, with its ./.benchmarks.  Screenshots for people are kept only
when ``BARBU_SHOTS=/some/folder`` asks for them (``helpers.shot_path``).

Markers (``pyproject.toml``): ``slow`` (the longer runs) and ``browser`` (drives Debian's chromium; given to
every test that uses the ``browser`` fixture, here, so ``-m "not browser"`` never starts one).
"""

from __future__ import annotations

import os
import shutil
import site
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

settings.register_profile("barbu-tests", database=None)
settings.load_profile("barbu-tests")
# What Hypothesis keeps besides (the constants it reads from the source, while pytest collects) goes to a folder of
# this test process's own, removed at the end, not to ./.hypothesis.
_HYPOTHESIS_HOME = Path(tempfile.mkdtemp(prefix="barbu-tests-hypothesis-"))
set_hypothesis_home_dir(_HYPOTHESIS_HOME)


def pytest_unconfigure(config: pytest.Config) -> None:
    set_hypothesis_home_dir(None)
    shutil.rmtree(_HYPOTHESIS_HOME, ignore_errors=True)


#: The variables a program reads the user's language from (barbu.i18n.LOCALE_VARIABLES, and the C library's).
LANGUAGE_VARIABLES = ("BARBU_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(scope="session", autouse=True)
def a_machine_of_its_own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """HOME, the XDG folders and the current folder in this run's temporary folders; no language of the machine."""
    home = tmp_path_factory.mktemp("home")
    mp = pytest.MonkeyPatch()
    # the packages installed with `pip install --user` stay importable by the commands the tests start
    if "PYTHONUSERBASE" not in os.environ:
        mp.setenv("PYTHONUSERBASE", site.getuserbase())
    mp.setenv("HOME", str(home))
    for var, sub in (
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        mp.setenv(var, str(home / sub))
    for var in LANGUAGE_VARIABLES:
        mp.delenv(var, raising=False)
    mp.setenv("LANG", "C.UTF-8")  # English, and UTF-8 for the commands the tests start
    mp.chdir(tmp_path_factory.mktemp("cwd"))  # the module fixtures' folder (each test gets its own, below)
    yield home
    mp.undo()


@pytest.fixture(autouse=True)
def _in_its_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in its own empty temporary folder."""
    monkeypatch.chdir(tmp_path)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The ``browser`` marker on every test that drives chromium (uses the ``browser`` fixture), before ``-m``
    selects: a test cannot forget it.

    Then the modules that hold long runs first: those with a ``slow`` test, then those with a browser test, then
    the rest, each module whole (its server started once) and in the order collected.  With ``--dist
    worksteal`` (``pyproject.toml``) a test process that runs out of tests takes half of another's queue, so the
    long runs are shared out at the start and the quick ones fill in at the end: a run does not end on one
    process with one long test while the other waits."""
    rank: dict[str, int] = {}
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)
        mine = 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 2
        rank[item.nodeid.split("::")[0]] = min(mine, rank.get(item.nodeid.split("::")[0], 2))
    items.sort(key=lambda item: rank[item.nodeid.split("::")[0]])
