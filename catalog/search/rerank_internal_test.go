package search

import (
	"math"
	"slices"
	"testing"
)

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

func TestSigils(t *testing.T) {
	for _, tc := range []struct {
		q                   string
		metric, file, wklog bool
	}{
		{"pull container_memory_working_set_bytes for the indexer pods", true, false, false},
		{"is http_server_requests_seconds a histogram", true, false, false},
		{"what does kube_pod_status_phase say", true, false, false},
		{"rate of nginx_http_requests_total", true, false, false},
		{"the pods_list tool", false, false, false},
		{"show me the .gitlab-ci.yml on main", false, true, false},
		{"the line in deploy/values-prod.yaml.", false, true, false},
		{"v2.14.3 is out", false, false, false},
		{"log 2h on PLAT-77", false, false, true},
		{"Log 2.5 hours against OPS-418", false, false, true},
		{"logged 30m yesterday", false, false, true},
		{"log lines from 2 pods", false, false, false},
		{"search the log for 500s", false, false, false},
		{"log 2h30m against SRE-1187", false, false, true},
		{"log 2h30 on it", false, false, false},
		// Punctuation alone is no duration.
		{"grep the log ... for errors", false, false, false},
		{"log . please", false, false, false},
		{`run up{job="node-exporter"} == 0`, true, false, false},
		{"sum(rate(http_requests[5m])) by (code)", true, false, false},
		{`parse {"a": 1} for me`, false, false, false},
		{"verify the checksum(s) of the image", false, false, false},
		{`x {y} and up{job="a"}`, true, false, false},
	} {
		if got := metricName(tc.q); got != tc.metric {
			t.Errorf("metricName(%q) = %v, want %v", tc.q, got, tc.metric)
		}
		if got := fileName(tc.q); got != tc.file {
			t.Errorf("fileName(%q) = %v, want %v", tc.q, got, tc.file)
		}
		if got := logDuration(tc.q); got != tc.wklog {
			t.Errorf("logDuration(%q) = %v, want %v", tc.q, got, tc.wklog)
		}
	}
}

func TestPodName(t *testing.T) {
	for q, want := range map[string]bool{
		"kill payments-api-7f9c4 so it respawns":        true,
		"logs of ledger-writer-7d9f8c-x2kqp please":     true,
		"exec into cart-service-6f7b-9hj2k":             true,
		"node ip-10-4-22-17 went NotReady":              false,
		"hand INC-2291 over to Priya":                   false,
		"cut revert-ratelimit-2291 off main":            false,
		"page the sre-oncall group":                     false,
		"search app-logs-2024.06.12 for ERROR":          false,
		"merge hotfix/INC-2291-null-deref into main":    false,
		"scale checkout-api to 6 replicas in shop-prod": false,
	} {
		if got := podName(q); got != want {
			t.Errorf("podName(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestRequestIntents(t *testing.T) {
	for _, tc := range []struct {
		q          string
		all, first intent
	}{
		{"open a ticket for the outage and assign it to me", intentCreate | intentUpdate, intentCreate},
		{"assign INC-2291 to me", intentUpdate, intentUpdate},
		{"what's in the sprint", 0, 0},
		{"kick the pod, then create a ticket", intentDelete | intentCreate, intentDelete},
	} {
		all, first := requestIntents(tc.q)
		if all != tc.all || first != tc.first {
			t.Errorf("requestIntents(%q) = %b, %b; want %b, %b", tc.q, all, first, tc.all, tc.first)
		}
	}
}

func TestRepoPath(t *testing.T) {
	for q, want := range map[string]bool{
		"open an issue in infra/terraform":         true,
		"merge hotfix/ops-412 into main":           true,
		"approve !1842 on payments/ledger-service": true,
		"p50/p99 latency of checkout":              false,
		"on call 24/7":                             false,
		"logs and/or traces":                       false,
		"read /etc/redis/redis.conf":               false,
		"read deploy/values-prod.yaml":             false,
		"see https://gitlab.example.com/a/b":       false,
	} {
		if got := repoPath(q); got != want {
			t.Errorf("repoPath(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestUnsaidChangeVerb: a tool name's change verb counts as said when the
// request asks for that change in other words, and as unsaid when it
// asks for none or for another.
func TestUnsaidChangeVerb(t *testing.T) {
	c, docs := fixtureIndex(t, "jira", "grafana")
	keyOf := func(ds []int) []string {
		var out []string
		for _, d := range ds {
			out = append(out, docs[d].Kind+":"+docs[d].Tool)
		}
		return out
	}
	for _, tc := range []struct {
		q, tool string
		unsaid  float64
	}{
		{"log 2h on OPS-1502 for the failover drill", "jira:jira_add_worklog", 0},
		{"show the worklog of OPS-1502", "jira:jira_add_worklog", 1.0 / 3},
		{"delete the worklog on OPS-1502", "jira:jira_add_worklog", 1.0 / 3},
		{"delete OPS-12", "jira:jira_assign_issue", 1.0 / 3},
		{"ack the disk alert group on db-3", "grafana:update_alert_group", 0},
		{"raise a P2 incident for the checkout crash", "grafana:create_incident", 0},
		{"mute the disk alerts on db-3 for two hours", "grafana:alerting_manage_silences", 0},
		{"which alert silences are active?", "grafana:alerting_manage_silences", 1.0 / 3},
	} {
		feats, ds := c.Features(tc.q)
		keys := keyOf(ds)
		i := slices.Index(keys, tc.tool)
		if i < 0 {
			t.Errorf("%q: %s is not a candidate: %v", tc.q, tc.tool, keys)
			continue
		}
		if got := feats[i][fUnsaid]; math.Abs(got-tc.unsaid) > 1e-9 {
			t.Errorf("%q: %s unsaid = %.3f, want %.3f", tc.q, tc.tool, got, tc.unsaid)
		}
	}
}
