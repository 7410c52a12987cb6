package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestSingularResourceType(t *testing.T) {
	runCases(t, normalizers.SingularResourceType, nil, []tcase{
		{name: "kind described with Kinds", fixture: "kubernetes", tool: "resources_list",
			args: `{"apiVersion":"networking.k8s.io/v1","kind":"networkpolicies"}`,
			want: `{"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy"}`},
		{name: "known singular is re-spelled as a Kind", fixture: "kubernetes", tool: "resources_scale",
			args: `{"apiVersion":"apps/v1","kind":"statefulset","name":"db"}`,
			want: `{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db"}`},
		{name: "endpoints is its own singular", fixture: "kubernetes", tool: "resources_list",
			args: `{"apiVersion":"v1","kind":"Endpoints"}`, want: `{"apiVersion":"v1","kind":"Endpoints"}`},
		{name: "other fields are never touched", fixture: "kubernetes", tool: "resources_get",
			args: `{"apiVersion":"v1","kind":"Pod","name":"pods","namespace":"services"}`,
			want: `{"apiVersion":"v1","kind":"Pod","name":"pods","namespace":"services"}`},
		{name: "resource field gets the lowercase singular", fixture: "kubernetes", tool: "resources_create_or_update",
			args: `{"resource":"Pods"}`, want: `{"resource":"pod"}`},
		{name: "enum member", fixture: "kubernetes_optional_toolsets", tool: "kiali_get_metrics",
			args: `{"resourceType":"Workloads","namespace":"n","resourceName":"r"}`,
			want: `{"resourceType":"workload","namespace":"n","resourceName":"r"}`},
		{name: "enum without a match stays", fixture: "kubernetes_optional_toolsets", tool: "kiali_get_metrics",
			args: `{"resourceType":"pods","namespace":"n","resourceName":"r"}`,
			want: `{"resourceType":"pods","namespace":"n","resourceName":"r"}`},
		{name: "not in the table", fixture: "grafana", tool: "generate_deeplink",
			args: `{"resourceType":"dashboards"}`, want: `{"resourceType":"dashboards"}`},
		{name: "kind without Kind hints, lowercase input", schema: `{"type":"object","properties":{"kind":{"type":"string"}}}`,
			args: `{"kind":"deployments"}`, want: `{"kind":"deployment"}`},
		{name: "kind without Kind hints, capitalised input", schema: `{"type":"object","properties":{"kind":{"type":"string"}}}`,
			args: `{"kind":"Deployments"}`, want: `{"kind":"Deployment"}`},
		{name: "kind that is not a string in the schema", schema: `{"type":"object","properties":{"kind":{"type":"integer"}}}`,
			args: `{"kind":"pods"}`, want: `{"kind":"pods"}`},
		{name: "no schema: nothing", args: `{"kind":"pods"}`, want: `{"kind":"pods"}`},
	})
	runCases(t, normalizers.SingularResourceType, normalizers.WithResourceSingular(map[string]string{"Dashboards": "dashboard", "panels": "panel"}), []tcase{
		{name: "user table", fixture: "grafana", tool: "generate_deeplink",
			args: `{"resourceType":"Dashboards"}`, want: `{"resourceType":"dashboard"}`},
		{name: "user table keeps built-ins", fixture: "kubernetes", tool: "resources_list",
			args: `{"apiVersion":"v1","kind":"pods"}`, want: `{"apiVersion":"v1","kind":"Pod"}`},
	})
}
