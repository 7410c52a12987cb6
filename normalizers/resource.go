package normalizers

import (
	"context"
	"strings"
	"unicode"
)

// isResourceField reports the only property names singularResourceType
// touches.
func isResourceField(key string) bool {
	switch key {
	case "resourceType", "resource_type", "kind", "resource":
		return true
	}
	return false
}

// kindNames maps each built-in singular (lowercase) to its Kubernetes Kind
// spelling. Plurals are derived from it in resourceTable. It is read-only:
// nothing writes to it after initialisation.
var kindNames = map[string]string{
	"pod": "Pod", "service": "Service", "deployment": "Deployment", "ingress": "Ingress",
	"networkpolicy": "NetworkPolicy", "configmap": "ConfigMap", "secret": "Secret",
	"node": "Node", "namespace": "Namespace", "replicaset": "ReplicaSet",
	"statefulset": "StatefulSet", "daemonset": "DaemonSet", "job": "Job", "cronjob": "CronJob",
	"persistentvolumeclaim": "PersistentVolumeClaim", "persistentvolume": "PersistentVolume",
	"endpoints": "Endpoints", "endpointslice": "EndpointSlice", "event": "Event",
	"serviceaccount": "ServiceAccount", "role": "Role", "rolebinding": "RoleBinding",
	"clusterrole": "ClusterRole", "clusterrolebinding": "ClusterRoleBinding",
	"horizontalpodautoscaler": "HorizontalPodAutoscaler", "storageclass": "StorageClass",
	"customresourcedefinition": "CustomResourceDefinition", "replicationcontroller": "ReplicationController",
	"poddisruptionbudget": "PodDisruptionBudget", "limitrange": "LimitRange",
	"resourcequota": "ResourceQuota", "lease": "Lease", "priorityclass": "PriorityClass",
	"ingressclass": "IngressClass", "controllerrevision": "ControllerRevision",
	"volumeattachment": "VolumeAttachment", "csidriver": "CSIDriver", "csinode": "CSINode",
	"validatingwebhookconfiguration": "ValidatingWebhookConfiguration",
	"mutatingwebhookconfiguration":   "MutatingWebhookConfiguration",
	"certificatesigningrequest":      "CertificateSigningRequest", "runtimeclass": "RuntimeClass",
	"componentstatus": "ComponentStatus",
}

// resourceTable builds the plural->singular table: the built-ins (Kubernetes
// plural rules, with "endpoints" its own plural) overlaid by extra.
func resourceTable(extra map[string]string) map[string]string {
	t := make(map[string]string, len(kindNames)+len(extra))
	for s := range kindNames {
		if s == "endpoints" {
			continue
		}
		t[plural(s)] = s
	}
	for p, s := range extra {
		t[strings.ToLower(p)] = s
	}
	return t
}

// plural follows the Kubernetes RESTMapper's English rules.
func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.ContainsRune("aeiou", rune(s[len(s)-2])):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// singularResourceType turns plural resource names into singular ones in
// schema-declared string fields named resourceType, resource_type, kind or
// resource, and nowhere else. Rules, in order:
//
//  1. If the field has an enum: a value already in it is kept; otherwise the
//     enum member equal (case-insensitively) to the value, its table
//     singular or its naive singular ("-ies"->"y", "-es", "-s") replaces it.
//     ("VirtualServices" -> "VirtualService", "services" -> "service").
//  2. Otherwise a plural in the table becomes its singular. For "kind" the
//     result is spelled as a Kubernetes Kind ("pods" -> "Pod",
//     "networkpolicies" -> "NetworkPolicy") when the value starts with a
//     capital or the field's description names a Kind such as "Pod" (as the
//     kubernetes-mcp-server's does); a known singular is re-spelled the same
//     way ("statefulset" -> "StatefulSet"). Every other field gets the
//     lowercase singular ("Pods" -> "pod").
func singularResourceType(table map[string]string) Transformer {
	singulars := map[string]bool{}
	for _, s := range table {
		singulars[strings.ToLower(s)] = true
	}
	for s := range kindNames {
		singulars[s] = true
	}
	value := func(sv schemaView, node map[string]any, key string, v any) (any, action, error) {
		s, ok := v.(string)
		if !ok || !isResourceField(key) || !sv.types(node)["string"] {
			return nil, keep, nil
		}
		out := singularize(sv, node, key, s, table, singulars)
		if out == s {
			return nil, keep, nil
		}
		return out, replace, nil
	}
	return func(ctx context.Context, call Call) (map[string]any, error) {
		return newWalker(call.Schema, nil, value).run(call.Args)
	}
}

func singularize(sv schemaView, node map[string]any, key, s string, table map[string]string, singulars map[string]bool) string {
	lower := strings.ToLower(s)
	if enum := sv.enumStrings(node); len(enum) > 0 {
		for _, e := range enum {
			if e == s {
				return s
			}
		}
		cands := []string{lower}
		if sing, ok := table[lower]; ok {
			cands = append(cands, sing)
		}
		for _, suf := range [...][2]string{{"ies", "y"}, {"es", ""}, {"s", ""}} {
			if strings.HasSuffix(lower, suf[0]) {
				cands = append(cands, strings.TrimSuffix(lower, suf[0])+suf[1])
			}
		}
		for _, c := range cands {
			for _, e := range enum {
				if strings.EqualFold(e, c) {
					return e
				}
			}
		}
		return s
	}
	sing, ok := table[lower]
	if !ok {
		if key != "kind" || !singulars[lower] {
			return s
		}
		sing = lower
	}
	if key == "kind" && kindStyle(sv.description(node), s) {
		return kindName(sing)
	}
	if !ok {
		return s
	}
	return strings.ToLower(sing)
}

// kindStyle decides whether a kind field wants "Pod" rather than "pod".
func kindStyle(desc, v string) bool {
	if v != "" && unicode.IsUpper([]rune(v)[0]) {
		return true
	}
	for _, w := range strings.FieldsFunc(desc, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if kn, ok := kindNames[strings.ToLower(w)]; ok && kn == w {
			return true
		}
	}
	return false
}

// kindName spells a singular as a Kind: the built-in spelling, else the
// caller's own spelling with its first letter upper-cased.
func kindName(sing string) string {
	if k, ok := kindNames[strings.ToLower(sing)]; ok {
		return k
	}
	r := []rune(sing)
	if len(r) == 0 {
		return sing
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
