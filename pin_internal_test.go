package mcpfleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/config"
)

// realFleet is the twelve real npm servers of test/realservers, offline:
// kubernetes ×4 (one read-only), gitlab ×4 (two read-only), filesystem ×2,
// memory and everything. It skips without $MCPFLEET_REAL_SERVERS.
func realFleet(b *testing.B) *config.Fleet {
	real := os.Getenv("MCPFLEET_REAL_SERVERS")
	if real == "" {
		b.Skip("real MCP servers not installed: run make real-servers and set MCPFLEET_REAL_SERVERS")
	}
	dir := b.TempDir()
	bin := func(name string) string { return filepath.Join(real, "node_modules", ".bin", name) }
	var servers []config.Server
	for i, ro := range []bool{false, false, false, true} {
		name := fmt.Sprintf("k8s-%d", i+1)
		kc := filepath.Join(dir, name+".kubeconfig")
		kubeconfig := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}\n"+
			"contexts:\n- name: c\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: c\nusers:\n- name: u\n  user: {token: dummy}\n# %s\n", name)
		if err := os.WriteFile(kc, []byte(kubeconfig), 0o600); err != nil {
			b.Fatal(err)
		}
		args := []string{"--kubeconfig", kc}
		if ro {
			args = append(args, "--read-only")
		}
		servers = append(servers, config.Server{Name: name, Kind: "kubernetes", Command: bin("kubernetes-mcp-server"), Args: args})
	}
	for i, ro := range []bool{false, false, true, true} {
		env := map[string]string{"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy", "GITLAB_API_URL": "http://127.0.0.1:1/api/v4"}
		if ro {
			env["GITLAB_READ_ONLY_MODE"] = "true"
		}
		servers = append(servers, config.Server{Name: fmt.Sprintf("gitlab-%d", i+1), Kind: "gitlab", Command: bin("mcp-gitlab"), Env: env})
	}
	for _, name := range []string{"fs-1", "fs-2"} {
		root := filepath.Join(dir, name)
		if err := os.MkdirAll(root, 0o755); err != nil {
			b.Fatal(err)
		}
		servers = append(servers, config.Server{Name: name, Kind: "filesystem", Command: bin("mcp-server-filesystem"), Args: []string{root}})
	}
	servers = append(servers,
		config.Server{Name: "memory", Kind: "memory", Command: bin("mcp-server-memory"), Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
		config.Server{Name: "everything", Kind: "everything", Command: bin("mcp-server-everything"), Args: []string{"stdio"}})
	for i := range servers {
		servers[i].Transport, servers[i].ConnectTimeout = "stdio", 2*time.Minute
	}
	return &config.Fleet{Servers: servers}
}

// BenchmarkPinList measures what pinning adds to a tool list on the
// twelve real servers: one pass of every server's list through
// setToolsLocked (what each tools/list at connect, list_changed or a
// changed probe runs), with pinning off and under enforce with a lock of
// the same definitions: enforce_cold scans every definition, as at
// startup (identical servers of a kind share one scan); enforce is a
// relist, whose unchanged definitions are found in the scan cache. tools_list is the tools/list round trip to all
// twelve, for scale. Calls are untouched: the check runs at list time.
func BenchmarkPinList(b *testing.B) {
	cfg := realFleet(b)
	ctx, cancel := context.WithTimeout(b.Context(), 5*time.Minute)
	defer cancel()
	m, err := New(ctx, cfg, WithStrict(), WithHealthInterval(-1), WithLegacyProtocol())
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	lock, _ := m.Lock(nil)
	tools := 0
	for _, name := range m.names {
		tools += len(m.servers[name].all)
	}
	relist := func() {
		for _, name := range m.names {
			sc := m.servers[name]
			sc.mu.Lock()
			sc.setToolsLocked(sc.all)
			sc.mu.Unlock()
		}
	}
	for _, mode := range []string{config.PinningOff, config.PinningEnforce, "enforce_cold"} {
		b.Run(mode, func(b *testing.B) {
			cold, pinning := mode == "enforce_cold", mode
			if cold {
				pinning = config.PinningEnforce
			}
			var err error
			if m.pin, err = newPinner(&config.Fleet{Pinning: pinning, Lock: lock}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			start := cpuNow()
			defer func() { b.ReportMetric(float64((cpuNow()-start).Nanoseconds())/float64(max(b.N, 1)), "cpu-ns/op") }()
			for b.Loop() {
				if cold { // every definition hashed and scanned anew, as at startup
					m.pin.seen, m.pin.hashes = &inspections{}, &hashCache{}
				}
				relist()
			}
			b.ReportMetric(float64(tools), "tools")
			if pinning == config.PinningEnforce && len(m.PinIssues()) != 0 {
				b.Fatalf("the lock of the same definitions quarantined tools: %+v", m.PinIssues())
			}
		})
	}
	m.pin = nil
	b.Run("tools_list", func(b *testing.B) {
		b.ReportAllocs()
		start := cpuNow()
		defer func() { b.ReportMetric(float64((cpuNow()-start).Nanoseconds())/float64(max(b.N, 1)), "cpu-ns/op") }()
		for b.Loop() {
			for _, name := range m.names {
				sc := m.servers[name]
				sc.mu.RLock()
				c := sc.client
				sc.mu.RUnlock()
				if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// cpuNow is the process's CPU time (user+system), as bench_test.go's
// reportCPU reads it (that file is the external test package, out of
// reach here). On the shared machine wall time mostly measures the
// neighbours; CPU time measures the code. The servers are other
// processes: tools_list's CPU is the Mux's side of the round trip only.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
