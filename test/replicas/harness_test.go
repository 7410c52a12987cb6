package replicas

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// mcpfleetBinary builds cmd/mcpfleet once per test binary.
func mcpfleetBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		dir, err := os.MkdirTemp("", "mcpfleet-replicas")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "mcpfleet")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/mcpfleet")
		cmd.Dir = filepath.Join(filepath.Dir(file), "..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build mcpfleet: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// Tokens of the two callers; both hold the read scope.
const (
	tokAlice = "tok-alice-0123456789"
	tokBob   = "tok-bob-0123456789"
)

// writeFleet writes a fleet file over one upstream (url), with the given
// store section, and a token file; it returns both paths.
func writeFleet(t *testing.T, upstream, store string) (cfg, tokens string) {
	t.Helper()
	dir := t.TempDir()
	cfg = filepath.Join(dir, "fleet.yaml")
	doc := fmt.Sprintf(`servers:
  - {name: test-1, kind: test, url: %q, call_timeout: 10s}
kind_settings:
  test: {offload_tokens: 500}
%s`, upstream, store)
	tokens = filepath.Join(dir, "tokens")
	must(t, os.WriteFile(cfg, []byte(doc), 0o600))
	must(t, os.WriteFile(tokens, []byte(tokAlice+": read\n"+tokBob+": read\n"), 0o600))
	return cfg, tokens
}

func redisStore(addr string) string {
	return fmt.Sprintf("store:\n  backend: redis\n  redis: {url: \"redis://%s/0\", key_prefix: \"t:\", timeout: 500ms}\n", addr)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// replica is one running `mcpfleet serve` process.
type replica struct {
	Addr   string
	cmd    *exec.Cmd
	stderr *strings.Builder
	mu     sync.Mutex
}

// startReplica starts `mcpfleet serve` over HTTP and waits for /healthz.
func startReplica(t *testing.T, cfg, tokens string, extra ...string) *replica {
	t.Helper()
	r := &replica{Addr: fmt.Sprintf("127.0.0.1:%d", testservice.FreePort(t)), stderr: &strings.Builder{}}
	args := append([]string{"serve", "--transport", "http", "--addr", r.Addr, "--config", cfg, "--token-file", tokens}, extra...)
	r.cmd = exec.Command(mcpfleetBinary(t), args...)
	r.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	pipe, err := r.cmd.StderrPipe()
	must(t, err)
	must(t, r.cmd.Start())
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			r.mu.Lock()
			r.stderr.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
		}
	}()
	t.Cleanup(r.kill)
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + r.Addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica on %s did not come up: %v\n%s", r.Addr, err, r.log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (r *replica) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stderr.String()
}

// kill ends the process at once, as a crash would.
func (r *replica) kill() {
	if r.cmd.Process != nil {
		_ = r.cmd.Process.Signal(syscall.SIGKILL)
		_ = r.cmd.Wait()
	}
}

// peakRSS is the process's peak resident set (VmHWM) in bytes.
func (r *replica) peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", r.cmd.Process.Pid))
	must(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			must(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// startNginx runs nginx round-robin over the replicas' addresses, with
// examples/replicas/nginx.conf.tmpl, and returns its address.
func startNginx(t *testing.T, upstreams ...string) string {
	t.Helper()
	bin := testservice.Binary(t, "nginx")
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", testservice.FreePort(t))
	var servers strings.Builder
	for _, u := range upstreams {
		fmt.Fprintf(&servers, "    server %s max_fails=1 fail_timeout=2s;\n", u)
	}
	_, file, _, _ := runtime.Caller(0)
	tmpl, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "examples", "replicas", "nginx.conf.tmpl"))
	must(t, err)
	conf := strings.NewReplacer("@PREFIX@", dir, "@LISTEN@", addr, "@UPSTREAMS@", servers.String()).Replace(string(tmpl))
	path := filepath.Join(dir, "nginx.conf")
	must(t, os.WriteFile(path, []byte(conf), 0o600))
	cmd := exec.Command(bin, "-p", dir, "-c", path, "-g", "daemon off;")
	out := &strings.Builder{}
	cmd.Stderr = out
	must(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx on %s did not come up: %v\n%s", addr, err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// connect returns an MCP client of url/mcp with the token and, if not
// empty, a conversation id.
func connect(t *testing.T, url, token, conv string) *client.Client {
	t.Helper()
	h := map[string]string{"Authorization": "Bearer " + token}
	if conv != "" {
		h["Mcp-Conversation-Id"] = conv
	}
	c, err := client.NewStreamableHttpClient("http://"+url+"/mcp", transport.WithHTTPHeaders(h))
	must(t, err)
	t.Cleanup(func() { c.Close() })
	must(t, c.Start(t.Context()))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	_, err = c.Initialize(t.Context(), init)
	must(t, err)
	return c
}

// callTool calls a gateway tool and returns its text and error flag.
func callTool(ctx context.Context, c *client.Client, tool string, args map[string]any) (string, bool, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError, nil
}
