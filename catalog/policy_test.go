package catalog_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// TestModeGolden pins, per deferred_tools mode, what a session over a
// three-server slice hands the model: the resolved mode and its reason,
// the active tools, and the catalog block (testdata/mode_*.golden).
func TestModeGolden(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	slice := []string{"gitlab-a", "k8s-1", "prom-eu"}
	tests := []struct {
		name, mode string
		window     int
		wantMode   string
	}{
		{"on", "on", 0, "on"},
		{"off", "off", 0, "off"},
		// The slice's full definitions are over 10% of 128k: auto defers.
		{"auto", "auto", 0, "on"},
		// A million-token window fits them all: auto keeps them active.
		{"auto_large_window", "auto", 1_000_000, "off"},
		{"auto_tokens", "auto:500", 0, "on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := c.NewSession(catalog.SessionConfig{Servers: slice, Mode: tc.mode, ContextWindow: tc.window, Scopes: []string{"read"}})
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.wantMode {
				t.Fatalf("mode %s resolved to %s (%s), want %s", tc.mode, s.Mode(), s.Reason(), tc.wantMode)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "mode %s -> %s (%s)\nmeta-tools: %v\n\n## active\n", tc.mode, s.Mode(), s.Reason(), s.MetaTools())
			for _, r := range s.Active() {
				fmt.Fprintf(&b, "%s.%s [%s]\n", r.Kind, r.Tool, strings.Join(r.Servers, ", "))
			}
			block := s.CatalogBlock()
			fmt.Fprintf(&b, "\n## catalog block (%d tokens)\n%s", tokens.Count(block), block)
			goldenfile.CheckNamed(t, "mode_"+tc.name, b.String())

			// What the golden file shows, asserted: off has no catalog and
			// no meta-tools; on lists every permitted tool exactly once,
			// active or deferred.
			if (block == "") != (s.Mode() == catalog.ModeOff) {
				t.Errorf("mode %s with catalog block %q", s.Mode(), block)
			}
			if s.Mode() == catalog.ModeOn {
				listed := map[string]int{}
				for _, kt := range parseBlock(t, block).pairs {
					listed[kt]++
				}
				deferred := 0
				for _, e := range s.Deferred() {
					deferred++
					if listed[e.Key()] != 1 && parseBlock(t, block).more[e.Kind] == 0 {
						t.Errorf("%s listed %d times", e.Key(), listed[e.Key()])
					}
				}
				if deferred == 0 {
					t.Error("mode on defers nothing")
				}
			}
		})
	}
}

// TestAutoSmallSlice: a slice of a few small tools stays whole under the
// default threshold, and defers once the threshold is below its size.
func TestAutoSmallSlice(t *testing.T) {
	f := fixtures.MustLoad(t, "prometheus")
	c := catalog.Build([]kindgroups.Server{{Name: "prom", Kind: "prometheus", Tools: f.Tools}}, catalog.Config{})
	size := tokens.MCPTools(f.Tools)
	tests := []struct {
		mode string
		want string
	}{
		{"auto", "off"},
		{"", "off"},
		{fmt.Sprintf("auto:%d", size), "off"},
		{fmt.Sprintf("auto:%d", size-1), "on"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			s, err := c.NewSession(catalog.SessionConfig{Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if s.Mode() != tc.want {
				t.Errorf("%d tools (%d tokens) in mode %q: %s (%s), want %s", len(f.Tools), size, tc.mode, s.Mode(), s.Reason(), tc.want)
			}
		})
	}
}

func TestToolDescription(t *testing.T) {
	tests := []struct{ desc, avoid, want string }{
		{"Get a pod.", "", "Get a pod."},
		{"Get a pod.\n", "  ", "Get a pod.\n"},
		{"Get a pod.\n", "it is a Deployment", "Get a pod.\n\nAvoid when: it is a Deployment"},
		{"", "it is a Deployment", "Avoid when: it is a Deployment"},
	}
	for _, tc := range tests {
		if got := catalog.ToolDescription(tc.desc, tc.avoid); got != tc.want {
			t.Errorf("ToolDescription(%q, %q) = %q, want %q", tc.desc, tc.avoid, got, tc.want)
		}
	}
}
