package realservers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/internal/cli"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// The twelve-server fleet is started once and shared: starting it is most
// of this suite's time.
var shared struct {
	once    sync.Once
	mux     *mcpfleet.Mux
	path    string
	dir     string
	startup time.Duration
	err     error

	// sent records the arguments and repairs of the last call per
	// "server.tool" that passed the gates, whether or not the server
	// answered: a GitLab call without a backend still shows its repair.
	mu   sync.Mutex
	sent map[string]mcpfleet.Call
}

func recordSent(ctx context.Context, c *mcpfleet.Call) (context.Context, *mcp.CallToolResult, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.sent == nil {
		shared.sent = map[string]mcpfleet.Call{}
	}
	shared.sent[c.Server+"."+c.Tool] = *c
	return ctx, nil, nil
}

func forgetSent(server, tool string) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	delete(shared.sent, server+"."+tool)
}

func lastSent(server, tool string) (mcpfleet.Call, bool) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	c, ok := shared.sent[server+"."+tool]
	return c, ok
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.mux != nil {
		shared.mux.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// fleet returns the shared, connected real fleet.
func fleet(t *testing.T) *mcpfleet.Mux {
	t.Helper()
	real := realDir(t)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcpfleet-real")
		if err != nil {
			shared.err = err
			return
		}
		shared.dir = dir
		shared.path = writeConfig(t, dir, realFleet(t, real, dir))
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cfg, err := loadConfig(shared.path)
		if err != nil {
			shared.err = err
			return
		}
		begin := time.Now()
		shared.mux, shared.err = mcpfleet.New(ctx, cfg, mcpfleet.WithStrict(), mcpfleet.WithHealthInterval(-1), mcpfleet.WithBeforeCall(recordSent))
		shared.startup = time.Since(begin)
	})
	if shared.err != nil {
		t.Fatalf("real fleet: %v", shared.err)
	}
	return shared.mux
}

func TestAllConnect(t *testing.T) {
	mx := fleet(t)
	st := mx.Status()
	if len(st) < 12 {
		t.Errorf("fleet has %d servers, want at least 12", len(st))
	}
	for _, s := range st {
		if s.State != mcpfleet.StateUp || s.Tools == 0 {
			t.Errorf("%s: state %s with %d tools (%s)", s.Name, s.State, s.Tools, s.LastError)
		}
	}
	t.Logf("12-server fleet connected in %v", shared.startup.Round(time.Millisecond))
}

// Each kind's tool set is exactly the union of its servers' own lists, and
// the read-only deployments lack the write tools.
func TestKindsFold(t *testing.T) {
	mx := fleet(t)
	wantServers := map[string][]string{
		"everything": {"everything"},
		"filesystem": {"fs-1", "fs-2"},
		"gitlab":     {"gitlab-1", "gitlab-2", "gitlab-3", "gitlab-4"},
		"kubernetes": {"k8s-1", "k8s-2", "k8s-3", "k8s-4"},
		"memory":     {"memory"},
	}
	gotServers := map[string][]string{}
	for _, g := range mx.KindGroups() {
		gotServers[g.Kind] = g.Servers
		union := map[string]bool{}
		for _, s := range g.Servers {
			tools, err := mx.Tools(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools {
				union[tl.Name] = true
				if !slices.Contains(g.ToolServers[tl.Name], s) {
					t.Errorf("%s: ToolServers[%s] = %v lacks %s", g.Kind, tl.Name, g.ToolServers[tl.Name], s)
				}
			}
		}
		want := make([]string, 0, len(union))
		for n := range union {
			want = append(want, n)
		}
		slices.Sort(want)
		got := slices.Sorted(slices.Values(g.Tools))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s tools (-union of servers +folded):\n%s", g.Kind, diff)
		}
	}
	if diff := cmp.Diff(wantServers, gotServers); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}

	names := func(server string) []string {
		tools, _ := mx.Tools(server)
		out := make([]string, len(tools))
		for i, tl := range tools {
			out[i] = tl.Name
		}
		return out
	}
	cases := []struct {
		full, ro string
		write    []string // tools the full server has and the read-only one must not
		read     []string // tools both have
	}{
		{"gitlab-1", "gitlab-3", []string{"create_issue", "create_merge_request", "push_files"}, []string{"get_project", "list_issues"}},
		{"gitlab-2", "gitlab-4", []string{"delete_issue"}, []string{"get_merge_request"}},
		{"k8s-1", "k8s-4", []string{"pods_delete", "pods_exec", "resources_create_or_update"}, []string{"pods_list", "pods_log"}},
	}
	for _, tc := range cases {
		full, ro := names(tc.full), names(tc.ro)
		if len(ro) >= len(full) {
			t.Errorf("%s has %d tools, read-only %s has %d: want fewer", tc.full, len(full), tc.ro, len(ro))
		}
		for _, w := range tc.write {
			if !slices.Contains(full, w) || slices.Contains(ro, w) {
				t.Errorf("%s: want %s on %s only", w, tc.full, tc.ro)
			}
		}
		for _, r := range tc.read {
			if !slices.Contains(full, r) || !slices.Contains(ro, r) {
				t.Errorf("%s: want it on both %s and %s", r, tc.full, tc.ro)
			}
		}
		for _, r := range ro {
			if !slices.Contains(full, r) {
				t.Errorf("read-only %s has %s, which full %s lacks", tc.ro, r, tc.full)
			}
		}
	}
}

func callOK(t *testing.T, mx *mcpfleet.Mux, server, tool, args string) *mcpfleet.Result {
	t.Helper()
	res, err := mx.CallTool(t.Context(), server, tool, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s.%s: %v", server, tool, err)
	}
	if res.IsError {
		t.Fatalf("%s.%s: tool error: %s", server, tool, res.Text())
	}
	return res
}

func TestFilesystemRoundTrip(t *testing.T) {
	mx := fleet(t)
	root := shared.dir + "/fs-2"
	if got := callOK(t, mx, "fs-2", "read_text_file", `{"path": "`+root+`/logs/app.log"}`).Text(); !strings.Contains(got, "payments-api timeout") {
		t.Errorf("read_text_file = %q", got)
	}
	callOK(t, mx, "fs-2", "write_file", `{"path": "`+root+`/note.txt", "content": "written through mcpfleet"}`)
	if b, err := os.ReadFile(root + "/note.txt"); err != nil || string(b) != "written through mcpfleet" {
		t.Errorf("file on disk = %q, %v", b, err)
	}
	if got := callOK(t, mx, "fs-2", "list_directory", `{"path": "`+root+`"}`).Text(); !strings.Contains(got, "[DIR] logs") || !strings.Contains(got, "[FILE] note.txt") {
		t.Errorf("list_directory = %q", got)
	}
	// Outside its root the server refuses; the refusal is a clean tool error.
	res, err := mx.CallTool(t.Context(), "fs-1", "read_text_file", json.RawMessage(`{"path": "`+root+`/note.txt"}`))
	if err != nil || !res.IsError {
		t.Errorf("fs-1 reading fs-2's file: err %v, result %+v; want a tool error", err, res)
	} else {
		cleanError(t, res.Text())
	}
}

func TestMemoryRoundTrip(t *testing.T) {
	mx := fleet(t)
	callOK(t, mx, "memory", "create_entities", `{"entities": [{"name": "payments-api", "entityType": "service", "observations": ["times out under load"]}]}`)
	got := callOK(t, mx, "memory", "search_nodes", `{"query": "payments"}`).Text()
	if !strings.Contains(got, "times out under load") {
		t.Errorf("search_nodes = %q", got)
	}
}

func TestEverythingContent(t *testing.T) {
	mx := fleet(t)
	if got := callOK(t, mx, "everything", "echo", `{"message": "hi"}`).Text(); !strings.Contains(got, "hi") {
		t.Errorf("echo = %q", got)
	}
	if got := callOK(t, mx, "everything", "get-sum", `{"a": 2, "b": 40}`).Text(); !strings.Contains(got, "42") {
		t.Errorf("get-sum = %q", got)
	}
	img := callOK(t, mx, "everything", "get-tiny-image", `{}`)
	found := false
	for _, c := range img.Content {
		if ic, ok := c.(mcp.ImageContent); ok && ic.MIMEType == "image/png" && len(ic.Data) > 100 {
			found = true
		}
	}
	if !found {
		t.Errorf("get-tiny-image content = %#v, want a PNG image", img.Content)
	}
	sc := callOK(t, mx, "everything", "get-structured-content", `{"location": "New York"}`)
	if m, ok := sc.StructuredContent.(map[string]any); !ok || m["temperature"] == nil {
		t.Errorf("get-structured-content structured = %#v, want a temperature", sc.StructuredContent)
	}
}

// cleanError fails if a model-facing error text looks like a crash.
func cleanError(t *testing.T, text string) {
	t.Helper()
	for _, bad := range []string{"panic:", "goroutine ", "runtime.", ".go:", "    at ", "node:internal"} {
		if strings.Contains(text, bad) {
			t.Errorf("error text contains %q:\n%s", bad, text)
		}
	}
	if strings.TrimSpace(text) == "" {
		t.Error("empty error text")
	}
}

// Kubernetes and GitLab have no backend here: calls fail, cleanly.
func TestBackendDownErrors(t *testing.T) {
	mx := fleet(t)
	cases := []struct{ server, tool, args string }{
		{"k8s-1", "pods_list", `{}`},
		{"k8s-4", "pods_get", `{"name": "web", "namespace": "prod"}`},
		{"gitlab-1", "get_project", `{"project_id": "group/app"}`},
		{"gitlab-3", "list_issues", `{"project_id": "42"}`},
	}
	for _, tc := range cases {
		t.Run(tc.server+"."+tc.tool, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			res, err := mx.CallTool(ctx, tc.server, tc.tool, json.RawMessage(tc.args))
			var rej *mcpfleet.RejectError
			var up *mcpfleet.UpstreamError
			switch {
			case err == nil && res.IsError:
				cleanError(t, res.Text())
				t.Logf("tool error: %.200s", res.Text())
			case errors.As(err, &rej), errors.As(err, &up):
				cleanError(t, err.Error())
				t.Logf("error: %.200s", err.Error())
			case err != nil:
				t.Errorf("untyped error %T: %v", err, err)
			default:
				t.Errorf("call succeeded without a backend: %s", res.Text())
			}
		})
	}
}

// Argument repair on the servers' real schemas.
func TestRepairOnRealSchemas(t *testing.T) {
	mx := fleet(t)
	cases := []struct {
		name, server, tool, args string
		wantArg                  string // a key (and value) the repaired arguments must have
		wantVal                  any
		reject                   mcpfleet.Reason
	}{
		{"snake_case to camelCase", "k8s-2", "pods_list", `{"label_selector": "app=web"}`, "labelSelector", "app=web", ""},
		{"plural kind singularized", "k8s-2", "resources_list", `{"apiVersion": "v1", "kind": "pods"}`, "kind", "Pod", ""},
		{"camelCase to snake_case", "gitlab-2", "get_project", `{"projectId": "group/app"}`, "project_id", "group/app", ""},
		{"placeholder rejected", "k8s-3", "pods_get", `{"name": "<unknown>", "namespace": "prod"}`, "", nil, mcpfleet.ReasonPlaceholder},
		{"placeholder rejected on gitlab", "gitlab-1", "get_project", `{"project_id": "undefined"}`, "", nil, mcpfleet.ReasonPlaceholder},
		{"missing required", "gitlab-1", "get_project", `{}`, "", nil, mcpfleet.ReasonInvalidArguments},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			var rejected mcpfleet.Reason
			forgetSent(tc.server, tc.tool)
			_, err := mx.CallTool(ctx, tc.server, tc.tool, json.RawMessage(tc.args))
			var rej *mcpfleet.RejectError
			if errors.As(err, &rej) {
				rejected = rej.Reason
				cleanError(t, rej.Error())
			}
			if rejected != tc.reject {
				t.Fatalf("rejected = %q, want %q (err %v)", rejected, tc.reject, err)
			}
			sent, ok := lastSent(tc.server, tc.tool)
			if tc.reject != "" {
				if ok {
					t.Errorf("a rejected call reached the server with %v", sent.Args)
				}
				return
			}
			got, repairs := sent.Args, sent.Repairs
			if tc.wantArg == "" {
				return
			}
			if len(repairs) == 0 {
				t.Errorf("no repairs recorded; args sent %v", got)
			}
			if diff := cmp.Diff(tc.wantVal, got[tc.wantArg]); diff != "" {
				t.Errorf("args[%s] (-want +got):\n%s\nall args: %v", tc.wantArg, diff, got)
			}
		})
	}
}

// The gateway over the real fleet: its own tools cost a fixed, small
// number of tokens whatever the fleet's size.
func TestGatewayTokens(t *testing.T) {
	mx := fleet(t)
	var all []mcp.Tool
	for _, s := range mx.Servers() {
		all = append(all, s.Tools...)
	}
	g, err := gateway.New(gateway.Config{Mux: mx, Scopes: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	var own []mcp.Tool
	for _, st := range g.MCPServer().ListTools() {
		own = append(own, st.Tool)
	}
	full, serve := tokens.MCPTools(all), tokens.MCPTools(own)
	if serve > 2000 {
		t.Errorf("serve's tool definitions take %d tokens, want <= 2000", serve)
	}
	t.Logf("real fleet: %d tools, %d tokens; serve's %d tools: %d tokens (%.1fx smaller)", len(all), full, len(own), serve, float64(full)/float64(serve))
}

// `mcpfleet tokens` on the real fleet, in-process.
func TestTokensCommand(t *testing.T) {
	fleet(t)
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	err := cli.Run(ctx, os.Environ(), strings.NewReader(""), &out, &errb, []string{"tokens", "--config", shared.path, "--strict"})
	if err != nil {
		t.Fatalf("tokens: %v\n%s", err, errb.String())
	}
	for _, want := range []string{"12 servers", "full: every server's tools with schemas", "gitlab-1", "k8s-4", "everything"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tokens output lacks %q:\n%s", want, out.String())
		}
	}
	t.Logf("mcpfleet tokens:\n%s", out.String())
}
