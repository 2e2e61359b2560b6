#!/bin/sh
# The compose file's nginx site, made from deploy/nginx-barbu.conf when the container starts (the official
# image runs /docker-entrypoint.d/*.sh first), so that the two never drift apart.  Each process address of the
# site file (127.0.0.1:PORT, in the order they first appear) becomes the compose service's of the same rank in
# BARBU_UPSTREAMS, wherever it is named (every upstream block, backups included), and the listen line becomes
# the container's port 80.  Also run by tests/test_deploy.py, with upstreams of its own.
#
#   BARBU_UPSTREAMS="barbu1:8000 barbu2:8000 barbu3:8000" nginx-site.sh [SITE_IN [SITE_OUT]]
set -eu
in=${1:-/etc/nginx/barbu-site/nginx-barbu.conf}
out=${2:-/etc/nginx/barbu/barbu.conf}
upstreams=${BARBU_UPSTREAMS:-barbu1:8000 barbu2:8000 barbu3:8000}
listen=${BARBU_LISTEN:-80 backlog=4096}
mkdir -p "$(dirname "$out")"
status=0
awk -v upstreams="$upstreams" -v listen="$listen" '
    BEGIN { wanted = split(upstreams, hosts, " ") }
    /^[ \t]*server[ \t]+127\.0\.0\.1:[0-9]+/ {
        match($0, /127\.0\.0\.1:[0-9]+/)
        address = substr($0, RSTART, RLENGTH)
        if (!(address in rank)) rank[address] = ++found
        if (rank[address] > wanted) exit 4
        sub(/127\.0\.0\.1:[0-9]+/, hosts[rank[address]])
        print
        next
    }
    /^[ \t]*listen[ \t]+127\.0\.0\.1:[0-9]+;/ { print "    listen " listen ";"; listened = 1; next }
    { print }
    END {
        if (found > wanted) exit 4
        if (found != wanted) exit 5
        if (!listened) exit 3
    }
' "$in" > "$out.new" || status=$?
if [ "$status" -ne 0 ]; then
    rm -f "$out.new"
    case $status in
        3) echo "nginx-site.sh: $in has no listen line 127.0.0.1:PORT to replace" >&2 ;;
        *) echo "nginx-site.sh: $in and BARBU_UPSTREAMS ($upstreams) do not name as many processes" >&2 ;;
    esac
    exit 1
fi
mv "$out.new" "$out"
