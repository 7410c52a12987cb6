package gateway_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
	"github.com/mcpfleet/mcpfleet/metrics/otelmetrics"
)

// fleet is two Kubernetes servers with the real fixture tools and one
// "misc" server with the test tools; calls counts what reached upstream.
type fleet struct {
	mux   *mcpfleet.Mux
	calls *atomic.Int64
}

func newFleet(t *testing.T, extra ...mcpfleet.Option) fleet { return newFleetB(t, extra...) }

func newFleetB(t testing.TB, extra ...mcpfleet.Option) fleet {
	t.Helper()
	k8s := fixtures.MustLoad(t, "kubernetes").Tools
	calls := &atomic.Int64{}
	opts := append([]mcpfleet.Option{mcpfleet.WithHealthInterval(-1)}, extra...)
	for _, name := range []string{"k8s-1", "k8s-2"} {
		opts = append(opts, mcpfleet.WithInProcess(name, "kubernetes", testfleet.NewServer(name, testfleet.Options{Tools: k8s, Calls: calls})))
	}
	opts = append(opts, mcpfleet.WithInProcess("misc", "misc", testfleet.NewServer("misc", testfleet.Options{Calls: calls})))
	mx, err := mcpfleet.New(t.Context(), &config.Fleet{}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	return fleet{mux: mx, calls: calls}
}

func newGateway(t *testing.T, cfg gateway.Config) *gateway.Gateway {
	t.Helper()
	g, err := gateway.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// connect returns an in-process MCP client of g.
func connect(t *testing.T, g *gateway.Gateway) *client.Client { return connectB(t, g) }

func connectB(t testing.TB, g *gateway.Gateway) *client.Client {
	t.Helper()
	return testfleet.Client(t, g.MCPServer())
}

func call(t *testing.T, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func text(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestNewWithoutMux(t *testing.T) {
	if _, err := gateway.New(gateway.Config{}); !errors.Is(err, gateway.ErrNoMux) {
		t.Fatalf("New(Config{}) = %v, want ErrNoMux", err)
	}
}

// The tool definitions and instructions are what every client's model
// reads first: pinned, and small.
func TestToolsAndInstructions(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux})
	c := connect(t, g)
	res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"callTool", "describeTools", "grepResult", "listKinds", "readResult", "searchTools"}, names); diff != "" {
		t.Errorf("tool names (-want +got):\n%s", diff)
	}
	defs := g.MCPServer().ListTools()
	var tools []mcp.Tool
	for _, n := range names {
		tools = append(tools, defs[n].Tool)
	}
	if n := tokens.MCPTools(tools); n > 2000 {
		t.Errorf("gateway tool definitions take %d tokens, want <= 2000", n)
	}
	js, _ := json.MarshalIndent(tools, "", "  ")
	goldenfile.CheckNamed(t, "tools", string(js)+"\n")

	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	c2, _ := client.NewInProcessClient(g.MCPServer())
	defer c2.Close()
	if err := c2.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	ir, err := c2.Initialize(t.Context(), init)
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.CheckNamed(t, "instructions", ir.Instructions+"\n")
}

func TestListKinds(t *testing.T) {
	f := newFleet(t)
	// Expected counts from the fixture: its tools plus the test tools it
	// does not redefine, all of which are read-only.
	names := map[string]bool{"echo": true, "slow": true, "fail": true, "image": true, "big": true, "environ": true, "pods_log": true}
	read := len(names)
	for _, tl := range fixtures.MustLoad(t, "kubernetes").Tools {
		if !names[tl.Name] {
			names[tl.Name] = true
			if ro := tl.Annotations.ReadOnlyHint; ro != nil && *ro {
				read++
			}
		}
	}
	all := len(names)
	cases := []struct {
		name   string
		scopes []string
		want   []string // lines the text must contain
		absent []string
	}{
		{"read", nil, []string{fmt.Sprintf("- kubernetes (%d tools): k8s-1, k8s-2", read), "- misc (7 tools): misc"}, nil},
		{"all", []string{"*"}, []string{fmt.Sprintf("- kubernetes (%d tools): k8s-1, k8s-2", all)}, nil},
		{"none granted", []string{"k8s:exec"}, []string{"(no tools available to you)"}, []string{"kubernetes"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, newGateway(t, gateway.Config{Mux: f.mux, Scopes: tc.scopes}))
			got := text(call(t, c, "listKinds", nil))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("listKinds lacks %q:\n%s", w, got)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("listKinds has %q:\n%s", a, got)
				}
			}
		})
	}
}

func TestSearchTools(t *testing.T) {
	f := newFleet(t)
	cases := []struct {
		name    string
		scopes  []string
		args    map[string]any
		want    string // first line prefix
		absent  string
		isError bool
	}{
		{"logs", nil, map[string]any{"query": "pod logs"}, "kubernetes.pods_log [k8s-1, k8s-2]:", "", false},
		{"write hidden from read", nil, map[string]any{"query": "delete pod", "k": 20}, "", "pods_delete", false},
		{"write shown to write", []string{"write"}, map[string]any{"query": "delete pod", "k": 1}, "kubernetes.pods_delete", "", false},
		{"no query", nil, map[string]any{}, "missing required argument \"query\"", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, newGateway(t, gateway.Config{Mux: f.mux, Scopes: tc.scopes}))
			res := call(t, c, "searchTools", tc.args)
			got := text(res)
			if res.IsError != tc.isError {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tc.isError, got)
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("searchTools = %q, want prefix %q", got, tc.want)
			}
			if tc.absent != "" && strings.Contains(got, tc.absent) {
				t.Errorf("searchTools shows %q:\n%s", tc.absent, got)
			}
			if tc.args["k"] == 1 && strings.Count(got, "\n") != 1 {
				t.Errorf("k=1 gave %d lines", strings.Count(got, "\n"))
			}
		})
	}
}

func TestDescribeTools(t *testing.T) {
	f := newFleet(t)
	c := connect(t, newGateway(t, gateway.Config{Mux: f.mux}))
	type tool struct {
		Name        string `json:"name"`
		Tool        string `json:"tool"`
		InputSchema struct {
			Properties struct {
				Server struct {
					Enum []string `json:"enum"`
				} `json:"server"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"inputSchema"`
	}
	cases := []struct {
		name      string
		names     []string
		want      map[string][]string // name -> server enum
		wantText  string
		wantError bool
	}{
		{"bare", []string{"pods_list"}, map[string][]string{"kubernetes.pods_list": {"k8s-1", "k8s-2"}}, "", false},
		{"ambiguous", []string{"echo"}, nil, `"echo": several kinds have this tool; name one of "kubernetes.echo", "misc.echo"`, true},
		{"kind.tool", []string{"kubernetes.pods_get"}, map[string][]string{"kubernetes.pods_get": {"k8s-1", "k8s-2"}}, "", false},
		{"server.tool", []string{"k8s-2.pods_get"}, map[string][]string{"kubernetes.pods_get": {"k8s-2"}}, "", false},
		{"folded", []string{"k8s-2.pods_get", "k8s-1.pods_get"}, map[string][]string{"kubernetes.pods_get": {"k8s-1", "k8s-2"}}, "", false},
		{"unknown", []string{"pod_logz"}, nil, `"pod_logz": no such tool; did you mean`, true},
		{"not permitted reads as unknown", []string{"pods_delete"}, nil, `"pods_delete": no such tool`, true},
		{"partial", []string{"misc.echo", "nope"}, map[string][]string{"misc.echo": {"misc"}}, `"nope": no such tool`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, c, "describeTools", map[string]any{"names": tc.names})
			got := text(res)
			if res.IsError != tc.wantError {
				t.Errorf("IsError = %v, want %v:\n%s", res.IsError, tc.wantError, got)
			}
			if !strings.Contains(got, tc.wantText) {
				t.Errorf("text lacks %q:\n%s", tc.wantText, got)
			}
			if tc.want == nil {
				return
			}
			var tools []tool
			if err := json.NewDecoder(strings.NewReader(got)).Decode(&tools); err != nil {
				t.Fatalf("decode %q: %v", got, err)
			}
			gotEnums := map[string][]string{}
			for _, tl := range tools {
				gotEnums[tl.Name] = tl.InputSchema.Properties.Server.Enum
				if !slices.Contains(tl.InputSchema.Required, "server") {
					t.Errorf("%s: server not required: %v", tl.Name, tl.InputSchema.Required)
				}
			}
			if diff := cmp.Diff(tc.want, gotEnums); diff != "" {
				t.Errorf("server enums (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCallTool(t *testing.T) {
	f := newFleet(t)
	cases := []struct {
		name      string
		scopes    []string
		args      map[string]any
		want      string // text contains
		isError   bool
		reachesUp bool
	}{
		{"ok", nil, map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "hi"}}, "misc: hi", false, true},
		{"arguments as a JSON string", nil, map[string]any{"server": "misc", "tool": "echo", "arguments": `{"text":"yo"}`}, "misc: yo", false, true},
		{"server inside arguments", nil, map[string]any{"tool": "echo", "arguments": map[string]any{"server": "misc", "text": "in"}}, "misc: in", false, true},
		{"kind-qualified tool", nil, map[string]any{"server": "k8s-1", "tool": "kubernetes.pods_get", "arguments": map[string]any{"name": "web"}}, `k8s-1 pods_get {"name":"web"}`, false, true},
		{"kubernetes tool", nil, map[string]any{"server": "k8s-1", "tool": "pods_get", "arguments": map[string]any{"name": "web", "namespace": "prod"}}, "k8s-1 pods_get", false, true},
		{"placeholder rejected", nil, map[string]any{"server": "k8s-1", "tool": "pods_log", "arguments": map[string]any{"name": "<unknown>"}}, "rejected (placeholder)", true, false},
		{"schema rejected", nil, map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{}}, "rejected (invalid_arguments)", true, false},
		{"not an object", nil, map[string]any{"server": "misc", "tool": "echo", "arguments": []any{1}}, "rejected (invalid_json)", true, false},
		{"unknown server", nil, map[string]any{"server": "k8s-9", "tool": "pods_get", "arguments": map[string]any{"name": "x"}}, "rejected (unknown_server)", true, false},
		{"write refused for read scope", nil, map[string]any{"server": "k8s-1", "tool": "pods_delete", "arguments": map[string]any{"name": "web"}}, "rejected (not_permitted)", true, false},
		{"write allowed for write scope", []string{"write"}, map[string]any{"server": "k8s-1", "tool": "pods_delete", "arguments": map[string]any{"name": "web"}}, "k8s-1 pods_delete", false, true},
		{"tool error", nil, map[string]any{"server": "misc", "tool": "fail"}, "failed on purpose", true, true},
		{"missing server", nil, map[string]any{"tool": "echo"}, `missing required argument "server"`, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := connect(t, newGateway(t, gateway.Config{Mux: f.mux, Scopes: tc.scopes}))
			before := f.calls.Load()
			res := call(t, c, "callTool", tc.args)
			got := text(res)
			if res.IsError != tc.isError {
				t.Errorf("IsError = %v, want %v: %s", res.IsError, tc.isError, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("text = %q, want it to contain %q", got, tc.want)
			}
			if reached := f.calls.Load() > before; reached != tc.reachesUp {
				t.Errorf("reached upstream = %v, want %v", reached, tc.reachesUp)
			}
		})
	}
}

// Images and structured content pass through unchanged.
func TestCallToolContent(t *testing.T) {
	f := newFleet(t)
	c := connect(t, newGateway(t, gateway.Config{Mux: f.mux}))
	res := call(t, c, "callTool", map[string]any{"server": "misc", "tool": "image"})
	var img *mcp.ImageContent
	for _, ct := range res.Content {
		if i, ok := ct.(mcp.ImageContent); ok {
			img = &i
		}
	}
	if img == nil || img.Data != testfleet.PNG || img.MIMEType != "image/png" {
		t.Errorf("image content = %+v, want the test PNG", res.Content)
	}
	res = call(t, c, "callTool", map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "s"}})
	if diff := cmp.Diff(map[string]any{"text": "s", "server": "misc"}, res.StructuredContent); diff != "" {
		t.Errorf("structured content (-want +got):\n%s", diff)
	}
}

// TestMetrics: the gateway counts through the Mux's Metrics: the Mux's
// own outcomes, the gateway's requests per tool, and a call the gateway
// refused itself.
func TestMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	om, err := otelmetrics.New(otelmetrics.Config{MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	if err != nil {
		t.Fatal(err)
	}
	f := newFleet(t, mcpfleet.WithMetrics(om))
	g := newGateway(t, gateway.Config{Mux: f.mux, Scopes: []string{"read"}})
	c := connect(t, g)
	call(t, c, "callTool", map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": "a"}})
	call(t, c, "callTool", map[string]any{"server": "misc", "tool": "echo", "arguments": map[string]any{"text": ""}})
	call(t, c, "callTool", map[string]any{"server": "k8s-1", "tool": "pods_delete", "arguments": map[string]any{"name": "web"}})
	call(t, c, "listKinds", nil)
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				if m.Name != "mcpfleet.calls" {
					continue
				}
				for _, p := range d.DataPoints {
					st, _ := p.Attributes.Value(otelmetrics.KeyOutcome)
					r, _ := p.Attributes.Value(otelmetrics.KeyReason)
					got["calls "+st.Emit()+" "+r.Emit()] += p.Value
				}
			case metricdata.Histogram[float64]:
				if m.Name != "mcp.server.operation.duration" {
					continue
				}
				for _, p := range d.DataPoints {
					tool, _ := p.Attributes.Value("gen_ai.tool.name")
					got["requests "+tool.Emit()] += int64(p.Count)
				}
			}
		}
	}
	want := map[string]int64{
		"calls ok ":                    1,
		"calls rejected placeholder":   1,
		"calls rejected not_permitted": 1,
		"requests callTool":            3,
		"requests listKinds":           1,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	if n := f.calls.Load(); n != 1 {
		t.Errorf("%d calls reached upstream, want 1", n)
	}
}

// A result too large for the context comes back as a preview with a handle;
// readResult and grepResult read it through the gateway.
func TestOffloadedResult(t *testing.T) {
	f := newFleet(t)
	c := connect(t, newGateway(t, gateway.Config{Mux: f.mux}))
	res := call(t, c, "callTool", map[string]any{"server": "misc", "tool": "big", "arguments": map[string]any{"bytes": 200000}})
	preview := text(res)
	m := regexp.MustCompile(`readResult \{"handle": "([^"]+)"`).FindStringSubmatch(preview)
	if res.IsError || m == nil || len(preview) > 20000 {
		t.Fatalf("want a short preview naming a handle, got %d bytes (IsError %v):\n%.600s", len(preview), res.IsError, preview)
	}
	handle := m[1]
	cases := []struct {
		tool    string
		args    map[string]any
		want    string
		isError bool
	}{
		{"readResult", map[string]any{"handle": handle, "offset": 100, "limit": 2}, "line 100: request handled", false},
		{"grepResult", map[string]any{"handle": handle, "pattern": "line 4242:"}, "line 4242: request handled", false},
		{"grepResult", map[string]any{"handle": handle, "pattern": "("}, "bad grep pattern", true},
		{"readResult", map[string]any{"handle": "nope"}, "no stored result", true},
		{"readResult", map[string]any{}, `missing required argument "handle"`, true},
	}
	for _, tc := range cases {
		res := call(t, c, tc.tool, tc.args)
		if got := text(res); res.IsError != tc.isError || !strings.Contains(got, tc.want) {
			t.Errorf("%s %v: IsError %v, text %.300q; want IsError %v and %q", tc.tool, tc.args, res.IsError, got, tc.isError, tc.want)
		}
	}
}

// TestCallToolDefusesStructuredContent: the neutralizer's injection
// corpus, returned by a real upstream inside structuredContent over
// streamable HTTP, reaches a client of the gateway, also over HTTP,
// defused: exactly as the Mux defuses text, and never as sent.
func TestCallToolDefusesStructuredContent(t *testing.T) {
	injections := testfleet.NeutralizeCorpus(t, "injections.txt")
	up := testfleet.ServeHTTP(t, testfleet.StructuredServer("rows", injections))
	cfg := &config.Fleet{Servers: []config.Server{{Name: "rows-1", Kind: "rows", Transport: "http", URL: up}}}
	mx, err := mcpfleet.New(t.Context(), cfg, mcpfleet.WithHealthInterval(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	g := newGateway(t, gateway.Config{Mux: mx})
	c := testfleet.HTTPClient(t, testfleet.ServeHTTP(t, g.MCPServer()))
	n := neutralize.New()
	for i, in := range injections {
		res := call(t, c, "callTool", map[string]any{"server": "rows-1", "tool": "row", "arguments": map[string]any{"i": i}})
		if res.IsError {
			t.Fatalf("row %d: %s", i, text(res))
		}
		var got struct {
			Row struct {
				Note string `json:"note"`
			} `json:"row"`
		}
		raw := res.RawStructuredContent
		if len(raw) == 0 {
			raw, _ = json.Marshal(res.StructuredContent)
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("row %d: structuredContent %s: %v", i, raw, err)
		}
		want, count := n.Defuse(in)
		if count == 0 || got.Row.Note != want {
			t.Errorf("row %d: the client got note %q, want it defused as %q", i, got.Row.Note, want)
		}
	}
}

// TestSearchFollowsPresetRematch: a server that gains the Kubernetes
// tools after start gets the kubernetes preset (the Mux re-matches on
// tools/list_changed), and searchTools then answers from the preset's
// aliases without a restart. With the settings read once at start, as
// serve did before SettingsFromMux, the second search finds nothing.
func TestSearchFollowsPresetRematch(t *testing.T) {
	s := testfleet.NewServer("cluster", testfleet.Options{})
	mx, err := mcpfleet.New(t.Context(), &config.Fleet{}, mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("cluster", "k8s", s))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mx.Close() })
	c := connect(t, newGateway(t, gateway.Config{Mux: mx, SettingsFromMux: true}))
	// The preset's alias for events_list; no tool's own text says it.
	const query = "probe failures"
	if got := text(call(t, c, "searchTools", map[string]any{"query": query})); strings.Contains(got, "events_list") {
		t.Fatalf("searchTools before the k8s tools = %q", got)
	}
	for _, tool := range fixtures.MustLoad(t, "kubernetes").Tools {
		s.AddTool(tool, func(ctx context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		p := mx.Presets()
		if len(p) == 1 && p[0].Preset == "kubernetes" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the kind never matched the kubernetes preset: %+v", p)
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := text(call(t, c, "searchTools", map[string]any{"query": query, "k": 1}))
	if !strings.HasPrefix(got, "k8s.events_list") {
		t.Errorf("searchTools %q after the re-match = %q, want k8s.events_list first", query, got)
	}
}
