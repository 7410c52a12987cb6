#!/bin/sh
# One command for a local scaled-out gateway: one Redis, three
# `mcpfleet serve` replicas sharing it, and nginx round-robin in front.
#
#   ./examples/replicas/run.sh        then point an MCP client at
#                                     http://127.0.0.1:8080/mcp with
#                                     "Authorization: Bearer demo-token"
#
# Ctrl-C stops everything. Needs redis-server and nginx (Debian packages;
# scripts/install-test-deps.sh installs them) and Go. Ports: LB_PORT
# (8080), REDIS_PORT (6390), replicas on REPLICA_PORT..+2 (7781).
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(CDPATH= cd -- "$here/../.." && pwd)
LB_PORT=${LB_PORT:-8080}
REDIS_PORT=${REDIS_PORT:-6390}
REPLICA_PORT=${REPLICA_PORT:-7781}
work=$(mktemp -d "${TMPDIR:-/tmp}/mcpfleet-replicas.XXXXXX")
pids=""
stop() {
	trap - EXIT INT TERM
	[ -n "$pids" ] && kill $pids 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap stop EXIT INT TERM

find_bin() { command -v "$1" 2>/dev/null || { [ -x "/usr/sbin/$1" ] && echo "/usr/sbin/$1"; } || { echo "$1 not found: run scripts/install-test-deps.sh as root" >&2; exit 1; }; }
redis=$(find_bin redis-server)
nginx=$(find_bin nginx)

echo "building mcpfleet into $work" >&2
(cd "$root" && go build -o "$work/mcpfleet" ./cmd/mcpfleet)

"$redis" --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" --loglevel warning &
pids="$pids $!"
# serve checks Redis at start and exits if it does not answer: wait.
for _ in $(seq 50); do
	redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
	sleep 0.1
done

export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
export MCPFLEET_SERVE_TOKENS="${MCPFLEET_SERVE_TOKENS:-demo-token: read}"
upstreams=""
for i in 0 1 2; do
	port=$((REPLICA_PORT + i))
	"$work/mcpfleet" serve --transport http --addr "127.0.0.1:$port" --config "$here/fleet.yaml" &
	pids="$pids $!"
	upstreams="$upstreams    server 127.0.0.1:$port max_fails=1 fail_timeout=2s;\n"
done

sed -e "s|@PREFIX@|$work|g" -e "s|@LISTEN@|127.0.0.1:$LB_PORT|" -e "s|@UPSTREAMS@|$upstreams|" \
	"$here/nginx.conf.tmpl" > "$work/nginx.conf"
"$nginx" -p "$work" -c "$work/nginx.conf" -g 'daemon off;' &
pids="$pids $!"

echo "mcpfleet: 3 replicas behind http://127.0.0.1:$LB_PORT/mcp (token demo-token); health: http://127.0.0.1:$REPLICA_PORT/healthz" >&2
wait
