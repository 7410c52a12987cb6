package mcpfleet_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies pins the import layering: leaves import nothing of ours,
// eino stays in the agent layers, and mcp-go's client and server stay in the
// root, the gateway and internal plumbing.
func TestDependencies(t *testing.T) {
	const mod = "github.com/mcpfleet/mcpfleet"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports ","}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	leaves := map[string]bool{"config": true, "kindgroups": true, "normalizers": true, "internal/tokens": true}
	einoOK := []string{"adapters/eino", "subagent", "orchestrator", "internal/cli", "examples/", "cmd/"}
	mcpClientOK := []string{"", "internal/upstream", "internal/gateway", "internal/testfleet", "internal/cli", "examples/", "cmd/"}
	allowed := func(pkg string, prefixes []string) bool {
		for _, p := range prefixes {
			if pkg == p || (p != "" && strings.HasPrefix(pkg, p)) {
				return true
			}
		}
		return false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, " ")
		pkg := strings.TrimPrefix(strings.TrimPrefix(path, mod), "/")
		for _, imp := range strings.Split(imports, ",") {
			switch {
			case leaves[pkg] && strings.HasPrefix(imp, mod) && !strings.HasPrefix(imp, mod+"/internal/"):
				t.Errorf("%s is a leaf but imports %s", path, imp)
			case strings.HasPrefix(imp, "github.com/cloudwego/eino") && !allowed(pkg, einoOK):
				t.Errorf("%s imports eino (%s); only the agent layers may", path, imp)
			case strings.HasPrefix(imp, "github.com/redis/go-redis/") && !strings.HasPrefix(pkg, "stores/"):
				t.Errorf("%s imports %s; go-redis stays in stores/, so programs without Redis never link it", path, imp)
			case strings.HasPrefix(imp, "go.opentelemetry.io/") && !strings.HasPrefix(pkg, "metrics/"):
				t.Errorf("%s imports %s; OpenTelemetry stays in metrics/, behind mcpfleet.Metrics", path, imp)
			case (strings.HasPrefix(imp, "github.com/mark3labs/mcp-go/client") || strings.HasPrefix(imp, "github.com/mark3labs/mcp-go/server")) &&
				!allowed(pkg, mcpClientOK) && !strings.HasPrefix(pkg, "examples/"):
				t.Errorf("%s imports %s; mcp-go client/server belong to the root and internal plumbing", path, imp)
			}
		}
	}
}

// TestRootDoesNotLinkRedis: a program that imports the multiplexer, the
// catalog or the config (and not stores/redisstore) does not link go-redis.
func TestRootDoesNotLinkRedis(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "./catalog", "./config", "./adapters/eino").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/redis/") {
			t.Errorf("the root, catalog, config or adapters/eino depend on %s", dep)
		}
	}
}
