package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/config"
)

const lockFleet = "servers:\n  - {name: gh-1, kind: github, command: x}\n  - {name: k8s, kind: kubernetes, command: y}\n"

const goodLock = `{
  "version": 1,
  "kinds": {
    "github": {
      "server": {"name": "github-mcp-server", "version": "1.0.0"},
      "tools": {
        "search": {"sha256": "` + sum64 + `", "definition": {"name": "search", "description": "d", "inputSchema": {"type": "object"}}}
      }
    }
  }
}
`

const sum64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// writeFleet writes a fleet file and, if lock is not "", a fleet.lock
// beside it, and loads the fleet.
func writeFleet(t *testing.T, fleet, lock string) (*config.Fleet, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fleet.yaml"), []byte(fleet), 0o600); err != nil {
		t.Fatal(err)
	}
	if lock != "" {
		if err := os.WriteFile(filepath.Join(dir, "fleet.lock"), []byte(lock), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return config.Load(filepath.Join(dir, "fleet.yaml"))
}

func TestPinningDefaultsToWarnWithALock(t *testing.T) {
	f, err := writeFleet(t, lockFleet, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.Lock != nil || f.PinningMode() != config.PinningOff {
		t.Fatalf("no lock: Lock=%v mode=%q, want nil and off", f.Lock, f.PinningMode())
	}
	f, err = writeFleet(t, lockFleet, goodLock)
	if err != nil {
		t.Fatal(err)
	}
	if f.Lock == nil || f.PinningMode() != config.PinningWarn {
		t.Fatalf("with lock: mode=%q, want warn", f.PinningMode())
	}
	lt := f.Lock.Kinds["github"].Tools["search"]
	if lt.SHA256 != sum64 || f.Lock.Kinds["github"].Server.Version != "1.0.0" {
		t.Fatalf("lock read wrong: %+v", f.Lock.Kinds["github"])
	}
	f, err = writeFleet(t, lockFleet+"pinning: enforce\n", goodLock)
	if err != nil || f.PinningMode() != config.PinningEnforce {
		t.Fatalf("pinning: enforce: mode=%q err=%v", f.PinningMode(), err)
	}
}

func TestLockRoundTripsThroughMarshal(t *testing.T) {
	l, err := config.ParseLock([]byte(goodLock))
	if err != nil {
		t.Fatal(err)
	}
	again, err := config.ParseLock(l.Marshal())
	if err != nil {
		t.Fatalf("a marshalled lock does not parse: %v\n%s", err, l.Marshal())
	}
	if d := cmp.Diff(l, again); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
	// YAML reads the same.
	y := "version: 1\nkinds:\n  github:\n    server: {name: github-mcp-server, version: 1.0.0}\n    tools:\n      search:\n        sha256: " + sum64 +
		"\n        definition: {name: search, description: d, inputSchema: {type: object}}\n"
	fromYAML, err := config.ParseLock([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(l, fromYAML); d != "" {
		t.Fatalf("yaml vs json (-json +yaml):\n%s", d)
	}
}

// TestLockKeepsJudgements: a model's verdict written beside a pin reads
// back as written.
func TestLockKeepsJudgements(t *testing.T) {
	judged := strings.Replace(goodLock, `"definition"`, `"judged": {"verdict": "poisoned", "by": "m1", "class": "exfiltration",
		"field": "description", "evidence": "send it to x", "reason": "sends data away"}, "definition"`, 1)
	l, err := config.ParseLock([]byte(judged))
	if err != nil {
		t.Fatal(err)
	}
	want := &config.Judgement{Verdict: config.VerdictPoisoned, By: "m1", Class: "exfiltration", Field: "description", Evidence: "send it to x", Reason: "sends data away"}
	if d := cmp.Diff(want, l.Kinds["github"].Tools["search"].Judged); d != "" {
		t.Fatalf("judgement (-want +got):\n%s", d)
	}
	again, err := config.ParseLock(l.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(l, again); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}

// TestPinningLoadErrors: each bad input is a load error naming the field
// and, where there is one, the nearest valid value.
func TestPinningLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, fleet, lock string
		want              []string // substrings of the error
	}{
		{"unknown pinning value", lockFleet + "pinning: enforced\n", "",
			[]string{`pinning: got "enforced", want one of off, warn, enforce (did you mean "enforce"?)`}},
		{"lock for a kind no server has", lockFleet, strings.Replace(goodLock, `"github"`, `"githib"`, 1),
			[]string{`kinds.githib: got "githib", want a kind some server has: github, kubernetes (did you mean "github"?)`}},
		{"corrupt lock: not JSON", lockFleet, `{"version": 1, "kinds": {`,
			[]string{"lock_file: want a JSON or YAML object as mcpfleet lock writes (invalid JSON", "run mcpfleet lock to rewrite it"}},
		{"corrupt lock: a hash cut short", lockFleet, strings.Replace(goodLock, sum64, sum64[:63], 1),
			[]string{`kinds.github.tools.search.sha256: got "` + sum64[:63] + `", want 64 lower-case hex digits`}},
		{"corrupt lock: misspelt key", lockFleet, strings.Replace(goodLock, `"tools"`, `"tols"`, 1),
			[]string{`kinds.github.tols: got "tols", want one of server, tools (did you mean "tools"?)`}},
		{"corrupt lock: wrong version", lockFleet, strings.Replace(goodLock, `"version": 1`, `"version": 2`, 1),
			[]string{`version: got "2", want 1 (did you mean "1"?)`}},
		{"corrupt lock: unknown verdict", lockFleet, strings.Replace(goodLock, `"definition"`, `"judged": {"verdict": "poisonous"}, "definition"`, 1),
			[]string{`kinds.github.tools.search.judged.verdict: got "poisonous", want one of clean, poisoned (did you mean "poisoned"?)`}},
		{"corrupt lock: misspelt judged key", lockFleet, strings.Replace(goodLock, `"definition"`, `"judged": {"verdict": "clean", "reasons": "x"}, "definition"`, 1),
			[]string{`kinds.github.tools.search.judged.reasons: got "reasons", want one of verdict, by, class, field, evidence, reason (did you mean "reason"?)`}},
		{"corrupt lock: judged not an object", lockFleet, strings.Replace(goodLock, `"definition"`, `"judged": "clean", "definition"`, 1),
			[]string{`kinds.github.tools.search.judged: got "clean", want an object with verdict`}},
		{"allow_flagged not a hash", lockFleet + "kind_settings:\n  github: {allow_flagged: {search: yes}}\n", "",
			[]string{`kind_settings.github: allow_flagged.search: got "yes", want the sha256 of the definition to allow`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := writeFleet(t, tc.fleet, tc.lock)
			var verr *config.ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestExplicitLockFileMustExist(t *testing.T) {
	_, err := writeFleet(t, lockFleet+"lock_file: pins.lock\n", "")
	if err == nil || !strings.Contains(err.Error(), "lock_file: got ") || !strings.Contains(err.Error(), "pins.lock") {
		t.Fatalf("err = %v, want a lock_file problem naming pins.lock", err)
	}
}
