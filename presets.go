package mcpfleet

import (
	"maps"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/kindgroups"
	"github.com/mcpfleet/mcpfleet/presets"
)

// withPresets returns cfg with the built-in presets merged under its
// kind_settings (package presets): each kind of servers gets the preset
// its serverInfo names or tool names match, and the fleet's own settings
// win key by key. With presets: false it returns cfg as it is. cfg itself
// is not changed: the merged fleet is a copy whose KindSettings map is
// new.
//
// This is the one place presets reach a running fleet: the Mux's argument
// handling reads the merged kind_settings, and so does every catalog built
// from Mux.Config (catalog.FromFleet).
func withPresets(cfg *config.Fleet, servers []kindgroups.Server) (*config.Fleet, []presets.Assignment, error) {
	off := cfg.Presets != nil && !*cfg.Presets
	var all []presets.Preset
	if !off { // parsing them all costs a few milliseconds
		var err error
		if all, err = presets.All(); err != nil {
			return nil, nil, err
		}
	}
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
	c := *cfg
	c.KindSettings = maps.Clone(cfg.KindSettings)
	got := presets.Apply(&c, all, kinds, presets.Options{})
	if off {
		return cfg, got, nil
	}
	return &c, got, nil
}

// Presets reports the preset each kind got when New matched them, and
// why (presets.ReasonName, ReasonFingerprint, ReasonNone, or ReasonOff
// under presets: false), sorted by kind. Matching reads the tool lists and
// serverInfo known when New returns (a lazy server's are its cached
// ones); a kind whose tools change later keeps what it got.
func (m *Mux) Presets() []presets.Assignment { return append([]presets.Assignment(nil), m.presets...) }
