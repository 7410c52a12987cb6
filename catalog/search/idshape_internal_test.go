package search

import (
	"encoding/json"
	"math"
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

// pairDocs are made-up tools of one kind: two change one item, one
// relates two.
var pairDocs = []Doc{
	{Kind: "tracker", Tool: "tracker_update_item", Description: "Update an item or mark it.",
		Schema: json.RawMessage(`{"type":"object","properties":{"item_key":{"type":"string","description":"Item key (e.g., 'TCK-42')"}}}`)},
	{Kind: "tracker", Tool: "tracker_assign_item", Description: "Assign an item.",
		Schema: json.RawMessage(`{"type":"object","properties":{"item_key":{"type":"string","description":"Item key (e.g., 'TCK-42')"}}}`)},
	{Kind: "tracker", Tool: "tracker_relate_items", Description: "Relate two items, as blocked by or caused by.",
		Schema: json.RawMessage(`{"type":"object","properties":{
			"from_key":{"type":"string","description":"Key of one item (e.g., 'TCK-1')"},
			"to_key":{"type":"string","description":"Key of the other (e.g., 'TCK-2')"}}}`)},
}

func TestIDShapePair(t *testing.T) {
	ix := New(pairDocs, Options{NoRerank: true}).ix
	update, relate := int32(0), int32(2)
	for _, tc := range []struct {
		name, query          string
		wantUpdate, wantPair float64
	}{
		// Two keys: a relation between two items, which only the tool
		// taking two keys can make.
		{"two keys", "mark OPS-4 as blocked by PLAT-2", 1.3, 1.3 * 1.3},
		// One key, said twice, is one item.
		{"one key", "mark OPS-4 as blocked, OPS-4 waits", 1.3, 1.3},
	} {
		f := ix.idShapeFactors(tc.query)
		if math.Abs(f[update]-tc.wantUpdate) > 1e-9 || math.Abs(f[relate]-tc.wantPair) > 1e-9 {
			t.Errorf("%s: idShapeFactors(%q) = update %v, relate %v; want %v, %v", tc.name, tc.query, f[update], f[relate], tc.wantUpdate, tc.wantPair)
		}
	}
	if f := ix.idShapeFactors("mark it as blocked"); f != nil {
		t.Errorf("no identifier: %v", f)
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
