package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestCamelCase(t *testing.T) {
	runCases(t, normalizers.CamelCase, nil, []tcase{
		{name: "declared target", fixture: "kubernetes", tool: "resources_list",
			args: `{"api_version":"v1","kind":"Pod","label-selector":"app=web"}`,
			want: `{"apiVersion":"v1","kind":"Pod","labelSelector":"app=web"}`},
		{name: "declared snake key is never renamed", fixture: "kubernetes", tool: "pods_top",
			args: `{"label_selector":"app=web","all_namespaces":true}`,
			want: `{"label_selector":"app=web","all_namespaces":true}`},
		{name: "undeclared key gets the plain conversion", fixture: "kubernetes", tool: "resources_list",
			args: `{"apiVersion":"v1","resource_type":"pods"}`, want: `{"apiVersion":"v1","resourceType":"pods"}`},
		{name: "collision is an error", fixture: "kubernetes", tool: "resources_list",
			args:    `{"resource_type":"pods","resourceType":"pod","apiVersion":"v1"}`,
			wantErr: `camelCase: at /resource_type: both "resource_type" and "resourceType" given; send only "resourceType"`},
		{name: "two sources collide", fixture: "kubernetes", tool: "pods_list",
			args:    `{"label-selector":"a=1","label_selector":"a=2"}`,
			wantErr: `camelCase: at /label_selector: both "label_selector" and "label-selector" given; send only "labelSelector"`},
		{name: "nested object and free-form map", fixture: "grafana", tool: "generate_deeplink",
			args: `{"resource_type":"dashboard","time_range":{"from":"now-1h"},"query_params":{"var-env":"prod","org_id":"1"}}`,
			want: `{"resourceType":"dashboard","timeRange":{"from":"now-1h"},"queryParams":{"var-env":"prod","org_id":"1"}}`},
		{name: "array of objects", fixture: "grafana", tool: "alerting_manage_silences",
			args: `{"operation":"create","matchers":[{"name":"a","value":"b","is_regex":true},{"name":"c","value":"d","is-equal":false}]}`,
			want: `{"operation":"create","matchers":[{"name":"a","value":"b","isRegex":true},{"name":"c","value":"d","isEqual":false}]}`},
		{name: "no schema: plain rename at every depth", args: `{"a_b":{"c-d":[{"e_f":1}]},"__typename":"x","g":1}`,
			want: `{"aB":{"cD":[{"eF":1}]},"__typename":"x","g":1}`},
		{name: "schema without properties is schema-less", fixture: "gitlab_reference", tool: "create_or_update_file",
			args: `{"project_id":"g/a"}`, want: `{"projectId":"g/a"}`},
	})
}

func TestSnakeCase(t *testing.T) {
	runCases(t, normalizers.SnakeCase, nil, []tcase{
		{name: "declared target", fixture: "gitlab", tool: "get_merge_request",
			args: `{"projectId":"g/a","mergeRequestIid":"3","include-summaries":true}`,
			want: `{"project_id":"g/a","merge_request_iid":"3","include_summaries":true}`},
		{name: "declared camel key is never renamed", fixture: "kubernetes", tool: "resources_list",
			args: `{"apiVersion":"v1","kind":"Pod"}`, want: `{"apiVersion":"v1","kind":"Pod"}`},
		{name: "through anyOf and local $ref", fixture: "notion", tool: "API-move-page",
			args: `{"pageId":"59833787-2cf9-4fdf-8782-e53db20768a5","parent":{"type":"page_id","pageId":"59833787-2cf9-4fdf-8782-e53db20768a5"}}`,
			want: `{"page_id":"59833787-2cf9-4fdf-8782-e53db20768a5","parent":{"type":"page_id","page_id":"59833787-2cf9-4fdf-8782-e53db20768a5"}}`},
		{name: "collision", fixture: "gitlab", tool: "get_project",
			args:    `{"projectId":"a","project_id":"b"}`,
			wantErr: `snakeCase: at /projectId: both "projectId" and "project_id" given; send only "project_id"`},
		{name: "no schema, acronyms", args: `{"HTTPRoute":1,"podIP":2,"api-version":3}`,
			want: `{"http_route":1,"pod_ip":2,"api_version":3}`},
	})
}
