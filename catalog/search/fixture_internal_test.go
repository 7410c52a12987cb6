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
