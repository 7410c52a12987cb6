# The README's two commands are `go run ./examples/incident` and `make test`.

GO ?= go

.PHONY: test real-servers test-deps bench fuzz tokens-chart

# test installs the pinned real MCP servers (npm) when missing, then runs the
# whole suite with the race detector. The real-server tests find them through
# MCPFLEET_REAL_SERVERS.
test: real-servers test-deps
	MCPFLEET_REAL_SERVERS=$${MCPFLEET_REAL_SERVERS:-$${XDG_CACHE_HOME:-$$HOME/.cache}/mcpfleet/real-servers} \
		$(GO) test -race -count=1 -timeout 20m ./...

real-servers:
	./scripts/install-real-servers.sh

# test-deps installs redis-server, nginx and promtool (Debian packages) when
# missing; the tests start them on free loopback ports and stop them.
test-deps:
	./scripts/install-test-deps.sh

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCallToolArgs -fuzztime 30s .

# tokens-chart redraws docs/tokens.svg from the example fleet; a test in
# examples/incident (TestTokensChartCurrent) fails while it is stale.
tokens-chart:
	$(GO) run ./cmd/mcpfleet tokens --config examples/incident/fleet.yaml \
		--servers k8s-3,prometheus-b,gitlab-a --svg docs/tokens.svg
