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
	leaves := map[string]bool{"config": true, "kindgroups": true, "normalizers": true, "internal/tokens": true,
		"internal/detach": true, "internal/textdist": true}
	einoOK := []string{"adapters/eino", "subagent", "orchestrator", "internal/cli", "examples/", "cmd/"}
	mcpClientOK := []string{"", "internal/upstream", "internal/gateway", "internal/testfleet", "internal/cli", "examples/", "cmd/"}
	// The OpenTelemetry API (otel, trace, attribute, metric, propagation)
	// is a no-op until a program installs a provider, so any layer may
	// start spans; only the packages that install providers bring in the
	// SDK and its exporters.
	otelSDKOK := []string{"telemetry", "metrics/", "internal/cli", "internal/otlptest", "examples/", "cmd/"}
	// Offline tuning (fit, eval, mine, lint, log report) is the command
	// line's: no runtime package links it.
	tuningOK := []string{"internal/cli", "cmd/", "catalog/internal/catalogtest"}
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
			case leaves[pkg] && strings.HasPrefix(imp, mod+"/") && (pkg == "internal/detach" || pkg == "internal/textdist"):
				t.Errorf("%s is a leaf helper but imports %s", path, imp)
			case pkg == "catalog/search" && strings.HasPrefix(imp, mod+"/") && imp != mod+"/internal/textdist":
				// The engine knows no server, kind or fleet file: it sees
				// only the documents it is given.
				t.Errorf("%s is the search engine but imports %s", path, imp)
			case pkg == "presets" && strings.HasPrefix(imp, mod+"/") && imp != mod+"/config":
				t.Errorf("%s is per-server data over config but imports %s", path, imp)
			case imp == mod+"/catalog/tuning" && !allowed(pkg, tuningOK):
				t.Errorf("%s imports %s; offline tuning is for the command line only", path, imp)
			case imp == mod+"/adapters/eino" && (pkg == "internal/gateway" || pkg == "catalog"):
				// Reading a fleet file's catalog settings is catalog.FromFleet.
				t.Errorf("%s imports the eino adapter; it needs no agent framework", path)
			case (imp == mod+"/adapters/eino/openai" || strings.HasPrefix(imp, "github.com/cloudwego/eino-ext/components/model/")) &&
				(pkg == "adapters/eino" || pkg == "internal/gateway" || pkg == "catalog"):
				// The tool adapter translates tools; a program picks its model
				// and embedder clients from adapters/eino/openai.
				t.Errorf("%s imports %s; the model and embedder clients stay in adapters/eino/openai", path, imp)
			case pkg == "adapters/eino/openai" && imp == mod+"/adapters/eino":
				t.Errorf("%s imports the tool adapter; the clients need none of it", path)
			case strings.HasPrefix(imp, "github.com/cloudwego/eino") && !allowed(pkg, einoOK):
				t.Errorf("%s imports eino (%s); only the agent layers may", path, imp)
			case strings.HasPrefix(imp, "github.com/redis/go-redis/") && !strings.HasPrefix(pkg, "stores/"):
				t.Errorf("%s imports %s; go-redis stays in stores/, so programs without Redis never link it", path, imp)
			case strings.HasPrefix(imp, "go.opentelemetry.io/") && leaves[pkg]:
				t.Errorf("%s is a leaf but imports %s", path, imp)
			case isOTelSDK(imp) && !allowed(pkg, otelSDKOK):
				t.Errorf("%s imports %s; the OpenTelemetry SDK and exporters stay in telemetry/ and metrics/ (the API may be used anywhere)", path, imp)
			case (strings.HasPrefix(imp, "github.com/mark3labs/mcp-go/client") || strings.HasPrefix(imp, "github.com/mark3labs/mcp-go/server")) &&
				!allowed(pkg, mcpClientOK) && !strings.HasPrefix(pkg, "examples/"):
				t.Errorf("%s imports %s; mcp-go client/server belong to the root and internal plumbing", path, imp)
			}
		}
	}
}

func isOTelSDK(imp string) bool {
	for _, p := range []string{"go.opentelemetry.io/otel/sdk", "go.opentelemetry.io/otel/exporters", "go.opentelemetry.io/proto", "github.com/prometheus/"} {
		if strings.HasPrefix(imp, p) {
			return true
		}
	}
	return false
}

// TestRedisStaysOptional: the library packages do not link go-redis; only
// the stores/ packages (and what a program chooses to import) do.
func TestRedisStaysOptional(t *testing.T) {
	pkgs := []string{".", "./config", "./catalog", "./catalog/search", "./internal/gateway", "./adapters/eino", "./subagent", "./orchestrator"}
	out, err := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/redis/go-redis") {
			t.Errorf("%s is linked by the library packages; keep Redis in stores/", dep)
		}
	}
}
