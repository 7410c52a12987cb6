package mcpfleet_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// TestLockApproveAndCheck: CheckLock reports a change field by field and
// a locked tool gone missing; Approve pins the current definition.
func TestLockApproveAndCheck(t *testing.T) {
	s := testfleet.NewServer("dyn", testfleet.Options{})
	s.AddTool(lookupTool(honestDesc), echo)
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("dyn", "crm", s))
	lock, _ := mx.Lock(nil)
	lock.Kinds["crm"].Tools["retired_tool"] = lock.Kinds["crm"].Tools["echo"]
	s.AddTool(lookupTool(rugPulled), echo)
	waitFor(t, 10*time.Second, "the refresh", func() bool { d, _ := mx.Tool("dyn", "lookup_record"); return d.Description == rugPulled })

	got := map[string]string{}
	for _, is := range mx.CheckLock(lock) {
		got[is.Tool] = strings.Join(is.Problems, ",")
	}
	if want := map[string]string{"lookup_record": "changed", "retired_tool": "missing"}; !mapsEqual(got, want) {
		t.Fatalf("CheckLock = %v, want %v", got, want)
	}
	approved, err := mx.Approve(lock, []string{"crm/lookup_record"})
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range mx.CheckLock(approved) {
		if is.Tool == "lookup_record" {
			t.Errorf("still differs after approve: %+v", is)
		}
	}
	if _, err := mx.Approve(lock, []string{"lookup_recrd"}); !errors.Is(err, mcpfleet.ErrUnknownTool) || !strings.Contains(err.Error(), `"crm/lookup_record"`) {
		t.Errorf("approve of a misspelt tool: %v, want ErrUnknownTool naming crm/lookup_record", err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestLockKeepsJudgements: a new lock and an approval keep the verdict of
// each definition whose hash is unchanged and drop that of a changed one.
func TestLockKeepsJudgements(t *testing.T) {
	s := testfleet.NewServer("dyn", testfleet.Options{})
	s.AddTool(lookupTool(honestDesc), echo)
	mx := newMux(t, &config.Fleet{}, mcpfleet.WithInProcess("dyn", "crm", s))
	prev, _ := mx.Lock(nil)
	verdict := &config.Judgement{Verdict: config.VerdictClean, By: "m"}
	for _, name := range []string{"echo", "lookup_record"} {
		lt := prev.Kinds["crm"].Tools[name]
		lt.Judged = verdict
		prev.Kinds["crm"].Tools[name] = lt
	}
	s.AddTool(lookupTool(rugPulled), echo)
	waitFor(t, 10*time.Second, "the refresh", func() bool { d, _ := mx.Tool("dyn", "lookup_record"); return d.Description == rugPulled })

	next, _ := mx.Lock(prev)
	approved, err := mx.Approve(prev, []string{"crm/lookup_record", "crm/echo"})
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]*config.Lock{"Lock": next, "Approve": approved} {
		tools := l.Kinds["crm"].Tools
		if tools["echo"].Judged != verdict {
			t.Errorf("%s dropped the verdict of the unchanged echo: %+v", name, tools["echo"])
		}
		if tools["lookup_record"].Judged != nil {
			t.Errorf("%s kept a verdict for the changed lookup_record: %+v", name, tools["lookup_record"].Judged)
		}
	}
}
