package cli

import (
	"flag"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

func TestReorder(t *testing.T) {
	fs, _ := newFlagSet("call", "", nil, io.Discard)
	fs.Bool("json", false, "")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"flags first", []string{"--config", "F", "S", "T", "{}"}, []string{"--config", "F", "--", "S", "T", "{}"}},
		{"flags last", []string{"S", "T", "{}", "--config", "F"}, []string{"--config", "F", "--", "S", "T", "{}"}},
		{"mixed with bool", []string{"S", "--json", "T", "--config=F", "{}"}, []string{"--json", "--config=F", "--", "S", "T", "{}"}},
		{"bool with value", []string{"--json=false", "S"}, []string{"--json=false", "--", "S"}},
		{"double dash keeps flags positional", []string{"S", "--", "--json", "-x"}, []string{"--", "S", "--json", "-x"}},
		{"lone dash is positional", []string{"S", "T", "-", "--config", "F"}, []string{"--config", "F", "--", "S", "T", "-"}},
		{"unknown flag left for Parse", []string{"--nope", "S"}, []string{"--nope", "--", "S"}},
		{"missing value at end", []string{"S", "--config"}, []string{"--config"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, reorder(fs, tt.args)); diff != "" {
				t.Errorf("reorder(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

func TestParseSameEitherOrder(t *testing.T) {
	for _, args := range [][]string{
		{"--config", "F", "--json", "S", "T", "{}"},
		{"S", "T", "{}", "--config", "F", "--json"},
		{"S", "--json", "T", "{}", "-config=F"},
	} {
		fs, c := newFlagSet("call", "", nil, io.Discard)
		asJSON := fs.Bool("json", false, "")
		if err := parse(fs, args); err != nil {
			t.Fatalf("parse(%q): %v", args, err)
		}
		got := []any{c.config, *asJSON, fs.Args()}
		want := []any{"F", true, []string{"S", "T", "{}"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("parse(%q) (-want +got):\n%s", args, diff)
		}
	}
}

func TestParseErrors(t *testing.T) {
	fs, _ := newFlagSet("x", "", nil, io.Discard)
	if err := parse(fs, []string{"-h"}); err != flag.ErrHelp {
		t.Errorf("-h: got %v, want flag.ErrHelp", err)
	}
	fs, _ = newFlagSet("x", "", nil, io.Discard)
	err := parse(fs, []string{"--bogus"})
	ee, ok := err.(*ExitError)
	if !ok || ee.ExitCode() != ExitUsage {
		t.Errorf("--bogus: got %#v, want an ExitError with code %d", err, ExitUsage)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"overview", "tools", "call", "tokens", "search", "eval-search", "catalog", "status"}
	tests := []struct{ in, want string }{
		{"overveiw", "overview"},
		{"tool", "tools"},
		{"serch", "search"},
		{"eval", "eval-search"},
		{"stats", "status"},
		{"catalgo", "catalog"},
		{"kubernetes", ""},
	}
	for _, tt := range tests {
		if got := textdist.NearestPart(tt.in, names); got != tt.want {
			t.Errorf("nearest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLookupEnv(t *testing.T) {
	env := []string{"A=1", "MCPFLEET_CONFIG=a.yaml", "B", "MCPFLEET_CONFIG=b.yaml"}
	if got := lookupEnv(env, "MCPFLEET_CONFIG"); got != "b.yaml" {
		t.Errorf("got %q, want the last value b.yaml", got)
	}
	if got := lookupEnv(env, "B"); got != "" {
		t.Errorf("malformed entry: got %q", got)
	}
}
