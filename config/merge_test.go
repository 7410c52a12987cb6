package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mergeFleet() *Fleet {
	return &Fleet{
		Servers: []Server{
			{Name: "k8s-1", Kind: "kubernetes", ArgsTransformer: []string{"dropUnknown", "camelCase"},
				FieldMap: map[string]string{"pod": "podName", "ns": "namespace"}, JoinSeparator: ";"},
			{Name: "k8s-2", Kind: "kubernetes"},
			{Name: "solo", Env: map[string]string{"TOKEN": "s3cret"}, Headers: map[string]string{"Authorization": "Bearer s3cret"},
				URL: "https://user:pw@h/mcp", Args: []string{"a"}},
		},
		KindSettings: map[string]KindSettings{
			"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType"},
				FieldMap: map[string]string{"pod": "name", "podName": "name"}, JoinSeparator: ","},
		},
	}
}

func TestMergeRules(t *testing.T) {
	f := mergeFleet()
	type merged struct {
		Transformers []string
		FieldMap     map[string]string
		Separator    string
	}
	tests := []struct {
		server string
		want   merged
	}{
		{"k8s-1", merged{
			[]string{"camelCase", "singularResourceType", "dropUnknown"},
			map[string]string{"pod": "podName", "podName": "name", "ns": "namespace"},
			";"}},
		{"k8s-2", merged{
			[]string{"camelCase", "singularResourceType"},
			map[string]string{"pod": "name", "podName": "name"},
			","}},
		{"solo", merged{nil, nil, " "}},
		{"missing", merged{nil, nil, " "}},
	}
	for _, tt := range tests {
		t.Run(tt.server, func(t *testing.T) {
			got := merged{f.Transformers(tt.server), f.FieldMap(tt.server), f.Separator(tt.server)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// The merged map is fresh: changing it must not change the config.
	f.FieldMap("k8s-1")["pod"] = "changed"
	if f.Servers[0].FieldMap["pod"] != "podName" || f.KindSettings["kubernetes"].FieldMap["pod"] != "name" {
		t.Error("FieldMap returned a map shared with the fleet")
	}
}

func TestServerAndKind(t *testing.T) {
	f := mergeFleet()
	s, ok := f.Server("solo")
	if !ok || s.KindName() != "solo" {
		t.Errorf("Server(solo) = %v, %v; KindName %q, want solo", s.Name, ok, s.KindName())
	}
	if s, _ := f.Server("k8s-2"); s.KindName() != "kubernetes" {
		t.Errorf("KindName = %q, want kubernetes", s.KindName())
	}
	if _, ok := f.Server("nope"); ok {
		t.Error("Server(nope) found a server")
	}
	if diff := cmp.Diff(KindSettings{}, f.Settings("gitlab")); diff != "" {
		t.Errorf("Settings(absent) (-want +got):\n%s", diff)
	}
	if f.OffloadTokens("kubernetes") != DefaultOffloadTokens {
		t.Errorf("OffloadTokens default = %d", f.OffloadTokens("kubernetes"))
	}
}

func TestRedacted(t *testing.T) {
	f := mergeFleet()
	r := f.Redacted()
	want := mergeFleet()
	want.Servers[2].Env = map[string]string{"TOKEN": "[redacted]"}
	want.Servers[2].Headers = map[string]string{"Authorization": "[redacted]"}
	want.Servers[2].URL = "https://user:xxxxx@h/mcp"
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("Redacted (-want +got):\n%s", diff)
	}
	// A deep copy: editing it leaves the original alone.
	r.Servers[2].Args[0] = "changed"
	r.KindSettings["kubernetes"].FieldMap["pod"] = "changed"
	if diff := cmp.Diff(mergeFleet(), f); diff != "" {
		t.Errorf("original changed (-want +got):\n%s", diff)
	}
}

func TestBuiltinTransformersIsFresh(t *testing.T) {
	a := BuiltinTransformers()
	a[0] = "changed"
	if BuiltinTransformers()[0] != "camelCase" {
		t.Error("BuiltinTransformers shares its slice")
	}
}
