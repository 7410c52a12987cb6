package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestCallAsModelDefusesStructuredContent: `call --as-model` shows what a
// model gets, so the injection corpus inside a real result's
// structuredContent (served over streamable HTTP, decoded by mcp-go's
// client) prints defused; without --as-model the operator sees it as sent.
func TestCallAsModelDefusesStructuredContent(t *testing.T) {
	injections := testfleet.NeutralizeCorpus(t, "injections.txt")
	up := testfleet.ServeHTTP(t, testfleet.StructuredServer("rows", injections))
	cfg := filepath.Join(t.TempDir(), "fleet.yaml")
	doc := fmt.Sprintf("servers:\n  - name: rows-1\n    kind: rows\n    transport: http\n    url: %q\n", up)
	if err := os.WriteFile(cfg, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	n := neutralize.New()
	for _, i := range []int{0, len(injections) / 2, len(injections) - 1} {
		for _, asModel := range []bool{true, false} {
			args := []string{"call", "--config", cfg, "--json"}
			if asModel {
				args = append(args, "--as-model")
			}
			r := run(t, nil, "", append(args, "rows-1", "row", fmt.Sprintf(`{"i":%d}`, i))...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
			}
			var rep struct {
				Structured struct {
					Row struct {
						Note string `json:"note"`
					} `json:"row"`
				} `json:"structured_content"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("%v in %s", err, r.stdout)
			}
			want := injections[i]
			if asModel {
				want, _ = n.Defuse(want)
			}
			if got := rep.Structured.Row.Note; got != want {
				t.Errorf("row %d, --as-model=%v: note %q, want %q", i, asModel, got, want)
			}
		}
	}
}
