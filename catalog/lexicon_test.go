package catalog_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// TestLexicon: requests in on-call words, none of which the tool names or
// descriptions use, find their tool on the real fixture fleet with no
// aliases configured.
func TestLexicon(t *testing.T) {
	c := catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(false))
	// The lexicon's own effect: which twin of the right area ranks first
	// is the reranker's job, and the eval measures it.
	c.SetRerankWeightsForTest(nil)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	tests := []struct {
		query string
		want  []string // any of these in the top 3
	}{
		{"bounce the checkout pod", []string{"kubernetes.pods_delete", "kubernetes.resources_delete"}},
		{"what did the payments pod print before it died", []string{"kubernetes.pods_log"}},
		{"what's the 5xx rate for checkout", []string{"prometheus.execute_query", "grafana.query_prometheus"}},
		{"get me a shell in the redis pod", []string{"kubernetes.pods_exec"}},
		{"is any exporter failing to be scraped", []string{"prometheus.get_targets"}},
		{"is the search cluster degraded", []string{"opensearch.ClusterHealthTool"}},
		{"how long has OPS-88 been open", []string{"jira.jira_get_issue_dates"}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			hits := tops(c.Search(ctx, tc.query, 3))
			for _, h := range hits {
				for _, w := range tc.want {
					if h == w {
						return
					}
				}
			}
			t.Errorf("top 3 = %v, want one of %v", hits, tc.want)
		})
	}
}

// TestSynonyms: Config.Synonyms extends the lexicon and NoLexicon turns
// the built-in part off.
func TestSynonyms(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), "*")
	tests := []struct {
		name  string
		cfg   catalog.Config
		query string
		want  string // top hit, "" for none
	}{
		{"built-in bounce", catalog.Config{}, "bounce it", "code.restart_pod"},
		{"no lexicon", catalog.Config{NoLexicon: true}, "bounce it", ""},
		{"unknown word", catalog.Config{}, "cycle it", ""},
		{"user synonym", catalog.Config{Synonyms: map[string]string{"cycle": "restart"}}, "cycle it", "code.restart_pod"},
		{"user phrase", catalog.Config{Synonyms: map[string]string{"go to definition": "symbol"}}, "go to definition of Foo", "code.find_symbol"},
		{"phrase as written", catalog.Config{Synonyms: map[string]string{"jump there": "symbol"}}, "jump there", "code.find_symbol"},
		{"phrase out of order", catalog.Config{Synonyms: map[string]string{"jump there": "symbol"}}, "there, jump", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits := codeCatalog(tc.cfg).Search(ctx, tc.query, 3)
			got := ""
			if len(hits) > 0 {
				got = hits[0].Kind + "." + hits[0].Tool
			}
			if got != tc.want {
				t.Errorf("top = %q (all %v), want %q", got, tops(hits), tc.want)
			}
		})
	}
}

// TestAliasAsWritten: an alias matches as written (stemmed, articles
// skipped), not as a bag of words anywhere in the request.
func TestAliasAsWritten(t *testing.T) {
	ro := func(name, desc string) mcp.Tool { return catalogtest.Tool(name, desc, true) }
	c := catalog.Build([]kindgroups.Server{{Name: "k", Kind: "k8s", Tools: []mcp.Tool{
		ro("pods_delete", "Remove a pod."),
		ro("pods_top", "Resource consumption of pods."),
	}}}, catalog.Config{Kinds: map[string]catalog.KindConfig{"k8s": {
		Aliases: map[string][]string{"pods_delete": {"kill pod"}},
	}}})
	// Two tools are too few for the reranker's features to mean much.
	c.SetRerankWeightsForTest(nil)
	ctx := catalog.WithScopes(t.Context(), "*")
	for _, tc := range []struct{ query, want string }{
		{"kill the pod", "pods_delete"},
		{"kill pods api-1 and api-2", "pods_delete"},
		{"pod keeps getting OOM killed, what is its consumption", "pods_top"},
	} {
		hits := c.Search(ctx, tc.query, 2)
		if len(hits) == 0 || hits[0].Tool != tc.want {
			t.Errorf("%q: top = %v, want %s", tc.query, tops(hits), tc.want)
		}
	}
}

func TestSigils(t *testing.T) {
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	c := catalog.Build(catalogtest.Fleet(t), catalogtest.FleetConfig(false))
	for _, tc := range []struct{ query, kind string }{
		{"status of !981", "gitlab"},
		{"what are people saying in #payments", "slack"},
		{"status of OPS-88", "jira"},
	} {
		hits := c.Search(ctx, tc.query, 1)
		if len(hits) == 0 || hits[0].Kind != tc.kind {
			t.Errorf("%q: top = %v, want kind %s", tc.query, tops(hits), tc.kind)
		}
	}
}

// TestTimeIsNotHistory: "since yesterday" bounds any request in time;
// it once expanded to a page's history and put wiki and slack history
// above the commits asked for.
func TestTimeIsNotHistory(t *testing.T) {
	c := catalogtest.BuildFleet(t)
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	for _, q := range []string{"commits on main since yesterday evening", "list the commits since yesterday in payments-api"} {
		hits := tops(c.Search(ctx, q, 3))
		if len(hits) == 0 || hits[0] != "gitlab.list_commits" {
			t.Errorf("%q: top 3 = %v, want gitlab.list_commits first", q, hits)
		}
	}
}
