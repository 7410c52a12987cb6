#!/usr/bin/env bash
# Prints the cold start of the twelve-server real fleet against its slowest
# single server's, each started alone, with the servers' CPU time. Installs
# the real servers first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-real-servers.sh >/dev/null
export MCPFLEET_REAL_SERVERS="${MCPFLEET_REAL_SERVERS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpfleet/real-servers}"
MCPFLEET_COLDSTART=1 go test -count=1 -run '^TestColdStart$' -v ./test/realservers | grep -E '^(single|fleet)'
