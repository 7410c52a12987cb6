package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/knadh/koanf/parsers/yaml"
)

// Pinning modes, the values of the pinning key.
const (
	PinningOff     = "off"
	PinningWarn    = "warn"
	PinningEnforce = "enforce"
)

// DefaultLockFile is the lock file's name beside the fleet file.
const DefaultLockFile = "fleet.lock"

// LockVersion is the lock file format this package reads and writes.
const LockVersion = 1

func pinningModes() []string { return []string{PinningOff, PinningWarn, PinningEnforce} }

// Lock is a fleet.lock file: the reviewed definition of every tool, by
// kind. `mcpfleet lock` writes it; Load reads it from lock_file.
type Lock struct {
	Version int                   `json:"version"`
	Kinds   map[string]LockedKind `json:"kinds"`
}

// LockedKind is one kind's pinned tools and the server software they were
// read from.
type LockedKind struct {
	// Server is the serverInfo the kind's servers gave at initialize.
	Server LockedServer          `json:"server"`
	Tools  map[string]LockedTool `json:"tools"`
}

// LockedServer is a server's software name and version from serverInfo.
type LockedServer struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// LockedTool pins one tool. SHA256 is the pin; Definition is the canonical
// JSON it was computed from, kept so that a change can be shown field by
// field and reviewed in a diff of the file.
type LockedTool struct {
	SHA256     string          `json:"sha256"`
	Definition json.RawMessage `json:"definition,omitempty"`
	// Judged is a model's verdict on this definition, recorded by
	// `mcpfleet lock --judge`; nil when it was not judged. It holds for
	// SHA256 alone: a changed definition is judged anew.
	Judged *Judgement `json:"judged,omitempty"`
}

// Verdicts of a Judgement.
const (
	VerdictClean    = "clean"
	VerdictPoisoned = "poisoned"
)

// Verdicts are the values a Judgement's Verdict may take.
func Verdicts() []string { return []string{VerdictClean, VerdictPoisoned} }

// Judgement is a model's verdict on one locked definition. A poisoned
// verdict is a finding of rule "judged" when pinning checks the tool: under
// enforce the tool is quarantined unless allow_flagged names its hash.
type Judgement struct {
	Verdict string `json:"verdict"`
	// By names the model that judged.
	By    string `json:"by,omitempty"`
	Class string `json:"class,omitempty"`
	// Field is where Evidence sits: "description" or a JSON pointer into
	// the definition such as "inputSchema/properties/q/description".
	Field    string `json:"field,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Marshal writes the lock as indented JSON with sorted keys (JSON is also
// YAML), ending in a newline.
func (l *Lock) Marshal() []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(l); err != nil {
		return nil // a Lock holds strings and valid JSON only
	}
	return b.Bytes()
}

// LockError lists what is wrong with a lock file.
type LockError struct {
	Problems []Problem
}

func (e *LockError) Error() string { return problemList("config: lock file", e.Problems) }

// ParseLock reads a lock file, JSON or YAML, and checks its shape: every
// key known, every sha256 64 lower-case hex digits, every definition a
// JSON object. It returns a *LockError listing every problem.
func ParseLock(data []byte) (*Lock, error) {
	raw, err := lockMap(data)
	if err != nil {
		return nil, &LockError{Problems: []Problem{{Field: "lock_file", Want: "a JSON or YAML object as mcpfleet lock writes (" + err.Error() + "); delete the file and run mcpfleet lock to rewrite it"}}}
	}
	var ps []Problem
	add := func(p Problem) { ps = append(ps, p) }
	unknown := func(loc string, m map[string]any, keys ...string) {
		for _, k := range sortedKeys(m) {
			if !slices.Contains(keys, k) {
				add(Problem{Field: loc + k, Value: k, Want: "one of " + strings.Join(keys, ", "), Hint: suggest(k, keys)})
			}
		}
	}
	l := &Lock{Kinds: map[string]LockedKind{}}
	unknown("", raw, "version", "kinds")
	switch v := raw["version"].(type) {
	case json.Number:
		if v.String() != fmt.Sprint(LockVersion) {
			add(Problem{Field: "version", Value: v.String(), Want: fmt.Sprint(LockVersion), Hint: fmt.Sprint(LockVersion)})
		}
	case int:
		if v != LockVersion {
			add(Problem{Field: "version", Value: fmt.Sprint(v), Want: fmt.Sprint(LockVersion), Hint: fmt.Sprint(LockVersion)})
		}
	default:
		add(Problem{Field: "version", Value: brief(v), Want: fmt.Sprintf("the number %d", LockVersion), Hint: fmt.Sprint(LockVersion)})
	}
	l.Version = LockVersion
	kinds, ok := raw["kinds"].(map[string]any)
	if !ok {
		add(Problem{Field: "kinds", Want: "an object of kind name to its pinned tools"})
		return nil, &LockError{Problems: ps}
	}
	for _, kind := range sortedKeys(kinds) {
		loc := "kinds." + kind
		km, ok := kinds[kind].(map[string]any)
		if !ok {
			add(Problem{Field: loc, Want: "an object with server and tools"})
			continue
		}
		unknown(loc+".", km, "server", "tools")
		var lk LockedKind
		if srv, ok := km["server"].(map[string]any); ok {
			unknown(loc+".server.", srv, "name", "version")
			lk.Server.Name, _ = srv["name"].(string)
			lk.Server.Version, _ = srv["version"].(string)
		} else if km["server"] != nil {
			add(Problem{Field: loc + ".server", Want: "an object with name and version"})
		}
		tools, ok := km["tools"].(map[string]any)
		if !ok {
			add(Problem{Field: loc + ".tools", Want: "an object of tool name to its sha256 and definition"})
			continue
		}
		lk.Tools = make(map[string]LockedTool, len(tools))
		for _, name := range sortedKeys(tools) {
			tloc := loc + ".tools." + name
			tm, ok := tools[name].(map[string]any)
			if !ok {
				add(Problem{Field: tloc, Want: "an object with sha256 and definition"})
				continue
			}
			unknown(tloc+".", tm, "sha256", "definition", "judged")
			var lt LockedTool
			sum, _ := tm["sha256"].(string)
			if !IsSHA256(sum) {
				add(Problem{Field: tloc + ".sha256", Value: brief(tm["sha256"]), Want: "64 lower-case hex digits, as mcpfleet lock writes"})
			}
			lt.SHA256 = sum
			if d, ok := tm["definition"]; ok {
				m, isObj := d.(map[string]any)
				b, err := json.Marshal(m)
				if !isObj || err != nil {
					add(Problem{Field: tloc + ".definition", Want: "the tool's definition as a JSON object"})
				} else {
					lt.Definition = b
				}
			}
			if j, ok := tm["judged"]; ok {
				lt.Judged = parseJudgement(tloc+".judged", j, add)
			}
			lk.Tools[name] = lt
		}
		l.Kinds[kind] = lk
	}
	if len(ps) > 0 {
		return nil, &LockError{Problems: ps}
	}
	return l, nil
}

// parseJudgement reads a tool's judged entry, adding a problem for each
// part that is not as `mcpfleet lock --judge` writes it.
func parseJudgement(loc string, v any, add func(Problem)) *Judgement {
	m, ok := v.(map[string]any)
	if !ok {
		add(Problem{Field: loc, Value: brief(v), Want: "an object with verdict (clean or poisoned) and what the model said"})
		return nil
	}
	keys := []string{"verdict", "by", "class", "field", "evidence", "reason"}
	j := &Judgement{}
	dst := []*string{&j.Verdict, &j.By, &j.Class, &j.Field, &j.Evidence, &j.Reason}
	for _, k := range sortedKeys(m) {
		i := slices.Index(keys, k)
		if i < 0 {
			add(Problem{Field: loc + "." + k, Value: k, Want: "one of " + strings.Join(keys, ", "), Hint: suggest(k, keys)})
			continue
		}
		s, ok := m[k].(string)
		if !ok {
			add(Problem{Field: loc + "." + k, Value: brief(m[k]), Want: "a string"})
			continue
		}
		*dst[i] = s
	}
	if !slices.Contains(Verdicts(), j.Verdict) {
		add(Problem{Field: loc + ".verdict", Value: j.Verdict, Want: "one of " + strings.Join(Verdicts(), ", "), Hint: suggest(j.Verdict, Verdicts())})
	}
	return j
}

// IsSHA256 reports whether s is 64 lower-case hex digits.
func IsSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// lockMap decodes a lock file: JSON (numbers kept as written) when it
// starts with "{", else YAML.
func lockMap(data []byte) (map[string]any, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("the file is empty")
	}
	if trimmed[0] == '{' {
		d := json.NewDecoder(bytes.NewReader(trimmed))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		if len(bytes.TrimSpace(trimmed[d.InputOffset():])) > 0 {
			return nil, fmt.Errorf("invalid JSON: data after the object at byte %d", d.InputOffset())
		}
		return m, nil
	}
	m, err := yaml.Parser().Unmarshal(trimmed)
	if err != nil {
		return nil, fmt.Errorf("invalid YAML: %w", err)
	}
	if m == nil {
		return nil, errors.New("not an object")
	}
	return m, nil
}

func brief(v any) string {
	s := fmt.Sprint(v)
	if v == nil {
		s = ""
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// PinningMode is the pinning mode in force: the pinning key, or, when it
// is empty, warn if a lock was loaded and off otherwise.
func (f *Fleet) PinningMode() string {
	switch {
	case f.Pinning != "":
		return f.Pinning
	case f.Lock != nil:
		return PinningWarn
	}
	return PinningOff
}

// loadLock resolves lock_file against dir (default fleet.lock beside the
// fleet file) and reads it if it exists. A lock_file set explicitly must
// exist; the default may be absent.
func (f *Fleet) loadLock(dir string, lookup func(string) (string, bool)) []Problem {
	explicit := f.LockFile != ""
	path := f.LockFile
	if !explicit {
		if dir == "" {
			return nil
		}
		path = DefaultLockFile
	}
	path = expand(path, lookup)
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return nil
	}
	f.LockFile = path
	if err != nil {
		return []Problem{{Field: "lock_file", Value: path, Want: fmt.Sprintf("a readable lock file (%v); run mcpfleet lock to write one", err)}}
	}
	l, err := ParseLock(data)
	var le *LockError
	if errors.As(err, &le) {
		for i := range le.Problems {
			le.Problems[i].Server = "lock_file " + path
		}
		return le.Problems
	}
	f.Lock = l
	return nil
}

// LockPath is where the lock file is or would be: lock_file when set,
// else fleet.lock in Dir.
func (f *Fleet) LockPath() string {
	if f.LockFile != "" {
		return f.LockFile
	}
	return filepath.Join(f.Dir, DefaultLockFile)
}

// validatePinning checks the pinning key, the lock's kinds against the
// fleet's, and the allow_flagged hashes.
func (f *Fleet) validatePinning(kinds []string, add func(Problem)) {
	if f.Pinning != "" && !slices.Contains(pinningModes(), f.Pinning) {
		add(Problem{Field: "pinning", Value: f.Pinning, Want: "one of " + strings.Join(pinningModes(), ", "),
			Hint: suggest(f.Pinning, pinningModes())})
	}
	if f.Lock != nil {
		for _, k := range sortedKeys(f.Lock.Kinds) {
			if !slices.Contains(kinds, k) {
				add(Problem{Server: "lock_file " + f.LockFile, Field: "kinds." + k, Value: k,
					Want: "a kind some server has: " + strings.Join(kinds, ", "), Hint: suggest(k, kinds)})
			}
		}
	}
	for _, kind := range sortedKeys(f.KindSettings) {
		for _, tool := range sortedKeys(f.KindSettings[kind].AllowFlagged) {
			if h := f.KindSettings[kind].AllowFlagged[tool]; !IsSHA256(h) {
				add(Problem{Server: "kind_settings." + kind, Field: "allow_flagged." + tool, Value: brief(h),
					Want: "the sha256 of the definition to allow (64 hex digits), as mcpfleet status and mcpfleet lock --diff print it"})
			}
		}
	}
}
