package replicas

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/internal/cli"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
)

// TestServeStoreErrors: serve refuses to start on a bad store section or
// an unreachable Redis, naming the field, never the password.
func TestServeStoreErrors(t *testing.T) {
	upstream := testfleet.ServeHTTP(t, testfleet.NewServer("test-1", testfleet.Options{}))
	port := testservice.FreePort(t) // nothing listens there
	tests := []struct {
		name, store, want string
	}{
		{"unreachable", fmt.Sprintf("store: {backend: redis, redis: {url: 'redis://app:hunter2@127.0.0.1:%d/0', timeout: 300ms}}\n", port),
			fmt.Sprintf("store.redis.url: redis://app:xxxxx@127.0.0.1:%d/0: redis did not answer within 300ms", port)},
		{"malformed url", "store: {backend: redis, redis: {url: 'redis//app:hunter2@host'}}\n",
			`store.redis: url: got "…@host", want a URL like redis://[user:password@]host:port[/db] (scheme redis or rediss)`},
		{"prefix with spaces", "store: {backend: redis, redis: {url: 'redis://h:1', key_prefix: 'my fleet'}}\n",
			`store.redis: key_prefix: got "my fleet", want a prefix without spaces`},
		{"zero ttl", "result_store: {ttl: 0s}\n", `result_store: ttl: got "0s", want a duration > 0`},
		{"negative ttl", "result_store: {ttl: -1h}\n", `result_store: ttl: got "-1h0m0s", want a duration > 0`},
		{"unknown backend", "store: {backend: valkey}\n", `store: backend: got "valkey", want one of memory, redis`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, tokens := writeFleet(t, upstream, tt.store)
			var out, errb bytes.Buffer
			start := time.Now()
			err := cli.Run(t.Context(), []string{}, strings.NewReader(""), &out, &errb,
				[]string{"serve", "--transport", "http", "--addr", "127.0.0.1:0", "--config", cfg, "--token-file", tokens})
			var ee *cli.ExitError
			if !errors.As(err, &ee) || ee.Code == 0 {
				t.Fatalf("serve = %v, want an exit error", err)
			}
			if !strings.Contains(errb.String(), tt.want) {
				t.Errorf("stderr = %q, want %q", errb.String(), tt.want)
			}
			if strings.Contains(errb.String(), "hunter2") {
				t.Errorf("stderr shows the password: %s", errb.String())
			}
			if d := time.Since(start); d > time.Minute {
				t.Errorf("serve took %s to refuse", d)
			}
		})
	}
}
