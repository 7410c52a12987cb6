// Command incident is the incident-response bot of mcpfleet, runnable
// offline in one command:
//
//	go run ./examples/incident
//
// It starts the 23 simulated MCP servers of fleet.yaml (this same binary
// re-exec'd with --kind, or in-process with --inprocess), folds them into
// kinds, and lets an orchestrator that sees only the ~135-token overview
// spawn subagents over two or three servers each. The subagents' calls go
// through mcpfleet's gates: junk arguments are repaired or rejected by code,
// large results are offloaded, tools outside a subagent's slice come in
// through loadTools. It prints a transcript, the incident report and a
// token table (full catalog, kinds view, orchestrator view, each subagent's
// slice).
//
// The model is the offline planner (package planner), named "scripted
// planner (offline)" in the output. With MCPFLEET_MODEL and OPENAI_BASE_URL
// (and OPENAI_API_KEY for a remote endpoint) set, the same bot runs on that
// OpenAI-compatible model instead.
//
// Flags:
//
//	--question "…"  investigate something else
//	--json          write the whole run (model calls, subagent reports,
//	                report, token table) as JSON instead of the transcript
//	--trace         print the run's trace as an indented tree after the
//	                report (with OTEL_EXPORTER_OTLP_ENDPOINT, also over OTLP)
//	--inprocess     host the servers in this process
//	--config FILE   another fleet file (default: the embedded fleet.yaml)
//	--timeout D     give up after D (default 2m)
//
// With --kind K --name N [--readonly] the binary is one simulated server
// speaking MCP over stdio; fleet.yaml starts it that way.
package main
