// Package planner is the offline model of the incident example: a
// deterministic eino model.ToolCallingChatModel, named "scripted planner
// (offline)" wherever the example prints it, that decides each step from
// what it is shown and from nothing else.
//
// It has no transcript. On every call it reads the messages (the
// instruction, the task, earlier tool calls and their results) and the tool
// list of that call (model.WithTools, else the tools bound with WithTools),
// and picks the next step. It keeps no state between calls, so one Planner
// may drive any number of agents at once.
//
// # Roles
//
// Offered a spawnSubagents tool, it acts as the orchestrator: it parses the
// "kind: servers" lines of the overview, first spawns a triage subagent on
// the alerting and paging servers, reads which cluster, namespace, service
// and Prometheus server the triage answer names, then spawns three
// subagents in one call: symptoms (that cluster + that Prometheus), changes
// (Argo CD + the read-only GitLab servers) and errors (OpenSearch +
// tracing). When they have answered it writes the incident report from
// their findings; the root cause is stated only if the findings connect a
// merged change to the crash-looping pods.
//
// Otherwise it acts as a subagent: it learns its servers from the "Your
// servers:" line of its instruction, and walks a playbook of moves. Each
// move applies only when its tool is bound and the task or an earlier
// result supplies its arguments: list the pods of the task's namespace,
// fetch the log of a pod the listing shows in CrashLoopBackOff, look up the
// Argo CD application whose destination the task names, list merged MRs of
// that application's repository on every GitLab server it has, and so on.
// When a needed tool is not bound (the changes subagent has no Kubernetes
// server, yet its task asks which revision runs), it calls searchTools,
// then loadTools with what the search found, then the tool. Its answer
// lists only facts read from successful results, and never names a fleet
// tool, since the answer goes to the orchestrator.
//
// # Deliberately sloppy calls
//
// A model that always sends perfect arguments would hide the gates the
// example exists to show. So the planner makes the mistakes real models
// make, on purpose, in three places:
//
//   - It asks Argo CD for a deploy history with application_name "" before
//     it has looked the name up. The placeholder gate REJECTS the call
//     without reaching the server; the planner then lists the applications
//     and asks again with the real name.
//   - It fetches a pod log with "pod_name" instead of "name" and
//     previous: "true" as a string. The kubernetes field_map and
//     coerceTypes REPAIR the call.
//   - It asks resources_get for kind "deployments". singularResourceType
//     REPAIRS it to "Deployment".
//
// It also reads a crashed pod's whole log instead of a tail, the way a
// model that ignores the catalog hint would; the Mux offloads the result
// and the planner reads the preview (and greps the stored result when a
// grepResult tool is offered).
//
// With tool choice "none" (the subagent's last step) it answers at once
// from what it has. IsCallbacksEnabled reports false, so eino injects model
// callbacks exactly once around it.
package planner
