package realservers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
)

var binary struct {
	once sync.Once
	path string
	err  error
}

// mcpfleetBinary builds ./cmd/mcpfleet once per test run.
func mcpfleetBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(file), "..", "..")
		dir, err := os.MkdirTemp("", "mcpfleet-bin")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "mcpfleet")
		cmd := exec.Command("go", "build", "-o", binary.path, "./cmd/mcpfleet")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binary.err = errors.New("go build ./cmd/mcpfleet: " + err.Error() + "\n" + string(out))
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// smallFleet writes a fleet file of the fast real servers (filesystem,
// memory, everything) for serve to front, and returns it with a file the
// filesystem server can read.
func smallFleet(t *testing.T) (cfgPath, file string) {
	t.Helper()
	real := realDir(t)
	dir := t.TempDir()
	var specs []spec
	for _, s := range realFleet(t, real, dir) {
		if s.name == "fs-1" || s.name == "memory" || s.name == "everything" {
			specs = append(specs, s)
		}
	}
	return writeConfig(t, dir, specs), filepath.Join(dir, "fs-1", "README.md")
}

// serveHTTP runs `mcpfleet serve --transport http` on a free loopback port
// and returns its base URL. At cleanup it sends SIGTERM and expects a clean
// exit.
func serveHTTP(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--transport", "http", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	must(t, err)
	must(t, cmd.Start())
	urlc := make(chan string, 1)
	var mu sync.Mutex
	var log bytes.Buffer
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			log.WriteString(line + "\n")
			mu.Unlock()
			if u, ok := strings.CutPrefix(line, "mcpfleet serve: listening on "); ok {
				urlc <- strings.TrimSuffix(u, "/mcp")
			}
		}
	}()
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
			if err := waitErr; err != nil {
				mu.Lock()
				t.Errorf("serve after SIGTERM: %v\n%s", err, log.String())
				mu.Unlock()
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Error("serve did not exit within 30s of SIGTERM")
		}
	})
	select {
	case u := <-urlc:
		return u
	case <-exited:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("serve exited: %v\n%s", waitErr, log.String())
	case <-time.After(90 * time.Second):
		t.Fatal("serve did not start listening within 90s")
	}
	return ""
}

// tsResult is what testdata/client.mjs prints.
type tsResult struct {
	Instructions string   `json:"instructions"`
	Server       string   `json:"server"`
	Tools        []string `json:"tools"`
	ListKinds    tsCall   `json:"listKinds"`
	Search       tsCall   `json:"search"`
	Describe     tsCall   `json:"describe"`
	Call         tsCall   `json:"call"`
	Image        tsCall   `json:"image"`
	Rejected     tsCall   `json:"rejected"`
	Refused      tsCall   `json:"refused"`
	Big          *tsBig   `json:"big"`
}

// tsBig is what the client saw of a large read (MCPFLEET_BIG_FILE).
type tsBig struct {
	ReplyBytes    int            `json:"replyBytes"` // the whole reply, as JSON
	Text          string         `json:"text"`
	HasStructured bool           `json:"hasStructured"`
	Meta          map[string]any `json:"meta"`
}

type tsCall struct {
	IsError bool     `json:"isError"`
	Text    string   `json:"text"`
	Types   []string `json:"types"`
}

func runClient(t *testing.T, file string, args ...string) tsResult {
	t.Helper()
	return runClientEnv(t, file, nil, args...)
}

// runClientEnv is runClient with more environment for client.mjs.
func runClientEnv(t *testing.T, file string, env []string, args ...string) tsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"testdata/client.mjs"}, args...)...)
	cmd.Env = append(append(os.Environ(),
		"MCPFLEET_SDK="+filepath.Join(realDir(t), "node_modules", "@modelcontextprotocol", "sdk"),
		"MCPFLEET_TEST_FILE="+file), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client.mjs: %v\n%s", err, stderr.String())
	}
	var r tsResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	return r
}

// checkTS asserts what the official client saw, whatever the transport.
func checkTS(t *testing.T, r tsResult) {
	t.Helper()
	if diff := cmp.Diff([]string{"callTool", "describeTools", "grepResult", "listKinds", "readResult", "searchTools"}, r.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if r.Server != "mcpfleet" || !strings.Contains(r.Instructions, "- filesystem (") {
		t.Errorf("server %q, instructions %q", r.Server, r.Instructions)
	}
	checks := []struct {
		name    string
		c       tsCall
		isError bool
		want    string
	}{
		{"listKinds", r.ListKinds, false, "- everything ("},
		{"searchTools", r.Search, false, "filesystem.read_text_file [fs-1]"},
		{"describeTools", r.Describe, false, `"name": "filesystem.read_text_file"`},
		{"callTool", r.Call, false, "served by the filesystem MCP server"},
		{"placeholder", r.Rejected, true, "rejected (placeholder)"},
		{"not permitted", r.Refused, true, "rejected (not_permitted)"},
	}
	for _, c := range checks {
		if c.c.IsError != c.isError || !strings.Contains(c.c.Text, c.want) {
			t.Errorf("%s: isError %v, text %q; want isError %v and %q", c.name, c.c.IsError, c.c.Text, c.isError, c.want)
		}
	}
	if !slices.Contains(r.Image.Types, "image") {
		t.Errorf("image call content types %v, want an image", r.Image.Types)
	}
}

func TestTSClientStdio(t *testing.T) {
	cfg, file := smallFleet(t)
	bin := mcpfleetBinary(t)
	checkTS(t, runClient(t, file, "stdio", bin, "serve", "--config", cfg))
}

func TestTSClientHTTP(t *testing.T) {
	cfg, file := smallFleet(t)
	bin := mcpfleetBinary(t)
	tokFile := filepath.Join(t.TempDir(), "tokens")
	must(t, os.WriteFile(tokFile, []byte("# test tokens\nreader-token: read\n"), 0o600))
	base := serveHTTP(t, bin, "--config", cfg, "--token-file", tokFile)
	checkTS(t, runClient(t, file, "http", base+"/mcp", "reader-token"))

	resp, err := http.Get(base + "/healthz")
	must(t, err)
	defer resp.Body.Close()
	var h struct {
		Status  string `json:"status"`
		Servers []struct {
			Name, State string
		} `json:"servers"`
	}
	must(t, json.NewDecoder(resp.Body).Decode(&h))
	if resp.StatusCode != 200 || h.Status != "ok" || len(h.Servers) != 3 {
		t.Errorf("/healthz: %d %+v", resp.StatusCode, h)
	}
	resp2, err := http.Get(base + "/mcp")
	must(t, err)
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusUnauthorized {
		t.Errorf("/mcp without a token: %d, want 401", resp2.StatusCode)
	}
}

// mcpfleet as a client of mcpfleet serve, over stdio and HTTP: two layers.
func TestNested(t *testing.T) {
	cfg, file := smallFleet(t)
	bin := mcpfleetBinary(t)
	base := serveHTTP(t, bin, "--config", cfg, "--scopes", "*")
	outer := &config.Fleet{Servers: []config.Server{
		{Name: "inner-stdio", Kind: "fleet", Transport: config.TransportStdio, Command: bin, Args: []string{"serve", "--config", cfg, "--scopes", "*"}, ConnectTimeout: 2 * time.Minute},
		{Name: "inner-http", Kind: "fleet", Transport: config.TransportHTTP, URL: base + "/mcp", ConnectTimeout: 2 * time.Minute},
	}}
	mx, err := mcpfleet.New(t.Context(), outer, mcpfleet.WithStrict(), mcpfleet.WithHealthInterval(-1))
	must(t, err)
	defer mx.Close()

	groups := mx.KindGroups()
	if len(groups) != 1 || groups[0].Kind != "fleet" {
		t.Fatalf("outer kinds = %+v", groups)
	}
	if diff := cmp.Diff([]string{"callTool", "describeTools", "grepResult", "listKinds", "readResult", "searchTools"}, slices.Sorted(slices.Values(groups[0].Tools))); diff != "" {
		t.Errorf("outer tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"inner-http", "inner-stdio"}, groups[0].Servers); diff != "" {
		t.Errorf("folded servers (-want +got):\n%s", diff)
	}
	for _, inner := range []string{"inner-stdio", "inner-http"} {
		t.Run(inner, func(t *testing.T) {
			cases := []struct {
				name, tool, args string
				isError          bool
				want             string
			}{
				{"kinds", "listKinds", `{}`, false, "- filesystem (14 tools): fs-1"},
				{"search", "searchTools", `{"query": "knowledge graph entities"}`, false, "memory."},
				{"call", "callTool", `{"server": "fs-1", "tool": "read_text_file", "arguments": {"path": "` + file + `"}}`, false, "served by the filesystem MCP server"},
				{"write allowed", "callTool", `{"server": "memory", "tool": "create_entities", "arguments": {"entities": [{"name": "via-` + inner + `", "entityType": "test", "observations": ["two layers"]}]}}`, false, "via-" + inner},
				{"inner rejection", "callTool", `{"server": "fs-1", "tool": "read_text_file", "arguments": {"path": 7}}`, true, "rejected (invalid_arguments)"},
			}
			for _, tc := range cases {
				res, err := mx.CallTool(t.Context(), inner, tc.tool, json.RawMessage(tc.args))
				if err != nil {
					t.Errorf("%s: %v", tc.name, err)
					continue
				}
				if res.IsError != tc.isError || !strings.Contains(res.Text(), tc.want) {
					t.Errorf("%s: isError %v, text %q; want isError %v and %q", tc.name, res.IsError, res.Text(), tc.isError, tc.want)
				}
			}
		})
	}
}

// TestTSClientLargeRead: the official client reads a 20 MB log through
// mcpfleet serve from the real filesystem server, which answers with the
// text and again with {"content": <the text>} as structuredContent. The
// client receives the preview only, with no structuredContent, and the
// preview's size is the file's: the store keeps the text once.
func TestTSClientLargeRead(t *testing.T) {
	cfg, file := smallFleet(t)
	big := filepath.Join(filepath.Dir(file), "app.log")
	var b strings.Builder
	for i := 0; b.Len() < 20<<20; i++ {
		fmt.Fprintf(&b, "2026-12-01T10:%02d:%02dZ INFO payments-api request %d served in %dms\n", i/60%60, i%60, i, i%97)
	}
	must(t, os.WriteFile(big, []byte(b.String()), 0o644))
	bin := mcpfleetBinary(t)
	r := runClientEnv(t, file, []string{"MCPFLEET_BIG_FILE=" + big}, "stdio", bin, "serve", "--config", cfg)
	if r.Big == nil {
		t.Fatal("client.mjs reported no large read")
	}
	if r.Big.ReplyBytes > 64<<10 {
		t.Errorf("the client received %d bytes for a 20 MB read, want under 64 KiB", r.Big.ReplyBytes)
	}
	if r.Big.HasStructured {
		t.Error("the offloaded reply still carries structuredContent")
	}
	m := regexp.MustCompile(`\((?:\d+ tokens, )?(\d+) bytes, \d+ lines\)`).FindStringSubmatch(r.Big.Text)
	if m == nil {
		t.Fatalf("no size in the preview:\n%.600s", r.Big.Text)
	}
	got, _ := strconv.Atoi(m[1])
	if want := b.Len(); math.Abs(float64(got-want)) > 0.01*float64(want) {
		t.Errorf("the preview says %d bytes; the file has %d", got, want)
	}
	if off, ok := r.Big.Meta["mcpfleet/offload"].(map[string]any); !ok || off["handle"] == nil {
		t.Errorf("_meta %v does not name the offload", r.Big.Meta)
	}
}
