package tuning

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// Query is one labelled search request. The JSON Lines format is a
// contract: one {"q", "expect"} object per line; other fields are allowed
// and ignored except "split".
type Query struct {
	Q string `json:"q"`
	// Expect lists acceptable answers as "kind:tool".
	Expect []string `json:"expect"`
	// Split is "tune" or "holdout"; empty counts as "tune".
	Split string `json:"split,omitempty"`
}

// ReadQueries reads JSON Lines queries. Blank lines and lines starting
// with '#' are skipped.
func ReadQueries(r io.Reader) ([]Query, error) {
	var out []Query
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var q Query
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("catalog: queries line %d: %w", n, err)
		}
		if q.Q == "" || len(q.Expect) == 0 {
			return nil, fmt.Errorf("catalog: queries line %d: need both q and expect", n)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// Miss is a query whose first hit was not an expected tool.
type Miss struct {
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Got      []string `json:"got"` // top 5, "kind:tool"
	// Rank of the first expected tool in Got, 1-based; 0 if absent.
	Rank int `json:"rank"`
}

// Metrics are retrieval figures over a set of queries. Recall@k is the
// share of queries with at least one expected tool in the top k (most
// queries have one right answer); nDCG@5 uses binary relevance over all
// expected tools.
type Metrics struct {
	Queries   int     `json:"queries"`
	RecallAt1 float64 `json:"recall_at_1"`
	RecallAt3 float64 `json:"recall_at_3"`
	RecallAt5 float64 `json:"recall_at_5"`
	NDCGAt5   float64 `json:"ndcg_at_5"`
}

// EvalResult is Eval's report.
type EvalResult struct {
	Metrics
	Misses []Miss `json:"misses"`
	// Splits holds the same figures per split ("tune", "holdout").
	Splits map[string]Metrics `json:"splits"`
}

// Eval runs every query through c.Search with the scopes in ctx and scores
// the top 5.
func Eval(ctx context.Context, c *catalog.Catalog, queries []Query) EvalResult {
	type acc struct {
		n, r1, r3, r5 int
		ndcg          float64
	}
	all := &acc{}
	split := map[string]*acc{}
	res := EvalResult{Misses: []Miss{}, Splits: map[string]Metrics{}}
	for _, q := range queries {
		hits := c.Search(ctx, q.Q, 5)
		got := make([]string, len(hits))
		rank := 0
		dcg := 0.0
		for i, h := range hits {
			got[i] = h.Kind + ":" + h.Tool
			if slices.Contains(q.Expect, got[i]) {
				if rank == 0 {
					rank = i + 1
				}
				dcg += 1 / math.Log2(float64(i+2))
			}
		}
		ideal := 0.0
		for i := range min(len(q.Expect), 5) {
			ideal += 1 / math.Log2(float64(i+2))
		}
		name := q.Split
		if name == "" {
			name = "tune"
		}
		if split[name] == nil {
			split[name] = &acc{}
		}
		for _, a := range []*acc{all, split[name]} {
			a.n++
			a.ndcg += dcg / ideal
			if rank == 1 {
				a.r1++
			}
			if rank >= 1 && rank <= 3 {
				a.r3++
			}
			if rank >= 1 {
				a.r5++
			}
		}
		if rank != 1 {
			res.Misses = append(res.Misses, Miss{Query: q.Q, Expected: q.Expect, Got: got, Rank: rank})
		}
	}
	m := func(a *acc) Metrics {
		if a.n == 0 {
			return Metrics{}
		}
		f := func(x int) float64 { return round3(float64(x) / float64(a.n)) }
		return Metrics{Queries: a.n, RecallAt1: f(a.r1), RecallAt3: f(a.r3), RecallAt5: f(a.r5), NDCGAt5: round3(a.ndcg / float64(a.n))}
	}
	res.Metrics = m(all)
	names := make([]string, 0, len(split))
	for k := range split {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		res.Splits[k] = m(split[k])
	}
	return res
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
