package orchestrator_test

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

type srv struct {
	name, kind, fixture string
	timeout             time.Duration
}

// newFleet starts a Mux over real in-process mcp-go servers serving fixture
// tools (plus testfleet's builtins: echo, fail, slow, image, big, environ).
func newFleet(t testing.TB, servers ...srv) (*mcpfleet.Mux, map[string]*atomic.Int64) {
	t.Helper()
	calls := map[string]*atomic.Int64{}
	cfg := &config.Fleet{DeferredTools: "auto"}
	var opts []mcpfleet.Option
	for _, s := range servers {
		o := testfleet.Options{Calls: &atomic.Int64{}}
		if s.fixture != "" {
			o.Tools = fixtures.MustLoad(t, s.fixture).Tools
		}
		calls[s.name] = o.Calls
		cfg.Servers = append(cfg.Servers, config.Server{Name: s.name, Kind: s.kind, Transport: "inprocess", CallTimeout: s.timeout})
		opts = append(opts, mcpfleet.WithInProcess(s.name, s.kind, testfleet.NewServer(s.name, o)))
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

// builtins are testfleet's tools on every server (fixtures may replace pods_log).
var builtins = []string{"big", "echo", "environ", "fail", "image", "pods_log", "slow"}

// kindTools lists the tool names a kind's servers offer: fixture plus builtins.
func kindTools(t testing.TB, fixture string) (all, readOnly []string) {
	all = slices.Clone(builtins)
	readOnly = slices.Clone(builtins)
	if fixture == "" {
		return all, readOnly
	}
	for _, tl := range fixtures.MustLoad(t, fixture).Tools {
		ro := tl.Annotations.ReadOnlyHint != nil && *tl.Annotations.ReadOnlyHint
		if i := slices.Index(builtins, tl.Name); i >= 0 {
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

// foldedNames applies the naming rule independently of the code under test:
// the read-only tools of kind, prefixed "kind__" when another kind of the
// fleet (fixtures by kind) has the same name.
func foldedNames(t testing.TB, kind string, fleet map[string][]string) []string {
	var out []string
	_, ro := kindTools(t, fleet[kind][0])
	for _, name := range ro {
		shared := false
		for k, fx := range fleet {
			if k == kind {
				continue
			}
			for _, f := range fx {
				all, _ := kindTools(t, f)
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

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
