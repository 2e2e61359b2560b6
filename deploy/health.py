"""The container's health check (deploy/Containerfile's HEALTHCHECK, deploy/compose.yaml): healthy (exit 0) when the
barbu process is ready, that is when /health/ready answers 200.

Compose starts a container again only when its process exits, never because it is unhealthy; so this check is
also the container's liveness watch.  A process that accepts a connection but does not answer it within
`ANSWER` seconds (stopped, its event loop stuck: its kernel still accepts) has its first silence noted in
`MARK`; once it has been silent for `HUNG` seconds, the check kills it with SIGKILL.  The container's init
(compose's ``init: true``) then exits, and compose starts the container again.  Any answer, 503 included
(starting, draining, its database or broker away), is life: that is readiness's business, not a reason to kill.
A refused connection is a process not listening yet (starting) or gone: nothing to kill either.

    python health.py [PORT]        (environment: BARBU_HUNG_SECONDS, default 20; BARBU_HEALTH_TIMEOUT, 2)
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ANSWER = float(os.environ.get("BARBU_HEALTH_TIMEOUT", "2"))  # seconds an answer may take (the check's: 3)
HUNG = float(os.environ.get("BARBU_HUNG_SECONDS", "20"))
MARK = Path(os.environ.get("BARBU_HEALTH_MARK", "/tmp/barbu-health-silent"))  # when the silence began
INIT = int(os.environ.get("BARBU_INIT_PID", "1"))  # the container's init, whose children are the server


def ask(port: int) -> int | None:
    """The status /health/ready answers, 0 for a refused connection, None for a connection left unanswered."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=ANSWER) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return e.code
    except (TimeoutError, socket.timeout):
        return None
    except urllib.error.URLError as e:
        return None if isinstance(e.reason, (TimeoutError, socket.timeout)) else 0
    except OSError:
        return 0


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
        if int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def main() -> int:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    status = ask(port)
    if status is not None:
        MARK.unlink(missing_ok=True)
        return 0 if status == 200 else 1
    now = time.time()
    try:
        since = float(MARK.read_text())
    except (OSError, ValueError):
        MARK.write_text(str(now))
        return 1
    if now - since < HUNG:
        return 1
    silent = f"health.py: the server on port {port} has not answered for {now - since:.0f} s"
    if b"barbu" in Path(f"/proc/{INIT}/cmdline").read_bytes():  # the server is the init: no signal reaches it
        print(f"{silent}; start the container with an init (init: true, docker run --init) to have it killed")
        return 1
    server = [pid for pid in children(INIT) if pid != os.getpid()]
    print(f"{silent}: killed", file=sys.stderr)
    for pid in server:
        os.kill(pid, signal.SIGKILL)
    MARK.unlink(missing_ok=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
