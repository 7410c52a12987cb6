package fleet

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// The argocd kind mirrors the Argo CD MCP servers (applications, their
// resource tree, events, manifests, history, sync and rollback). There is no
// fixture for it. Its data: one application per cluster; payments-api-k8s-3
// synced to 9f3c2e1 at 02:14Z and Degraded, the others Healthy on 4b1d7a0.

// argocdKind is the simulated Argo CD server.
func argocdKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bind(argocdTools(), argocdHandlers(), fallbackHandler) },
		Default: fallbackHandler("argocd", true),
	}
}

const (
	acApp = "Name of the Argo CD application, e.g. 'shop-frontend-prod', as listed by list_applications."
	acNS  = "Namespace the Application resource lives in, for apps-in-any-namespace setups; default argocd."
)

func argocdTools() []toolSpec {
	return []toolSpec{
		{Name: "list_applications", Title: "List applications", ReadOnly: true,
			Desc: "List Argo CD applications with their project, source repository and revision, destination cluster and namespace, sync status and health.",
			Params: []param{
				pStr("search", "Only applications whose name contains this text."),
				pStr("project", "Only applications of this Argo CD project."),
				pStr("cluster", "Only applications deployed to this destination cluster."),
				pInt("limit", "Largest number of applications to return.", 50),
			}},
		{Name: "get_application", Title: "Get application", ReadOnly: true,
			Desc:   "Return one application in detail: source, destination, sync status with the synced revision, health, the last sync operation and its result, and any conditions (warnings and errors).",
			Params: []param{pReq("application_name", acApp), pStr("application_namespace", acNS)}},
		{Name: "get_application_resource_tree", Title: "Get resource tree", ReadOnly: true,
			Desc:   "Return the tree of Kubernetes resources an application manages, down to ReplicaSets and Pods, with each resource's health and status message.",
			Params: []param{pReq("application_name", acApp), pStr("application_namespace", acNS)}},
		{Name: "get_application_managed_resources", Title: "Get managed resources", ReadOnly: true,
			Desc:   "List the top-level resources an application manages with their sync status (in sync or drifted from Git) and health.",
			Params: []param{pReq("application_name", acApp), pStr("kind", "Only resources of this kind, e.g. Deployment."), pStr("application_namespace", acNS)}},
		{Name: "get_application_events", Title: "Get application events", ReadOnly: true,
			Desc:   "Return the Kubernetes events of an application and its resources, newest first: syncs, rollouts, probe failures, back-offs.",
			Params: []param{pReq("application_name", acApp), pStr("resource_name", "Only events of this resource."), pStr("application_namespace", acNS)}},
		{Name: "get_application_manifests", Title: "Get application manifests", ReadOnly: true,
			Desc:   "Render the manifests Argo CD applies for an application at a revision (the synced one by default), as YAML.",
			Params: []param{pReq("application_name", acApp), pStr("revision", "Git revision to render; the synced revision when empty."), pStr("application_namespace", acNS)}},
		{Name: "list_application_history", Title: "List deployment history", ReadOnly: true,
			Desc:   "List the past deployments of an application: history id, Git revision, deploy time and who or what started it. History ids feed rollback_application.",
			Params: []param{pReq("application_name", acApp), pStr("application_namespace", acNS)}},
		{Name: "sync_application", Title: "Sync application",
			Desc: "Start a sync that applies the desired state from Git (or a given revision) to the cluster. Returns the operation that was started.",
			Params: []param{
				pReq("application_name", acApp),
				pStr("revision", "Git revision to sync to; the application's target revision when empty."),
				pBool("prune", "Delete resources that are no longer in Git."),
				pBool("dry_run", "Only report what would change."),
				pArr("resources", "string", "Sync only these resources, as group/kind/name."),
				pStr("application_namespace", acNS),
			}},
		{Name: "rollback_application", Title: "Rollback application", Destructive: true,
			Desc: "Roll an application back to an earlier deployment from its history. Auto-sync must be off, or the next sync brings the newer revision back; the fix in Git is still needed afterwards.",
			Params: []param{
				pReq("application_name", acApp),
				{Name: "id", Type: "integer", Required: true, Desc: "History id to roll back to, from list_application_history."},
				pBool("prune", "Delete resources that did not exist at that deployment."),
				pBool("dry_run", "Only report what would change."),
				pStr("application_namespace", acNS),
			}},
		{Name: "terminate_operation", Title: "Terminate operation", Destructive: true,
			Desc:   "Stop a sync operation that is still running on an application.",
			Params: []param{pReq("application_name", acApp), pStr("application_namespace", acNS)}},
	}
}

func argocdHandlers() map[string]handler {
	return map[string]handler{
		"list_applications":                 acList,
		"get_application":                   acGet,
		"get_application_resource_tree":     acTree,
		"get_application_managed_resources": acManaged,
		"get_application_events":            acEvents,
		"get_application_manifests":         acManifests,
		"list_application_history":          acHistory,
		"sync_application":                  acSync,
		"rollback_application":              acRollback,
	}
}

// acApplication is one simulated Argo CD application.
type acApplication struct {
	Name, Cluster, Revision, Health, SyncedAt string
}

func acApps() []acApplication {
	var out []acApplication
	for _, c := range clusters() {
		a := acApplication{Name: payApp + "-" + c, Cluster: c, Revision: goodCommit, Health: "Healthy", SyncedAt: tPrevDeploy}
		if c == badCluster {
			a = acApplication{Name: argoApp, Cluster: c, Revision: badCommit, Health: "Degraded", SyncedAt: tDeploy}
		}
		out = append(out, a)
	}
	return out
}

func acFind(args map[string]any) (acApplication, *mcp.CallToolResult) {
	name := strings.TrimSpace(argStr(args, "application_name"))
	if name == "" {
		return acApplication{}, errResult("application_name is required")
	}
	for _, a := range acApps() {
		if a.Name == name {
			return a, nil
		}
	}
	return acApplication{}, errResult("application %q not found; see list_applications", name)
}

func acSummary(a acApplication) map[string]any {
	return map[string]any{
		"name": a.Name, "project": "payments",
		"source":      map[string]string{"repoURL": "https://gitlab.example/" + payProject + ".git", "path": "deploy/overlays/" + a.Cluster, "targetRevision": "main"},
		"destination": map[string]string{"server": "https://" + a.Cluster + ".k8s.example:6443", "name": a.Cluster, "namespace": payNamespace},
		"sync":        map[string]string{"status": "Synced", "revision": a.Revision},
		"health":      map[string]string{"status": a.Health},
		"syncedAt":    a.SyncedAt,
	}
}

func acList(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	s, proj, cl := argStr(args, "search"), argStr(args, "project"), argStr(args, "cluster")
	var out []map[string]any
	for _, a := range acApps() {
		if (s != "" && !mentions(a.Name, s)) || (proj != "" && proj != "payments") || (cl != "" && cl != a.Cluster) {
			continue
		}
		out = append(out, acSummary(a))
	}
	if len(out) == 0 {
		return text("No applications match search=%q project=%q cluster=%q.", s, proj, cl), nil
	}
	return jsonResult(out), nil
}

func acGet(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	m := acSummary(a)
	op := map[string]any{"phase": "Succeeded", "message": "successfully synced (all tasks run)", "revision": a.Revision, "startedAt": a.SyncedAt, "initiatedBy": "automated"}
	m["operationState"] = op
	if a.Health == "Degraded" {
		m["health"] = map[string]string{"status": "Degraded", "message": "Deployment payments-api: 0/3 replicas available; pods in CrashLoopBackOff"}
		m["conditions"] = []map[string]string{{"type": "Warning", "message": "Deployment " + payApp + " exceeded its progress deadline"}}
	}
	return jsonResult(m), nil
}

func acPods(a acApplication) []pod {
	var out []pod
	for _, p := range clusterPods(a.Cluster) {
		if p.App == payApp {
			out = append(out, p)
		}
	}
	return out
}

func acTree(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	dep := map[string]any{"kind": "Deployment", "name": payApp, "namespace": payNamespace, "health": a.Health}
	nodes := []map[string]any{dep, {"kind": "ConfigMap", "name": payApp + "-db-config", "namespace": payNamespace, "health": "Healthy"},
		{"kind": "Service", "name": payApp, "namespace": payNamespace, "health": "Healthy"}}
	for _, p := range acPods(a) {
		h := map[string]any{"kind": "Pod", "name": p.Name, "namespace": p.Namespace, "health": "Healthy", "image": p.Image}
		if p.Reason != "" {
			h["health"] = "Degraded"
			h["message"] = fmt.Sprintf("%s (restarts %d)", p.Reason, p.Restarts)
		}
		nodes = append(nodes, h)
	}
	return jsonResult(map[string]any{"application": a.Name, "nodes": nodes}), nil
}

func acManaged(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	all := []map[string]string{
		{"kind": "Deployment", "name": payApp, "status": "Synced", "health": a.Health},
		{"kind": "ConfigMap", "name": payApp + "-db-config", "status": "Synced", "health": "Healthy"},
		{"kind": "Service", "name": payApp, "status": "Synced", "health": "Healthy"},
	}
	k := argStr(args, "kind")
	var out []map[string]string
	for _, r := range all {
		if k == "" || strings.EqualFold(k, r["kind"]) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return text("Application %s manages no resources of kind %q.", a.Name, k), nil
	}
	return jsonResult(out), nil
}

func acEvents(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	if a.Health != "Degraded" {
		return text("No events for %s in the last hour.", a.Name), nil
	}
	ev := []map[string]string{
		{"time": "2026-11-30T02:58:41Z", "type": "Warning", "reason": "BackOff", "object": "Pod/payments-api-7f9c6d-m2v9n", "message": "Back-off restarting failed container payments-api"},
		{"time": "2026-11-30T02:57:10Z", "type": "Warning", "reason": "Unhealthy", "object": "Pod/payments-api-7f9c6d-xk2lp", "message": "Liveness probe failed: Get \"http://10.42.4.26:8080/healthz\": context deadline exceeded"},
		{"time": "2026-11-30T02:24:00Z", "type": "Warning", "reason": "ProgressDeadlineExceeded", "object": "Deployment/payments-api", "message": "ReplicaSet payments-api-7f9c6d has timed out progressing"},
		{"time": tDeploy, "type": "Normal", "reason": "OperationCompleted", "object": "Application/" + a.Name, "message": "Sync operation to " + badCommit + " succeeded"},
		{"time": tDeploy, "type": "Normal", "reason": "ScalingReplicaSet", "object": "Deployment/payments-api", "message": "Scaled up replica set payments-api-7f9c6d to 3"},
	}
	if r := argStr(args, "resource_name"); r != "" {
		var keep []map[string]string
		for _, e := range ev {
			if mentions(e["object"], r) {
				keep = append(keep, e)
			}
		}
		if len(keep) == 0 {
			return text("No events for resource %q of %s.", r, a.Name), nil
		}
		ev = keep
	}
	return jsonResult(ev), nil
}

func acManifests(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	rev := nonEmpty(argStr(args, "revision"), a.Revision)
	pool, image := oldPoolSize, goodImage
	switch {
	case strings.HasPrefix(badCommitLong, rev):
		pool, image = newPoolSize, badImage
	case !strings.HasPrefix(goodCommitLong, rev):
		return text("Revision %q is not in the history of %s; known revisions: %s, %s.", rev, a.Name, goodCommit, badCommit), nil
	}
	return text(`# rendered at revision %s
apiVersion: v1
kind: ConfigMap
metadata:
  name: payments-api-db-config
  namespace: payments
data:
  db.yaml: |
    url: jdbc:postgresql://payments-db.payments:5432/payments
    maxPoolSize: %d
    connectionTimeoutMs: 30000
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: payments-api
  namespace: payments
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: payments-api
        image: %s
        livenessProbe:
          httpGet: {path: /healthz, port: 8080}
          timeoutSeconds: 5
`, rev, pool, image), nil
}

func acHistoryRows(a acApplication) []map[string]any {
	h := []map[string]any{
		{"id": 35, "revision": "c72e5b8", "deployedAt": "2026-11-18T10:05:00Z", "initiatedBy": "automated"},
		{"id": goodRevision, "revision": goodCommit, "deployedAt": tPrevDeploy, "initiatedBy": "automated"},
	}
	if a.Cluster == badCluster {
		h = append(h, map[string]any{"id": badRevision, "revision": badCommit, "deployedAt": tDeploy, "initiatedBy": "automated (pipeline #9911)"})
	}
	return h
}

func acHistory(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	return jsonResult(map[string]any{"application": a.Name, "history": acHistoryRows(a)}), nil
}

func acSync(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	rev := nonEmpty(argStr(args, "revision"), "main ("+a.Revision+")")
	if argBool(args, "dry_run") {
		return text("Dry run: syncing %s to %s would change nothing; the cluster already matches Git.", a.Name, rev), nil
	}
	return text("Sync of %s to %s started (operation phase Running).", a.Name, rev), nil
}

func acRollback(_ context.Context, _ Instance, args map[string]any) (*mcp.CallToolResult, error) {
	a, bad := acFind(args)
	if bad != nil {
		return bad, nil
	}
	id := argInt(args, -1, "id")
	for _, h := range acHistoryRows(a) {
		if h["id"] == id {
			verb := "started"
			if argBool(args, "dry_run") {
				verb = "would start (dry run)"
			}
			return text("Rollback of %s to history id %d (revision %s) %s. Auto-sync is disabled until re-enabled; revert the change in Git too.", a.Name, id, h["revision"], verb), nil
		}
	}
	return errResult("history id %d not found for %s; see list_application_history", id, a.Name), nil
}
