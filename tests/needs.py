"""What a test needs from the machine: missing, it skips on a developer's machine and FAILS under CI
(``CI=true``), where .ci/run installs everything, so that nothing is ever skipped there in silence."""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _missing(what: str, hint: str) -> None:
    if in_ci():
        pytest.fail(f"{what} is missing: {hint} (.ci/run must provide it)", pytrace=False)
    pytest.skip(f"{what} is not installed ({hint})")


def tool(name: str, hint: str) -> str:
    """The path of a program on PATH (or in /usr/sbin), else a skip, or a failure under CI."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        _missing(name, hint)
    assert found is not None
    return found


def module(name: str, hint: str) -> ModuleType:
    """An importable module, else a skip, or a failure under CI."""
    try:
        return importlib.import_module(name)
    except ImportError:
        _missing(f"the module {name}", hint)
        raise
