package testservice

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installHint is what a skipped test tells the reader to run.
const installHint = "run ./scripts/install-test-deps.sh (as root), or make test"

// Binary returns the path of a system binary, looked up on PATH and in
// /usr/sbin. A missing binary skips the test, or fails it under CI.
func Binary(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := filepath.Join("/usr/sbin", name); isExecutable(p) {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed; CI must install it: %s", name, installHint)
	}
	t.Skipf("%s is not installed: %s", name, installHint)
	return ""
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// RedisServer is a running redis-server started by [StartRedis].
type RedisServer struct {
	Addr string // host:port on loopback
	cmd  *exec.Cmd
	port int
	dir  string
	bin  string
}

// Redis starts a redis-server with no persistence on a free loopback port
// and returns its address; it is stopped when the test ends.
func Redis(t testing.TB) string {
	return StartRedis(t).Addr
}

// StartRedis is Redis, returning the server so a test can stop and
// restart it (fault tests).
func StartRedis(t testing.TB) *RedisServer {
	t.Helper()
	r := &RedisServer{bin: Binary(t, "redis-server"), port: FreePort(t), dir: t.TempDir()}
	r.Addr = fmt.Sprintf("127.0.0.1:%d", r.port)
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// Start (re)starts the server on its port and waits until it accepts
// connections.
func (r *RedisServer) Start() error {
	r.cmd = exec.Command(r.bin,
		"--port", fmt.Sprint(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", r.dir,
		"--protected-mode", "no", "--loglevel", "warning")
	if err := r.cmd.Start(); err != nil {
		return fmt.Errorf("start redis-server: %w", err)
	}
	return waitRedis(r.Addr, 10*time.Second)
}

// Stop kills the server; Start brings it back on the same port.
func (r *RedisServer) Stop() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	r.cmd = nil
}

// waitRedis waits until addr answers PING with PONG.
func waitRedis(addr string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		if c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond); err == nil {
			_ = c.SetDeadline(time.Now().Add(time.Second))
			_, _ = c.Write([]byte("PING\r\n"))
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "+PONG") {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server on %s did not answer PING within %s", addr, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
