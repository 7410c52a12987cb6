package catalog

import (
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// cost is what one entry adds to the catalog block, in o200k tokens,
// counted once at Build: counting is far slower than rendering.
type cost struct {
	line int // "- tool: line\n"
	name int // ", tool"
}

func entryCost(e Entry) cost {
	return cost{line: tokens.Count(toolLine(e.Tool, e.Line)), name: tokens.Count(", " + e.Tool)}
}

// kindBlock is one kind of the rendered catalog.
type kindBlock struct {
	kind    string
	servers []string
	entries []Entry
	costs   []cost
	names   bool // name-list form
	shown   int  // names shown in name-list form; the rest are counted
	// head[0] is the one-line header's cost, head[1] the name-list
	// header's, head[2] the name-list header's with a count; -1 until
	// counted.
	head [3]int
}

func (k *kindBlock) headCost(i int) int {
	if k.head[i] < 0 {
		switch i {
		case 0:
			k.head[i] = tokens.Count(kindHeader(k.kind, k.servers))
		case 1:
			k.head[i] = tokens.Count(kindNames(k.kind, k.servers, nil, 0))
		default:
			k.head[i] = tokens.Count(kindNames(k.kind, k.servers, nil, len(k.entries)))
		}
	}
	return k.head[i]
}

func (k *kindBlock) text() string {
	if !k.names {
		var b strings.Builder
		b.WriteString(kindHeader(k.kind, k.servers))
		for _, e := range k.entries {
			b.WriteString(toolLine(e.Tool, e.Line))
		}
		return b.String()
	}
	names := make([]string, k.shown)
	for i := range names {
		names[i] = k.entries[i].Tool
	}
	return kindNames(k.kind, k.servers, names, len(k.entries)-k.shown)
}

// estimate is the block's token cost from the per-entry costs. Kinds end
// in a newline, so costs of kinds add up; within a kind they add up to
// within a token or two, which the exact count in render corrects.
func (k *kindBlock) estimate() int {
	if !k.names {
		n := k.headCost(0)
		for _, c := range k.costs {
			n += c.line
		}
		return n
	}
	n := k.headCost(1)
	if k.shown < len(k.entries) {
		n = k.headCost(2)
	}
	for _, c := range k.costs[:k.shown] {
		n += c.name
	}
	return n
}

// render lays out deferred entries (sorted by kind, tool) within budget
// o200k tokens: one line per tool; past the budget, the largest kinds
// first become name lists; past that, the longest lists are cut with a
// count. If even the counts do not fit, the block goes over budget
// rather than hide a kind.
func (c *Catalog) render(deferred []Entry) string {
	if len(deferred) == 0 {
		return ""
	}
	var blocks []*kindBlock
	for _, e := range deferred {
		if len(blocks) == 0 || blocks[len(blocks)-1].kind != e.Kind {
			blocks = append(blocks, &kindBlock{kind: e.Kind})
		}
		k := blocks[len(blocks)-1]
		k.entries = append(k.entries, e)
		k.costs = append(k.costs, c.costs[c.byKey[e.Key()]])
		for _, s := range e.Servers {
			if !slices.Contains(k.servers, s) {
				k.servers = append(k.servers, s)
			}
		}
	}
	for _, k := range blocks {
		slices.Sort(k.servers)
		k.shown = len(k.entries)
		k.head = [3]int{-1, -1, -1}
	}
	bySize := make([]*kindBlock, len(blocks))
	copy(bySize, blocks)
	slices.SortStableFunc(bySize, func(a, b *kindBlock) int { return len(b.entries) - len(a.entries) })

	// shrink takes one step towards a smaller block: the next kind to
	// name-list form, else one name off the longest list.
	shrink := func() bool {
		for _, k := range bySize {
			if !k.names {
				k.names = true
				return true
			}
		}
		var best *kindBlock
		for _, k := range bySize {
			if k.shown > 0 && (best == nil || k.shown > best.shown) {
				best = k
			}
		}
		if best == nil {
			return false
		}
		best.shown--
		return true
	}
	degraded := func() bool { return bySize[0].names }
	fixed := func() int {
		n := c.introCost
		if degraded() {
			n += c.namesOnlyCost
		}
		return n
	}
	estimate := func() int {
		n := fixed()
		for _, k := range blocks {
			n += k.estimate()
		}
		return n
	}
	for estimate() > c.budget && shrink() {
	}
	out := func() string {
		var b strings.Builder
		b.WriteString(catalogIntro)
		if degraded() {
			b.WriteString(catalogNamesOnly)
		}
		for _, k := range blocks {
			b.WriteString(k.text())
		}
		return b.String()
	}
	s := out()
	for tokens.Count(s) > c.budget && shrink() {
		s = out()
	}
	return s
}
