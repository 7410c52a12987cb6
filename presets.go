package mcpfleet

import (
	"maps"
	"slices"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/presets"
)

// withPresets returns file with the presets all merged under its
// kind_settings (package presets): each kind of servers gets the preset
// its serverInfo names or tool names match, and the fleet's own settings
// win key by key. With presets: false it returns file as it is, and the
// assignments say what would have matched (presets.ReasonOff). file itself
// is not changed: the merged fleet is a copy whose KindSettings map is
// new.
//
// This is the one place presets reach a running fleet: the Mux's argument
// handling reads the merged kind_settings, and so does every catalog built
// from Mux.Config (catalog.FromFleet). rebuild calls it whenever a tool
// list changes, so a kind is matched against the tools it has now.
func withPresets(file *config.Fleet, all []presets.Preset, servers []kindgroups.Server) (*config.Fleet, []presets.Assignment) {
	info := map[string]string{}
	for _, s := range servers {
		info[s.Name] = s.Info.Name
	}
	var kinds []presets.Kind
	for _, g := range kindgroups.Fold(servers) {
		k := presets.Kind{Name: g.Kind, Tools: g.Tools}
		for _, name := range g.Servers {
			if info[name] != "" {
				k.ServerInfo = append(k.ServerInfo, info[name])
			}
		}
		kinds = append(kinds, k)
	}
	c := *file
	c.KindSettings = maps.Clone(file.KindSettings)
	got := presets.Apply(&c, all, kinds, presets.Options{})
	if file.Presets != nil && !*file.Presets {
		return file, got
	}
	return &c, got
}

// samePresets reports whether a and b give every kind the same preset
// (scores aside): then the merged fleet is the same too.
func samePresets(a, b []presets.Assignment) bool {
	return slices.EqualFunc(a, b, func(x, y presets.Assignment) bool {
		return x.Kind == y.Kind && x.Preset == y.Preset && x.Reason == y.Reason
	})
}

// Presets reports the preset each kind has now, and why
// (presets.ReasonName, ReasonFingerprint or ReasonNone), sorted by kind.
// Under presets: false every kind's reason is presets.ReasonOff, and
// Preset names the one it would have got.
//
// Matching reads the tool lists and serverInfo names the Mux holds (a
// lazy server's cached ones until it starts), and runs again whenever a
// tool list changes (tools/list_changed, a reconnect, a lazy server's
// live list differing from its cache), in the same step that recomputes
// KindGroups: a kind whose tools come to match a preset gets it, and one
// that stops matching loses it. Config and the argument handling change
// with it.
func (m *Mux) Presets() []presets.Assignment {
	return slices.Clone(m.snap.Load().presets)
}
