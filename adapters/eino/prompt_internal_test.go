package eino

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet"
)

// TestRejectTextSaysEachFactOnce renders a refusal of every reason and
// checks that the target, the verdict, the reason and "not called" each
// appear once, while the root's problems, hints and advice all survive.
func TestRejectTextSaysEachFactOnce(t *testing.T) {
	reasons := []mcpfleet.Reason{
		mcpfleet.ReasonUnknownServer, mcpfleet.ReasonUnknownTool, mcpfleet.ReasonServerDown,
		mcpfleet.ReasonToolUnusable, mcpfleet.ReasonInvalidJSON, mcpfleet.ReasonTransformFailed,
		mcpfleet.ReasonPlaceholder, mcpfleet.ReasonInvalidArguments, mcpfleet.ReasonHookRejected,
		mcpfleet.ReasonOverloaded, mcpfleet.ReasonCircuitOpen, mcpfleet.ReasonNotPermitted, mcpfleet.ReasonQuarantined,
	}
	problems := []mcpfleet.Problem{
		{Path: "/name", Got: `"<none>"`, Want: "a real value", Hint: "This looks like a placeholder."},
		{Path: "/podName", Got: `unknown field "podName"`, Want: "only declared fields: name", Hint: `Did you mean "name"?`},
	}
	for _, r := range reasons {
		t.Run(string(r), func(t *testing.T) {
			e := &mcpfleet.RejectError{Server: "k8s-2", Tool: "pods_log", Reason: r, Problems: problems}
			got := rejectText("k8s-2", "pods_log", e)
			if want := "REJECTED k8s-2.pods_log (" + string(r) + "): "; !strings.HasPrefix(got, want) {
				t.Errorf("text does not open with %q:\n%s", want, got)
			}
			counts := map[string]int{}
			code := "(" + string(r) + ")"
			for _, s := range []string{"k8s-2.pods_log", "REJECTED", "rejected (", code, "call to"} {
				counts[s] = strings.Count(got, s)
			}
			counts["not called or not sent"] = strings.Count(got, "not called") + strings.Count(got, "not sent")
			want := map[string]int{"k8s-2.pods_log": 1, "REJECTED": 1, "rejected (": 0, code: 1, "call to": 0, "not called or not sent": 1}
			if diff := cmp.Diff(want, counts); diff != "" {
				t.Errorf("fact counts (-want +got):\n%s\n%s", diff, got)
			}
			// Everything after the root's first line is kept as it is.
			_, rootRest, _ := strings.Cut(e.ModelText(), "\n")
			_, gotRest, _ := strings.Cut(got, "\n")
			if diff := cmp.Diff(rootRest, gotRest); diff != "" {
				t.Errorf("problems and advice (-root +got):\n%s", diff)
			}
		})
	}
}

func TestRejectTextWithoutTool(t *testing.T) {
	e := &mcpfleet.RejectError{Server: "k8s-9", Reason: mcpfleet.ReasonUnknownServer,
		Problems: []mcpfleet.Problem{{Path: "server", Got: `"k8s-9"`, Want: "one of k8s-1", Hint: `Did you mean "k8s-1"?`}}}
	got := rejectText("k8s-9", "pods_log", e)
	want := "REJECTED k8s-9.pods_log (unknown_server): there is no server by that name; the server was not called.\n" +
		`- at server: got "k8s-9"; want one of k8s-1. Did you mean "k8s-1"?` + "\nUse one of the listed servers."
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
