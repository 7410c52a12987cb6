package mcpfleet_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/catalog"
)

// TestGateReasons pins the one vocabulary of reasons: every reason the
// catalog's gates give is a mcpfleet.Reason with its own text, Classify
// reads it from the gate's error, and the gateway's not_permitted refusal
// reads as a RejectError with that reason would.
func TestGateReasons(t *testing.T) {
	for _, r := range []string{catalog.ReasonUnknown, catalog.ReasonNotLoaded, catalog.ReasonNotInSession, catalog.ReasonNotPermitted} {
		st, reason := mcpfleet.Classify(nil, &catalog.GateError{Server: "s", Tool: "t", Reason: r})
		if st != mcpfleet.StatusRejected || reason != mcpfleet.Reason(r) {
			t.Errorf("Classify(GateError %s) = %s, %s; want rejected, %s", r, st, reason, r)
		}
		if mcpfleet.Reason(r).Explain() == "" {
			t.Errorf("reason %s has no text in mcpfleet's vocabulary", r)
		}
	}
	gate := &catalog.GateError{Server: "k8s-1", Tool: "pods_delete", Kind: "kubernetes", Reason: catalog.ReasonNotPermitted, Needs: []string{"write", "k8s:exec"}}
	rej := &mcpfleet.RejectError{Server: "k8s-1", Tool: "pods_delete", Reason: mcpfleet.ReasonNotPermitted,
		Problems: []mcpfleet.Problem{{Path: "tool", Hint: "It needs scope write, k8s:exec."}}}
	if gate.ModelText() != rej.ModelText() {
		t.Errorf("not_permitted texts differ:\ncatalog: %s\nroot:    %s", gate.ModelText(), rej.ModelText())
	}
}
