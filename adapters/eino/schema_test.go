package eino_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// TestToolInfoLossless converts every fixture tool and checks that the schema
// eino hands to a model equals the one the MCP server sent.
func TestToolInfoLossless(t *testing.T) {
	fixtures.MustLoad(t, "kubernetes") // skips without fixtures
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "*.json"))
	n := 0
	for _, f := range files {
		kind := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, tool := range fixtures.MustLoad(t, kind).Tools {
			n++
			info, err := mcpeino.ToolInfo(tool.Name, tool.Description, tool.RawInputSchema)
			if err != nil {
				t.Errorf("%s.%s: %v", kind, tool.Name, err)
				continue
			}
			js, err := info.ParamsOneOf.ToJSONSchema()
			if err != nil {
				t.Errorf("%s.%s: ToJSONSchema: %v", kind, tool.Name, err)
				continue
			}
			got, _ := json.Marshal(js)
			want := canonicalWant(tool.RawInputSchema)
			if diff := cmp.Diff(want, kindgroups.Canonical(got)); diff != "" {
				t.Errorf("%s.%s: schema changed (-want +got):\n%s", kind, tool.Name, diff)
			}
		}
	}
	if n < 500 {
		t.Fatalf("checked only %d fixture tools", n)
	}
	t.Logf("%d fixture tools round-trip losslessly", n)
}

// canonicalWant is the original schema, canonicalised. The only addition the
// conversion makes is "type":"object" on schemas that declare neither a type
// nor properties (gitlab_reference ships such broken schemas).
func canonicalWant(raw json.RawMessage) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err == nil {
		if _, ok := m["type"]; !ok {
			if _, ok := m["properties"]; !ok {
				m["type"] = "object"
			}
		}
		raw, _ = json.Marshal(m)
	}
	return kindgroups.Canonical(raw)
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }
