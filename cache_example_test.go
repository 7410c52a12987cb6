package mcpfleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// The fleet file's cache section opts a kind in; a repeated call to a
// read-only, idempotent tool is answered from the cache and marked so.
// WithResponseCache puts the cache elsewhere, such as Redis
// (stores/rediscache), to share it between replicas.
func ExampleWithResponseCache() {
	ctx := context.Background()
	cfg := &config.Fleet{Cache: config.Cache{Kinds: map[string]config.KindCache{"test": {TTL: time.Minute}}}}
	mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("s1", "test", testfleet.NewServer("s1", testfleet.Options{})))
	if err != nil {
		panic(err)
	}
	defer mx.Close()
	for range 2 {
		res, err := mx.CallTool(ctx, "s1", "echo", json.RawMessage(`{"text": "hi"}`))
		if err != nil {
			panic(err)
		}
		var mark any
		if res.Meta != nil {
			mark = res.Meta.AdditionalFields[mcpfleet.CacheMetaKey]
		}
		fmt.Println(res.Cache, mark)
	}
	// Output:
	// miss <nil>
	// hit hit
}
