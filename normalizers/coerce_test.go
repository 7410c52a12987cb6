package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestCoerceTypes(t *testing.T) {
	runCases(t, normalizers.CoerceTypes, nil, []tcase{
		{name: "integer and boolean", fixture: "kubernetes", tool: "pods_log",
			args: `{"name":"w","tail":"50","previous":"TRUE"}`, want: `{"name":"w","tail":50,"previous":true}`},
		{name: "inexact numbers stay", fixture: "kubernetes", tool: "pods_log",
			args: `{"name":"w","tail":"050"}`, want: `{"name":"w","tail":"050"}`},
		{name: "integer-valued float for integer", fixture: "kubernetes", tool: "pods_log",
			args: `{"name":"w","tail":"2.0"}`, want: `{"name":"w","tail":2}`},
		{name: "fraction for integer stays", fixture: "kubernetes", tool: "pods_log",
			args: `{"name":"w","tail":"2.5"}`, want: `{"name":"w","tail":"2.5"}`},
		{name: "overflow stays", fixture: "kubernetes", tool: "pods_run",
			args: `{"image":"i","port":"1e400"}`, want: `{"image":"i","port":"1e400"}`},
		{name: "number for string id", fixture: "gitlab", tool: "get_project",
			args: `{"project_id":1234567}`, want: `{"project_id":"1234567"}`},
		{name: "nullable integer", fixture: "prometheus", tool: "list_metrics",
			args: `{"limit":"10"}`, want: `{"limit":10}`},
		{name: "single value to array, then items", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g","title":"t","assignee_ids":"7","labels":"bug"}`,
			want: `{"project_id":"g","title":"t","assignee_ids":[7],"labels":["bug"]}`},
		{name: "JSON object string, then its fields", fixture: "grafana", tool: "generate_deeplink",
			args: `{"resourceType":"panel","timeRange":"{\"from\":\"now-1h\",\"to\":\"now\"}","panelId":"3"}`,
			want: `{"resourceType":"panel","timeRange":{"from":"now-1h","to":"now"},"panelId":3}`},
		{name: "JSON string that is not an object stays", fixture: "grafana", tool: "generate_deeplink",
			args: `{"resourceType":"panel","timeRange":"null"}`, want: `{"resourceType":"panel","timeRange":"null"}`},
		{name: "anyOf object or string keeps the string", fixture: "notion", tool: "API-post-page",
			args: `{"parent":"{\"page_id\":\"x\"}","properties":{}}`, want: `{"parent":"{\"page_id\":\"x\"}","properties":{}}`},
		{name: "free-form map values", fixture: "jaeger", tool: "search_traces",
			args: `{"attributes":{"http.status_code":500,"ok":true}}`, want: `{"attributes":{"http.status_code":"500","ok":true}}`},
		{name: "nothing to do", fixture: "kubernetes", tool: "pods_log",
			args: `{"name":"w","tail":5}`, want: `{"name":"w","tail":5}`},
	})
	t.Run("large integers stay exact", func(t *testing.T) {
		tr := normalizers.Builtins(nil)[normalizers.CoerceTypes]
		got, err := tr(t.Context(), normalizers.Call{Schema: schemaOf(t, "kubernetes", "pods_log"),
			Args: map[string]any{"name": "w", "tail": "9007199254740993"}})
		if err != nil {
			t.Fatal(err)
		}
		if got["tail"] != int64(9007199254740993) {
			t.Errorf("tail = %#v, want int64(9007199254740993)", got["tail"])
		}
	})
}
