package catalog

import "testing"

func TestHasIdentifier(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"who's got SEC-88", true},
		{"what changed in !2207?", true},
		{"tail logs for ledger-worker-7d9f8c-x2kqp", true},
		{"read config/rate_limits.yaml", true},
		{`search for "connection reset"`, true},
		{"p99 latency for checkout last 6h", false},
		{"5xx rate on api-gateway", false},
		{"trace 7f3a9c2e1b4d88a0", true},
		{"which pods are running in the payments namespace", false},
		{"open a ticket for the outage", false},
		{"what's up with checkout", false},
		{"", false},
	} {
		if got := hasIdentifier(tc.q); got != tc.want {
			t.Errorf("hasIdentifier(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestFirstVerb(t *testing.T) {
	for tool, want := range map[string]string{
		"get_merge_request": "get", "list_commits": "list", "SearchIndexTool": "search",
		"query_loki_logs": "query", "pods_list": "", "jira_get_issue": "", "": "",
	} {
		if got := firstVerb(tool); got != want {
			t.Errorf("firstVerb(%q) = %q, want %q", tool, got, want)
		}
	}
}
