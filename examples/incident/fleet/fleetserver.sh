#!/bin/sh
# Launches one simulated fleet server over stdio:
#   fleetserver.sh --kind kubernetes --name k8s-3 [--readonly]
# Builds ./cmd/fleetserver once into the user cache and reuses it; rebuilds
# only when a .go file under this folder is newer than the binary. A lock
# serialises the build because the whole fleet (23 copies) starts at once.
set -eu

here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
cache="${XDG_CACHE_HOME:-$HOME/.cache}/mcpfleet"
bin="$cache/fleetserver"
lock="$cache/fleetserver.lock"
mkdir -p "$cache"

stale() {
	[ ! -x "$bin" ] && return 0
	[ -n "$(find "$here" -name '*.go' -newer "$bin" 2>/dev/null | head -n 1)" ]
}

if stale; then
	(
		flock 9
		# Another copy may have built it while this one waited for the lock.
		if stale; then
			cd "$here"
			go build -o "$bin.tmp.$$" ./cmd/fleetserver >&2
			mv -f "$bin.tmp.$$" "$bin"
		fi
	) 9>"$lock"
fi

exec "$bin" "$@"
