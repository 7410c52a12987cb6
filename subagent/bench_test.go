package subagent_test

import (
	"testing"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// BenchmarkNew builds a 3-server subagent over the 23-server fixture fleet,
// as the orchestrator does for every task (catalog shared):
//   - cold: no shared cache, every permitted tool schema is converted
//     (what every subagent paid before the cache);
//   - shared: one mcpeino.Cache across subagents, as the orchestrator does.
func BenchmarkNew(b *testing.B) {
	mx, _ := newFleet(b, fleet23()...)
	cat := catalog.Build(mx.Servers(), catalog.FromFleet(mx.Config()))
	cfg := subagent.Config{Servers: []string{"k8s-1", "prom-1", "gitlab-ro"}, Model: einotest.New(), Mode: "on", Catalog: cat}
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := subagent.New(b.Context(), mx, cfg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		c := cfg
		c.Cache = mcpeino.NewCache()
		if _, err := subagent.New(b.Context(), mx, c); err != nil { // warm the cache
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := subagent.New(b.Context(), mx, c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
