package realservers

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

// TestPinningRealServers locks the twelve real servers, restarts them
// under pinning: enforce and expects no quarantine (their definitions are
// stable, and none reads as poisoned); then edits one character of one
// hash in fleet.lock and expects exactly that tool quarantined.
func TestPinningRealServers(t *testing.T) {
	real := realDir(t)
	dir := t.TempDir()
	path := writeConfig(t, dir, realFleet(t, real, dir))
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	mx := startLegacy(ctx, t, path)
	if mode := mx.PinningMode(); mode != config.PinningOff {
		t.Fatalf("no lock yet: pinning %q, want off", mode)
	}
	lock, drift := mx.Lock(nil)
	mx.Close()
	// kubernetes-mcp-server --read-only and GitLab's read-only mode list
	// fewer tools, never different ones: no drift in definitions.
	for _, d := range drift {
		if d.Kind != "kubernetes" && d.Kind != "gitlab" {
			t.Errorf("drift in a kind whose servers are identical: %+v", d)
		}
	}
	lockPath := filepath.Join(dir, "fleet.lock")
	must(t, os.WriteFile(lockPath, lock.Marshal(), 0o644))
	fleetFile, err := os.ReadFile(path)
	must(t, err)
	must(t, os.WriteFile(path, append(fleetFile, "pinning: enforce\n"...), 0o644))

	restart := func() *mcpfleet.Mux {
		t.Helper()
		mx := startLegacy(ctx, t, path)
		if mode := mx.PinningMode(); mode != config.PinningEnforce {
			t.Fatalf("pinning %q, want enforce", mode)
		}
		return mx
	}
	mx = restart()
	if issues := mx.PinIssues(); len(issues) != 0 {
		for _, is := range issues {
			t.Errorf("after restart: %s/%s on %s: %v %+v %+v", is.Kind, is.Tool, is.Server, is.Problems, is.Changes, is.Findings)
		}
	}
	tools := 0
	for _, s := range mx.Status() {
		tools += s.Tools
	}
	t.Logf("12 real servers, %d tools: locked, restarted under enforce, none quarantined", tools)
	mx.Close()

	// One character of one hash: memory's first tool.
	victim := slices.Sorted(maps.Keys(lock.Kinds["memory"].Tools))[0]
	sum := lock.Kinds["memory"].Tools[victim].SHA256
	flipped := "0"
	if sum[0] == '0' {
		flipped = "1"
	}
	data, err := os.ReadFile(lockPath)
	must(t, err)
	must(t, os.WriteFile(lockPath, []byte(strings.Replace(string(data), sum, flipped+sum[1:], 1)), 0o644))
	mx = restart()
	issues := mx.PinIssues()
	if len(issues) != 1 || issues[0].Server != "memory" || issues[0].Tool != victim || !issues[0].Quarantined {
		t.Fatalf("after a one-character edit: %+v, want exactly memory/%s quarantined", issues, victim)
	}
	if _, ok := mx.Tool("memory", victim); ok {
		t.Errorf("the quarantined %s is still listed", victim)
	}
	total := 0
	for _, s := range mx.Status() {
		total += s.Tools
	}
	if total != tools-1 {
		t.Errorf("tools listed: %d, want %d (one quarantined)", total, tools-1)
	}
}

// startLegacy is start on the pre-2026 protocol. These servers speak it
// anyway, and it skips mcp-go's server/discover probe, which under heavy
// load times out and is followed by an initialize that
// kubernetes-mcp-server refuses as a duplicate (TestAllConnect shows the
// same failure then).
func startLegacy(ctx context.Context, t *testing.T, path string) *mcpfleet.Mux {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithStrict(), mcpfleet.WithHealthInterval(-1), mcpfleet.WithLegacyProtocol())
	if err != nil {
		t.Fatalf("connect %s: %v", path, err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx
}
