package normalizers

import (
	"testing"
)

func TestResourceTable(t *testing.T) {
	table := resourceTable(nil)
	// A singular that is also a key would make the transformer change its
	// own output on a second run.
	for p, s := range table {
		if _, ok := table[s]; ok {
			t.Errorf("%q -> %q, and %q is itself a plural key", p, s, s)
		}
	}
	want := map[string]string{
		"pods": "pod", "ingresses": "ingress", "networkpolicies": "networkpolicy", "deployments": "deployment",
		"services": "service", "configmaps": "configmap", "secrets": "secret", "nodes": "node", "namespaces": "namespace",
		"replicasets": "replicaset", "statefulsets": "statefulset", "daemonsets": "daemonset", "jobs": "job",
		"cronjobs": "cronjob", "persistentvolumeclaims": "persistentvolumeclaim", "persistentvolumes": "persistentvolume",
		"events": "event", "serviceaccounts": "serviceaccount", "roles": "role", "rolebindings": "rolebinding",
		"clusterroles": "clusterrole", "horizontalpodautoscalers": "horizontalpodautoscaler",
		"storageclasses": "storageclass", "customresourcedefinitions": "customresourcedefinition",
	}
	for p, s := range want {
		if table[p] != s {
			t.Errorf("table[%q] = %q, want %q", p, table[p], s)
		}
	}
	if _, ok := table["endpoints"]; ok {
		t.Errorf("endpoints must stay endpoints, table has %q", table["endpoints"])
	}
}
