package search

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// fixtureIndex indexes one server per fixture kind, named after the kind
// (no folding needed), with each description's first sentence as its line.
func fixtureIndex(t *testing.T, kinds ...string) (*Index, []Doc) {
	t.Helper()
	var docs []Doc
	for _, k := range kinds {
		for _, tool := range fixtures.MustLoad(t, k).Tools {
			docs = append(docs, Doc{Kind: k, Tool: tool.Name, Servers: []string{k}, Line: firstSentence(tool.Description),
				Title: tool.Annotations.Title, Description: tool.Description, Schema: kindgroups.SchemaOf(tool)})
		}
	}
	return New(docs, Options{}), docs
}

// rankedTools returns the tools of idx's top k for q, best first.
func rankedTools(t *testing.T, idx *Index, docs []Doc, q string, k int) []string {
	t.Helper()
	var out []string
	for _, r := range idx.Search(t.Context(), q, func(int) bool { return true }, k) {
		out = append(out, docs[r.Doc].Tool)
	}
	return out
}

// topTool is the first of rankedTools, or "" when nothing matches.
func topTool(t *testing.T, idx *Index, docs []Doc, q string) string {
	t.Helper()
	if got := rankedTools(t, idx, docs, q, 1); len(got) > 0 {
		return got[0]
	}
	return ""
}
