package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

// BenchmarkChain runs the full chain and field map of each repaired corpus
// case of one fixture, one case per iteration, round-robin.
func BenchmarkChain(b *testing.B) {
	all := loadCorpus(b)
	for _, fixture := range []string{"gitlab", "kubernetes"} {
		b.Run(fixture, func(b *testing.B) {
			type prepared struct {
				tr   normalizers.Transformer
				call normalizers.Call
				fm   map[string]string
			}
			var ts toolSet
			var cases []prepared
			for _, c := range all {
				if c.Fixture != fixture || c.Expect != "repaired" {
					continue
				}
				tool, ok := ts.tool(b, c.Fixture, c.Tool)
				if !ok {
					b.Fatalf("no tool %s", c.Tool)
				}
				tr, err := normalizers.Chain(c.Transformers, normalizers.Builtins(nil))
				if err != nil {
					b.Fatal(err)
				}
				cases = append(cases, prepared{tr, normalizers.Call{Kind: c.Fixture, Tool: c.Tool,
					Schema: decodeSchema(b, tool.RawInputSchema), Args: c.Args}, c.FieldMap})
			}
			if len(cases) == 0 {
				b.Fatal("no corpus cases")
			}
			ctx := b.Context()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := cases[i%len(cases)]
				i++
				out, err := p.tr(ctx, p.call)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := normalizers.ApplyFieldMap(out, p.fm); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
}
