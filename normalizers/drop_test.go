package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestDropUnknown(t *testing.T) {
	runCases(t, normalizers.DropUnknown, nil, []tcase{
		{name: "closed schema", fixture: "prometheus", tool: "execute_query",
			args: `{"query":"up","timeout":"30s","time":"now"}`, want: `{"query":"up","time":"now"}`},
		{name: "open schema keeps everything", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"w","verbose":true}`, want: `{"name":"w","verbose":true}`},
		{name: "nested closed object", fixture: "github", tool: "issue_write",
			args: `{"method":"update","owner":"o","repo":"r","issue_fields":[{"field_name":"P","value":"1","colour":"red"}]}`,
			want: `{"method":"update","owner":"o","repo":"r","issue_fields":[{"field_name":"P","value":"1"}]}`},
		{name: "free-form map under a closed object", fixture: "jaeger", tool: "search_traces",
			args: `{"service_name":"s","attributes":{"anything":"goes"}}`, want: `{"service_name":"s","attributes":{"anything":"goes"}}`},
		{name: "no schema: nothing", args: `{"a":1}`, want: `{"a":1}`},
	})
}
