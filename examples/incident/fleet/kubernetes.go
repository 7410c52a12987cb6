package fleet

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// kubernetesKind simulates containers/kubernetes-mcp-server. Each instance
// is one cluster, named by Instance.Name (k8s-1 … k8s-5); only k8s-3 runs
// the bad revision of payments-api.
func kubernetesKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bind(kubernetesTools(), map[string]handler{
				"pods_list":              k8sPodsList,
				"pods_list_in_namespace": k8sPodsListInNamespace,
				"pods_get":               k8sPodsGet,
				"pods_log":               k8sPodsLog,
				"events_list":            k8sEventsList,
				"resources_get":          k8sResourcesGet,
				"resources_list":         k8sResourcesList,
				"namespaces_list":        k8sNamespacesList,
				"pods_top":               k8sPodsTop,
				"resources_scale":        k8sResourcesScale,
			}, k8sDefault)
		},
		Default: k8sDefault("unknown", true),
	}
}

// clusterOf maps an instance to the cluster whose data it serves. Names
// outside k8s-1…k8s-5 behave like a healthy cluster so that extra instances
// in a user's own fleet file still answer.
func clusterOf(in Instance) string {
	if clusterIndex(in.Name) >= 0 {
		return in.Name
	}
	return "k8s-1"
}

func hasNamespace(ns string) bool {
	for _, n := range namespaces() {
		if n == ns {
			return true
		}
	}
	return false
}

// matchLabels applies a simple equality label selector ("app=x,tier=y") to
// the only label the simulation tracks per pod: app.
func matchLabels(sel string, app string) bool {
	for _, term := range strings.Split(sel, ",") {
		term = strings.TrimSpace(term)
		if term == "" {
			continue
		}
		k, v, ok := strings.Cut(term, "!=")
		if ok {
			if strings.TrimSpace(k) == "app" && strings.TrimSpace(v) == app {
				return false
			}
			continue
		}
		k, v, ok = strings.Cut(strings.Replace(term, "==", "=", 1), "=")
		if !ok {
			continue // existence selectors: every simulated pod has labels
		}
		if k = strings.TrimSpace(k); k == "app" || k == "app.kubernetes.io/name" {
			if strings.TrimSpace(v) != app {
				return false
			}
		}
	}
	return true
}

// matchPodFields applies the field selectors the real server supports for
// pods, as far as the simulated data carries them.
func matchPodFields(sel string, p pod) bool {
	for _, term := range strings.Split(sel, ",") {
		neg := strings.Contains(term, "!=")
		k, v, ok := strings.Cut(strings.Replace(strings.Replace(term, "!=", "=", 1), "==", "=", 1), "=")
		if !ok {
			continue
		}
		var got string
		switch strings.TrimSpace(k) {
		case "metadata.name":
			got = p.Name
		case "metadata.namespace":
			got = p.Namespace
		case "spec.nodeName":
			got = p.Node
		case "status.phase":
			got = p.Phase
		case "status.podIP":
			got = p.IP
		default:
			continue
		}
		if (got == strings.TrimSpace(v)) == neg {
			return false
		}
	}
	return true
}

func podStatus(p pod) string {
	if p.Reason != "" {
		return p.Reason
	}
	return p.Phase
}

func podTable(ps []pod, withNS bool) string {
	var b strings.Builder
	if withNS {
		b.WriteString("NAMESPACE     ")
	}
	b.WriteString("NAME                                 READY   STATUS             RESTARTS       AGE     IP            NODE          LABELS\n")
	for _, p := range ps {
		if withNS {
			fmt.Fprintf(&b, "%-14s", p.Namespace)
		}
		restarts := fmt.Sprint(p.Restarts)
		if p.Restarts > 0 {
			restarts += " (2m ago)"
		}
		fmt.Fprintf(&b, "%-37s%-8s%-19s%-15s%-8s%-14s%-14sapp=%s\n", p.Name, p.Ready, podStatus(p), restarts, p.Age, p.IP, p.Node, p.App)
	}
	return b.String()
}

func filterPods(ps []pod, ns string, args map[string]any) []pod {
	var out []pod
	for _, p := range ps {
		if ns != "" && p.Namespace != ns {
			continue
		}
		if !matchLabels(argStr(args, "labelSelector", "label_selector"), p.App) || !matchPodFields(argStr(args, "fieldSelector"), p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func k8sPodsList(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ps := filterPods(clusterPods(clusterOf(in)), "", args)
	if len(ps) == 0 {
		return text("No pods found in cluster %s matching the given selectors.", clusterOf(in)), nil
	}
	return text("%s", podTable(ps, true)), nil
}

func k8sPodsListInNamespace(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ns := argStr(args, "namespace")
	if ns == "" {
		return errResult("namespace is required"), nil
	}
	ps := filterPods(clusterPods(clusterOf(in)), ns, args)
	if len(ps) == 0 {
		return text("No pods found in namespace %s on cluster %s.", ns, clusterOf(in)), nil
	}
	return text("%s", podTable(ps, false)), nil
}

// findPod looks a pod up by name; an empty namespace searches all of them,
// as the real server falls back to the configured namespace.
func findPod(in Instance, name, ns string) (pod, *mcp.CallToolResult) {
	if name == "" {
		return pod{}, errResult("name is required")
	}
	if ns != "" && !hasNamespace(ns) {
		return pod{}, errResult("namespaces %q not found on cluster %s", ns, clusterOf(in))
	}
	for _, p := range clusterPods(clusterOf(in)) {
		if p.Name == name && (ns == "" || p.Namespace == ns) {
			return p, nil
		}
	}
	where := ns
	if where == "" {
		where = "any namespace"
	}
	return pod{}, errResult("pods %q not found in %s on cluster %s", name, where, clusterOf(in))
}

func k8sPodsGet(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, bad := findPod(in, argStr(args, "name"), argStr(args, "namespace"))
	if bad != nil {
		return bad, nil
	}
	return text("%s", podYAML(clusterOf(in), p)), nil
}

func podYAML(cluster string, p pod) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app: %s\n", p.Name, p.Namespace, p.App)
	if p.Revision > 0 {
		fmt.Fprintf(&b, "  annotations:\n    deployment.kubernetes.io/revision: \"%d\"\n", p.Revision)
	}
	fmt.Fprintf(&b, "spec:\n  nodeName: %s\n  containers:\n  - name: %s\n    image: %s\n", p.Node, p.App, p.Image)
	if p.App == payApp {
		b.WriteString("    livenessProbe:\n      httpGet: {path: /actuator/health/liveness, port: 8080}\n      periodSeconds: 10\n      timeoutSeconds: 5\n      failureThreshold: 3\n")
		b.WriteString("    resources:\n      requests: {cpu: 500m, memory: 1Gi}\n      limits: {memory: 1536Mi}\n")
	}
	fmt.Fprintf(&b, "status:\n  phase: %s\n  podIP: %s\n  conditions:\n", p.Phase, p.IP)
	ready := "True"
	if p.Ready != "1/1" {
		ready = "False"
	}
	fmt.Fprintf(&b, "  - type: Ready\n    status: \"%s\"\n  - type: ContainersReady\n    status: \"%s\"\n", ready, ready)
	fmt.Fprintf(&b, "  containerStatuses:\n  - name: %s\n    image: %s\n    ready: %v\n    restartCount: %d\n", p.App, p.Image, ready == "True", p.Restarts)
	if p.Reason == "CrashLoopBackOff" {
		fmt.Fprintf(&b, "    state:\n      waiting:\n        reason: CrashLoopBackOff\n        message: back-off 5m0s restarting failed container=%s pod=%s_%s\n", p.App, p.Name, p.Namespace)
		b.WriteString("    lastState:\n      terminated:\n        reason: Error\n        exitCode: 1\n        startedAt: \"2026-11-30T02:58:41Z\"\n        finishedAt: \"2026-11-30T03:00:19Z\"\n")
	} else {
		b.WriteString("    state:\n      running:\n        startedAt: \"" + tPrevDeploy + "\"\n")
	}
	fmt.Fprintf(&b, "# cluster: %s\n", cluster)
	return b.String()
}

func k8sPodsLog(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p, bad := findPod(in, argStr(args, "name"), argStr(args, "namespace"))
	if bad != nil {
		return bad, nil
	}
	if c := argStr(args, "container"); c != "" && c != p.App {
		return errResult("container %s is not valid for pod %s (the only container is %s)", c, p.Name, p.App), nil
	}
	lines := podLog(p, argBool(args, "previous"))
	if tail := argInt(args, 0, "tail"); tail > 0 && tail < len(lines) {
		lines = lines[len(lines)-tail:]
	}
	return mcp.NewToolResultText(strings.Join(lines, "\n") + "\n"), nil
}

// event is one Kubernetes event.
type event struct {
	Namespace, Type, Reason, Object, Message, LastSeen string
	Count                                              int
}

func clusterEvents(cluster string) []event {
	var evs []event
	if cluster == badCluster {
		evs = append(evs,
			event{payNamespace, "Normal", "ScalingReplicaSet", "Deployment/payments-api", "Scaled up replica set payments-api-7f9c6d to 3 (revision 37, image " + badImage + ")", tDeploy, 1},
			event{payNamespace, "Normal", "ScalingReplicaSet", "Deployment/payments-api", "Scaled down replica set payments-api-6d8e2a to 0", "2026-11-30T02:14:40Z", 1},
		)
		for _, p := range clusterPods(cluster) {
			if p.Reason != "CrashLoopBackOff" {
				continue
			}
			o := "Pod/" + p.Name
			evs = append(evs,
				event{payNamespace, "Normal", "Pulled", o, "Container image \"" + badImage + "\" already present on machine", "2026-11-30T02:58:41Z", p.Restarts},
				event{payNamespace, "Warning", "Unhealthy", o, "Liveness probe failed: HTTP probe failed with statuscode: 503", "2026-11-30T03:00:02Z", p.Restarts * 3},
				event{payNamespace, "Normal", "Killing", o, "Container payments-api failed liveness probe, will be restarted", "2026-11-30T03:00:18Z", p.Restarts},
				event{payNamespace, "Warning", "BackOff", o, "Back-off restarting failed container payments-api in pod " + p.Name + "_payments", "2026-11-30T03:04:30Z", p.Restarts*4 + 7},
			)
		}
	}
	evs = append(evs,
		event{"checkout", "Normal", "SuccessfulCreate", "Job/checkout-report-29411", "Created pod: checkout-report-29411-" + cluster[len(cluster)-1:] + "x7qz", "2026-11-30T02:00:03Z", 1},
		event{"kube-system", "Normal", "LeaderElection", "Lease/kube-scheduler", cluster + "-node-1 became leader", "2026-11-29T22:41:10Z", 1},
		event{"monitoring", "Warning", "FailedScheduling", "Pod/loki-canary-tmp", "0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector.", "2026-11-30T01:12:55Z", 2},
	)
	return evs
}

func k8sEventsList(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ns, sel := argStr(args, "namespace"), argStr(args, "fieldSelector")
	var b strings.Builder
	n := 0
	for _, e := range clusterEvents(clusterOf(in)) {
		if ns != "" && e.Namespace != ns || !matchEventFields(sel, e) {
			continue
		}
		n++
		fmt.Fprintf(&b, "- namespace: %s\n  type: %s\n  reason: %s\n  involvedObject: %s\n  count: %d\n  lastTimestamp: %q\n  message: %s\n", e.Namespace, e.Type, e.Reason, e.Object, e.Count, e.LastSeen, e.Message)
	}
	if n == 0 {
		where := "all namespaces"
		if ns != "" {
			where = "namespace " + ns
		}
		return text("No events found in %s on cluster %s matching %q.", where, clusterOf(in), sel), nil
	}
	return text("# The following events (YAML format) were found on cluster %s:\n%s", clusterOf(in), b.String()), nil
}

func matchEventFields(sel string, e event) bool {
	for _, term := range strings.Split(sel, ",") {
		neg := strings.Contains(term, "!=")
		k, v, ok := strings.Cut(strings.Replace(strings.Replace(term, "!=", "=", 1), "==", "=", 1), "=")
		if !ok {
			continue
		}
		var got string
		kind, name, _ := strings.Cut(e.Object, "/")
		switch strings.TrimSpace(k) {
		case "type":
			got = e.Type
		case "reason":
			got = e.Reason
		case "involvedObject.name":
			got = name
		case "involvedObject.kind":
			got = kind
		case "involvedObject.namespace", "metadata.namespace":
			got = e.Namespace
		default:
			continue
		}
		if (got == strings.TrimSpace(v)) == neg {
			return false
		}
	}
	return true
}

func k8sNamespacesList(_ context.Context, in Instance, _ map[string]any) (*mcp.CallToolResult, error) {
	var b strings.Builder
	b.WriteString("NAME          STATUS   AGE\n")
	for _, n := range namespaces() {
		fmt.Fprintf(&b, "%-14sActive   412d\n", n)
	}
	return text("%s", b.String()), nil
}

func k8sPodsTop(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	ns := argStr(args, "namespace")
	if all, ok := args["all_namespaces"].(bool); ok && all || ns == "" {
		ns = ""
	}
	name := argStr(args, "name")
	var b strings.Builder
	b.WriteString("NAMESPACE     POD                                  CPU(cores)   MEMORY(bytes)\n")
	n := 0
	for i, p := range clusterPods(clusterOf(in)) {
		if ns != "" && p.Namespace != ns || name != "" && p.Name != name || !matchLabels(argStr(args, "label_selector"), p.App) {
			continue
		}
		cpu, mem := 40+i*17, 180+i*45
		if p.Reason == "CrashLoopBackOff" {
			cpu, mem = 910+i*30, 1210+i*20 // busy-waiting on the pool before the probe kills it
		}
		n++
		fmt.Fprintf(&b, "%-14s%-37s%-13s%dMi\n", p.Namespace, p.Name, fmt.Sprintf("%dm", cpu), mem)
	}
	if n == 0 {
		return text("No pod metrics found on cluster %s for the given filter.", clusterOf(in)), nil
	}
	return text("%s", b.String()), nil
}

// normKind accepts the usual spellings of a kind.
func normKind(k string) string {
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "deployment", "deployments", "deploy":
		return "Deployment"
	case "pod", "pods", "po":
		return "Pod"
	case "replicaset", "replicasets", "rs":
		return "ReplicaSet"
	case "namespace", "namespaces", "ns":
		return "Namespace"
	case "event", "events", "ev":
		return "Event"
	case "service", "services", "svc":
		return "Service"
	case "configmap", "configmaps", "cm":
		return "ConfigMap"
	case "node", "nodes", "no":
		return "Node"
	}
	return k
}

func deploymentYAML(cluster string, d deployment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  namespace: %s\n  annotations:\n    deployment.kubernetes.io/revision: \"%d\"\n", d.Name, d.Namespace, d.Revision)
	if d.Name == payApp {
		commit := goodCommit
		if d.Revision == badRevision {
			commit = badCommit
			fmt.Fprintf(&b, "    deploy.gitlab/pipeline: \"%d\"\n    deploy.gitlab/merge-request: \"!%d\"\n", pipelineID, badMR)
		}
		fmt.Fprintf(&b, "    deploy.gitlab/commit: %s\n    deploy.gitlab/project: %s\n", commit, payProject)
	}
	fmt.Fprintf(&b, "spec:\n  replicas: %d\n  selector:\n    matchLabels: {app: %s}\n  template:\n    spec:\n      containers:\n      - name: %s\n        image: %s\n", d.Replicas, d.Name, d.Name, d.Image)
	fmt.Fprintf(&b, "status:\n  observedGeneration: %d\n  replicas: %d\n  updatedReplicas: %d\n  readyReplicas: %d\n  availableReplicas: %d\n", d.Revision+4, d.Replicas, d.Replicas, d.Ready, d.Ready)
	if d.Available {
		fmt.Fprintf(&b, "  conditions:\n  - type: Available\n    status: \"True\"\n  - type: Progressing\n    status: \"True\"\n    reason: NewReplicaSetAvailable\n    lastUpdateTime: %q\n", d.Updated)
	} else {
		fmt.Fprintf(&b, "  unavailableReplicas: %d\n  conditions:\n  - type: Available\n    status: \"False\"\n    reason: MinimumReplicasUnavailable\n    message: Deployment does not have minimum availability.\n  - type: Progressing\n    status: \"False\"\n    reason: ProgressDeadlineExceeded\n    message: ReplicaSet \"payments-api-7f9c6d\" has timed out progressing.\n    lastUpdateTime: \"2026-11-30T02:24:00Z\"\n", d.Replicas-d.Ready)
	}
	fmt.Fprintf(&b, "# cluster: %s\n", cluster)
	return b.String()
}

func k8sResourcesGet(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	kind, name, ns := normKind(argStr(args, "kind")), argStr(args, "name"), argStr(args, "namespace")
	if kind == "" || name == "" {
		return errResult("kind and name are required (apiVersion too, e.g. apps/v1 Deployment)"), nil
	}
	cluster := clusterOf(in)
	if ns != "" && !hasNamespace(ns) && kind != "Namespace" && kind != "Node" {
		return errResult("namespaces %q not found on cluster %s", ns, cluster), nil
	}
	switch kind {
	case "Pod":
		return k8sPodsGet(context.Background(), in, args)
	case "Deployment":
		for _, d := range clusterDeployments(cluster) {
			if d.Name == name && (ns == "" || d.Namespace == ns) {
				return text("%s", deploymentYAML(cluster, d)), nil
			}
		}
	case "Namespace":
		if hasNamespace(name) {
			return text("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\nstatus:\n  phase: Active\n", name), nil
		}
	case "Service":
		for _, d := range clusterDeployments(cluster) {
			if d.Name == name && (ns == "" || d.Namespace == ns) {
				return text("apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  type: ClusterIP\n  selector: {app: %s}\n  ports:\n  - port: 80\n    targetPort: 8080\n", d.Name, d.Namespace, d.Name), nil
			}
		}
	case "ReplicaSet":
		for _, rs := range replicaSets(cluster) {
			if rs.Name == name && (ns == "" || rs.Namespace == ns) {
				return text("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: %s\n  namespace: %s\n  annotations:\n    deployment.kubernetes.io/revision: \"%d\"\nspec:\n  replicas: %d\n  template:\n    spec:\n      containers:\n      - name: payments-api\n        image: %s\nstatus:\n  readyReplicas: %d\n", rs.Name, rs.Namespace, rs.Revision, rs.Replicas, rs.Image, rs.Ready), nil
			}
		}
	}
	where := ns
	if where == "" {
		where = "the default namespace"
	}
	return errResult("%s %q not found in %s on cluster %s", kind, name, where, cluster), nil
}

func replicaSets(cluster string) []deployment {
	if cluster == badCluster {
		return []deployment{
			{Name: "payments-api-7f9c6d", Namespace: payNamespace, Image: badImage, Revision: badRevision, Replicas: 3, Ready: 0},
			{Name: "payments-api-6d8e2a", Namespace: payNamespace, Image: goodImage, Revision: goodRevision, Replicas: 0, Ready: 0},
		}
	}
	hash := []string{"5d8b4c", "6a2e91", "", "58c7f2", "7b03d4"}[clusterIndex(cluster)]
	return []deployment{{Name: "payments-api-" + hash, Namespace: payNamespace, Image: goodImage, Revision: goodRevision, Replicas: 3, Ready: 3}}
}

func k8sResourcesList(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	kind, ns := normKind(argStr(args, "kind")), argStr(args, "namespace")
	if kind == "" {
		return errResult("kind is required (apiVersion too, e.g. apps/v1 Deployment)"), nil
	}
	cluster := clusterOf(in)
	var b strings.Builder
	n := 0
	switch kind {
	case "Pod":
		ps := filterPods(clusterPods(cluster), ns, args)
		if len(ps) == 0 {
			break
		}
		return text("%s", podTable(ps, true)), nil
	case "Deployment":
		b.WriteString("NAMESPACE     NAME              READY   UP-TO-DATE   AVAILABLE   REVISION   IMAGE\n")
		for _, d := range clusterDeployments(cluster) {
			if ns != "" && d.Namespace != ns || !matchLabels(argStr(args, "labelSelector"), d.Name) {
				continue
			}
			n++
			avail := d.Ready
			fmt.Fprintf(&b, "%-14s%-18s%d/%-6d%-13d%-12d%-11d%s\n", d.Namespace, d.Name, d.Ready, d.Replicas, d.Replicas, avail, d.Revision, d.Image)
		}
	case "ReplicaSet":
		b.WriteString("NAMESPACE     NAME                   DESIRED   READY   REVISION   IMAGE\n")
		for _, rs := range replicaSets(cluster) {
			if ns != "" && rs.Namespace != ns {
				continue
			}
			n++
			fmt.Fprintf(&b, "%-14s%-23s%-10d%-8d%-11d%s\n", rs.Namespace, rs.Name, rs.Replicas, rs.Ready, rs.Revision, rs.Image)
		}
	case "Namespace":
		return k8sNamespacesList(context.Background(), in, args)
	case "Event":
		return k8sEventsList(context.Background(), in, args)
	case "Service":
		b.WriteString("NAMESPACE     NAME              TYPE        PORT(S)\n")
		for _, d := range clusterDeployments(cluster) {
			if ns == "" || d.Namespace == ns {
				n++
				fmt.Fprintf(&b, "%-14s%-18sClusterIP   80/TCP\n", d.Namespace, d.Name)
			}
		}
	case "Node":
		b.WriteString("NAME          STATUS   ROLES    VERSION\n")
		for i := 1; i <= 4; i++ {
			n++
			fmt.Fprintf(&b, "%s-node-%d  Ready    worker   v1.31.4\n", cluster, i)
		}
	}
	if n == 0 {
		where := "any namespace"
		if ns != "" {
			where = "namespace " + ns
		}
		return text("No %s resources found in %s on cluster %s.", kind, where, cluster), nil
	}
	return text("%s", b.String()), nil
}

func k8sResourcesScale(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	kind, name, ns := normKind(argStr(args, "kind")), argStr(args, "name"), argStr(args, "namespace")
	for _, d := range clusterDeployments(clusterOf(in)) {
		if kind == "Deployment" && d.Name == name && (ns == "" || d.Namespace == ns) {
			if _, set := args["scale"]; set {
				return text("deployment.apps/%s scaled to %d replicas in namespace %s on cluster %s", name, argInt(args, d.Replicas, "scale"), d.Namespace, clusterOf(in)), nil
			}
			return text("apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  replicas: %d\nstatus:\n  replicas: %d\n", name, d.Namespace, d.Replicas, d.Replicas), nil
		}
	}
	return errResult("%s %q not found in namespace %q on cluster %s", kind, name, ns, clusterOf(in)), nil
}

// k8sDefault answers the remaining tools: configuration, nodes and the
// write tools, which acknowledge without changing the simulated state.
func k8sDefault(tool string, _ bool) handler {
	return func(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		cluster := clusterOf(in)
		name, ns := argStr(args, "name"), argStr(args, "namespace")
		if ns == "" {
			ns = "default"
		}
		switch tool {
		case "configuration_view":
			return text("apiVersion: v1\nkind: Config\ncurrent-context: %s\ncontexts:\n- name: %s\n  context: {cluster: %s, namespace: default, user: sre-bot}\nclusters:\n- name: %s\n  cluster: {server: https://%s.api.example:6443}\n", cluster, cluster, cluster, cluster, cluster), nil
		case "nodes_top":
			var b strings.Builder
			b.WriteString("NAME          CPU(cores)   CPU%   MEMORY(bytes)   MEMORY%\n")
			for i := 1; i <= 4; i++ {
				busy := 0
				if cluster == badCluster && i <= 3 {
					busy = 25
				}
				fmt.Fprintf(&b, "%s-node-%d  %dm        %d%%    %dMi          %d%%\n", cluster, i, 900+i*130+busy*40, 22+i*3+busy, 6100+i*410, 38+i*2)
			}
			return text("%s", b.String()), nil
		case "nodes_stats_summary", "nodes_log":
			if !strings.HasPrefix(name, cluster+"-node-") {
				return errResult("nodes %q not found on cluster %s (nodes are %s-node-1 … %s-node-4)", name, cluster, cluster, cluster), nil
			}
			if tool == "nodes_log" {
				return text("Nov 30 02:50:11 %s kubelet[1123]: I1130 running pod sandbox sync\nNov 30 02:55:11 %s kubelet[1123]: I1130 image garbage collection: nothing to free\n", name, name), nil
			}
			return jsonResult(map[string]any{"node": map[string]any{"nodeName": name, "cpu": map[string]any{"usageNanoCores": 1310000000}, "memory": map[string]any{"workingSetBytes": 6861000000, "availableBytes": 9870000000}, "fs": map[string]any{"usedBytes": 48100000000, "capacityBytes": 107000000000}}}), nil
		case "projects_list":
			return text("No OpenShift projects: cluster %s is plain Kubernetes; use namespaces_list.", cluster), nil
		case "pods_delete":
			if _, bad := findPod(in, name, argStr(args, "namespace")); bad != nil {
				return bad, nil
			}
			return text("Pod %s/%s deleted on cluster %s; its ReplicaSet will create a replacement.", ns, name, cluster), nil
		case "pods_exec":
			if _, bad := findPod(in, name, argStr(args, "namespace")); bad != nil {
				return bad, nil
			}
			return text("error: container is not running (CrashLoopBackOff or restarting); cannot exec into %s", name), nil
		case "pods_run":
			if name == "" {
				name = "run-" + strings.ReplaceAll(cluster, "-", "")
			}
			return text("Pod %s/%s created on cluster %s with image %s.", ns, name, cluster, argStr(args, "image")), nil
		case "resources_create_or_update":
			r := argStr(args, "resource")
			if strings.TrimSpace(r) == "" {
				return errResult("resource is required: the full YAML or JSON manifest"), nil
			}
			return text("Applied manifest on cluster %s (%d bytes). The simulation records the request but does not change its data.", cluster, len(r)), nil
		case "resources_delete":
			return text("%s %s/%s deleted on cluster %s.", normKind(argStr(args, "kind")), ns, name, cluster), nil
		}
		return text("%s on cluster %s: nothing to report.", tool, cluster), nil
	}
}
