package catalogtest_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/catalog/internal/catalogtest"
)

// TestPresetConfig: the presets reach the test fleet's kinds under the
// fleet's own kind names, and leaving a kind out removes only its preset.
func TestPresetConfig(t *testing.T) {
	servers := catalogtest.Fleet(t)
	all := catalogtest.PresetConfig(t, servers)
	for _, kind := range []string{"kubernetes", "gitlab", "prometheus", "tracing", "wiki"} {
		if len(all.Kinds[kind].Aliases) == 0 {
			t.Errorf("kind %s got no preset aliases", kind)
		}
	}
	loko := catalogtest.PresetConfig(t, servers, "kubernetes")
	if len(loko.Kinds["kubernetes"].Aliases) != 0 || len(loko.Kinds["kubernetes"].CoreTools) != 0 {
		t.Errorf("excluded kind kept its preset: %+v", loko.Kinds["kubernetes"])
	}
	if len(loko.Kinds["gitlab"].Aliases) == 0 {
		t.Error("excluding kubernetes removed gitlab's preset")
	}
}
