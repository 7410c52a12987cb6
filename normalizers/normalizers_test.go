package normalizers_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

var tools toolSet

// schemaOf returns a real tool's decoded input schema from the fixtures.
func schemaOf(t *testing.T, fixture, tool string) map[string]any {
	t.Helper()
	tl, ok := tools.tool(t, fixture, tool)
	if !ok {
		t.Fatalf("fixture %s has no tool %s", fixture, tool)
	}
	return decodeSchema(t, tl.RawInputSchema)
}

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return m
}

type tcase struct {
	name          string
	fixture, tool string // real schema; both "" means no schema
	schema        string // an inline schema, only for shapes no fixture has
	sep           string
	args, want    string
	wantErr       string // exact Error() text
}

func runCases(t *testing.T, transformer string, opts *normalizers.Options, cases []tcase) {
	t.Helper()
	tr := normalizers.Builtins(opts)[transformer]
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var schema map[string]any
			switch {
			case tc.fixture != "":
				schema = schemaOf(t, tc.fixture, tc.tool)
			case tc.schema != "":
				schema = obj(t, tc.schema)
			}
			args := obj(t, tc.args)
			before := obj(t, tc.args)
			got, err := tr(t.Context(), normalizers.Call{Schema: schema, Args: args, Separator: tc.sep})
			if diff := cmp.Diff(before, args); diff != "" {
				t.Errorf("input mutated (-before +after):\n%s", diff)
			}
			if tc.wantErr != "" {
				var ne *normalizers.Error
				if !errors.As(err, &ne) || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(obj(t, tc.want), roundTrip(t, got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestChain(t *testing.T) {
	reg := normalizers.Builtins(nil)
	t.Run("unknown name", func(t *testing.T) {
		_, err := normalizers.Chain([]string{"camelCase", "singularResourceTypes"}, reg)
		var ue *normalizers.UnknownTransformerError
		if !errors.As(err, &ue) {
			t.Fatalf("err = %v, want *UnknownTransformerError", err)
		}
		if ue.Name != "singularResourceTypes" || ue.Nearest != "singularResourceType" || !slices.Equal(ue.Known, normalizers.BuiltinNames()) {
			t.Errorf("got %+v", ue)
		}
	})
	t.Run("nothing near", func(t *testing.T) {
		_, err := normalizers.Chain([]string{"xyz"}, reg)
		var ue *normalizers.UnknownTransformerError
		if !errors.As(err, &ue) || ue.Nearest != "" {
			t.Fatalf("err = %v, want no nearest name", err)
		}
	})
	t.Run("runs in order", func(t *testing.T) {
		reg := normalizers.Builtins(nil)
		var order []string
		for _, n := range []string{"a", "b"} {
			reg[n] = func(ctx context.Context, c normalizers.Call) (map[string]any, error) {
				order = append(order, n)
				out := map[string]any{}
				for k, v := range c.Args {
					out[k] = v
				}
				out[n] = len(order)
				return out, nil
			}
		}
		tr, err := normalizers.Chain([]string{"b", "a"}, reg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := tr(t.Context(), normalizers.Call{Args: map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]any{"b": 1, "a": 2}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		tr, _ := normalizers.Chain([]string{"camelCase"}, reg)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := tr(ctx, normalizers.Call{Args: map[string]any{}}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestBuiltinsAreFresh(t *testing.T) {
	a := normalizers.Builtins(nil)
	delete(a, normalizers.CamelCase)
	a["mine"] = nil
	b := normalizers.Builtins(nil)
	if _, ok := b[normalizers.CamelCase]; !ok {
		t.Error("deleting from one registry changed another")
	}
	if _, ok := b["mine"]; ok {
		t.Error("adding to one registry changed another")
	}
	want := []string{"camelCase", "coerceTypes", "dropUnknown", "joinArrays", "singularResourceType", "snakeCase", "splitStrings"}
	if diff := cmp.Diff(want, normalizers.BuiltinNames()); diff != "" {
		t.Errorf("BuiltinNames (-want +got):\n%s", diff)
	}
}
