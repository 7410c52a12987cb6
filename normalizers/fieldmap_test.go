package normalizers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestApplyFieldMap(t *testing.T) {
	tests := []struct {
		name     string
		args     string
		fieldMap map[string]string
		want     string
		wantErr  string
	}{
		{name: "rename", args: `{"resourceType":"pod","name":"w"}`, fieldMap: map[string]string{"resourceType": "kind"},
			want: `{"kind":"pod","name":"w"}`},
		{name: "swap is simultaneous", args: `{"a":1,"b":2}`, fieldMap: map[string]string{"a": "b", "b": "a"},
			want: `{"a":2,"b":1}`},
		{name: "dotted path", args: `{"spec":{"podName":"w","ns":"x"}}`, fieldMap: map[string]string{"spec.podName": "name"},
			want: `{"spec":{"name":"w","ns":"x"}}`},
		{name: "dotted target with the same parent", args: `{"spec":{"podName":"w"}}`, fieldMap: map[string]string{"spec.podName": "spec.name"},
			want: `{"spec":{"name":"w"}}`},
		{name: "through arrays and a renamed parent", args: `{"items":[{"n":1},{"n":2},"x"]}`,
			fieldMap: map[string]string{"items.n": "name", "items": "entries"},
			want:     `{"entries":[{"name":1},{"name":2},"x"]}`},
		{name: "absent source", args: `{"a":1}`, fieldMap: map[string]string{"b": "c", "x.y": "z"}, want: `{"a":1}`},
		{name: "collision", args: `{"resourceType":"pod","kind":"Pod"}`, fieldMap: map[string]string{"resourceType": "kind"},
			wantErr: `fieldMap: at /resourceType: both "resourceType" (which means "kind") and "kind" given; send only "kind"`},
		{name: "target in another object", args: `{"a":{"b":1}}`, fieldMap: map[string]string{"a.b": "c.b"},
			wantErr: `fieldMap: at (top level): field map entry "a.b" -> "c.b" must keep the key in the same object`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := obj(t, tc.args)
			got, err := normalizers.ApplyFieldMap(args, tc.fieldMap)
			if diff := cmp.Diff(obj(t, tc.args), args); diff != "" {
				t.Errorf("input mutated (-before +after):\n%s", diff)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(obj(t, tc.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldMapAfterCamelCase pins the documented order: the field map sees
// the names camelCase produced, so {resourceType: kind} catches a model's
// "resource_type", and a stale snake_case entry does not.
func TestFieldMapAfterCamelCase(t *testing.T) {
	schema := schemaOf(t, "kubernetes", "resources_list")
	chain, err := normalizers.Chain([]string{normalizers.CamelCase, normalizers.SingularResourceType}, normalizers.Builtins(nil))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"api_version": "v1", "resource_type": "pods"}
	out, err := chain(t.Context(), normalizers.Call{Schema: schema, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	got, err := normalizers.ApplyFieldMap(out, map[string]string{"resourceType": "kind"})
	if err != nil {
		t.Fatal(err)
	}
	// singularResourceType ran before the rename, when the key was not yet
	// "kind", so the plural survives: list the field map's target in the
	// schema or rename earlier if that matters.
	if diff := cmp.Diff(map[string]any{"apiVersion": "v1", "kind": "pods"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	stale, err := normalizers.ApplyFieldMap(out, map[string]string{"resource_type": "kind"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stale["kind"]; ok {
		t.Errorf("a snake_case field-map key matched after camelCase: %v", stale)
	}
}
