package eino_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
)

func schemaJSON(t *testing.T, info *schema.ToolInfo) string {
	t.Helper()
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(js)
	return info.Name + " " + info.Desc + " " + string(b)
}

// TestCacheMatchesConversion: with a shared Cache, every tool of a fixture
// fleet gets the definition a fresh conversion gives, for its full enum and
// a narrowed one, in any order and from concurrent subagents; narrowing one
// enum never leaks into another (the cached schema is not modified).
func TestCacheMatchesConversion(t *testing.T) {
	mx, _ := newFleet(t, srv{"k8s-1", "kubernetes", "kubernetes"}, srv{"k8s-2", "kubernetes", "kubernetes"},
		srv{"gitlab-rw", "gitlab", "gitlab"}, srv{"gitlab-ro", "gitlab", "gitlab_readonly"})
	plain, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{} // name -> full enum, first server only
	for _, tl := range plain {
		full, _ := tl.InfoFor(tl.Spec().Servers)
		one, _ := tl.InfoFor(tl.Spec().Servers[:1])
		want[tl.Spec().Name] = [2]string{schemaJSON(t, full), schemaJSON(t, one)}
	}
	cache := mcpeino.NewCache()
	var wg sync.WaitGroup
	got := make([]map[string][2]string, 4)
	for i := range got {
		wg.Go(func() {
			tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{Cache: cache})
			if err != nil {
				t.Error(err)
				return
			}
			m := map[string][2]string{}
			for _, tl := range tools {
				// narrowed first on odd workers, so both orders hit the cache
				var one, full *schema.ToolInfo
				if i%2 == 1 {
					one, _ = tl.InfoFor(tl.Spec().Servers[:1])
					full, _ = tl.InfoFor(tl.Spec().Servers)
				} else {
					full, _ = tl.InfoFor(tl.Spec().Servers)
					one, _ = tl.InfoFor(tl.Spec().Servers[:1])
				}
				m[tl.Spec().Name] = [2]string{schemaJSON(t, full), schemaJSON(t, one)}
			}
			got[i] = m
		})
	}
	wg.Wait()
	for i, m := range got {
		if diff := cmp.Diff(want, m); diff != "" {
			t.Errorf("worker %d: cached definitions differ (-want +got):\n%s", i, diff)
		}
	}
	if len(want) < 100 {
		t.Fatalf("only %d tools compared", len(want))
	}
}
