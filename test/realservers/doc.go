// Package realservers proves mcpfleet against real third-party MCP servers
// (kubernetes-mcp-server, zereight's GitLab server, and the reference
// filesystem, memory and everything servers) and against the official
// TypeScript MCP client. It holds tests only.
//
// The servers are installed by scripts/install-real-servers.sh into
// $MCPFLEET_REAL_SERVERS, which `make test` sets; without it every test
// here skips with a message saying to run make test.
//
// Nothing here talks to a real cluster or GitLab: the Kubernetes servers
// get kubeconfigs pointing at https://127.0.0.1:1 and the GitLab servers
// an API URL at http://127.0.0.1:1, so that they start offline, list their
// tools, and fail every call the way they fail when their backend is down.
//
// Cold start of the fleet against its slowest single server:
//
//	./scripts/realservers-coldstart.sh
package realservers
