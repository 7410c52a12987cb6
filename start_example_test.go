package mcpfleet_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// With start: lazy, the first run has no tool cache yet: the server starts
// eagerly, with a warning, and its tool list is cached beside the fleet
// file. The next New answers from the cache without starting the server;
// its first call starts it.
func ExampleNew_lazy() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "lazy")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// config.Load sets Path; a Fleet built in Go sets it by hand.
	cfg := &config.Fleet{Start: config.StartLazy, Path: filepath.Join(dir, "fleet.yaml")}
	srv := testfleet.NewServer("s1", testfleet.Options{})
	for run := 1; run <= 2; run++ {
		mx, err := mcpfleet.New(ctx, cfg, mcpfleet.WithHealthInterval(-1), mcpfleet.WithInProcess("s1", "test", srv))
		if err != nil {
			panic(err)
		}
		st := mx.Status()[0]
		warning, _, _ := strings.Cut(st.Warning, " (") // the rest names the temporary folder
		fmt.Printf("run %d: %s, from cache %v, warning %q\n", run, st.State, st.FromCache, warning)
		if _, err := mx.CallTool(ctx, "s1", "echo", json.RawMessage(`{"text": "hi"}`)); err != nil {
			panic(err)
		}
		fmt.Printf("run %d after a call: %s\n", run, mx.Status()[0].State)
		mx.Close()
	}
	// Output:
	// run 1: up, from cache false, warning "started eagerly: no tool cache yet"
	// run 1 after a call: up
	// run 2: idle, from cache true, warning ""
	// run 2 after a call: up
}
