"""Figures of the web's house: its rooms, the arrows between them, circles, and its largest class and function.

    python tools/house.py [SRC]      (SRC: a src/barbu folder, by default this checkout's)

The closing notes of the web's redesign compare these before and after; `tests/test_layers.py`
guards the floors themselves.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path


def modules(web: Path) -> dict[str, Path]:
    return {
        ".".join(p.relative_to(web).with_suffix("").parts): p for p in web.rglob("*.py") if "migrations" not in p.parts
    }


def room(name: str) -> str:
    return name.split(".")[0] if "." in name else "(top)"


def web_imports(path: Path, me: str) -> set[str]:
    """The web modules ``path`` imports (relative or absolute, type-only ones too)."""
    package = me.split(".")[:-1] if not path.name == "__init__.py" else me.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                if node.level - 1 > len(package):
                    continue  # above barbu.web
                target = ".".join(base + ([node.module] if node.module else []))
                if node.level - 1 == len(package) + 0 and not node.module:
                    target = ""
            elif node.module and node.module.startswith("barbu.web."):
                target = node.module[len("barbu.web.") :]
            else:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}" if target else alias.name
                out.add(full if full in MODS else target)
    out.discard(me)
    return {t for t in out if t in MODS}


def main() -> None:
    global MODS
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "src" / "barbu"
    web = src / "web"
    MODS = modules(web)
    graph = {m: web_imports(p, m) for m, p in MODS.items()}
    rooms = Counter(room(m) for m in MODS)
    print(f"web modules: {len(MODS)} in {len(rooms)} rooms: " + ", ".join(f"{r} {n}" for r, n in sorted(rooms.items())))
    arrows = Counter((room(m), room(t)) for m, ts in graph.items() for t in ts if room(m) != room(t))
    print(
        f"imports between modules: {sum(len(t) for t in graph.values())}; between rooms: {sum(arrows.values())}"
        f" over {len(arrows)} arrows"
    )
    back = [(a, b) for (a, b) in arrows if (b, a) in arrows and a < b]
    print("rooms importing each other: " + (", ".join(f"{a}<->{b}" for a, b in back) or "none"))
    state: dict[str, int] = {}
    loops: list[str] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                loops.append(" -> ".join(path[path.index(t) :] + [t]))
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    print(f"module circles: {len(loops)}" + "".join(f"\n  {loop}" for loop in loops))
    sizes = []
    for m, p in MODS.items():
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                kind = "class" if isinstance(node, ast.ClassDef) else "function"
                sizes.append((node.end_lineno - node.lineno + 1, kind, f"{m}.{node.name}"))
    for kind, plural in (("class", "classes"), ("function", "functions")):
        top = sorted((s for s in sizes if s[1] == kind), reverse=True)[:3]
        print(f"largest {plural}: " + "; ".join(f"{name} {n} lines" for n, _, name in top))
    lines = sum(len(p.read_text().splitlines()) for p in MODS.values())
    print(f"lines of Python: {lines}")


MODS: dict[str, Path] = {}
if __name__ == "__main__":
    main()
