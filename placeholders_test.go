package mcpfleet_test

import (
	"errors"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

func TestPlaceholderOptOut(t *testing.T) {
	cfg := &config.Fleet{Servers: []config.Server{{Name: "lit", Kind: "test", Transport: "stdio", Command: "unused", AllowPlaceholders: []string{"echo"}}}}
	mx := newMux(t, cfg, mcpfleet.WithInProcess("lit", "test", testfleet.NewServer("lit", testfleet.Options{})))
	res, err := call(t, mx, "lit", "echo", `{"text":"none"}`)
	if err != nil {
		t.Fatalf("opted-out tool rejected %q: %v", "none", err)
	}
	if plain(res) != "lit: none" {
		t.Errorf("text = %q", plain(res))
	}
	if _, err := call(t, mx, "lit", "pods_log", `{"name":"none"}`); !errors.Is(err, mcpfleet.ErrRejected) {
		t.Errorf("tool without opt-out accepted a placeholder: %v", err)
	}
}
