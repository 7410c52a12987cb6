package search

import (
	"encoding/json"
	"slices"
	"testing"
)

// requiredSchema returns an input schema with string parameters props,
// of which required are required.
func requiredSchema(props []string, required ...string) json.RawMessage {
	ps := map[string]any{}
	for _, p := range props {
		ps[p] = map[string]string{"type": "string"}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": ps, "required": required})
	return b
}

// A twin that cannot be called without a value the request does not give
// ranks under the one that can: "relate CASE-1 to CASE-2" gives no URL
// for the web-link tool, and says more of its words. Given a URL, or the
// word, it is the web-link tool again.
func TestRequiredValues(t *testing.T) {
	docs := []Doc{
		{Kind: "cases", Tool: "create_case_web_relation", Description: "Relate a case to a web page: a web relation to any URL, shown on the case with its title, to relate a case to docs.",
			Schema: requiredSchema([]string{"case_key", "url", "title", "relation_kind"}, "case_key", "url", "title")},
		{Kind: "cases", Tool: "create_case_relation", Description: "Create a relation between two cases.",
			Schema: requiredSchema([]string{"relation_kind", "from_case_key", "to_case_key"}, "relation_kind", "from_case_key", "to_case_key")},
		{Kind: "cases", Tool: "get_case", Description: "Get a case.", Schema: requiredSchema([]string{"case_key"}, "case_key")},
	}
	idx := New(docs, Options{NoRerank: true})
	for q, want := range map[string]string{
		"relate CASE-1 to CASE-2 as duplicate":                  "create_case_relation",
		"relate CASE-1 to https://docs.example.com/runbook":     "create_case_web_relation",
		"relate CASE-1 to the runbook page, its url is in chat": "create_case_web_relation",
	} {
		if got := rankedTools(t, idx, docs, q, 3); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}

// Which required parameters count: those named for a value type by their
// last word, that some tool of the kind does not require.
func TestRequiredValuesOf(t *testing.T) {
	docs := []Doc{
		{Kind: "a", Tool: "add_entry", Schema: requiredSchema([]string{"key", "time_spent", "link_type"}, "key", "time_spent", "link_type")},
		{Kind: "a", Tool: "get_entry", Schema: requiredSchema([]string{"key"}, "key")},
		// Every tool of kind b needs a path: it tells no twins apart.
		{Kind: "b", Tool: "read_file", Schema: requiredSchema([]string{"path"}, "path")},
		{Kind: "b", Tool: "write_file", Schema: requiredSchema([]string{"path", "content"}, "path", "content")},
	}
	reqs := make([][]string, len(docs))
	for i, d := range docs {
		reqs[i] = schemaText(d.Schema).required
	}
	got := requiredValues(docs, reqs)
	if len(got[0]) != 1 || got[0][0].values != valueDuration {
		t.Errorf("add_entry: got %+v, want one duration (time_spent; link_type takes no URL)", got[0])
	}
	for i := 1; i < len(docs); i++ {
		if got[i] != nil {
			t.Errorf("%s: got %+v, want none", docs[i].Tool, got[i])
		}
	}
}

func TestGivenValues(t *testing.T) {
	tests := []struct {
		q    string
		want valueType
	}{
		{"kv put secret/app/redis password=x", valueFile},
		{"open https://example.com/a/b", valueURL},
		{"read ./notes.txt", valueFile},
		{"what is in it", 0},
		{"it failed and/or hung", valueFile}, // a slash between words reads as a path; harmless, it only fills
		{"the / key", 0},
	}
	for _, tt := range tests {
		if got := givenValues(tt.q, requestValues(tt.q)); got != tt.want {
			t.Errorf("%q: got %b, want %b", tt.q, got, tt.want)
		}
	}
}

// A duration said in words ("2.5 hours") fills a required duration.
func TestRequiredDurationInWords(t *testing.T) {
	docs := []Doc{{Kind: "a", Tool: "add_entry", Schema: requiredSchema([]string{"time_spent"}, "time_spent")}, {Kind: "a", Tool: "get_entry"}}
	idx := New(docs, Options{NoRerank: true})
	ps := idx.ix.required[0]
	for q, want := range map[string]bool{"log 2.5 hours on it": true, "log work on it": false, "log the time spent": true} {
		a := idx.ix.analyze(q)
		if got := requiredFactor(ps, a, idx.ix.names.said(a)) == 1; got != want {
			t.Errorf("%q: filled %v, want %v", q, got, want)
		}
	}
}

// A schema's required list reads as decoding it into a []string would:
// any case of the key, null items as "", nothing if an item is not a
// string or the value not a list.
func TestRequiredNames(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`{"required": ["url", "key"]}`, []string{"url", "key"}},
		{`{"Required": ["path"]}`, []string{"path"}},
		{`{"required": ["path", null]}`, []string{"path", ""}},
		{`{"required": ["path", 3]}`, nil},
		{`{"required": true}`, nil},
		{`{"required": null}`, nil},
		{`{"properties": {}}`, nil},
	} {
		got := schemaText(json.RawMessage(tc.schema)).required
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.schema, got, tc.want)
		}
		// The struct decoding it stands for.
		var s struct {
			Required []string `json:"required"`
		}
		if json.Unmarshal([]byte(tc.schema), &s) != nil {
			s.Required = nil
		}
		if !slices.Equal(got, s.Required) {
			t.Errorf("%s: got %q, json decodes %q", tc.schema, got, s.Required)
		}
	}
}
