#!/bin/sh
# Wait until the barbu process on 127.0.0.1:PORT is ready (/health/ready answers 200), at most SECONDS.
#   wait-ready.sh PORT [SECONDS]        exit 0 when ready, 1 when it did not become ready in time
# barbu@.service runs it after starting a process (ExecStartPost), deploy/rolling-restart.sh after each restart.
set -u
port=${1:?usage: wait-ready.sh PORT [SECONDS]}
seconds=${2:-120}
url="http://127.0.0.1:$port/health/ready"
ready() {
    if command -v curl >/dev/null 2>&1; then
        curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null
    else
        python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "$url" 2>/dev/null
    fi
}
end=$(( $(date +%s) + seconds ))
while [ "$(date +%s)" -lt "$end" ]; do
    ready && exit 0
    sleep 0.5
done
echo "wait-ready.sh: $url was not ready after ${seconds}s" >&2
exit 1
