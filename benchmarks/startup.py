"""How long ``barbu serve`` takes to start: from the command to the first 200 from ``/api/health``.

    python benchmarks/startup.py [--runs 5] [--db URL] [--broker URL]

Prints, for each run, the seconds from starting ``python -m barbu serve`` (a new SQLite database in a
temporary folder unless ``--db`` is given) to the first 200 from ``/api/health``; then the median, and
the same for ``python -m barbu serve --help``; then the ten costliest imports of the server process up
to its first request (``python -X importtime``, cumulative, in ms) and the heavy modules it holds by then
(numpy, the PDF and QR libraries, Pillow, Playwright, the players' learned models, the terminal
interface): none is expected, they load where used (tests/test_startup.py checks it).

Measured on this project's 2-core machine with five other jobs running, 2026-11-29 (the code before
and after the heavy imports were put off, run in turns, 4 runs each):

    load 3    before (6cb9cb5)  serve -> first 200: median 2.55 s     after: median 1.60 s
    load 5.5  before            serve -> first 200: median 4.5, 3.4 s  after: median 2.6, 2.8 s
              serve --help: 0.25–0.8 s either way (it imports no server)

Before, every start loaded fpdf2 (0.4 s, numpy among it) and segno for the scorekeeper's printed sheets
and QR codes; they now load when a sheet is printed as PDF or a QR code drawn.  What is left is mostly
SQLAlchemy and Alembic (0.5 s of imports) and the schema check.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")
#: Modules a server process needs only when a feature is used: loaded before the first request, they are
#: start-up time every process pays for nothing.
HEAVY = (
    "numpy",
    "fpdf",
    "segno",
    "PIL",
    "playwright",
    "onnxruntime",
    "torch",
    "textual",
    "barbu.agents.learned_inference",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=SRC + (os.pathsep + path if path else ""))


def serve_once(folder: Path, db: str | None, broker: str | None, importtime: bool = False) -> tuple[float, str]:
    """Seconds from the command to the first 200 from /api/health, and what the process wrote."""
    port = free_port()
    args = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "barbu", "serve"]
    args += ["--port", str(port), "--db", db or str(folder / f"startup-{port}.db")]
    if broker:
        args += ["--broker", broker]
    log = folder / f"serve-{port}.log"
    with open(log, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env(), cwd=folder)
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}:\n{log.read_text()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                    if r.status == 200:
                        return time.perf_counter() - start, log.read_text(errors="replace")
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.02)
    finally:
        proc.terminate()
        proc.wait(20)


def help_once() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "barbu", "serve", "--help"], env=env(), capture_output=True, check=True)
    return time.perf_counter() - start


def costliest(importtime: str, most: int = 10) -> list[tuple[int, str]]:
    """The imports with the largest cumulative time (µs), outermost first among equals."""
    rows = []
    for line in importtime.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            rows.append((int(m.group(2)), m.group(4)))
    return sorted(rows, reverse=True)[:most]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--db", help="a database URL (default: a new SQLite file each run)")
    ap.add_argument("--broker", help="a Redis URL: start as one of many processes")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        serves = [serve_once(folder, a.db, a.broker)[0] for _ in range(a.runs)]
        helps = [help_once() for _ in range(a.runs)]
        print(
            f"barbu serve -> first 200 from /api/health, s: "
            f"{' '.join(f'{s:.2f}' for s in serves)}  median {statistics.median(serves):.2f}"
        )
        print(f"barbu serve --help, s: {' '.join(f'{s:.2f}' for s in helps)}  median {statistics.median(helps):.2f}")
        _, text = serve_once(folder, a.db, a.broker, importtime=True)
        print("costliest imports up to the first request (cumulative ms):")
        for us, name in costliest(text):
            print(f"  {us / 1000:8.1f}  {name}")
        loaded = {m.group(1) for m in re.finditer(r"import time:\s+\d+ \|\s+\d+ \| *(\S+)", text)}
        heavy = sorted(m for m in HEAVY if m in loaded)
        print(f"heavy modules loaded before the first request: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
