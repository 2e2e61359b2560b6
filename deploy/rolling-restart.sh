#!/bin/sh
# Restart the barbu processes of this machine one after another, each only once the previous one is ready
# again, so that players are always served (docs/operations.md, "Upgrading").  A process stopped with SIGTERM
# hands its tables over to the others at once; its players reconnect to another process.
#
#   deploy/rolling-restart.sh [PORT ...]        (default: 8001 8002 8003; as root, or with sudo)
#
# After installing a new barbu: systemctl restart barbu-migrate, then this.
set -eu
here=$(dirname "$0")
wait_ready=${WAIT_READY:-$here/wait-ready.sh}
[ -x "$wait_ready" ] || wait_ready=/opt/barbu/lib/wait-ready.sh
ports=${*:-8001 8002 8003}
for p in $ports; do
    echo "restarting barbu@$p"
    systemctl restart "barbu@$p"
    if ! "$wait_ready" "$p" "${READY_SECONDS:-120}"; then
        echo "rolling-restart.sh: barbu@$p is not ready: stopping here, the other processes untouched" >&2
        systemctl --no-pager status "barbu@$p" >&2 || true
        exit 1
    fi
    echo "barbu@$p is ready"
done
