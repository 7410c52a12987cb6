package tuning

import (
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/catalog"
)

// KindTool names one entry.
type KindTool struct {
	Kind string `json:"kind"`
	Tool string `json:"tool"`
}

// Collision is a set of tools in one kind whose catalog lines start with
// the same five words, so a model cannot tell them apart from the catalog.
type Collision struct {
	Kind   string   `json:"kind"`
	Prefix string   `json:"prefix"` // the shared words, lower case
	Tools  []string `json:"tools"`
}

// LintReport is what `mcpfleet catalog --lint` prints.
type LintReport struct {
	// MissingLines are tools whose catalog line is generated, not
	// hand-written.
	MissingLines []KindTool `json:"missing_lines"`
	// Collisions are lines that collide in meaning within a kind.
	Collisions []Collision `json:"collisions"`
}

// collisionWords is how many leading words two lines must share to collide.
const collisionWords = 5

// Lint reports what to fix in a catalog's lines. Lines shorter than five
// words collide only when equal.
func Lint(c *catalog.Catalog) LintReport {
	r := LintReport{MissingLines: []KindTool{}, Collisions: []Collision{}}
	type key struct{ kind, prefix string }
	groups := map[key][]string{}
	var order []key
	for _, e := range c.Entries() {
		if !e.HandWritten {
			r.MissingLines = append(r.MissingLines, KindTool{e.Kind, e.Tool})
		}
		w := strings.Fields(strings.ToLower(e.Line))
		k := key{e.Kind, strings.Join(w[:min(len(w), collisionWords)], " ")}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e.Tool)
	}
	for _, k := range order {
		if tools := groups[k]; len(tools) > 1 {
			r.Collisions = append(r.Collisions, Collision{Kind: k.kind, Prefix: k.prefix, Tools: slices.Clone(tools)})
		}
	}
	return r
}
