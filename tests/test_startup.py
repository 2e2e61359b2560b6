"""Start-up in a few seconds: ``barbu serve`` with its default settings loads no heavy module it does not need.

The PDF library (fpdf2, which brings numpy), the QR code library, the learned players' arrays, the terminal
interface, the browser driver: each costs start-up time every server process pays (fpdf2 alone took 0.4 s of
a 2.5 s start), and each is needed only when its feature is used (a sheet printed as PDF, a QR code drawn).
A real ``barbu serve`` answers its first request, is stopped, and says which modules it held by then
(on a signal, after its first requests: none was loaded before the first request either).
No timing is asserted: benchmarks/startup.py measures it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

SRC = str(Path(__file__).resolve().parents[1] / "src")

#: Modules a server process must not load unless a feature asks for them.
HEAVY: tuple[str, ...] = ("numpy", "fpdf", "segno", "playwright", "torch", "onnxruntime", "textual", "PIL", "scipy")
HEAVY += ("zxcvbn", "confusable_homoglyphs")  # a password weighed, a name checked: at sign-up, not at start-up
HEAVY += ("pywebpush", "aiohttp", "requests")  # Web Push (half a second of imports): at the first push
HEAVY_BARBU = ("barbu.tui", "barbu.rl", "barbu.scorekeeper.pdf", "barbu.agents.learned_inference")

RUN = """
import runpy, signal, sys
path = sys.argv[1]
def held(*_):
    with open(path, "w") as out:
        out.write("\\n".join(sorted(sys.modules)) + "\\n")
signal.signal(signal.SIGUSR1, held)
sys.argv = ["barbu", "serve", "--port", sys.argv[2], "--db", sys.argv[3]]
runpy.run_module("barbu", run_name="__main__")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_loads_no_heavy_module(tmp_path: Path) -> None:
    port, held = free_port(), tmp_path / "modules.txt"
    env = dict(os.environ, PYTHONPATH=SRC, BARBU_COMPARE_WITH="expert")  # the default: the strongest compares
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", RUN, str(held), str(port), str(tmp_path / "web.db")],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=tmp_path,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "the server did not answer in 60 s"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
                    assert r.status == 200
                    break
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        for page in ("/", "/api/tables"):  # the lobby as a person first sees it
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{page}", timeout=30) as r:
                assert r.status == 200
        proc.send_signal(signal.SIGUSR1)  # the modules it holds, written by the process itself
        while not held.exists() or not held.read_text().endswith("\n"):
            assert proc.poll() is None and time.monotonic() < deadline + 30, (tmp_path / "serve.log").read_text()
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        log.close()
    modules = set(held.read_text().split())
    assert "barbu.web.app" in modules and "uvicorn" in modules  # it was the server
    loaded = sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY_BARBU))
    assert not loaded, f"heavy modules loaded by barbu serve before any feature asked for them: {loaded}"
