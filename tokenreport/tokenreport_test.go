package tokenreport_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
	"github.com/mcpfleet/mcpfleet/tokenreport"
)

func TestMeasure(t *testing.T) {
	k8s := fixtures.MustLoad(t, "kubernetes")
	var opts []mcpfleet.Option
	for _, n := range []string{"k8s-1", "k8s-2", "k8s-3"} {
		opts = append(opts, mcpfleet.WithInProcess(n, "kubernetes", testfleet.NewServer(n, testfleet.Options{Tools: k8s.Tools})))
	}
	mx, err := mcpfleet.New(t.Context(), &config.Fleet{}, append(opts, mcpfleet.WithHealthInterval(-1))...)
	if err != nil {
		t.Fatal(err)
	}
	defer mx.Close()
	r, err := tokenreport.Measure(t.Context(), mx, tokenreport.Options{Servers: []string{"k8s-2"}})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, n := range r.PerServer {
		sum += n
	}
	if r.Servers != 3 || r.FullTokens != sum || r.PerServer["k8s-1"] != r.PerServer["k8s-3"] {
		t.Errorf("report = %+v: want 3 servers, full = sum of per-server, identical servers equal", r)
	}
	if r.UniqueTools*3 != r.Pairs {
		t.Errorf("unique %d, pairs %d: three identical servers should fold to a third", r.UniqueTools, r.Pairs)
	}
	if want := tokenreport.Count(mx.Overview()); r.OrchestratorTokens != want || want > 40 {
		t.Errorf("orchestrator tokens = %d, want %d (and small)", r.OrchestratorTokens, want)
	}
	if r.Subagent == nil || r.SubagentTokens != r.Subagent.Total || r.SubagentTokens <= 0 {
		t.Errorf("subagent figures = %+v / %d", r.Subagent, r.SubagentTokens)
	}
	if r.FullTokens <= 10*r.KindsTokens {
		t.Errorf("kinds view %d is not an order below the full catalog %d", r.KindsTokens, r.FullTokens)
	}
	if got := tokenreport.Ratio(100, 0); got != "-" {
		t.Errorf("Ratio(100, 0) = %q", got)
	}
	if got := tokenreport.Ratio(100, 8); got != "12.5x" {
		t.Errorf("Ratio(100, 8) = %q", got)
	}
}
