// Package fleet is the simulated incident fleet behind examples/incident: real
// MCP servers, built with mcp-go, whose tools mirror the public servers of
// each kind (tool and argument names are facts; descriptions are our own) and
// whose data tells one consistent incident.
//
// One binary serves every kind: fleet/cmd/fleetserver --kind K --name N
// speaks MCP over stdio. The example can also host the servers in-process
// with [NewServer], or re-exec itself as a server with [ServeStdio].
//
// # The incident
//
// On 2026-11-30, merge request !482 in gitlab-a (platform/payments-api)
// lowers the DB pool from 50 to 10; pipeline #9911 deploys it to k8s-3 at
// 02:14Z. From 02:15Z payments-api exhausts its pool: 5xx rises to 38% and
// p99 to 4.2s on prometheus-b, opensearch-a fills with pool-exhausted stack
// traces, Jaeger shows ~29.8s db.acquire_connection spans, and the pods
// crash-loop. Alerts, a page, a ticket, a status page and a Slack thread
// follow. Every other instance (k8s-1/2/4/5, gitlab-b, prometheus-a/c,
// opensearch-b) is healthy noise. data.go holds these facts as Go values that
// every kind reads, so the servers agree with each other.
//
// # Instances
//
// An [Instance] is a kind plus a name, and the name selects the data: the
// same tool returns different answers on k8s-1 and k8s-3. Read-only
// instances expose only the tools marked read-only, as the real read-only
// servers do. Calls that match nothing answer with a plain "no results"
// text; IsError is kept for requests that are genuinely invalid (a missing
// required argument, an unknown namespace, project or trace on a get).
//
// # Tool tables
//
// Each kind's tool table (in <kind>_tools.go where it is long, else beside
// the kind) follows the public server's tool names, argument names and
// schema shapes. TestParityWithFixtures checks them against the fixtures
// beside the repository: every name exists there, and the tool count and
// o200k size are within 30%. Nothing reads the fixtures at run time.
// Handlers answer from data.go's facts; handler.go holds what they share.
package fleet
