"""The systemd units' own commands (deploy/systemd/), run as systemd would run them, without systemd.

barbu-migrate.service's command makes the schema; barbu@.service's, with the port as its instance and the
database and broker from the example environment file's names, starts a real process that its
ExecStartPost (deploy/wait-ready.sh) finds ready and its liveness check (barbu-live@.service,
deploy/check-live.sh) live, and that stops with exit 0 on the unit's KillSignal well within TimeoutStopSec.  (tests/test_deploy.py checks the units' syntax with systemd-analyze.)
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from conftest import redis_url
from webhelpers import SRC, free_port

from barbu.web.db.storage import newest_revision

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
DEPLOY = UNITS.parent


def command(unit: str, key: str, instance: str, env: dict[str, str]) -> list[str]:
    """A unit's ``key=`` command line as systemd hands it to exec: continuation lines joined, ``%i`` the instance,
    ``${VAR}`` substituted, a lone ``$VAR`` split into words, and /opt/barbu's programs this checkout's."""
    text = (UNITS / unit).read_text().replace("\\\n", " ")
    line = re.search(rf"(?m)^{key}=(.*)$", text)
    assert line is not None, key
    words = []
    for word in shlex.split(line.group(1).replace("%i", instance)):
        if re.fullmatch(r"\$\w+", word):
            words += env.get(word[1:], "").split()
        else:
            words.append(re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), word))
    if words[0] == "/opt/barbu/bin/barbu":
        words[:1] = [sys.executable, "-m", "barbu"]
    elif words[0] == "/opt/barbu/lib/wait-ready.sh":
        words[0] = str(DEPLOY / "wait-ready.sh")
    elif words[0] == "/opt/barbu/lib/check-live.sh":
        words[0] = str(DEPLOY / "check-live.sh")
    return words


def setting(unit: str, key: str) -> str:
    found = re.search(rf"(?m)^{key}=(.*)$", (UNITS / unit).read_text())
    assert found is not None, key
    return found.group(1)


def test_the_units_commands_migrate_start_a_ready_process_and_stop_it(tmp_path: Path) -> None:
    example = dict(
        re.findall(r"(?m)^(\w+)=(.*)$", (UNITS / "barbu.env.example").read_text())
    )  # the names the units read
    assert {"BARBU_DB", "BARBU_BROKER", "BARBU_OPTIONS"} <= set(example)
    env = {
        **os.environ,
        "PYTHONPATH": SRC,
        "PYTHONUNBUFFERED": "1",
        "BARBU_DB": f"sqlite:///{tmp_path / 'site.db'}",
        "BARBU_BROKER": redis_url(),
        "BARBU_OPTIONS": "--grace 5 --lease 2",
    }
    migrate = subprocess.run(
        command("barbu-migrate.service", "ExecStart", "", env), env=env, capture_output=True, text=True, timeout=120
    )
    assert migrate.returncode == 0 and f"schema {newest_revision()}" in migrate.stdout, migrate.stdout + migrate.stderr

    port = str(free_port())
    start = command("barbu@.service", "ExecStart", port, env)
    assert start[start.index("--port") + 1] == port and start[-4:] == ["--grace", "5", "--lease", "2"]
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(start, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path)
    try:
        wait = subprocess.run(command("barbu@.service", "ExecStartPost", port, env), env=env, timeout=200)
        assert wait.returncode == 0, log.read_text()
        # its liveness check (barbu-live@.timer) finds it live: nothing is killed
        live = command("barbu-live@.service", "ExecStart", port, env)
        assert live[1:] == [port, "20"]
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "$*" >> {tmp_path / "calls"}\n')
        (bin_dir / "systemctl").chmod(0o755)
        checked = subprocess.run(live, env={**env, "PATH": f"{bin_dir}:{env['PATH']}"}, timeout=60)
        assert checked.returncode == 0 and proc.poll() is None
        assert (tmp_path / "calls").read_text().split("\n")[:-1] == [f"is-active --quiet barbu@{port}"]
        assert setting("barbu@.service", "KillSignal") == "SIGTERM"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(float(setting("barbu@.service", "TimeoutStopSec"))) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert "Traceback" not in log.read_text()
