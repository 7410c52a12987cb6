package tuning_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
)

// TestRankGolden pins the engine's rankings for work that must not move
// them, such as speed work (RANKGOLDEN=path). It ranks every
// leave-one-kind-out request (house and sealed unseen) and writes the top
// ten, tool and exact score, of three catalogs: the full fleet
// configuration with the shipped reranker, the same without aliases, and
// each kind's leave-one-kind-out catalog without the reranker (as
// LOKO_NORERANK=1 builds it). When path does not exist it is written;
// when it does, the rankings are compared with it and the first
// difference fails the test.
func TestRankGolden(t *testing.T) {
	path := os.Getenv("RANKGOLDEN")
	if path == "" {
		t.Skip("set RANKGOLDEN=path to write or check the ranking golden")
	}
	ctx := catalog.WithScopes(context.Background(), catalog.ScopeAll)
	var sb strings.Builder
	dump := func(name string, c *catalog.Catalog, qs []string) {
		for _, q := range qs {
			fmt.Fprintf(&sb, "%s\t%q\n", name, q)
			for _, h := range c.Search(ctx, q, 10) {
				fmt.Fprintf(&sb, "\t%s:%s\t%s\n", h.Kind, h.Tool, strconv.FormatFloat(h.Score, 'g', -1, 64))
			}
		}
	}
	fleet := catalogtest.WideFleet(t)
	t.Setenv("LOKO_NORERANK", "1")
	l := newLOKO(t, fleet, false)
	var all []string
	for _, k := range l.kinds {
		for _, q := range l.byKind[k] {
			all = append(all, q.Q)
		}
	}
	dump("full", catalog.Build(fleet, catalogtest.FleetConfig(true)), all)
	dump("noalias", catalog.Build(fleet, catalogtest.FleetConfig(false)), all)
	for _, k := range l.kinds {
		var qs []string
		for _, q := range l.byKind[k] {
			qs = append(qs, q.Q)
		}
		dump("loko-"+k, l.cats[k], qs)
	}
	got := sb.String()
	want, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d lines)", path, strings.Count(got, "\n"))
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("line %d: got %q, want %q", i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("got %d lines, want %d", len(gl), len(wl))
}
