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

func TestJoinArrays(t *testing.T) {
	runCases(t, normalizers.JoinArrays, nil, []tcase{
		{name: "one element", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":["web-0"],"namespace":"shop"}`, want: `{"name":"web-0","namespace":"shop"}`},
		{name: "default separator", fixture: "jira", tool: "jira_search",
			args: `{"jql":"x","fields":["summary","status"]}`, want: `{"jql":"x","fields":"summary status"}`},
		{name: "custom separator", fixture: "jira", tool: "jira_search", sep: ",",
			args: `{"jql":"x","fields":["summary","status"]}`, want: `{"jql":"x","fields":"summary,status"}`},
		{name: "empty array becomes absent", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"web-0","namespace":[]}`, want: `{"name":"web-0"}`},
		{name: "arrays the schema wants stay", fixture: "kubernetes", tool: "pods_exec",
			args: `{"name":"web-0","command":["ls","-l"]}`, want: `{"name":"web-0","command":["ls","-l"]}`},
		{name: "non-string elements stay", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":["web",0]}`, want: `{"name":["web",0]}`},
		{name: "undeclared key stays", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"web-0","extra":["a"]}`, want: `{"name":"web-0","extra":["a"]}`},
		{name: "no schema: nothing", args: `{"name":["web-0"]}`, want: `{"name":["web-0"]}`},
	})
}

func TestSplitStrings(t *testing.T) {
	runCases(t, normalizers.SplitStrings, nil, []tcase{
		{name: "commas and spaces", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","labels":"bug, ui ,,backend"}`,
			want: `{"project_id":"g/a","title":"t","labels":["bug","ui","backend"]}`},
		{name: "custom separator keeps spaces", fixture: "gitlab", tool: "create_issue", sep: ";",
			args: `{"project_id":"g/a","title":"t","labels":"needs review; ui"}`,
			want: `{"project_id":"g/a","title":"t","labels":["needs review","ui"]}`},
		{name: "separators only stay a placeholder", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","labels":" , "}`, want: `{"project_id":"g/a","title":"t","labels":" , "}`},
		{name: "JSON array is left to coerceTypes", fixture: "kubernetes", tool: "pods_exec",
			args: `{"name":"w","command":"[\"ls\"]"}`, want: `{"name":"w","command":"[\"ls\"]"}`},
		{name: "array of numbers is not split", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","assignee_ids":"1,2"}`, want: `{"project_id":"g/a","title":"t","assignee_ids":"1,2"}`},
		{name: "string fields stay", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"a b"}`, want: `{"name":"a b"}`},
	})
}

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
