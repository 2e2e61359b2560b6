#!/bin/sh
# Kill the barbu process on 127.0.0.1:PORT when it runs but its /health/live has not answered for SECONDS, so that
# systemd starts it again (barbu@.service: Restart=on-failure).  barbu-live@PORT.timer runs it every 10 s.
#
#   check-live.sh PORT [SECONDS]        exit 0: live, or not running (starting, stopping, stopped: not judged);
#                                       exit 1: it did not answer and was killed
#
# /health/live answers while the process's event loop runs, whatever its database or broker do (an outage is
# readiness's business, and restarting every process during one would only add to it).  A process that does
# not answer it for SECONDS is hung (stopped, or its loop stuck): nginx has taken its players elsewhere and
# its leases have run out, but it holds its port and its memory until it is killed.  SIGKILL, not SIGTERM: a
# hung process would not drain, and everything it acknowledged is stored already.
set -u
port=${1:?usage: check-live.sh PORT [SECONDS]}
seconds=${2:-20}
unit="barbu@$port"
url="http://127.0.0.1:$port/health/live"
live() {
    if command -v curl >/dev/null 2>&1; then
        curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null
    else
        python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "$url" 2>/dev/null
    fi
}
systemctl is-active --quiet "$unit" || exit 0
end=$(( $(date +%s) + seconds ))
while ! live; do
    if [ "$(date +%s)" -ge "$end" ]; then
        systemctl is-active --quiet "$unit" || exit 0  # stopped or restarted meanwhile: not hung
        echo "check-live.sh: $unit has not answered $url for ${seconds}s: killed, systemd starts it again" >&2
        systemctl kill --signal=SIGKILL "$unit"
        exit 1
    fi
    sleep 1
done
exit 0
