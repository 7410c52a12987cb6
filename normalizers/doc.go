// Package normalizers repairs the shape of tool-call arguments against the
// tool's JSON schema before the call is validated and sent.
//
// Models call the right tool with the wrong argument shape ("resource_type"
// for "resourceType", "5" for 5, ["a","b"] for "a b"), and real servers of
// the same software disagree among themselves. A [Transformer] takes a
// [Call] (schema plus arguments) and returns repaired arguments, or an
// [*Error] whose text tells the model what to resend. Transformers are pure:
// they never mutate the input map, never fetch anything, and never invent a
// value: every value they output comes from the input.
//
// # Registry
//
// [Builtins] returns a fresh map of the built-ins; add your own entries to
// it and compose with [Chain], which runs names in the order given. There
// is no package-level registry.
//
// # Schema rules
//
// Every built-in changes a value only when the change makes the argument fit
// the schema better. They recurse into nested objects and arrays of objects
// by following "properties", "items", "additionalProperties" (as a value
// schema), anyOf/oneOf/allOf branches and local $ref ("#/$defs/...",
// "#/definitions/..."); remote refs are never fetched and count as unknown.
// Where the schema says nothing about a location (an undeclared key), the
// value is left alone (the case transformers still rename an undeclared
// key, but do not look inside it). A schema that declares no properties at the top level
// (nil, {"type":"object"}) puts the call in schema-less mode, where only the
// case transformers act, renaming every key.
//
// # Built-ins
//
//	transformer          | what it does                                             | before -> after
//	camelCase            | snake/kebab key -> the camelCase key the schema declares | {"resource_type":"pod"} -> {"resourceType":"pod"}
//	                     | (else plain camelCase); declared keys never renamed      |
//	snakeCase            | camel/kebab key -> the snake_case key the schema declares| {"projectId":"42"} -> {"project_id":"42"}
//	                     | (else plain snake_case); declared keys never renamed     |
//	joinArrays           | array of strings -> one string (Separator, default " ")  | {"query":["up","down"]} -> {"query":"up down"}; [] -> key removed
//	splitStrings         | "a,b c" -> ["a","b","c"] where an array of strings is due| {"labels":"bug, ui"} -> {"labels":["bug","ui"]}
//	singularResourceType | plural resource name -> singular, in kind/resourceType/  | {"kind":"pods"} -> {"kind":"Pod"}; {"resourceType":"Services"} -> {"resourceType":"service"}
//	                     | resource_type/resource fields only                       |
//	coerceTypes          | exact conversions to the wanted JSON type                | {"tail":"50"} -> {"tail":50}; {"previous":"true"} -> {"previous":true};
//	                     |                                                          | {"project_id":42} -> {"project_id":"42"}; {"labels":"bug"} -> {"labels":["bug"]};
//	                     |                                                          | {"position":"{\"x\":1}"} -> {"position":{"x":1}}
//	dropUnknown          | removes undeclared keys where additionalProperties:false | {"query":"up","verbose":true} -> {"query":"up"}
//
// Two keys that mean the same parameter after renaming are an error, never a
// coin toss:
//
//	camelCase: at /resource_type: both "resource_type" and "resourceType" given; send only "resourceType"
//
// # Resource names
//
// singularResourceType knows the Kubernetes plurals (pods, ingresses,
// networkpolicies, ...; "endpoints" is its own singular) and
// [WithResourceSingular] adds more. For a field with an enum, the enum's own
// spelling wins ("virtualservices" -> "VirtualService"). For "kind" without
// an enum, the result is spelled as a Kind ("Pod", "NetworkPolicy") when the
// value starts with a capital or the field's description names a Kind, as
// kubernetes-mcp-server's "examples of valid kind are: Pod, Service, ..."
// does; otherwise, and for resourceType/resource_type/resource, it is the
// lowercase singular. Kubernetes resolves a kind case-sensitively in
// CamelCase, which is why the description decides rather than the input.
//
// # Order
//
// Chains run in the order listed. A sensible order is the case transformer
// first (so later steps find declared names), then singularResourceType,
// splitStrings and joinArrays, then coerceTypes (which would otherwise wrap
// "a,b" into ["a,b"] before splitStrings could split it), then dropUnknown.
//
// # Field maps
//
// [ApplyFieldMap] runs AFTER the transformers, so its keys are matched
// against the names the transformers produce: a model's "resource_type"
// under camelCase reaches the field map as "resourceType", and mapping it to
// a server's "kind" takes {"resourceType": "kind"}. Keys may be dotted paths
// into nested objects.
//
// # Invariants
//
// Each built-in has a fuzz target (FuzzCamelCase, ...) seeded from real tool
// schemas that checks: no panic; idempotence (running twice equals running
// once); the input map is not mutated; no value is invented.
package normalizers
