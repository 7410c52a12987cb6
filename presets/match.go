package presets

import (
	"reflect"
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/config"
)

// FingerprintThreshold is the least overlap coefficient between a kind's
// tool names and a preset's for a match by fingerprint, and
// FingerprintMinShared the fewest names they must share.
const (
	FingerprintThreshold = 0.7
	FingerprintMinShared = 3
)

// Reasons a kind got (or did not get) a preset.
const (
	ReasonName        = "name"        // a server's serverInfo name
	ReasonFingerprint = "fingerprint" // the share of its tool names
	ReasonNone        = "none"        // no preset matches
	ReasonOff         = "off"         // the fleet file says presets: false
	ReasonExcluded    = "excluded"    // Options.Exclude
)

// Kind is what matching needs of one kind of a fleet.
type Kind struct {
	Name string
	// ServerInfo are the serverInfo names its servers reported, each
	// optionally followed by a space and the version ("mcp-grafana 0.7.1").
	ServerInfo []string
	// Tools are its tool names.
	Tools []string
}

// Assignment is the preset a kind got, and why.
type Assignment struct {
	Kind   string `json:"kind"`
	Preset string `json:"preset,omitempty"`
	Reason string `json:"reason"`
	// Score is the overlap coefficient of the kind's and the preset's
	// tool names: shared names over the smaller set's size.
	Score float64 `json:"score"`
	// Match is, under ReasonOff, why Preset would have matched
	// (ReasonName or ReasonFingerprint); Preset and Score then name the
	// preset the kind would get with presets on. Empty otherwise.
	Match string `json:"match,omitempty"`
}

// Match finds k's preset among all: by serverInfo name first, else the
// best fingerprint share at or above FingerprintThreshold.
func Match(all []Preset, k Kind) (Preset, Assignment) {
	a := Assignment{Kind: k.Name, Reason: ReasonNone}
	best := -1
	for i, p := range all {
		score := share(k.Tools, p.Tools)
		named := false
		for _, info := range k.ServerInfo {
			for _, n := range p.ServerInfo {
				if info == n || strings.HasPrefix(info, n+" ") {
					named = true
				}
			}
		}
		switch {
		case named && (a.Reason != ReasonName || score > a.Score):
			best, a.Reason, a.Score = i, ReasonName, score
		case a.Reason != ReasonName && score >= FingerprintThreshold && score > a.Score:
			best, a.Reason, a.Score = i, ReasonFingerprint, score
		}
	}
	if best < 0 {
		a.Score = 0
		return Preset{}, a
	}
	a.Preset = all[best].Name
	a.Score = float64(int(a.Score*1000+0.5)) / 1000
	return all[best], a
}

// share is the overlap coefficient of two name sets, 0 when they share
// fewer than FingerprintMinShared names.
func share(tools, known []string) float64 {
	n := 0
	for _, t := range slices.Compact(slices.Sorted(slices.Values(tools))) {
		if slices.Contains(known, t) {
			n++
		}
	}
	if n < FingerprintMinShared {
		return 0
	}
	return float64(n) / float64(min(len(tools), len(known)))
}

// Options tune Apply.
type Options struct {
	// Exclude are kinds that get no preset, whatever matches: the
	// leave-one-kind-out evaluation removes kind K's preset this way.
	Exclude []string
}

// Apply merges each kind's preset into f.KindSettings (the fleet's own
// settings win key by key) and reports what every kind got, sorted by
// kind. With presets: false in f it changes nothing, and reports each
// kind as ReasonOff with the preset it would have got (Assignment.Match).
func Apply(f *config.Fleet, all []Preset, kinds []Kind, opt Options) []Assignment {
	out := make([]Assignment, 0, len(kinds))
	for _, k := range kinds {
		p, a := Match(all, k)
		switch {
		case f.Presets != nil && !*f.Presets:
			a = Assignment{Kind: k.Name, Preset: a.Preset, Reason: ReasonOff, Score: a.Score, Match: a.Reason}
			if a.Preset == "" {
				a.Match = ""
			}
		case slices.Contains(opt.Exclude, k.Name):
			a = Assignment{Kind: k.Name, Reason: ReasonExcluded}
		case a.Preset != "":
			if f.KindSettings == nil {
				f.KindSettings = map[string]config.KindSettings{}
			}
			f.KindSettings[k.Name] = Merge(f.KindSettings[k.Name], p.Settings)
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Assignment) int {
		if a.Kind < b.Kind {
			return -1
		}
		if a.Kind > b.Kind {
			return 1
		}
		return 0
	})
	return out
}

// Merge returns own with the preset's settings under it: a list or a
// scalar own sets wins whole; a map merges entry by entry, own's entries
// winning. Neither argument is changed.
func Merge(own, preset config.KindSettings) config.KindSettings {
	return MergeFields(own, preset)
}

// MergeFields is Merge for any struct type: each field of own that is
// set wins whole, except a map, which merges entry by entry with own's
// entries winning. It panics if T is not a struct.
func MergeFields[T any](own, preset T) T {
	out := own
	ov, pv := reflect.ValueOf(&out).Elem(), reflect.ValueOf(preset)
	for i := range ov.NumField() {
		f, p := ov.Field(i), pv.Field(i)
		switch {
		case p.IsZero():
		case f.Kind() == reflect.Map:
			m := reflect.MakeMapWithSize(f.Type(), p.Len()+f.Len())
			for _, k := range p.MapKeys() {
				m.SetMapIndex(k, p.MapIndex(k))
			}
			for _, k := range f.MapKeys() {
				m.SetMapIndex(k, f.MapIndex(k))
			}
			f.Set(m)
		case f.IsZero():
			f.Set(p)
		}
	}
	return out
}
