package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/gateway"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/telemetry"
)

func TestParseTokens(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		want    map[string][]string
		wantErr string
	}{
		{"lines", "# ops\nabc: read,write\n\ndef: *\n", map[string][]string{"abc": {"read", "write"}, "def": {"*"}}, ""},
		{"semicolons", "abc: read; def: write ,k8s:exec", map[string][]string{"abc": {"read"}, "def": {"write", "k8s:exec"}}, ""},
		{"no scopes means read", "abc:", map[string][]string{"abc": {"read"}}, ""},
		{"bad lines", "abc\n: read\nx y: read\nabc: write\nabc: read", map[string][]string{"abc": {"write"}},
			"token file line 1: want \"token: scope,scope\"\ntoken file line 2: empty token\ntoken file line 3: token contains whitespace\ntoken file line 5: token listed twice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := gateway.ParseTokens(strings.NewReader(tc.in))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
				var te *gateway.TokenError
				if !errors.As(err, &te) {
					t.Errorf("error %v is not a *TokenError", err)
				}
			}
			if gotErr != tc.wantErr {
				t.Errorf("error = %q, want %q", gotErr, tc.wantErr)
			}
		})
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:7777": true, "localhost:1": true, "[::1]:80": true, "127.0.0.2:1": true,
		":7777": false, "0.0.0.0:7777": false, "10.0.0.1:80": false, "example.com:80": false, "[::]:80": false,
	} {
		if got := gateway.IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestListenAndServeRefusesOpenBind(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux})
	err := g.ListenAndServe(t.Context(), "0.0.0.0:0", nil)
	if !errors.Is(err, gateway.ErrInsecureBind) {
		t.Fatalf("ListenAndServe(0.0.0.0:0) = %v, want ErrInsecureBind", err)
	}
}

func httpClient(t *testing.T, url, token string) (*client.Client, error) {
	t.Helper()
	var headers map[string]string
	if token != "" {
		headers = map[string]string{"Authorization": "Bearer " + token}
	}
	return httpClientWith(t, url, headers)
}

// httpClientWith is an initialized streamable HTTP client of the gateway
// at url that sends headers with every request, closed when t ends.
func httpClientWith(t *testing.T, url string, headers map[string]string) (*client.Client, error) {
	t.Helper()
	c, err := client.NewStreamableHttpClient(url+"/mcp", transport.WithHTTPHeaders(headers))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(t.Context()); err != nil {
		return nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(t.Context(), init); err != nil {
		return nil, err
	}
	// Initialize is local under the stateless protocol: make a real request.
	if _, err := c.ListTools(t.Context(), mcp.ListToolsRequest{}); err != nil {
		return nil, err
	}
	return c, nil
}

func TestHTTPAuthAndScopes(t *testing.T) {
	tel, err := telemetry.Start(t.Context(), telemetry.Options{Metrics: "prometheus", Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	f := newFleet(t, tel.MuxOptions()...)
	g := newGateway(t, gateway.Config{Mux: f.mux, Tokens: map[string][]string{"r-token": {"read"}, "w-token": {"write"}},
		MetricsHandler: tel.MetricsHandler()})
	ts := httptest.NewServer(g.Handler())
	t.Cleanup(ts.Close)

	for _, tok := range []string{"", "wrong"} {
		if _, err := httpClient(t, ts.URL, tok); err == nil {
			t.Errorf("token %q: connected, want 401", tok)
		}
	}
	del := map[string]any{"server": "k8s-1", "tool": "pods_delete", "arguments": map[string]any{"name": "web"}}
	cases := []struct {
		token   string
		isError bool
	}{{"r-token", true}, {"w-token", false}}
	for _, tc := range cases {
		c, err := httpClient(t, ts.URL, tc.token)
		if err != nil {
			t.Fatalf("%s: %v", tc.token, err)
		}
		res := call(t, c, "callTool", del)
		if res.IsError != tc.isError {
			t.Errorf("%s: pods_delete IsError = %v, want %v: %s", tc.token, res.IsError, tc.isError, text(res))
		}
	}

	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without token: %d, want 401", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer r-token")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	scrape, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The refusal was the gateway's, the deletion the Mux's: both are
	// counted through the Mux's Metrics, and served in the Prometheus text
	// format that promtool accepts.
	cmd := exec.Command(testservice.Binary(t, "promtool"), "check", "metrics")
	cmd.Stdin = bytes.NewReader(scrape)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
	for _, want := range []string{
		`mcpfleet_rejections_total{mcpfleet_kind="kubernetes",mcpfleet_outcome="rejected",mcpfleet_reason="not_permitted",mcpfleet_server="k8s-1",mcpfleet_tool="pods_delete"`,
		`mcpfleet_calls_total{mcpfleet_kind="kubernetes",mcpfleet_outcome="ok",mcpfleet_server="k8s-1",mcpfleet_tool="pods_delete"`,
		`mcp_server_operation_duration_seconds_count{gen_ai_tool_name="callTool",mcp_method_name="tools/call"`,
		`mcp_server_operation_duration_seconds_count{error_type="tool_error",gen_ai_tool_name="callTool",mcp_method_name="tools/call"`,
	} {
		if !strings.Contains(string(scrape), want) {
			t.Errorf("/metrics lacks %s\n%s", want, scrape)
		}
	}

	// The scheme name is case-insensitive; the token is not.
	for header, want := range map[string]int{
		"bearer r-token": http.StatusOK, "BEARER r-token": http.StatusOK,
		"Bearer R-TOKEN": http.StatusUnauthorized, "Basic r-token": http.StatusUnauthorized,
		"Bearerr-token": http.StatusUnauthorized,
	} {
		req, _ := http.NewRequest("GET", ts.URL+"/metrics", nil)
		req.Header.Set("Authorization", header)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Authorization %q: %d, want %d", header, resp.StatusCode, want)
		}
	}
}

func TestHealthz(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux, Tokens: map[string][]string{"x": {"read"}}})
	ts := httptest.NewServer(g.Handler())
	t.Cleanup(ts.Close)
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h struct {
		Status  string `json:"status"`
		Servers []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"servers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || h.Status != "ok" || len(h.Servers) != 3 || h.Servers[0].Name != "k8s-1" || h.Servers[0].State != "up" {
		t.Errorf("/healthz = %d %+v", resp.StatusCode, h)
	}
}

// A call in flight when the context ends finishes and its answer arrives;
// then ListenAndServe returns.
// slowCallInFlight starts a call of misc's slow tool (ms milliseconds)
// through c and returns once g counts it in flight; the result arrives on
// the channel, a client error as an error result.
func slowCallInFlight(c *client.Client, g *gateway.Gateway, ms int) <-chan *mcp.CallToolResult {
	resc := make(chan *mcp.CallToolResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "callTool"
		req.Params.Arguments = map[string]any{"server": "misc", "tool": "slow", "arguments": map[string]any{"ms": ms}}
		res, err := c.CallTool(context.Background(), req)
		if err != nil {
			res = mcp.NewToolResultError("client: " + err.Error())
		}
		resc <- res
	}()
	for g.InFlight() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	return resc
}

func TestListenAndServeDrains(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux})
	ctx, cancel := context.WithCancel(t.Context())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- g.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	url := "http://" + (<-addrc).String()
	c, err := httpClient(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	resc := slowCallInFlight(c, g, 400)
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe = %v", err)
	}
	if res := <-resc; res.IsError || !strings.Contains(text(res), "slept") {
		t.Errorf("in-flight call = %q (IsError %v), want slept", text(res), res.IsError)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("still accepting after shutdown")
	}
}

func TestServeStdioDrains(t *testing.T) {
	f := newFleet(t)
	g := newGateway(t, gateway.Config{Mux: f.mux})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- g.ServeStdio(ctx, inR, outW); outW.Close() }()
	tr := transport.NewIO(outR, inW, io.NopCloser(strings.NewReader("")))
	c := client.NewClient(tr)
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	resc := slowCallInFlight(c, g, 300)
	cancel()
	if res := <-resc; res.IsError || !strings.Contains(text(res), "slept") {
		t.Errorf("in-flight call = %q (IsError %v), want slept", text(res), res.IsError)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeStdio = %v", err)
	}
}
