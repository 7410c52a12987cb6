package gateway_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/internal/gateway"
)

// addCounter is an activation store with an atomic Add, as redisstore's,
// that counts the Adds reaching it.
type addCounter struct {
	catalog.MemoryStore
	adds atomic.Int64
}

func (a *addCounter) Add(ctx context.Context, conv string, names []string) error {
	a.adds.Add(1)
	have, _ := a.Load(ctx, conv)
	for _, n := range names {
		if !slices.Contains(have, n) {
			have = append(have, n)
		}
	}
	return a.Save(ctx, conv, have)
}

// TestConversationAddsOnlyNewNames: a conversation that describes the
// same tool on every turn costs the store one Add; a new name costs one
// more, and listKinds still lists every name.
func TestConversationAddsOnlyNewNames(t *testing.T) {
	f := newFleet(t)
	store := &addCounter{}
	srv := httptest.NewServer(newGateway(t, gateway.Config{Mux: f.mux, Activations: store}).Handler())
	t.Cleanup(srv.Close)
	c, err := httpClientWith(t, srv.URL, map[string]string{gateway.HeaderConversation: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	describe := func(names ...string) {
		if res := call(t, c, gateway.ToolDescribeTools, map[string]any{"names": names}); res.IsError {
			t.Fatalf("describeTools: %s", text(res))
		}
	}
	for range 3 {
		describe("kubernetes.pods_log")
	}
	if got := store.adds.Load(); got != 1 {
		t.Errorf("3 describes of one name: %d Adds, want 1", got)
	}
	describe("kubernetes.pods_log", "kubernetes.pods_list")
	describe("kubernetes.pods_list")
	if got := store.adds.Load(); got != 2 {
		t.Errorf("then a new name, twice: %d Adds, want 2", got)
	}
	got := text(call(t, c, gateway.ToolListKinds, nil))
	for _, n := range []string{"kubernetes.pods_log", "kubernetes.pods_list"} {
		if !strings.Contains(got, n) {
			t.Errorf("listKinds lacks %s:\n%s", n, got)
		}
	}
}
