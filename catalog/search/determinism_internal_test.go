package search

import (
	"testing"
)

// TestBM25Deterministic: the same query over the same catalog scores
// every tool bit for bit the same each time. Sums taken in map order
// differ in the last bits from run to run, which can flip a tie and makes
// a figure irreproducible.
func TestBM25Deterministic(t *testing.T) {
	c, _ := fixtureIndex(t, "kubernetes", "kubernetes_optional_toolsets", "gitlab", "gitlab_readonly", "prometheus", "grafana", "jira", "opensearch", "elasticsearch", "confluence", "slack", "jaeger")
	all := func(int) bool { return true }
	for _, q := range []string{
		"why is payments crashlooping",
		"who's got the pager, and what's the p99 latency of checkout in prometheus over the last hour",
		"search loki for errors in the ingest worker logs since the deploy",
	} {
		first := c.ix.bm25(q, all, 20)
		for range 50 {
			got := c.ix.bm25(q, all, 20)
			for i := range got {
				if got[i] != first[i] {
					t.Fatalf("%q rank %d: %+v, earlier %+v", q, i, got[i], first[i])
				}
			}
		}
	}
}
