// Package presets ships what is true of one public MCP server — aliases,
// catalog lines, avoid_when hints, argument normalizers, field maps and
// core tools — as data, so that a fleet can get good search and clean
// calls for well-known servers without writing kind_settings.
//
// Each preset is an embedded presets/<name>.yaml: the serverInfo names it
// matches, the server's tool names (its fingerprint) and a settings block
// written exactly as a fleet file's kind_settings.<kind>.
//
// # Matching
//
// A kind gets a preset when one of its servers reports a serverInfo name
// the preset lists ([ReasonName]), or else when the overlap coefficient of
// the kind's tool names and the preset's (shared names over the smaller
// set) is at least [FingerprintThreshold] with at least
// [FingerprintMinShared] names shared ([ReasonFingerprint]); the best
// score wins, ties by file name. Overlap, not a Jaccard index: a
// read-only variant or a server started with fewer toolsets exposes a
// subset of the preset's tools, and a server built with a few extra
// tools a superset; both must still match.
//
// # Applying
//
// mcpfleet.New applies them: it matches each kind against the tools and
// serverInfo names its servers reported (a lazy server's cached ones
// until it starts) and merges the presets under the fleet file's
// kind_settings, and it matches again whenever a tool list changes.
// Mux.Config returns the merged fleet, so the Mux's argument handling
// (args_transformer, field_map, join_separator, offload_tokens) and every
// catalog built from it (catalog.FromFleet: aliases, catalog_lines,
// avoid_when, core_tools, tool_scopes, id_patterns) read the same
// settings; Mux.Presets and `mcpfleet presets` report what each kind got,
// and under presets: false what it would have got.
//
// [Apply] is that merge: it merges the matched presets into a fleet's
// kind_settings unless the fleet file says presets: false. The fleet's own settings win key by
// key: a list or a scalar it sets replaces the preset's, and in a map
// (aliases, catalog_lines, avoid_when, tool_scopes, field_map) its entries
// win tool by tool while the preset's other entries stay. Options.Exclude
// leaves kinds without a preset, as leave-one-kind-out evaluation needs.
//
//	all, err := presets.All()
//	got := presets.Apply(fleet, all, kinds, presets.Options{})
//	for _, a := range got {
//		fmt.Println(a.Kind, a.Preset, a.Reason)
//	}
package presets
