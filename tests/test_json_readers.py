"""Every JSON reader goes through `barbu.core.safejson.loads`: a module that parses JSON itself fails here.

The source is read as Python syntax (ast), not searched as text, so neither a comment nor an alias
(``import json as j``, ``from orjson import loads``) hides a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import barbu
from barbu.core import safejson

SRC = Path(barbu.__file__).parent
READERS = {"json": {"loads", "load"}, "orjson": {"loads"}, "simplejson": {"loads", "load"}, "ujson": {"loads", "load"}}
ALLOWED = {SRC / "core" / "safejson.py"}


def plain_readers(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of every use of a JSON module's own reader in ``tree``."""
    modules: dict[str, str] = {}  # local name -> JSON module
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in READERS:
                    modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in READERS:
            for a in node.names:
                if a.name in READERS[node.module] or a.name == "*":
                    found.append((node.lineno, f"from {node.module} import {a.name}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            if node.attr in READERS[modules[node.value.id]] or node.attr in ("JSONDecoder", "decoder"):
                found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return found


def test_no_module_parses_json_outside_the_safe_reader() -> None:
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if path in ALLOWED:
            continue
        for line, what in plain_readers(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            offenders.append(f"{path.relative_to(SRC)}:{line}: {what}")
    assert not offenders, "parse JSON with barbu.core.safejson.loads:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    "source",
    [
        "import json\njson.loads(x)",
        "import json as j\nj.load(f)",
        "from json import loads\n",
        "import orjson\norjson.loads(b)",
        "from orjson import loads as parse\n",
        "import json\nd = json.JSONDecoder()",
    ],
)
def test_the_scan_finds_every_spelling_of_a_plain_reader(source: str) -> None:
    assert plain_readers(ast.parse(source))


def test_writing_json_is_not_reading_it() -> None:
    assert not plain_readers(ast.parse("import json\nimport orjson\njson.dumps(x)\norjson.dumps(y)"))


def test_the_safe_reader_is_the_one_allowed_and_it_exists() -> None:
    assert all(p.exists() for p in ALLOWED)
    assert safejson.loads('{"a": [1]}') == {"a": [1]}
