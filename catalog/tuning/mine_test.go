package tuning_test

import (
	"math"
	"slices"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

func TestMineAliases(t *testing.T) {
	c := catalog.Build(catalogtest.Fleet(t), catalog.Config{})
	q := func(text, split string, expect ...string) tuning.Query {
		return tuning.Query{Q: text, Expect: expect, Split: split}
	}
	// asks says "slack handle" once per split, expecting expect[i] (or
	// the last of them).
	asks := func(splits []string, expect ...string) []tuning.Query {
		texts := []string{"what's Dana's slack handle", "find the slack handle for the DBA on call",
			"need Raj's Slack handle to DM him", "his slack handle please"}
		var out []tuning.Query
		for i, s := range splits {
			out = append(out, q(texts[i%len(texts)], s, expect[min(i, len(expect)-1)]))
		}
		return out
	}
	handle := asks([]string{"a", "b", "c"}, "slack:users_search")
	// sevenIn50 says "handle" in 7 requests for users_search and 43 for
	// list_commits: a kind share and a precision of exactly 0.14.
	sevenIn50 := asks([]string{"a", "b", "c", "a", "b", "c", "a"}, "slack:users_search")
	for i := range 43 {
		sevenIn50 = append(sevenIn50, q("handle", []string{"a", "b"}[i%2], "gitlab:list_commits"))
	}
	tests := []struct {
		name  string
		qs    []tuning.Query
		opt   tuning.MineOptions
		want  []string // "kind.tool phrase"
		wantN map[string][2]int
	}{
		{
			name: "a phrasing three writers use is mined, with its bigram",
			qs:   handle,
			want: []string{"slack.users_search handle", "slack.users_search slack handle"},
			// "slack" alone names the kind: search weighs that already.
			wantN: map[string][2]int{"slack.users_search handle": {3, 3}},
		},
		{
			name: "one writer's habit is not mined",
			qs:   asks([]string{"a", "a", "a"}, "slack:users_search"),
			want: nil,
		},
		{
			name: "too few requests",
			qs:   handle[:2],
			want: nil,
		},
		{
			name: "MinQueries lowers the bar",
			qs:   handle[:2],
			opt:  tuning.MineOptions{MinQueries: 2},
			want: []string{"slack.users_search handle", "slack.users_search slack handle"},
		},
		{
			name: "a word every kind's requests use is the system's, not the tool's",
			qs: append(slices.Clone(handle),
				q("checkout handle errors in the logs", "a", "opensearch:SearchIndexTool"),
				q("how does checkout handle retries, check the runbook", "b", "wiki:confluence_search"),
				q("handle the checkout page deploy", "c", "gitlab:list_commits"),
			),
			// "handle" now has 3 of 6 requests for slack: under the 0.6
			// kind share, and so is every phrase that says it.
			want: nil,
		},
		{
			name: "a word the tool's name already says adds nothing",
			qs: []tuning.Query{
				q("search users named dana", "a", "slack:users_search"),
				q("search users on the platform team", "b", "slack:users_search"),
				q("search users by email", "c", "slack:users_search"),
			},
			want: nil,
		},
		{
			name: "unknown expected tools are ignored",
			qs:   asks([]string{"a", "b", "c"}, "slack:no_such_tool", "nokind:users_search", "slack"),
			want: nil,
		},
		{
			// An alias matches as written, so "dana's" would not find
			// the request that says "dana": counting it as one spelling
			// of "dana" promised matches search never makes.
			name: "a word spelt with an apostrophe is not mined",
			qs: []tuning.Query{
				q("Dana's slack handle", "a", "slack:users_search"),
				q("dana's handle", "b", "slack:users_search"),
				q("ping dana handle", "c", "slack:users_search"),
			},
			want: []string{"slack.users_search handle"},
		},
		{
			// 0.14*50 is 7.000000000000001 in floating point.
			name: "a share met exactly is met",
			qs:   sevenIn50,
			opt:  tuning.MineOptions{MinPrecision: 0.14, MinKindShare: 0.14},
			want: []string{"gitlab.list_commits handle", "slack.users_search handle", "slack.users_search slack handle"},
		},
		{
			// NaN passes every comparison: no threshold at all.
			name: "NaN thresholds mean the defaults",
			qs:   sevenIn50,
			opt:  tuning.MineOptions{MinPrecision: math.NaN(), MinKindShare: math.NaN()},
			want: []string{"gitlab.list_commits handle"},
		},
		{
			// As MinedAlias.Precision says: they do not lower it.
			name: "requests for tools the catalog lacks do not count against precision",
			qs: append(slices.Clone(handle),
				q("handle it", "a", "slack:no_such_tool"), q("handle it", "b", "slack:no_such_tool"),
				q("handle it", "c", "slack:no_such_tool"), q("handle it", "d", "slack:no_such_tool")),
			want: []string{"slack.users_search handle", "slack.users_search slack handle"},
		},
		{
			name: "MaxPerTool keeps the best supported",
			qs:   asks([]string{"a", "b", "c", "d"}, "slack:users_search"),
			opt:  tuning.MineOptions{MaxPerTool: 1},
			want: []string{"slack.users_search handle"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tuning.MineAliases(c, tt.qs, tt.opt)
			var names []string
			for _, m := range got {
				k := m.Kind + "." + m.Tool + " " + m.Phrase
				names = append(names, k)
				if n, ok := tt.wantN[k]; ok && (m.Queries != n[0] || m.Splits != n[1]) {
					t.Errorf("%s: queries/splits = %d/%d, want %d/%d", k, m.Queries, m.Splits, n[0], n[1])
				}
				if m.Precision <= 0 || m.Precision > 1 {
					t.Errorf("%s: precision %v outside (0, 1]", k, m.Precision)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.want) {
				t.Errorf("mined %q, want %q", names, tt.want)
			}
		})
	}
}

// TestWithAliases checks that mined phrases reach search and that the
// original Config is left as it was.
func TestWithAliases(t *testing.T) {
	fleet := catalogtest.Fleet(t)
	cfg := catalogtest.FleetConfig(false)
	g := cfg.Kinds["grafana"]
	g.Aliases = map[string][]string{"create_annotation": {"annotate graph"}}
	cfg.Kinds["grafana"] = g
	before := slices.Clone(cfg.Kinds["grafana"].Aliases["create_annotation"])
	ctx := catalog.WithScopes(t.Context(), catalog.ScopeAll)
	const query = "put a marker on the board"
	top := func(c *catalog.Catalog) string {
		hits := c.Search(ctx, query, 1)
		if len(hits) == 0 {
			t.Fatal("no hits")
		}
		return hits[0].Kind + ":" + hits[0].Tool
	}
	if got := top(catalog.Build(fleet, cfg)); got == "grafana:create_annotation" {
		t.Fatalf("create_annotation already first for %q; the test proves nothing", query)
	}
	mined := []tuning.MinedAlias{
		{Kind: "grafana", Tool: "create_annotation", Phrase: "marker"},
		{Kind: "newkind", Tool: "x", Phrase: "y"},
	}
	if got := top(catalog.Build(fleet, tuning.WithAliases(cfg, mined))); got != "grafana:create_annotation" {
		t.Errorf("with the mined alias, top hit = %s, want grafana:create_annotation", got)
	}
	if got := cfg.Kinds["grafana"].Aliases["create_annotation"]; !slices.Equal(got, before) {
		t.Errorf("WithAliases changed the original config: %q, was %q", got, before)
	}
	if _, ok := cfg.Kinds["newkind"]; ok {
		t.Error("WithAliases added a kind to the original config")
	}
}
