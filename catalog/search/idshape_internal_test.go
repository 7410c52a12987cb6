package search

import (
	"encoding/json"
	"testing"
)

// shapeDocs are made-up tools of two kinds that both hold items: one
// keys them like 'TCK-42', the other numbers them.
var shapeDocs = []Doc{
	{Kind: "tracker", Tool: "tracker_get_item", Description: "Get an item by its key.",
		Schema: json.RawMessage(`{"type":"object","properties":{"item_key":{"type":"string","description":"Item key (e.g., 'TCK-42')"}}}`)},
	{Kind: "tracker", Tool: "tracker_list_boards", Description: "List boards."},
	{Kind: "repo", Tool: "repo_get_item", Description: "Show an item of the repository.",
		Schema: json.RawMessage(`{"type":"object","properties":{"item_id":{"type":"integer","description":"Item number"}}}`)},
	{Kind: "repo", Tool: "repo_list_items", Description: "List the items of the repository."},
}

func TestIDShapeTool(t *testing.T) {
	idx := New(shapeDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		name, query, want string
	}{
		// OPS-412 has the shape of the tracker's keys, not the repo's
		// numbers.
		{"a key", "show me item OPS-412", "tracker_get_item"},
		{"no key", "show me repository item 412", "repo_get_item"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topTool(t, idx, shapeDocs, tc.query); got != tc.want {
				t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, shapeDocs, tc.query, 4))
			}
		})
	}
}

func TestIDShape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"PROJ-123", "A-9"},
		{"OPS-4412", "A-9"},
		{"ACV2-642", "A9-9"},
		{"redis-0", "a-9"},
		{"v1.2.3", "a9.9.9"},
		// Not identifiers: no digit, no separator, other characters.
		{"In Progress", ""},
		{"PROJ", ""},
		{"abc123", ""},
		{"2024-06-11", ""},
	} {
		if got := idShape(tc.in); got != tc.want {
			t.Errorf("idShape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIDShapeIndexDropsCommonShapes(t *testing.T) {
	var docs []Doc
	for _, k := range []string{"a", "b", "c"} {
		docs = append(docs, Doc{Kind: k, Tool: k + "_get", Schema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"e.g. 'XY-12'"}}}`)})
	}
	if got := idShapeIndex(docs); len(got) != 0 {
		t.Errorf("a shape three kinds quote is kept: %v", got)
	}
	if got := idShapeIndex(docs[:2]); len(got["A-9"]) != 2 {
		t.Errorf("a shape two kinds quote: %v", got)
	}
}
