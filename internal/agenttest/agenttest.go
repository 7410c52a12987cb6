package agenttest

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// Server is one test server: its name, kind, the fixture whose tools it
// serves ("" for testfleet's built-ins only) and its call timeout.
type Server struct {
	Name, Kind, Fixture string
	Timeout             time.Duration
}

// NewFleet starts a Mux over real in-process servers, with the fleet file
// cfg (nil means deferred_tools: auto) extended by servers. It returns the
// per-server call counters, so tests can prove a refused call never arrived.
func NewFleet(t testing.TB, cfg *config.Fleet, servers ...Server) (*mcpfleet.Mux, map[string]*atomic.Int64) {
	t.Helper()
	if cfg == nil {
		cfg = &config.Fleet{DeferredTools: "auto"}
	}
	calls := map[string]*atomic.Int64{}
	var opts []mcpfleet.Option
	for _, s := range servers {
		o := testfleet.Options{Calls: &atomic.Int64{}}
		if s.Fixture != "" {
			o.Tools = fixtures.MustLoad(t, s.Fixture).Tools
		}
		calls[s.Name] = o.Calls
		cfg.Servers = append(cfg.Servers, config.Server{Name: s.Name, Kind: s.Kind, Transport: "inprocess", CallTimeout: s.Timeout})
		opts = append(opts, mcpfleet.WithInProcess(s.Name, s.Kind, testfleet.NewServer(s.Name, o)))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	mx, err := mcpfleet.New(ctx, cfg, append(opts, mcpfleet.WithHealthInterval(-1))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return mx, calls
}

// Builtins are testfleet's tools on every server (fixtures may replace pods_log).
func Builtins() []string {
	return []string{"big", "echo", "environ", "fail", "image", "pods_log", "slow"}
}

// KindTools lists the tool names a kind's servers offer: fixture plus
// built-ins, all of them and the read-only ones.
func KindTools(t testing.TB, fixture string) (all, readOnly []string) {
	builtins := Builtins()
	all = slices.Clone(builtins)
	readOnly = slices.Clone(builtins)
	if fixture == "" {
		return all, readOnly
	}
	for _, tl := range fixtures.MustLoad(t, fixture).Tools {
		ro := tl.Annotations.ReadOnlyHint != nil && *tl.Annotations.ReadOnlyHint
		if slices.Contains(builtins, tl.Name) {
			if !ro {
				readOnly = slices.DeleteFunc(readOnly, func(s string) bool { return s == tl.Name })
			}
			continue
		}
		all = append(all, tl.Name)
		if ro {
			readOnly = append(readOnly, tl.Name)
		}
	}
	return all, readOnly
}

// FoldedNames applies the adapter's naming rule independently of the code
// under test: the read-only tools of kind, prefixed "kind__" when another
// kind of the fleet (fixtures by kind) has the same name.
func FoldedNames(t testing.TB, kind string, fleet map[string][]string) []string {
	var out []string
	_, ro := KindTools(t, fleet[kind][0])
	for _, name := range ro {
		shared := false
		for k, fx := range fleet {
			if k == kind {
				continue
			}
			for _, f := range fx {
				all, _ := KindTools(t, f)
				shared = shared || slices.Contains(all, name)
			}
		}
		if shared {
			name = kind + "__" + name
		}
		out = append(out, name)
	}
	return out
}

// Sorted returns a sorted copy.
func Sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Fleet23 is a 23-server fleet over every fixture family, for token
// figures at the scale of the production fleet.
func Fleet23() []Server {
	return []Server{
		{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-2", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-3", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-4", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-5", Kind: "kubernetes", Fixture: "kubernetes"},
		{Name: "k8s-mc", Kind: "kubernetes_multicluster", Fixture: "kubernetes_multicluster"},
		{Name: "k8s-tools", Kind: "kubernetes_toolsets", Fixture: "kubernetes_optional_toolsets"},
		{Name: "gitlab-rw", Kind: "gitlab", Fixture: "gitlab"},
		{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"},
		{Name: "github", Kind: "github", Fixture: "github"},
		{Name: "prom-1", Kind: "prometheus", Fixture: "prometheus"},
		{Name: "prom-2", Kind: "prometheus", Fixture: "prometheus"},
		{Name: "prom-3", Kind: "prometheus", Fixture: "prometheus"},
		{Name: "grafana-rw", Kind: "grafana", Fixture: "grafana"},
		{Name: "grafana-ro", Kind: "grafana", Fixture: "grafana_readonly"},
		{Name: "jaeger", Kind: "jaeger", Fixture: "jaeger"},
		{Name: "opensearch-1", Kind: "opensearch", Fixture: "opensearch"},
		{Name: "opensearch-2", Kind: "opensearch", Fixture: "opensearch"},
		{Name: "elasticsearch", Kind: "elasticsearch", Fixture: "elasticsearch"},
		{Name: "jira", Kind: "jira", Fixture: "jira"},
		{Name: "confluence", Kind: "confluence", Fixture: "confluence"},
		{Name: "slack", Kind: "slack", Fixture: "slack"},
		{Name: "notion", Kind: "notion", Fixture: "notion"},
	}
}
