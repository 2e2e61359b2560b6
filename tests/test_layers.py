"""The folders are the floors of DESIGN.md: imports run one way, and no module imports another in a loop.

Every import is counted, including those inside functions and those for type checking only: an
import put off until first use, or hidden behind ``TYPE_CHECKING``, is still a dependency.  Inside
``barbu.web`` the domain packages have floors of their own (`WEB_FLOORS`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "barbu"

# Lowest floor first.  A module may import its own floor or a lower one, never a higher one.
FLOORS = [
    ("core",),
    ("classic",),
    ("scottish", "besigue"),
    ("records", "games", "guide", "scorekeeper", "solver", "i18n", "ratings"),
    ("agents",),
    ("arena", "analysis", "duplicate", "puzzles"),
    ("play",),
    ("cli", "tui", "web", "rl"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_nodes(tree: ast.AST):
    """Every node, those under ``if TYPE_CHECKING:`` included: a type-only import is a dependency too."""
    yield from ast.walk(tree)


def imports_of(path: Path) -> set[str]:
    """The barbu modules a file imports, as absolute names (packages resolved to the module named, if any)."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in all_nodes(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if not target.startswith("barbu"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(
                    sub
                    if (SRC.parent / (sub.replace(".", "/") + ".py")).exists()
                    or (SRC.parent / sub.replace(".", "/")).is_dir()
                    else target
                )
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("barbu"))
    out.discard(me)
    return out


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in SRC.rglob("*.py")}


def floor(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    for i, names in enumerate(FLOORS):
        if top in names:
            return i
    return len(FLOORS)  # barbu itself, __main__: the public face above everything


def test_every_module_has_a_floor():
    loose = [m for m in graph() if floor(m) == len(FLOORS) and m not in ("barbu", "barbu.__main__")]
    assert not loose, f"modules outside the floors of DESIGN.md: {loose}"


def test_imports_run_downward():
    upward = [
        f"{m} imports {t}"
        for m, targets in graph().items()
        for t in targets
        if m not in ("barbu", "barbu.__main__") and floor(t) > floor(m)
    ]
    assert not upward, "imports against the floors:\n" + "\n".join(sorted(upward))


def test_no_import_loops():
    g = graph()
    state: dict[str, int] = {}
    loops: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(g.get(m, ())):
            if t not in g:
                continue
            if state.get(t) == 1:
                loops.append(path[path.index(t) :] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(g):
        if m not in state:
            visit(m, [m])
    assert not loops, "import loops:\n" + "\n".join(" → ".join(loop) for loop in loops)


@pytest.mark.parametrize("family", ["besigue"])
def test_besigue_never_imports_the_barbu_state_machine(family):
    g = graph()
    bad = [
        f"{m} → {t}"
        for m, ts in g.items()
        if m.startswith(f"barbu.{family}")
        for t in ts
        if t.startswith(("barbu.classic", "barbu.scottish"))
    ]
    assert not bad, bad


# The web's rooms, lowest first: shared infrastructure, then the domains, then the routes, then the
# application that wires them (``barbu.web`` itself, ``app``, ``server``, ``connections``).
WEB_FLOORS = [
    ("common",),
    ("db",),
    ("tables",),
    ("cluster",),
    ("live",),
    ("daily", "scorebooks", "replay"),
    ("accounts",),
    ("social",),
    ("notices",),
    ("puzzles",),
    ("profiles",),
    ("clubs",),
    ("events",),
    ("moderation",),
    ("challenges",),
    ("routes",),
]


def web_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "web" else None


def web_floor(module: str) -> int:
    room = web_room(module)
    for i, names in enumerate(WEB_FLOORS):
        if room in names:
            return i
    return len(WEB_FLOORS)  # the application on top


def test_the_web_is_in_rooms():
    """No module of the web lies loose beside the application, and every room has a floor."""
    top = {"barbu.web", "barbu.web.app", "barbu.web.server", "barbu.web.connections"}
    loose = [m for m in graph() if m.startswith("barbu.web") and web_floor(m) == len(WEB_FLOORS) and m not in top]
    assert not loose, f"web modules outside the rooms of WEB_FLOORS: {loose}"


def test_the_web_imports_run_downward():
    """A room imports its own floor or a lower one; domains on one floor do not import each other."""
    bad = []
    for m, targets in graph().items():
        if not m.startswith("barbu.web."):
            continue
        for t in targets:
            if not t.startswith("barbu.web."):
                continue
            if web_floor(t) > web_floor(m) or (
                web_floor(t) == web_floor(m) and web_room(t) != web_room(m) and web_floor(m) < len(WEB_FLOORS)
            ):
                bad.append(f"{m} imports {t}")
    assert not bad, "imports against the web's floors:\n" + "\n".join(sorted(bad))
