package testservice_test

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

func ping(t *testing.T, addr string) (string, error) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return "", err
	}
	return bufio.NewReader(c).ReadString('\n')
}

func TestRedisStopStart(t *testing.T) {
	r := testservice.StartRedis(t)
	if got, err := ping(t, r.Addr); err != nil || !strings.HasPrefix(got, "+PONG") {
		t.Fatalf("PING = %q, %v; want +PONG", got, err)
	}
	r.Stop()
	if _, err := ping(t, r.Addr); err == nil {
		t.Fatal("PING after Stop succeeded; want a refused connection")
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if got, err := ping(t, r.Addr); err != nil || !strings.HasPrefix(got, "+PONG") {
		t.Fatalf("PING after restart = %q, %v; want +PONG", got, err)
	}
}
