package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// keeper keeps what topN keeps, in the same order, for any limit: ties
// on score go to the earlier document either way. Asking takes first
// changes nothing.
func TestKeeperIsTopN(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := r.IntN(60)
		cs := make([]candidate, n)
		for i, d := range r.Perm(n) {
			// Few distinct scores, so that ties are common.
			cs[i] = candidate{scored: scored{doc: d, score: float64(r.IntN(5))}, hits: i}
		}
		for _, limit := range []int{1, 5, 30, n, n + 3} {
			k := newKeeper(limit)
			for i, c := range cs {
				// As candidates pushes, and plain.
				if i%2 == 1 || k.takes(c.scored) {
					k.push(c)
				}
			}
			want := topN(slices.Clone(cs), limit)
			if got := k.best(); !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d candidates, limit %d:\ngot  %v\nwant %v", trial, n, limit, got, want)
			}
		}
	}
}
