#!/usr/bin/env bash
# Installs the Debian packages that the integration tests run for real:
# redis-server (shared state), nginx (a load balancer in front of replicas)
# and prometheus (for promtool, which lints the /metrics scrape). Idempotent:
# with every binary present it does nothing. Needs root for apt-get, as on
# the developers' machines and in CI; elsewhere it says what is missing and
# the tests that need it skip, naming this script.
set -euo pipefail
want=()
command -v redis-server >/dev/null || want+=(redis-server)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || want+=(nginx)
command -v promtool >/dev/null || want+=(prometheus)
if [ ${#want[@]} -eq 0 ]; then
  echo "test services already installed (redis-server, nginx, promtool)"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "missing ${want[*]}: install them (apt-get install ${want[*]}) to run the tests that need them" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# --no-install-recommends keeps prometheus from pulling its web UI assets;
# policy-rc.d stops Debian's maintainer scripts from starting the daemons:
# the tests start their own on free loopback ports.
printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
trap 'rm -f /usr/sbin/policy-rc.d' EXIT
apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
echo "installed ${want[*]}"
