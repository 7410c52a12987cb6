package cli_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
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

// TestLockJudge: lock --judge asks the chat model of MCPFLEET_MODEL and
// OPENAI_BASE_URL about every definition, records the verdicts in the
// lock, asks nothing again for definitions already judged, and a
// poisoned verdict quarantines its tool under enforce. A definition the
// model does not answer for keeps no verdict and fails the command after
// the lock is written.
func TestLockJudge(t *testing.T) {
	cfg := writeFleet(t, []fleetServer{stdFleet[5]}, "")
	lockPath := filepath.Join(filepath.Dir(cfg), "fleet.lock")
	if r := run(t, nil, "", "lock", "--config", cfg); r.code != 0 {
		t.Fatalf("lock: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	plain := readLock(t, lockPath)
	tools := slices.Sorted(maps.Keys(plain.Kinds["prometheus"].Tools))
	victim, mute := tools[0], tools[1]
	var def struct{ Name, Description string }
	if err := json.Unmarshal(plain.Kinds["prometheus"].Tools[victim].Definition, &def); err != nil || len(def.Description) < 12 {
		t.Fatalf("victim %s: %v %+v", victim, err, def)
	}
	evidence := def.Description[:12]
	srv := einotest.NewChatServer(einotest.ChatServerOptions{Reply: func(r einotest.ChatRequest) string {
		_, body, _ := strings.Cut(r.Messages[len(r.Messages)-1].Content, "\n")
		var d struct{ Name string }
		_ = json.Unmarshal([]byte(body), &d)
		switch d.Name {
		case victim:
			return fmt.Sprintf(`{"verdict":"poisoned","class":"instruction","evidence":%q,"reason":"r"}`, evidence)
		case mute:
			return "I cannot say."
		}
		return `{"verdict":"clean"}`
	}})
	defer srv.Close()
	env := []string{"MCPFLEET_MODEL=judge-m", "OPENAI_BASE_URL=" + srv.BaseURL()}

	r := run(t, env, "", "lock", "--config", cfg, "--judge")
	if r.code != 1 || !strings.Contains(r.stdout, fmt.Sprintf("judged %d definitions; 1 in the lock judged poisoned\n", len(tools)-1)) ||
		!strings.Contains(r.stdout, fmt.Sprintf("poisoned: prometheus/%s (instruction, by judge-m) in description: %q\n", victim, evidence)) ||
		!strings.Contains(r.stdout, "not judged: judge: prometheus/"+mute+": judge: reply reply") ||
		!strings.Contains(r.stderr, "1 definitions not judged") {
		t.Fatalf("lock --judge: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if n := len(srv.Requests()); n != len(tools) {
		t.Errorf("%d model requests, want one per tool (%d)", n, len(tools))
	}
	if m := srv.Requests()[0].Model; m != "judge-m" {
		t.Errorf("asked model %q, want judge-m", m)
	}
	judged := readLock(t, lockPath).Kinds["prometheus"].Tools
	if j := judged[victim].Judged; j == nil || j.Verdict != config.VerdictPoisoned || j.Field != "description" || j.By != "judge-m" {
		t.Errorf("victim's verdict = %+v", j)
	}
	if judged[mute].Judged != nil || judged[tools[2]].Judged == nil || judged[tools[2]].Judged.Verdict != config.VerdictClean {
		t.Errorf("verdicts: %s %+v, %s %+v", mute, judged[mute].Judged, tools[2], judged[tools[2]].Judged)
	}

	// A second run asks about the one definition without a verdict only.
	before := len(srv.Requests())
	r = run(t, env, "", "lock", "--config", cfg, "--judge")
	if got := len(srv.Requests()) - before; got != 1 || !strings.Contains(r.stdout, "judged 0 definitions; 1 in the lock judged poisoned\n") {
		t.Fatalf("second lock --judge: %d requests, want 1; exit %d\n%s%s", got, r.code, r.stdout, r.stderr)
	}

	enforce := writeFleetIn(t, cfg, "fleet.yaml", "pinning: enforce\n")
	r = run(t, nil, "", "status", "--config", enforce)
	if !strings.Contains(r.stdout, "pinning enforce: 1 quarantined, 0 flagged\n") || !strings.Contains(r.stdout, "prometheus/"+victim+" on prometheus-a: poisoned, quarantined") {
		t.Fatalf("status under enforce: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, nil, "", "lock", "--diff", "--json", "--config", cfg); r.code != 1 || !strings.Contains(r.stdout, "judged") {
		t.Fatalf("diff of a judged-poisoned tool: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestLockJudgeErrors: --judge without a model configured names the
// variables to set, and --judge with --diff is a usage error.
func TestLockJudgeErrors(t *testing.T) {
	cfg := writeFleet(t, []fleetServer{stdFleet[5]}, "")
	if r := run(t, nil, "", "lock", "--config", cfg, "--judge"); r.code != 1 || !strings.Contains(r.stderr, "lock --judge: eino: set MCPFLEET_MODEL, OPENAI_BASE_URL, OPENAI_API_KEY") {
		t.Errorf("no model: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := run(t, nil, "", "lock", "--config", cfg, "--diff", "--judge"); r.code != 2 || !strings.Contains(r.stderr, "--diff writes nothing") {
		t.Errorf("--diff --judge: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(cfg), "fleet.lock")); err == nil {
		t.Errorf("a failed lock --judge wrote the lock file")
	}
}

func readLock(t *testing.T, path string) *config.Lock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := config.ParseLock(data)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
