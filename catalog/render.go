package catalog

import (
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/internal/tokens"
)

// kindBlock is one kind of the rendered catalog.
type kindBlock struct {
	kind    string
	servers []string
	entries []Entry
	names   bool // name-list form
	shown   int  // names shown in name-list form; the rest are counted
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

// render lays out deferred entries (sorted by kind, tool) within budget
// o200k tokens: one line per tool; past the budget, the largest kinds
// first become name lists; past that, the longest lists are cut with a
// count. Each kind ends in a newline, so the token count of the whole is
// the sum of its parts.
func render(deferred []Entry, budget int) string {
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
		for _, s := range e.Servers {
			if !slices.Contains(k.servers, s) {
				k.servers = append(k.servers, s)
			}
		}
	}
	cost := make([]int, len(blocks))
	for i, k := range blocks {
		slices.Sort(k.servers)
		k.shown = len(k.entries)
		cost[i] = tokens.Count(k.text())
	}
	fixed := tokens.Count(catalogIntro)
	total := func() int {
		n := fixed
		for _, c := range cost {
			n += c
		}
		return n
	}
	bySize := make([]int, len(blocks))
	for i := range bySize {
		bySize[i] = i
	}
	slices.SortStableFunc(bySize, func(a, b int) int { return len(blocks[b].entries) - len(blocks[a].entries) })
	degraded := false
	for _, i := range bySize {
		if total() <= budget {
			break
		}
		if !degraded {
			degraded = true
			fixed += tokens.Count(catalogNamesOnly)
		}
		blocks[i].names = true
		cost[i] = tokens.Count(blocks[i].text())
	}
	for total() > budget {
		// Cut the longest list shown, one name at a time.
		best := -1
		for i, k := range blocks {
			if k.shown > 0 && (best < 0 || k.shown > blocks[best].shown) {
				best = i
			}
		}
		if best < 0 {
			break // only counts left; nothing more to cut
		}
		blocks[best].shown--
		cost[best] = tokens.Count(blocks[best].text())
	}
	var b strings.Builder
	b.WriteString(catalogIntro)
	if degraded {
		b.WriteString(catalogNamesOnly)
	}
	for _, k := range blocks {
		b.WriteString(k.text())
	}
	return b.String()
}
