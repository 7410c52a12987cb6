package tuning_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/middlewares/dynamictool/toolsearch"
	einotool "github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/schema"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
	"github.com/mcpfleet/mcpfleet/catalog/tuning"
)

// The search evaluation puts three rankers side by side on the same
// requests over wideFleet:
//
//   - ours: catalog.Search as shipped (lexicon, aliases of the nine
//     house kinds, reranker);
//   - bm25: plain BM25 (k1 1.2, b 0.75) over the same fields (tool name,
//     title, kind, description, parameter names and descriptions) as one
//     bag of lower-cased words, names split on '_', '-' and camelCase; no
//     stemming, stopwords, lexicon, aliases or reranker;
//   - eino: the keyword scorer of eino's own tool-search middleware
//     (adk/middlewares/dynamictool/toolsearch, v0.9.13), driven through its
//     public API (see einoRanker).
//
// SEARCHEVAL=1 go test ./catalog/tuning -run TestEvalSearch -v prints them.

// ranker returns its best k "kind:tool" keys for a request.
type ranker struct {
	name   string
	search func(q string, k int) []string
}

func oursRanker(name string, c *catalog.Catalog) ranker {
	ctx := catalog.WithScopes(context.Background(), catalog.ScopeAll)
	return ranker{name, func(q string, k int) []string {
		var out []string
		for _, h := range c.Search(ctx, q, k) {
			out = append(out, h.Kind+":"+h.Tool)
		}
		return out
	}}
}

// plainWords lower-cases text and splits it into words of letters and
// digits, breaking camelCase ("getAlerts" → get alerts).
func plainWords(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) ||
			i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// schemaWords returns a JSON schema's property names and descriptions.
func schemaWords(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var sb strings.Builder
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 6 {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for _, name := range slices.Sorted(func(yield func(string) bool) {
				for k := range props {
					if !yield(k) {
						return
					}
				}
			}) {
				sb.WriteString(name + " ")
				if pm, ok := props[name].(map[string]any); ok {
					if d, ok := pm["description"].(string); ok {
						sb.WriteString(d + " ")
					}
				}
				walk(props[name], depth+1)
			}
		}
		walk(m["items"], depth+1)
	}
	walk(v, 0)
	return sb.String()
}

// bm25Ranker is plain BM25 over each entry's text.
func bm25Ranker(entries []catalog.Entry) ranker {
	const k1, b = 1.2, 0.75
	n := len(entries)
	tfs := make([]map[string]int, n)
	lens := make([]int, n)
	df := map[string]int{}
	avg := 0.0
	for i, e := range entries {
		ws := plainWords(strings.Join([]string{e.Tool, e.Annotations.Title, e.Kind, e.Description, schemaWords(e.Schema)}, " "))
		tfs[i] = map[string]int{}
		for _, w := range ws {
			tfs[i][w]++
		}
		for w := range tfs[i] {
			df[w]++
		}
		lens[i] = len(ws)
		avg += float64(len(ws))
	}
	avg /= float64(max(n, 1))
	return ranker{"bm25", func(q string, k int) []string {
		type sd struct {
			i int
			s float64
		}
		var out []sd
		qw := plainWords(q)
		slices.Sort(qw)
		qw = slices.Compact(qw)
		for i := range entries {
			s := 0.0
			for _, w := range qw {
				tf := float64(tfs[i][w])
				if tf == 0 {
					continue
				}
				idf := math.Log(1 + (float64(n)-float64(df[w])+0.5)/(float64(df[w])+0.5))
				s += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(lens[i])/avg))
			}
			if s > 0 {
				out = append(out, sd{i, s})
			}
		}
		sort.SliceStable(out, func(a, b int) bool { return out[a].s > out[b].s })
		var keys []string
		for _, x := range out[:min(k, len(out))] {
			keys = append(keys, entries[x.i].Kind+":"+entries[x.i].Tool)
		}
		return keys
	}}
}

// infoTool is a tool that only describes itself: all eino's tool search
// reads of a dynamic tool is its Info.
type infoTool struct{ info *schema.ToolInfo }

func (t infoTool) Info(context.Context) (*schema.ToolInfo, error) { return t.info, nil }

// einoRanker drives eino's tool search as an agent would. Its scorer
// (keywordSearch) is unexported, so the ranker builds the middleware with
// every entry as a dynamic tool, lets BeforeAgent add the tool_search
// tool, and calls that tool with {"query", "max_results"}, reading back
// the names it returns. Tool names must be unique across the fleet, so
// each is "kind__tool", the server__tool form MCP hosts use and that
// eino's name splitter knows. Only names and descriptions count there:
// eino reads no parameters.
func einoRanker(tb testing.TB, entries []catalog.Entry) ranker {
	tb.Helper()
	ctx := context.Background()
	var tools []einotool.BaseTool
	for _, e := range entries {
		tools = append(tools, infoTool{&schema.ToolInfo{Name: e.Kind + "__" + e.Tool, Desc: e.Description}})
	}
	mw, err := toolsearch.New(ctx, &toolsearch.Config{DynamicTools: tools})
	if err != nil {
		tb.Fatal(err)
	}
	_, run, err := mw.BeforeAgent(ctx, &adk.ChatModelAgentContext{})
	if err != nil {
		tb.Fatal(err)
	}
	var ts einotool.InvokableTool
	for _, t := range run.Tools {
		info, _ := t.Info(ctx)
		if it, ok := t.(einotool.InvokableTool); ok && info.Name == "tool_search" {
			ts = it
		}
	}
	if ts == nil {
		tb.Fatal("eino's tool search middleware added no tool_search tool")
	}
	return ranker{"eino", func(q string, k int) []string {
		args, _ := json.Marshal(map[string]any{"query": q, "max_results": k})
		out, err := ts.InvokableRun(ctx, string(args))
		if err != nil {
			return nil
		}
		var res struct {
			Matches []string `json:"matches"`
		}
		if json.Unmarshal([]byte(out), &res) != nil {
			return nil
		}
		keys := make([]string, len(res.Matches))
		for i, m := range res.Matches {
			kind, t, _ := strings.Cut(m, "__")
			keys[i] = kind + ":" + t
		}
		return keys
	}}
}

// figures are recall@1, recall@5 and nDCG@5 (binary relevance) over n
// requests.
type figures struct {
	n              int
	r1, r5, ndcg5  float64
	hits1, hits5   int
	sumNDCG        float64
	kindsEvaluated int
}

func (f *figures) add(expect, got []string) {
	rank, dcg := 0, 0.0
	for i, g := range got[:min(5, len(got))] {
		if slices.Contains(expect, g) {
			if rank == 0 {
				rank = i + 1
			}
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	ideal := 0.0
	for i := range min(len(expect), 5) {
		ideal += 1 / math.Log2(float64(i+2))
	}
	f.n++
	if rank == 1 {
		f.hits1++
	}
	if rank >= 1 {
		f.hits5++
	}
	f.sumNDCG += dcg / ideal
	f.r1, f.r5, f.ndcg5 = float64(f.hits1)/float64(f.n), float64(f.hits5)/float64(f.n), f.sumNDCG/float64(f.n)
}

func (f figures) String() string {
	return fmt.Sprintf("%.3f %.3f %.3f", f.r1, f.r5, f.ndcg5)
}

// primaryKind is the kind of a request's first expected tool.
func primaryKind(q tuning.Query) string {
	k, _, _ := strings.Cut(q.Expect[0], ":")
	return k
}

// loadUnseen reads the sealed blind requests for the new kinds, nil if
// absent.
func loadUnseen(tb testing.TB) []tuning.Query {
	return loadSealed(tb, "unseen/unseen-*.jsonl")
}

// loadSealed reads the request files matching pattern under
// ../testdata/sealed, nil if there are none.
func loadSealed(tb testing.TB, pattern string) []tuning.Query {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("../testdata/sealed", pattern))
	var out []tuning.Query
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			tb.Fatal(err)
		}
		qs, err := tuning.ReadQueries(f)
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", p, err)
		}
		out = append(out, qs...)
	}
	return out
}

// sideBySide scores each ranker on qs, overall and per primary kind, and
// renders a table; it also returns the overall figures by ranker name.
func sideBySide(rs []ranker, qs []tuning.Query) (string, map[string]figures) {
	all := map[string]*figures{}
	per := map[string]map[string]*figures{}
	for _, r := range rs {
		all[r.name] = &figures{}
		per[r.name] = map[string]*figures{}
	}
	kinds := map[string]bool{}
	for _, q := range qs {
		k := primaryKind(q)
		kinds[k] = true
		for _, r := range rs {
			got := r.search(q.Q, 5)
			all[r.name].add(q.Expect, got)
			if per[r.name][k] == nil {
				per[r.name][k] = &figures{}
			}
			per[r.name][k].add(q.Expect, got)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-20s %5s", "kind", "n")
	for _, r := range rs {
		fmt.Fprintf(&sb, " | %-17s", r.name+" r@1 r@5 nDCG")
	}
	sb.WriteString("\n")
	row := func(name string, get func(r ranker) *figures) {
		fmt.Fprintf(&sb, "%-20s %5d", name, get(rs[0]).n)
		for _, r := range rs {
			fmt.Fprintf(&sb, " | %-17s", get(r).String())
		}
		sb.WriteString("\n")
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range kinds {
			if !yield(k) {
				return
			}
		}
	}) {
		row(k, func(r ranker) *figures { return per[r.name][k] })
	}
	row("all", func(r ranker) *figures { return all[r.name] })
	// The mean over kinds weighs each kind the same, as leave-one-kind-out
	// does.
	means := map[string]figures{}
	for _, r := range rs {
		var m figures
		for _, f := range per[r.name] {
			m.r1 += f.r1
			m.r5 += f.r5
			m.ndcg5 += f.ndcg5
			m.kindsEvaluated++
		}
		m.r1, m.r5, m.ndcg5 = m.r1/float64(m.kindsEvaluated), m.r5/float64(m.kindsEvaluated), m.ndcg5/float64(m.kindsEvaluated)
		m.n = all[r.name].n
		means[r.name] = m
	}
	row("mean over kinds", func(r ranker) *figures { m := means[r.name]; return &m })
	out := map[string]figures{}
	for _, r := range rs {
		out[r.name] = *all[r.name]
	}
	return sb.String(), out
}

// TestEvalSearch prints the three rankers side by side on the house
// requests (testdata/queries.jsonl, nine kinds) and on the sealed blind
// requests for the fourteen new kinds. Per-request misses are not
// printed: the figures are the point.
func TestEvalSearch(t *testing.T) {
	if os.Getenv("SEARCHEVAL") == "" {
		t.Skip("set SEARCHEVAL=1 to print the search evaluation")
	}
	fleet := catalogtest.WideFleet(t)
	c := catalog.Build(fleet, catalogtest.FleetConfig(true))
	bare := catalogtest.FleetConfig(false)
	bare.NoLexicon, bare.NoRerank = true, true
	entries := c.Entries()
	noLex := catalogtest.FleetConfig(true)
	noLex.NoLexicon = true
	rs := []ranker{
		oursRanker("ours", c),
		oursRanker("ours-nolex", catalog.Build(fleet, noLex)),
		oursRanker("ours-bare", catalog.Build(fleet, bare)),
		bm25Ranker(entries),
		einoRanker(t, entries),
	}
	for _, set := range []struct {
		name string
		qs   []tuning.Query
	}{
		{"house requests (9 kinds)", catalogtest.Queries(t)},
		{"unseen kinds (blind requests, run once on 2026-12-01)", loadUnseen(t)},
		{"unseen kinds, second blind set (run once on 2026-12-02)", loadSealed(t, "unseen2/unseen2-*.jsonl")},
		{"house holdout34-36 (blind, run once on 2026-12-02)", loadSealed(t, "holdout3[4-6].jsonl")},
	} {
		if len(set.qs) == 0 {
			continue
		}
		if os.Getenv("SEARCHEVAL") == "misses" {
			// The requests' misses under ours, for tuning: only for sets
			// whose first run is recorded (docs/search.md).
			for _, q := range set.qs {
				if got := rs[0].search(q.Q, 5); len(got) == 0 || !slices.Contains(q.Expect, got[0]) {
					t.Logf("miss: %q want %v got %v", q.Q, q.Expect, got)
				}
			}
			continue
		}
		table, _ := sideBySide(rs, set.qs)
		t.Logf("%s, %d requests over %d tools; ours-nolex = ours without the ops lexicon; ours-bare = ours with no aliases, lexicon or reranker\n%s",
			set.name, len(set.qs), len(entries), table)
	}
}
