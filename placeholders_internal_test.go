package mcpfleet

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzIsPlaceholder holds the allocation-free isPlaceholder to the rule it
// replaced: lower-case the trimmed string, then look it up.
func FuzzIsPlaceholder(f *testing.F) {
	for _, s := range []string{"", " ", "None", " <NONE> ", "n/A", "NIL", "N\u0130L", "<UN\u212aNOWN>", "undefined!",
		"null\u00a0", "\u212a", "undefinedx", "<unknown>", "api-7f9c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := slices.Contains(placeholders, strings.ToLower(strings.TrimSpace(s)))
		if got := isPlaceholder(s); got != want {
			t.Errorf("isPlaceholder(%q) = %v, want %v", s, got, want)
		}
	})
}

// TestRejectPlaceholdersShortcut checks that skipping the walk when there is
// nothing to find gives what the walk gives, on arguments with and without
// placeholders and nulls at every depth.
func TestRejectPlaceholdersShortcut(t *testing.T) {
	schema := map[string]any{}
	if err := json.Unmarshal([]byte(`{"type":"object","required":["name"],"properties":{
		"name":{"type":"string","description":"Name of the pod"},
		"labels":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}}}},
		"opts":{"type":"object","required":["mode"],"properties":{"mode":{"type":"string"}}}}}`), &schema); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, args string }{
		{"clean", `{"name":"api-7f9c","namespace":"prod","tailLines":100}`},
		{"clean nested", `{"name":"a","labels":[{"k":"v"},{"k":"w"}],"opts":{"mode":"fast","n":[1,2,[true]]}}`},
		{"placeholder top", `{"name":"<none>"}`},
		{"placeholder deep", `{"name":"a","labels":[{"k":"v"},{"k":" Undefined "}]}`},
		{"placeholder in array", `{"name":"a","extra":[["x",["N/A"]]]}`},
		{"null optional", `{"name":"a","namespace":null}`},
		{"null required", `{"name":null}`},
		{"null nested required", `{"name":"a","opts":{"mode":null}}`},
		{"null in array", `{"name":"a","extra":[null,1]}`},
		{"null in object in array", `{"name":"a","labels":[{"k":null}]}`},
		{"empty", `{}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{}
			if err := json.Unmarshal([]byte(tc.args), &args); err != nil {
				t.Fatal(err)
			}
			var wantProblems []Problem
			want := walkPlaceholders(schema, args, "", &wantProblems)
			got, gotProblems := rejectPlaceholders(schema, args)
			if diff := cmp.Diff(want, any(got)); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantProblems, gotProblems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRejectPlaceholdersAllocs pins the point of the shortcut: clean
// arguments cost no allocation.
func TestRejectPlaceholdersAllocs(t *testing.T) {
	args := map[string]any{"name": "api-7f9c", "namespace": "Prod", "tailLines": 100.0, "labels": []any{map[string]any{"k": "v"}}}
	if n := testing.AllocsPerRun(100, func() { rejectPlaceholders(nil, args) }); n != 0 {
		t.Errorf("rejectPlaceholders allocated %v times on clean arguments, want 0", n)
	}
}
