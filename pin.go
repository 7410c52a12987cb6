package mcpfleet

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/neutralize"
	"github.com/mcpfleet/mcpfleet/internal/pinning"
)

// Pinning problems, the values of PinIssue.Problems.
const (
	// PinChanged: the definition's hash differs from the lock's.
	PinChanged = "changed"
	// PinUnlocked: the lock has no entry for the tool (or its kind).
	PinUnlocked = "unlocked"
	// PinPoisoned: a text of the definition reads as an attack on the
	// model (see PinIssue.Findings).
	PinPoisoned = "poisoned"
)

// RuleJudged is the rule of a finding that comes from the lock file: a
// model judged the locked definition poisoned (`mcpfleet lock --judge`).
const RuleJudged = "judged"

// PinIssue is one tool of one server whose definition failed a pinning
// check at list time. Under pinning: enforce the tool is quarantined: it
// is not listed, folded, searchable or callable. Under warn it stays, and
// the issue is logged and reported by Status.
type PinIssue struct {
	Server string `json:"server"`
	Kind   string `json:"kind"`
	Tool   string `json:"tool"`
	// Problems lists what failed: changed, unlocked, poisoned.
	Problems []string `json:"problems"`
	// SHA256 is the hash of the definition the server lists now; it is
	// what --approve locks and what allow_flagged takes.
	SHA256 string `json:"sha256"`
	// Locked is the lock's hash, "" if the tool is not locked.
	Locked string `json:"locked,omitempty"`
	// Changes are the fields that differ from the locked definition.
	Changes []PinChange `json:"changes,omitempty"`
	// Findings are the poisoned spans, by where they sit.
	Findings    []PinFinding `json:"findings,omitempty"`
	Quarantined bool         `json:"quarantined"`
}

// PinChange is one field of a definition that differs from the lock:
// Path is a JSON pointer, Old and New compact JSON ("" when absent).
type PinChange struct {
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// PinFinding is one suspicious span of a definition.
type PinFinding struct {
	// Field is where it sits: "description", or a JSON pointer into the
	// schema such as "inputSchema/properties/q/description".
	Field string `json:"field"`
	Rule  string `json:"rule"`
	Span  string `json:"span"`
}

// pinner checks tool lists against the lock. Its settings are
// immutable; seen caches inspections.
type pinner struct {
	mode   string
	lock   *config.Lock
	allow  map[string]map[string]string // kind -> tool -> allowed sha256
	detect *neutralize.Neutralizer
	// score is the learned scorer, a second layer over the rules: a
	// definition is flagged when a rule fires or its score passes the
	// model's threshold.
	score *neutralize.Scorer
	// seen caches the findings of each definition by hash and the
	// fingerprint of the other kinds' tool names, on which the shadowing
	// rule depends: identical servers of a kind, and every relist of an
	// unchanged tool, skip the scan.
	seen *inspections
	// hashes caches each definition's pin by a digest of the bytes it
	// was listed with: a relist of unchanged bytes skips the canonical
	// JSON rewrite, which costs more than the rest of the check.
	hashes *hashCache
}

type hashCache struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]string
}

// pin returns the hash of t's canonical definition, from the cache when t
// was listed before with the same bytes.
func (c *hashCache) pin(t mcp.Tool) string {
	h := sha256.New()
	var meta []byte
	if t.Meta != nil {
		meta, _ = json.Marshal(t.Meta)
	}
	for _, part := range [][]byte{[]byte(t.Name), []byte(t.Title), []byte(t.Description), schemaBytes(t.RawInputSchema, t.InputSchema), outputSchemaBytes(t), meta} {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	if b, err := json.Marshal(t.Annotations); err == nil {
		h.Write(b)
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	c.mu.Lock()
	sum, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return sum
	}
	sum = pinning.Hash(t)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxInspections {
		c.m = map[[sha256.Size]byte]string{}
	}
	c.m[key] = sum
	c.mu.Unlock()
	return sum
}

type inspectKey struct {
	sha              string
	others, siblings uint64
}

type inspections struct {
	mu sync.Mutex
	m  map[inspectKey][]PinFinding
}

// maxInspections bounds the cache; it is cleared when full, as a server
// that keeps changing its definitions would otherwise grow it forever.
const maxInspections = 1 << 14

func (c *inspections) get(k inspectKey) ([]PinFinding, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.m[k]
	return f, ok
}

func (c *inspections) put(k inspectKey, f []PinFinding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxInspections {
		c.m = map[inspectKey][]PinFinding{}
	}
	c.m[k] = f
}

// fingerprint hashes a set of names, whatever the map's order: the sum
// of each name's FNV-1a hash.
func fingerprint(names map[string]bool) uint64 {
	var sum uint64
	for n := range names {
		h := uint64(14695981039346656037)
		for i := 0; i < len(n); i++ {
			h = (h ^ uint64(n[i])) * 1099511628211
		}
		sum += h
	}
	return sum ^ uint64(len(names))
}

// newPinner returns nil when pinning is off. When the embedded scorer
// model does not load (a corrupt build), it returns the error and a
// pinner that runs the rules alone.
func newPinner(cfg *config.Fleet) (*pinner, error) {
	mode := cfg.PinningMode()
	if mode == config.PinningOff {
		return nil, nil
	}
	p := &pinner{mode: mode, lock: cfg.Lock, allow: map[string]map[string]string{}, detect: neutralize.New(), seen: &inspections{}, hashes: &hashCache{}}
	for kind, ks := range cfg.KindSettings {
		if len(ks.AllowFlagged) > 0 {
			p.allow[kind] = ks.AllowFlagged
		}
	}
	score, err := neutralize.DefaultScorer()
	if err != nil {
		return p, fmt.Errorf("pinning: %w", err)
	}
	p.score = score
	return p, nil
}

// check returns the issues of one server's tools, by tool name. others
// are the names of tools of other kinds, for the shadowing rule.
func (p *pinner) check(server, kind string, tools []mcp.Tool, others map[string]bool) map[string]*PinIssue {
	if p == nil {
		return nil
	}
	var locked map[string]config.LockedTool
	if p.lock != nil {
		locked = p.lock.Kinds[kind].Tools
	}
	var out map[string]*PinIssue
	fp := fingerprint(others)
	// The server's own tool names: a usage example that calls one of
	// them is documentation (see neutralize.Subject.WithSiblings).
	siblings := make(map[string]bool, len(tools))
	for _, t := range tools {
		siblings[t.Name] = true
	}
	sfp := fingerprint(siblings)
	for _, t := range tools {
		is := &PinIssue{Server: server, Kind: kind, Tool: t.Name, SHA256: p.hashes.pin(t)}
		lt, isLocked := locked[t.Name]
		switch {
		case !isLocked && (p.lock != nil || p.mode == config.PinningEnforce):
			// Without a lock, warn has nothing to compare with; enforce
			// trusts nothing unreviewed.
			is.Problems = append(is.Problems, PinUnlocked)
		case isLocked && lt.SHA256 != is.SHA256:
			is.Problems = append(is.Problems, PinChanged)
			is.Locked = lt.SHA256
			for _, c := range pinning.Diff(lt.Definition, pinning.Canonical(t)) {
				is.Changes = append(is.Changes, PinChange(c))
			}
		case isLocked:
			is.Locked = lt.SHA256
		}
		if p.allow[kind][t.Name] != is.SHA256 {
			k := inspectKey{is.SHA256, fp, sfp}
			f, ok := p.seen.get(k)
			if !ok {
				f = p.inspect(t, siblings, others)
				p.seen.put(k, f)
			}
			is.Findings = slices.Clone(f)
			if j := lt.Judged; isLocked && lt.SHA256 == is.SHA256 && j != nil && j.Verdict == config.VerdictPoisoned {
				is.Findings = append(is.Findings, PinFinding{Field: cmp.Or(j.Field, "definition"), Rule: RuleJudged, Span: j.Evidence})
			}
			if len(is.Findings) > 0 {
				is.Problems = append(is.Problems, PinPoisoned)
			}
		}
		if len(is.Problems) == 0 {
			continue
		}
		is.Quarantined = p.mode == config.PinningEnforce
		if out == nil {
			out = map[string]*PinIssue{}
		}
		out[t.Name] = is
	}
	return out
}

// inspect scans every text of a definition a model reads: the
// description, the title and the annotations' title, and each description, title, enum
// and const of the input and output schemas, and the name of each of their
// properties. The rules read each text
// alone; the learned scorer reads them together and adds one finding,
// its highest sentence, when the definition passes its threshold.
// siblings are the names of the tools of t's server, t's included.
func (p *pinner) inspect(t mcp.Tool, siblings, others map[string]bool) []PinFinding {
	var out []PinFinding
	var parts []neutralize.Part
	sub := neutralize.SubjectOf(t.Name, t.Description).WithSiblings(siblings)
	scan := func(field, text string) {
		parts = append(parts, neutralize.Part{Field: field, Text: text})
		for _, f := range p.detect.InspectSubject(text, sub, others) {
			out = append(out, PinFinding{Field: field, Rule: string(f.Rule), Span: f.Span})
		}
	}
	scan("description", t.Description)
	if t.Title != "" {
		scan("title", t.Title)
	}
	if t.Annotations.Title != "" {
		scan("annotations/title", t.Annotations.Title)
	}
	for _, s := range []struct {
		field string
		raw   json.RawMessage
	}{{"inputSchema", schemaBytes(t.RawInputSchema, t.InputSchema)}, {"outputSchema", outputSchemaBytes(t)}} {
		var v any
		if len(s.raw) == 0 || json.Unmarshal(s.raw, &v) != nil {
			continue
		}
		neutralize.SchemaTexts(v, func(path, text string) { scan(s.field+path, text) })
		// A parameter's name is read by the rules, not the scorer,
		// which was trained on descriptions.
		neutralize.SchemaNames(v, func(path, name string) {
			for _, f := range p.detect.InspectSubject(name, sub, others) {
				out = append(out, PinFinding{Field: s.field + path, Rule: string(f.Rule), Span: f.Span})
			}
		})
	}
	if p.score != nil {
		if v := p.score.ScoreAmong(t.Name, siblings, parts); v.Flagged {
			out = append(out, PinFinding{Field: parts[v.Part].Field, Rule: string(v.Finding.Rule), Span: v.Finding.Span})
		}
	}
	return out
}

// outputSchemaBytes is t's output schema as JSON, nil when it has none
// (a typed schema without a type is none, as in pinning.Canonical).
func outputSchemaBytes(t mcp.Tool) json.RawMessage {
	if len(t.RawOutputSchema) == 0 && t.OutputSchema.Type == "" {
		return nil
	}
	return schemaBytes(t.RawOutputSchema, t.OutputSchema)
}

func schemaBytes[T any](raw json.RawMessage, typed T) json.RawMessage {
	if len(raw) > 0 {
		return raw
	}
	b, _ := json.Marshal(typed)
	return b
}

// otherKindsTools returns the tool names of every kind but kind, from the
// lock and the current snapshot, minus kind's own names.
func (m *Mux) otherKindsTools(kind string, own []mcp.Tool) map[string]bool {
	return m.otherKindsToolsOf(m.pin.lock, kind, own)
}

func (m *Mux) otherKindsToolsOf(lock *config.Lock, kind string, own []mcp.Tool) map[string]bool {
	out := map[string]bool{}
	if lock != nil {
		for k, lk := range lock.Kinds {
			if k == kind {
				continue
			}
			for name := range lk.Tools {
				out[name] = true
			}
		}
	}
	if snap := m.snap.Load(); snap != nil {
		for _, s := range snap.servers {
			if s.Kind == kind {
				continue
			}
			for _, t := range s.Tools {
				out[t.Name] = true
			}
		}
	}
	for _, t := range own {
		delete(out, t.Name)
	}
	return out
}

// PinningMode returns the pinning mode in force: off, warn or enforce.
func (m *Mux) PinningMode() string {
	if m.pin == nil {
		return config.PinningOff
	}
	return m.pin.mode
}

// PinIssues returns every tool that failed a pinning check, quarantined
// or flagged, sorted by server and tool.
func (m *Mux) PinIssues() []PinIssue {
	var out []PinIssue
	for _, name := range m.names {
		out = append(out, m.servers[name].pinIssues()...)
	}
	return out
}

func (sc *serverConn) pinIssues() []PinIssue {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	out := make([]PinIssue, 0, len(sc.pins))
	for _, is := range sc.pins {
		out = append(out, *is)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out
}

// quarantine returns the issue of a quarantined tool, or nil.
func (sc *serverConn) quarantine(tool string) *PinIssue {
	sc.mu.RLock()
	defer sc.mu.RUnlock()
	if is := sc.pins[tool]; is != nil && is.Quarantined {
		return is
	}
	return nil
}

// logPins logs and counts the issues that are new or differ from the
// previous list's.
func (sc *serverConn) logPins(old, cur map[string]*PinIssue) {
	for _, name := range slices.Sorted(maps.Keys(cur)) {
		is := cur[name]
		if prev := old[name]; prev != nil && prev.SHA256 == is.SHA256 {
			continue
		}
		msg := "tool definition flagged (pinning: warn)"
		if is.Quarantined {
			msg = "tool quarantined (pinning: enforce)"
		}
		sc.m.log.Warn(msg, "server", sc.name, "kind", sc.kind, "tool", name,
			"problems", strings.Join(is.Problems, ","), "sha256", is.SHA256)
		if mt := sc.m.opts.metrics; mt != nil {
			mt.PinFlagged(sc.m.life, *is)
		}
	}
}

// pinReason is the model-facing hint of a quarantined tool. It names the
// problems and rules only, never the matched text, which may be the
// very instruction the quarantine keeps from the model.
func pinReason(is *PinIssue) string {
	var parts []string
	for _, p := range is.Problems {
		switch p {
		case PinChanged:
			parts = append(parts, "its definition changed since it was reviewed")
		case PinUnlocked:
			parts = append(parts, "its definition was never reviewed")
		case PinPoisoned:
			rules := map[string]bool{}
			for _, f := range is.Findings {
				rules[f.Rule] = true
			}
			parts = append(parts, "its description holds text aimed at the model ("+strings.Join(slices.Sorted(maps.Keys(rules)), ", ")+")")
		}
	}
	return "The tool is quarantined: " + strings.Join(parts, "; ") + "."
}
