package normalizers_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func Example() {
	// A schema shaped like the kubernetes-mcp-server's resources_list.
	var schema map[string]any
	_ = json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"apiVersion": {"type": "string"},
			"kind": {"type": "string", "description": "kind of the resources (examples of valid kind are: Pod, Service)"},
			"namespace": {"type": "string"}
		},
		"required": ["apiVersion", "kind"]
	}`), &schema)

	reg := normalizers.Builtins(nil)
	repair, err := normalizers.Chain([]string{"camelCase", "singularResourceType", "coerceTypes"}, reg)
	if err != nil {
		fmt.Println(err)
		return
	}
	args := map[string]any{"api_version": "v1", "kind": "pods", "namespace": "default"}
	out, err := repair(context.Background(), normalizers.Call{Schema: schema, Args: args})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))

	_, err = repair(context.Background(), normalizers.Call{Schema: schema,
		Args: map[string]any{"api_version": "v1", "apiVersion": "apps/v1", "kind": "Pod"}})
	fmt.Println(err)

	_, err = normalizers.Chain([]string{"camelcase"}, reg)
	fmt.Println(err)
	// Output:
	// {"apiVersion":"v1","kind":"Pod","namespace":"default"}
	// camelCase: at /api_version: both "api_version" and "apiVersion" given; send only "apiVersion"
	// normalizers: unknown transformer "camelcase" (did you mean "camelCase"?); registered: camelCase, coerceTypes, dropUnknown, joinArrays, singularResourceType, snakeCase, splitStrings
}

func ExampleApplyFieldMap() {
	// The field map runs after the transformers, so it names the camelCase
	// key that camelCase produced from the model's "resource_type".
	reg := normalizers.Builtins(nil)
	camel, _ := normalizers.Chain([]string{"camelCase"}, reg)
	args, _ := camel(context.Background(), normalizers.Call{Args: map[string]any{"resource_type": "pod"}})
	out, err := normalizers.ApplyFieldMap(args, map[string]string{"resourceType": "kind"})
	fmt.Println(out, err)
	// Output:
	// map[kind:pod] <nil>
}
