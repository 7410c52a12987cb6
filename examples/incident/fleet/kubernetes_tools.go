package fleet

// Code below mirrors the tool names, argument names and schema shapes of
// the public server (containers/kubernetes-mcp-server); every description is our own.

func kubernetesTools() []toolSpec {
	return []toolSpec{
		{Name: "configuration_view", ReadOnly: true, Desc: "Show the kubeconfig this server uses, trimmed to the current context unless asked otherwise.", Params: []param{
			{Name: "minified", Type: "boolean", Desc: "Keep only the current context and what it refers to (default). Set to false for every context, cluster and user in the kubeconfig."},
		}},
		{Name: "events_list", ReadOnly: true, Desc: "List Kubernetes events, newest last, across all namespaces or in one: warnings such as BackOff and Unhealthy (failed probes), scheduling decisions, image pulls and kills. Filter by object with a field selector like involvedObject.name=<pod>.", Params: []param{
			{Name: "fieldSelector", Type: "string", Desc: "Field selector over events, e.g. 'type=Warning' or 'involvedObject.name=web-1'. Supported fields: involvedObject.kind, involvedObject.name, involvedObject.namespace, involvedObject.uid, involvedObject.apiVersion, involvedObject.fieldPath, reason, reportingComponent, source, type."},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
		}},
		{Name: "namespaces_list", ReadOnly: true, Desc: "List the namespaces of the cluster.", Params: []param{
			{Name: "fieldSelector", Type: "string", Desc: "Field selector over namespaces: metadata.name or status.phase, e.g. 'status.phase=Active'. Several conditions are separated by commas and must all hold."},
		}},
		{Name: "nodes_log", ReadOnly: true, Desc: "Read logs from a node through the kubelet proxy: a service such as kubelet or containerd, or a file under /var/log. Returns the last tailLines lines.", Params: []param{
			{Name: "name", Type: "string", Desc: "Name of the node", Required: true},
			{Name: "query", Type: "string", Desc: "Service name such as 'kubelet', or a file under /var/log such as '/kubelet.log'. Matching is case-sensitive unless the server says otherwise.", Required: true},
			{Name: "tailLines", Type: "integer", Desc: "How many lines from the end to return (0 for all)", Default: 100, Extra: map[string]any{"minimum": 0}},
		}},
		{Name: "nodes_stats_summary", ReadOnly: true, Desc: "Show the kubelet stats summary of one node: CPU and memory use, filesystem and image store capacity, network traffic, and the same figures per pod and container running there. Use it to check for memory or disk pressure behind evictions and OOM kills; pods_top and nodes_top give a lighter view.", Params: []param{
			{Name: "name", Type: "string", Desc: "Name of the node", Required: true},
		}},
		{Name: "nodes_top", ReadOnly: true, Desc: "Show current CPU and memory use of all nodes or one node from the metrics server, optionally only nodes matching a label selector.", Params: []param{
			{Name: "label_selector", Type: "string", Desc: "Kubernetes label selector such as 'app=web' (ignored when a name is given)"},
			{Name: "name", Type: "string", Desc: "Name of one node; all nodes when omitted. Matching is case-sensitive unless the server says otherwise."},
		}},
		{Name: "pods_delete", Destructive: true, Desc: "Delete a pod; its controller usually replaces it.", Params: []param{
			{Name: "name", Type: "string", Desc: "Name of the pod to delete", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
		}},
		{Name: "pods_exec", Destructive: true, Desc: "Run a command inside a pod container and return its output. Returns one object as JSON. Unknown identifiers produce a not-found message rather than an empty object.", Params: []param{
			{Name: "command", Type: "array", Desc: "Command and arguments, one list item each, e.g. [\"ls\", \"-l\"]. Leave it out unless you need it; the server fills sensible defaults.", Required: true, Items: "string"},
			{Name: "container", Type: "string", Desc: "Container name; the first container when omitted"},
			{Name: "name", Type: "string", Desc: "Name of the pod to run the command in", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
		}},
		{Name: "pods_get", ReadOnly: true, Desc: "Show one pod: phase, container states, restarts, image, node and conditions.", Params: []param{
			{Name: "name", Type: "string", Desc: "Name of the pod", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
		}},
		{Name: "pods_list", ReadOnly: true, Desc: "List the pods of every namespace in the cluster with their phase, readiness, restart count, age and node. A pod whose container is in CrashLoopBackOff still has phase Running; look at the ready and restart columns to spot it. Use pods_list_in_namespace when you already know the namespace.", Params: []param{
			{Name: "fieldSelector", Type: "string", Desc: "Field selector over pods, e.g. 'status.phase=Running' or 'spec.nodeName=node-1'. Supported fields: metadata.name, metadata.namespace, spec.nodeName, spec.restartPolicy, spec.schedulerName, spec.serviceAccountName, status.phase, status.podIP, status.nominatedNodeName. CrashLoopBackOff is a container state, not a phase, so select on restarts by reading the list instead."},
			{Name: "labelSelector", Type: "string", Desc: "Kubernetes label selector such as 'app=web,tier!=cache'. Several conditions are separated by commas and must all hold."},
		}},
		{Name: "pods_list_in_namespace", ReadOnly: true, Desc: "List the pods of one namespace with their phase, container state, readiness, restart count, age and node. The quickest way to see whether a workload is crash-looping (high restarts, 0/1 ready, CrashLoopBackOff) after a rollout.", Params: []param{
			{Name: "fieldSelector", Type: "string", Desc: "Field selector over pods, e.g. 'status.phase=Running' or 'spec.nodeName=node-1'. Supported fields: metadata.name, metadata.namespace, spec.nodeName, spec.restartPolicy, spec.schedulerName, spec.serviceAccountName, status.phase, status.podIP, status.nominatedNodeName. CrashLoopBackOff is a container state, not a phase."},
			{Name: "labelSelector", Type: "string", Desc: "Kubernetes label selector such as 'app=web,tier!=cache'. Several conditions are separated by commas and must all hold."},
			{Name: "namespace", Type: "string", Desc: "Namespace whose pods to list", Required: true},
		}},
		{Name: "pods_log", ReadOnly: true, Desc: "Read the log of a pod container, by default the last 100 lines.", Params: []param{
			{Name: "container", Type: "string", Desc: "Container to read; needed only for pods with several containers."},
			{Name: "name", Type: "string", Desc: "Name of the pod whose log to read", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
			{Name: "previous", Type: "boolean", Desc: "Read the log of the previous container instance, the one that crashed before the latest restart. Useful for crash-looping pods whose current instance has not logged much yet."},
			{Name: "tail", Type: "integer", Desc: "How many lines from the end of the log to return; the whole log when omitted or 0, which can be very large for busy pods.", Extra: map[string]any{"minimum": 0}},
		}},
		{Name: "pods_run", Desc: "Start a pod from a container image.", Params: []param{
			{Name: "image", Type: "string", Desc: "Container image to run", Required: true},
			{Name: "name", Type: "string", Desc: "Name for the new pod; generated when omitted"},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted"},
			{Name: "port", Type: "number", Desc: "TCP port to expose from the container. A whole number; out-of-range values are clamped by the server."},
		}},
		{Name: "pods_top", ReadOnly: true, Desc: "Show current CPU (millicores) and memory use of pods from the metrics server: all namespaces by default, one namespace, one pod by name, or pods matching a label selector. Needs metrics-server in the cluster.", Params: []param{
			{Name: "all_namespaces", Type: "boolean", Desc: "Cover pods of every namespace (default). Set to false to use the given namespace, or the configured one.", Default: true},
			{Name: "label_selector", Type: "string", Desc: "Kubernetes label selector such as 'app=web' (ignored when a name is given). Several conditions are separated by commas and must all hold."},
			{Name: "name", Type: "string", Desc: "Name of one pod; all pods when omitted. Matching is case-sensitive unless the server says otherwise."},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted. Matching is case-sensitive unless the server says otherwise."},
		}},
		{Name: "projects_list", ReadOnly: true, Desc: "List OpenShift projects you can access."},
		{Name: "resources_create_or_update", Destructive: true, Desc: "Create a Kubernetes object, or replace it if it exists, from a complete YAML or JSON manifest. Send the whole desired object (apiVersion, kind, metadata and full spec), not a patch: fields you leave out are removed. Prefer resources_scale for replica changes and read the current object with resources_get before replacing it.", Params: []param{
			{Name: "resource", Type: "string", Desc: "The full manifest of the desired object, as YAML or JSON: apiVersion, kind, metadata (name, namespace) and the complete spec. This is not a patch.", Required: true},
		}},
		{Name: "resources_delete", Destructive: true, Desc: "Delete a Kubernetes object by apiVersion, kind and name; namespaced kinds use the given namespace or the configured default. Deleting a Deployment removes its pods too; deleting a Pod usually just makes its controller start a new one. This cannot be undone.", Params: []param{
			{Name: "apiVersion", Type: "string", Desc: "API version of the object, e.g. v1 or apps/v1.", Required: true},
			{Name: "gracePeriodSeconds", Type: "integer", Desc: "Seconds to wait before the object is removed; 0 deletes at once. A whole number; out-of-range values are clamped by the server."},
			{Name: "kind", Type: "string", Desc: "Kind of the object, e.g. Pod or Deployment.", Required: true},
			{Name: "name", Type: "string", Desc: "Name of the object to delete", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted. Matching is case-sensitive unless the server says otherwise."},
		}},
		{Name: "resources_get", ReadOnly: true, Desc: "Show one Kubernetes object of any kind by apiVersion, kind and name, as YAML. For a Deployment this includes the revision annotation, container image, replica counts and rollout conditions; for a ConfigMap its data. Namespaced kinds use the given namespace or the configured default.", Params: []param{
			{Name: "apiVersion", Type: "string", Desc: "API version of the object, e.g. v1 for Pods, Services and ConfigMaps, apps/v1 for Deployments and StatefulSets, networking.k8s.io/v1 for Ingresses.", Required: true},
			{Name: "kind", Type: "string", Desc: "Kind of the object, e.g. Pod, Deployment, ReplicaSet, Service, ConfigMap, Ingress.", Required: true},
			{Name: "name", Type: "string", Desc: "Name of the object", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace of the object; ignored for cluster-scoped kinds. Matching is case-sensitive unless the server says otherwise."},
		}},
		{Name: "resources_list", ReadOnly: true, Desc: "List Kubernetes objects of one apiVersion and kind, in one namespace or across the cluster, optionally filtered by label and field selectors. Works for any built-in or custom resource, e.g. apps/v1 Deployment to see revisions and ready replicas, v1 Service, batch/v1 Job. Output is one line per object with its namespace, name and main status; ask resources_get for the full object.", Params: []param{
			{Name: "apiVersion", Type: "string", Desc: "API version of the objects, e.g. v1 for Pods, Services and ConfigMaps, apps/v1 for Deployments and StatefulSets, networking.k8s.io/v1 for Ingresses.", Required: true},
			{Name: "fieldSelector", Type: "string", Desc: "Field selector, e.g. 'metadata.name=web' or 'status.phase=Running'. Which fields work depends on the kind: every kind supports metadata.name and metadata.namespace; pods add spec.nodeName, status.phase and status.podIP; events add involvedObject.* , reason and type."},
			{Name: "kind", Type: "string", Desc: "Kind of the objects, e.g. Pod, Deployment, ReplicaSet, Service, ConfigMap, Ingress.", Required: true},
			{Name: "labelSelector", Type: "string", Desc: "Kubernetes label selector such as 'app=web,tier!=cache'. Several conditions are separated by commas and must all hold."},
			{Name: "namespace", Type: "string", Desc: "Only objects in this namespace; all namespaces when omitted. Matching is case-sensitive unless the server says otherwise."},
		}},
		{Name: "resources_scale", Destructive: true, Desc: "Read or set the replica count of a scalable object such as an apps/v1 Deployment or StatefulSet. Without scale it only reports the current value; with scale it changes it and returns the new spec.", Params: []param{
			{Name: "apiVersion", Type: "string", Desc: "API version of the object, normally apps/v1.", Required: true},
			{Name: "kind", Type: "string", Desc: "Kind of the object: Deployment or StatefulSet.", Required: true},
			{Name: "name", Type: "string", Desc: "Name of the object to scale", Required: true},
			{Name: "namespace", Type: "string", Desc: "Namespace to look in; the configured default when omitted. Matching is case-sensitive unless the server says otherwise."},
			{Name: "scale", Type: "integer", Desc: "Desired replica count; omit to only read the current scale. A whole number; out-of-range values are clamped by the server."},
		}},
	}
}
