package mcpfleet_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

type corpusCase struct {
	ID           string            `json:"id"`
	Fixture      string            `json:"fixture"`
	Tool         string            `json:"tool"`
	Transformers []string          `json:"transformers"`
	FieldMap     map[string]string `json:"field_map"`
	Args         json.RawMessage   `json:"args"`
	Expect       string            `json:"expect"`
	Want         map[string]any    `json:"want"`
	Reason       string            `json:"reason"`
	Path         string            `json:"path"`
}

// TestRepairCorpus runs normalizers/testdata/corpus.jsonl (bad calls real
// models make, against real tool schemas) through the real pipeline and a
// real MCP server. A repaired call must reach the server with exactly the
// stated arguments; a rejected one must fail with the stated reason and path
// and never reach the server.
func TestRepairCorpus(t *testing.T) {
	if fixtures.Dir() == "" {
		t.Skip("skipping: real tool fixtures not found at ../shared/fixtures/tools")
	}
	f, err := os.Open("normalizers/testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("corpus line: %v", err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 150 {
		t.Fatalf("corpus has %d cases, want at least 150", len(cases))
	}
	// One server per distinct (fixture, transformers, field map): each is its
	// own kind, so kind_settings can differ.
	// Presets off: each case states the whole of its kind's argument
	// handling, and a preset matched by the fixture's tool names (the
	// gitlab preset's join_separator, say) would add to it.
	off := false
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{}, Presets: &off}
	var opts []mcpfleet.Option
	serverOf := map[string]string{}
	counters := map[string]*atomic.Int64{}
	for _, c := range cases {
		fm, _ := json.Marshal(c.FieldMap)
		key := c.Fixture + "|" + strings.Join(c.Transformers, ",") + "|" + string(fm)
		if _, ok := serverOf[key]; ok {
			continue
		}
		name := fmt.Sprintf("g%02d", len(serverOf))
		serverOf[key] = name
		counters[name] = new(atomic.Int64)
		fx := fixtures.MustLoad(t, c.Fixture)
		cfg.KindSettings[name] = config.KindSettings{ArgsTransformer: c.Transformers, FieldMap: c.FieldMap}
		opts = append(opts, mcpfleet.WithInProcess(name, name, testfleet.NewServer(name, testfleet.Options{Tools: fx.Tools, Calls: counters[name]})))
	}
	mx := newMux(t, cfg, opts...)
	repaired, rejected := 0, 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			fm, _ := json.Marshal(c.FieldMap)
			srv := serverOf[c.Fixture+"|"+strings.Join(c.Transformers, ",")+"|"+string(fm)]
			before := counters[srv].Load()
			res, err := mx.CallTool(t.Context(), srv, c.Tool, c.Args)
			switch c.Expect {
			case "repaired":
				if err != nil {
					t.Fatalf("want repaired, got %v", err)
				}
				// The echo handler answers "server tool {args as received}".
				_, sent, _ := strings.Cut(strings.TrimPrefix(plain(res), srv+" "+c.Tool+" "), "")
				var got map[string]any
				if err := json.Unmarshal([]byte(sent), &got); err != nil {
					t.Fatalf("server echo %q: %v", plain(res), err)
				}
				if diff := cmp.Diff(c.Want, got); diff != "" {
					t.Errorf("server received (-want +got):\n%s", diff)
				}
				repaired++
			case "rejected":
				var rej *mcpfleet.RejectError
				if !errors.As(err, &rej) {
					t.Fatalf("want rejected (%s), got result %v err %v", c.Reason, res, err)
				}
				if string(rej.Reason) != c.Reason {
					t.Errorf("reason = %s, want %s\n%s", rej.Reason, c.Reason, rej)
				}
				paths := make([]string, len(rej.Problems))
				for i, p := range rej.Problems {
					paths[i] = p.Path
				}
				if c.Path != "" && !slices.Contains(paths, c.Path) {
					t.Errorf("problem paths = %q, want one at %q\n%s", paths, c.Path, rej)
				}
				if counters[srv].Load() != before {
					t.Error("a rejected call reached the server")
				}
				rejected++
			default:
				t.Fatalf("unknown expectation %q", c.Expect)
			}
		})
	}
	t.Logf("corpus: %d cases, %d repaired, %d rejected", len(cases), repaired, rejected)
}
