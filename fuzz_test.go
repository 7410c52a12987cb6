package mcpfleet_test

import (
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/testfleet"
)

// FuzzCallToolArgs feeds arbitrary bytes as arguments through the whole
// pipeline, with the built-in normalizers on. It must never panic, and a
// rejected call must never reach the server.
func FuzzCallToolArgs(f *testing.F) {
	for _, s := range []string{
		`{"name":"a"}`, `{"name":""}`, `{"name":null}`, `{"name":["a","b"]}`, `{"pod_name":"x"}`,
		`{"name":"a","tailLines":"5"}`, `{"name":"a","resource_type":"Pods"}`, `[]`, `null`, `"x"`, `{`, `{"name":{"a":[null]}}`,
		`{"name":"a","namespace":"<NONE>"}`, `{"name":"a","extra":{"deep":[[[["undefined"]]]]}}`,
	} {
		f.Add([]byte(s))
	}
	var calls atomic.Int64
	cfg := &config.Fleet{KindSettings: map[string]config.KindSettings{
		"kubernetes": {ArgsTransformer: []string{"camelCase", "singularResourceType", "coerceTypes", "joinArrays"}, FieldMap: map[string]string{"pod": "name"}},
	}}
	mx, err := mcpfleet.New(f.Context(), cfg, mcpfleet.WithHealthInterval(-1),
		mcpfleet.WithInProcess("k8s-1", "kubernetes", testfleet.NewServer("k8s-1", testfleet.Options{Calls: &calls})))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { mx.Close() })
	f.Fuzz(func(t *testing.T, args []byte) {
		before := calls.Load()
		_, err := mx.CallTool(t.Context(), "k8s-1", "pods_log", json.RawMessage(args))
		if errors.Is(err, mcpfleet.ErrRejected) && calls.Load() != before {
			t.Fatalf("rejected call reached the server: %s", args)
		}
	})
}
