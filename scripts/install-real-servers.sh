#!/usr/bin/env bash
# Installs the pinned third-party MCP servers and the official TypeScript MCP
# SDK client that the real-server tests use, into a cache folder. Idempotent:
# a second run with everything present does nothing.
#
#   MCPFLEET_REAL_SERVERS   where to install (default: $XDG_CACHE_HOME/mcpfleet/real-servers)
set -euo pipefail
dir="${MCPFLEET_REAL_SERVERS:-${XDG_CACHE_HOME:-$HOME/.cache}/mcpfleet/real-servers}"
pins=(
  "kubernetes-mcp-server@0.0.67"
  "@zereight/mcp-gitlab@2.1.64"
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/sdk@1.32.2"
)
stamp="$dir/.pins"
want="$(printf '%s\n' "${pins[@]}")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$dir/node_modules" ]; then
  echo "real MCP servers already installed in $dir"
  exit 0
fi
command -v npm >/dev/null || { echo "npm is required to install the real MCP servers" >&2; exit 1; }
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"mcpfleet-real-servers","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error --save-exact "${pins[@]}"
printf '%s\n' "${pins[@]}" > "$stamp"
echo "installed real MCP servers into $dir"
