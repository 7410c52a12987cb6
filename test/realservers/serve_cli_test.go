package realservers

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/cli"
)

// serve refuses unsafe or malformed invocations before starting anything;
// these need no real servers.
func TestServeUsage(t *testing.T) {
	cases := []struct {
		name   string
		env    []string
		args   []string
		stderr string
	}{
		{"open bind without tokens", nil, []string{"serve", "--transport", "http", "--addr", "0.0.0.0:7777", "--config", "x.yaml"}, "refusing to serve a non-loopback address without bearer tokens: 0.0.0.0:7777"},
		{"all interfaces without tokens", nil, []string{"serve", "--transport", "http", "--addr", ":7777", "--config", "x.yaml"}, "non-loopback"},
		{"bad transport", nil, []string{"serve", "--transport", "ws", "--config", "x.yaml"}, `--transport must be stdio or http, got "ws"`},
		{"bad token env", []string{"MCPFLEET_SERVE_TOKENS=just-a-token"}, []string{"serve", "--transport", "http", "--config", "x.yaml"}, "token file line 1"},
		{"stray argument", nil, []string{"serve", "extra", "--config", "x.yaml"}, "serve takes no arguments"},
		{"negative limit", nil, []string{"serve", "--max-query-bytes", "-1", "--config", "x.yaml"}, "--max-query-bytes must be > 0, got -1"},
		{"pattern limit over the Mux's", nil, []string{"serve", "--max-pattern-bytes", "4096", "--config", "x.yaml"}, "--max-pattern-bytes must be at most 512"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := cli.Run(t.Context(), tc.env, strings.NewReader(""), &out, &errb, tc.args)
			var ee *cli.ExitError
			if !errors.As(err, &ee) || ee.Code == 0 {
				t.Fatalf("Run = %v, want an exit error", err)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr = %q, want %q", errb.String(), tc.stderr)
			}
		})
	}
}
