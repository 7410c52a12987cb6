// Package replicas proves that replicas of `mcpfleet serve` behind a load
// balancer behave as one gateway when they share state in Redis: real
// redis-server, real nginx round-robin, real mcpfleet processes and the
// mcp-go client over streamable HTTP. It holds tests only; they need
// redis-server and nginx (scripts/install-test-deps.sh) and skip without
// them outside CI.
//
// examples/replicas runs the same shape by hand; docs/replicas.md explains
// it.
package replicas
