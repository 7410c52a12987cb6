package subagent

import "testing"

// TestSlicePrompt: each thing is said once: which servers wait in the
// catalog, in one sentence, and the "server" argument only when a kind
// has two servers in the slice.
func TestSlicePrompt(t *testing.T) {
	kinds := map[string]string{"k8s-1": "kubernetes", "k8s-2": "kubernetes", "prom-1": "prometheus"}
	kindOf := func(s string) string { return kinds[s] }
	all := func(string) bool { return true }
	none := func(string) bool { return false }
	for _, c := range []struct {
		name      string
		servers   []string
		preloaded func(string) bool
		catalog   bool
		want      string
	}{
		{"one server a kind", []string{"k8s-1", "prom-1"}, all, true,
			"Your servers: k8s-1 (kubernetes), prom-1 (prometheus)."},
		{"two servers of a kind", []string{"k8s-1", "k8s-2"}, all, true,
			`Your servers: k8s-1 (kubernetes), k8s-2 (kubernetes). Tools taking a "server" argument reach every listed server of their kind.`},
		{"not preloaded, in the catalog", []string{"k8s-1", "k8s-2", "prom-1"}, func(s string) bool { return s == "k8s-1" }, true,
			`Your servers: k8s-1 (kubernetes), k8s-2 (kubernetes), prom-1 (prometheus). The tools of k8s-2 and prom-1 are not preloaded: load them from the catalog below. Tools taking a "server" argument reach every listed server of their kind.`},
		{"not preloaded, no catalog block", []string{"prom-1"}, none, false,
			"Your servers: prom-1 (prometheus). The tools of prom-1 are not preloaded: find them with searchTools, then loadTools."},
	} {
		if got := slicePrompt(c.servers, kindOf, c.preloaded, c.catalog); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
