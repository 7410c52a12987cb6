package presets_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/presets"
)

func TestAllParse(t *testing.T) {
	all, err := presets.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 5 {
		t.Fatalf("%d presets, want the servers with hand-written help", len(all))
	}
	for _, p := range all {
		if len(p.ServerInfo) == 0 || len(p.Tools) == 0 {
			t.Errorf("%s: no server_info or tools", p.Name)
		}
		for tool := range p.Settings.CatalogLines {
			if !slices.Contains(p.Tools, tool) {
				t.Errorf("%s: catalog line for %s, which the server does not have", p.Name, tool)
			}
		}
		for tool := range p.Settings.Aliases {
			if !slices.Contains(p.Tools, tool) {
				t.Errorf("%s: aliases for %s, which the server does not have", p.Name, tool)
			}
		}
		for _, tool := range p.Settings.CoreTools {
			if !slices.Contains(p.Tools, tool) {
				t.Errorf("%s: core tool %s, which the server does not have", p.Name, tool)
			}
		}
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown key", "server_info: [x]\ntools: [a]\nsettings: {}\nalias: {}\n", "alias: unknown key"},
		{"no tools", "server_info: [x]\nsettings: {}\n", "tools: want at least one tool name"},
		{"tools not a list", "tools: a\nsettings: {}\n", "tools: want a list of strings"},
		{"settings missing", "tools: [a]\n", "settings: want a mapping"},
		{"bad setting", "tools: [a]\nsettings: {core_tools: 3}\n", "settings.core_tools"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := presets.Parse("x", []byte(tc.doc))
			var le *presets.LoadError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a *LoadError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to say %q", err, tc.want)
			}
		})
	}
}
