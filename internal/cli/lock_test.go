package cli_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/goldenfile"
)

// TestLockCommand: lock writes fleet.lock; --diff finds nothing; a lock
// edited by one character makes --diff and `status` under enforce show
// exactly that tool; --approve pins it again.
func TestLockCommand(t *testing.T) {
	servers := []fleetServer{stdFleet[5]} // prometheus-a
	cfg := writeFleet(t, servers, "")
	lockPath := filepath.Join(filepath.Dir(cfg), "fleet.lock")

	r := run(t, nil, "", "lock", "--config", cfg)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "wrote fleet.lock: 1 kinds, ") {
		t.Fatalf("lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := config.ParseLock(data)
	if err != nil {
		t.Fatalf("the written lock does not parse: %v", err)
	}
	tools := slices.Sorted(maps.Keys(lock.Kinds["prometheus"].Tools))
	if len(tools) < 2 || lock.Kinds["prometheus"].Server.Name == "" {
		t.Fatalf("lock holds %d prometheus tools, server %+v", len(tools), lock.Kinds["prometheus"].Server)
	}
	if r := run(t, nil, "", "lock", "--diff", "--config", cfg); r.code != 0 || r.stdout != "no differences from fleet.lock\n" {
		t.Fatalf("diff right after lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// One character of one hash.
	victim := tools[0]
	sum := lock.Kinds["prometheus"].Tools[victim].SHA256
	edited := sum[:10] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", sum[10])+1)%16]) + sum[11:]
	if err := os.WriteFile(lockPath, []byte(strings.Replace(string(data), sum, edited, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"lock", "--diff", "--config", cfg}
	r = run(t, nil, "", args...)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "prometheus/"+victim+" on prometheus-a: changed (sha256 "+sum+")\n") ||
		strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stdout, "was edited") {
		t.Fatalf("diff after a one-character edit: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	goldenfile.CheckNamed(t, "lock_diff", transcript(cfg, args, r))

	enforce := writeFleetIn(t, cfg, "fleet.yaml", "pinning: enforce\n")
	args = []string{"status", "--config", enforce}
	r = run(t, nil, "", args...)
	if r.code != 0 || !strings.Contains(r.stdout, "pinning enforce: 1 quarantined, 0 flagged\n") ||
		!strings.Contains(r.stdout, "prometheus/"+victim+" on prometheus-a: changed, quarantined") {
		t.Fatalf("status under enforce: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	goldenfile.CheckNamed(t, "status_pinning", transcript(cfg, args, r))
	r = run(t, nil, "", "tools", "--config", enforce, "--server", "prometheus-a")
	if strings.Contains(r.stdout, victim+" ") || strings.Contains(r.stdout, victim+"\n") {
		t.Errorf("tools lists the quarantined %s:\n%s", victim, r.stdout)
	}

	r = run(t, nil, "", "lock", "--approve", "--config", cfg, "prometheus/"+victim)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "approved prometheus/"+victim+"; wrote fleet.lock") {
		t.Fatalf("approve: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, nil, "", "lock", "--diff", "--config", cfg); r.stdout != "no differences from fleet.lock\n" {
		t.Fatalf("diff after approve:\n%s%s", r.stdout, r.stderr)
	}
}

func TestLockCommandErrors(t *testing.T) {
	cfg := writeFleet(t, []fleetServer{stdFleet[5]}, "")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"diff without a lock", []string{"lock", "--diff", "--config", cfg}, 2, "no lock file at "},
		{"diff without a config", []string{"lock", "--diff"}, 2, "--config"},
		{"approve without tools", []string{"lock", "--approve", "--config", cfg}, 2, "--approve needs the tools"},
		{"diff and approve", []string{"lock", "--diff", "--approve", "--config", cfg, "x"}, 2, "cannot be combined"},
		{"stray argument", []string{"lock", "--config", cfg, "x"}, 2, "lock takes no arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("exit %d, want %d; stderr %q, want it to say %q", r.code, tc.code, r.stderr, tc.stderr)
			}
		})
	}
}

// TestLockServerInfoAlone: a server whose software version differs from
// the lock's, with every tool as locked, makes lock --diff exit 1 and
// status report it, and quarantines nothing under enforce.
func TestLockServerInfoAlone(t *testing.T) {
	cfg := writeFleet(t, []fleetServer{stdFleet[5]}, "")
	lockPath := filepath.Join(filepath.Dir(cfg), "fleet.lock")
	if r := run(t, nil, "", "lock", "--config", cfg); r.code != 0 {
		t.Fatalf("lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(lockPath)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := config.ParseLock(data)
	if err != nil {
		t.Fatal(err)
	}
	lk := lock.Kinds["prometheus"]
	now := strings.TrimSpace(lk.Server.Name + " " + lk.Server.Version)
	lk.Server.Version = "0.0.1-locked"
	lock.Kinds["prometheus"] = lk
	if err := os.WriteFile(lockPath, lock.Marshal(), 0o600); err != nil {
		t.Fatal(err)
	}
	locked := lk.Server.Name + " 0.0.1-locked"
	r := run(t, nil, "", "lock", "--diff", "--config", cfg)
	if want := fmt.Sprintf("prometheus on prometheus-a: server software %q, locked %q\n", now, locked); r.code != 1 || r.stdout != want {
		t.Fatalf("diff: exit %d, want 1\n%s%s\nwant stdout %q", r.code, r.stdout, r.stderr, want)
	}
	enforce := writeFleetIn(t, cfg, "fleet.yaml", "pinning: enforce\n")
	r = run(t, nil, "", "status", "--config", enforce)
	if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("prometheus-a: server software %q, locked %q (reported; it quarantines nothing)", now, locked)) ||
		strings.Contains(r.stdout, "quarantined,") || strings.Contains(r.stdout, "pinning enforce") {
		t.Fatalf("status under enforce: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
