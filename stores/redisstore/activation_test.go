package redisstore_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testservice"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/stores/redisstore"
)

var _ catalog.ActivationStore = (*redisstore.ActivationStore)(nil)

func k8sCatalog() *catalog.Catalog {
	ro := func(name string) mcp.Tool {
		return mcp.Tool{Name: name, Description: name, RawInputSchema: []byte(`{"type":"object"}`),
			Annotations: mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(true)}}
	}
	tools := []mcp.Tool{ro("pods_list"), ro("pods_top"), ro("nodes_top")}
	return catalog.Build([]kindgroups.Server{{Name: "k8s-1", Kind: "kubernetes", Tools: tools}}, catalog.Config{})
}

// TestSessionsOnTwoReplicas: a tool loaded in a session on one replica
// (its own catalog and store client) is active in the next session of the
// same conversation on another; other conversations do not see it.
func TestSessionsOnTwoReplicas(t *testing.T) {
	addr := testservice.Redis(t)
	a, b := open(t, addr, config.ResultStore{}), open(t, addr, config.ResultStore{})
	ctx := t.Context()
	first, err := k8sCatalog().NewSessionContext(ctx, catalog.SessionConfig{Mode: "on", ConversationID: "token:a/INC-42", Store: a.Activations})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.LoadContext(ctx, []string{"pods_top"}); err != nil {
		t.Fatal(err)
	}
	next, err := k8sCatalog().NewSessionContext(ctx, catalog.SessionConfig{Mode: "on", ConversationID: "token:a/INC-42", Store: b.Activations})
	if err != nil {
		t.Fatal(err)
	}
	if err := next.Allow("k8s-1", "pods_top"); err != nil {
		t.Errorf("the next session on the other replica: %v", err)
	}
	other, _ := k8sCatalog().NewSessionContext(ctx, catalog.SessionConfig{Mode: "on", ConversationID: "token:b/INC-42", Store: b.Activations})
	if other.Allow("k8s-1", "pods_top") == nil {
		t.Error("another caller's conversation has the tool active")
	}
}

// TestAddConcurrent: 32 replicas adding one name each to one conversation
// at once lose none, and a name added twice is kept once.
func TestAddConcurrent(t *testing.T) {
	addr := testservice.Redis(t)
	ctx := t.Context()
	var stores []*redisstore.Stores
	for range 4 {
		stores = append(stores, open(t, addr, config.ResultStore{}))
	}
	errs := make(chan error, 32)
	for i := range 32 {
		go func() {
			errs <- stores[i%4].Activations.Add(ctx, "c", []string{fmt.Sprintf("k.t%02d", i), "k.common"})
		}()
	}
	for range 32 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got, err := stores[0].Activations.Load(ctx, "c")
	if err != nil || len(got) != 33 {
		t.Errorf("Load = %d names (%v), want 32 + common once", len(got), err)
	}
}
