package fleet

// Code below mirrors the tool names, argument names and schema shapes of
// the public server (Jaeger's built-in MCP extension); every description is our own.

func tracingTools() []toolSpec {
	return []toolSpec{
		{Name: "get_critical_path", ReadOnly: true, Desc: "Compute the critical path of a trace: the chain of spans, from the root down, that determined its end-to-end latency, with the self time each contributed.", Params: []param{
			{Name: "trace_id", Type: "string", Desc: "Trace ID as hex (16 or 32 characters)", Required: true},
		}},
		{Name: "get_service_dependencies", ReadOnly: true, Desc: "Show which services call which other services, with call counts, over a time window (the last hour by default).", Params: []param{
			{Name: "end_time", Type: "string", Desc: "Window end, RFC 3339"},
			{Name: "start_time", Type: "string", Desc: "Window start, RFC 3339"},
		}},
		{Name: "get_services", ReadOnly: true, Desc: "List the services that reported traces.", Params: []param{
			{Name: "limit", Type: "integer", Desc: "Maximum number of items to return"},
			{Name: "pattern", Type: "string", Desc: "Only names matching this regular expression"},
		}},
		{Name: "get_span_details", ReadOnly: true, Desc: "Show full details (tags, logs, timing) of selected spans of a trace.", Params: []param{
			{Name: "span_ids", Type: "array", Desc: "IDs of the spans to describe. If you do not know it, look it up with the matching list tool first.", Required: true, Nullable: true, Items: "string"},
			{Name: "trace_id", Type: "string", Desc: "Trace ID as hex (16 or 32 characters)", Required: true},
		}},
		{Name: "get_span_names", ReadOnly: true, Desc: "List the operation (span) names a service reports.", Params: []param{
			{Name: "limit", Type: "integer", Desc: "Maximum number of items to return"},
			{Name: "pattern", Type: "string", Desc: "Only names matching this regular expression"},
			{Name: "service_name", Type: "string", Desc: "Name of the service as it reports to the tracer", Required: true},
			{Name: "span_kind", Type: "string", Desc: "Only spans of this kind (server, client, producer, consumer, internal)"},
		}},
		{Name: "get_trace_errors", ReadOnly: true, Desc: "List only the spans of a trace whose status is error, with their error messages and tags, so that you do not have to read the whole trace.", Params: []param{
			{Name: "trace_id", Type: "string", Desc: "Trace ID as hex (16 or 32 characters)", Required: true},
		}},
		{Name: "get_trace_topology", ReadOnly: true, Desc: "Show the span tree of one trace: every span with its service, operation, start offset and duration, nested under its parent, down to the requested depth. Good for seeing where the time of a slow request went.", Params: []param{
			{Name: "depth", Type: "integer", Desc: "How many levels of the tree to return (0 for all)"},
			{Name: "trace_id", Type: "string", Desc: "Trace ID as hex (16 or 32 characters)", Required: true},
		}},
		{Name: "read_skill", ReadOnly: true, Desc: "Read one of the guides bundled with the server that explain how to investigate latency and errors with these tools, step by step.", Params: []param{
			{Name: "path", Type: "string", Desc: "Path of the guide to read, as listed by the server", Required: true},
		}},
		{Name: "search_traces", ReadOnly: true, Desc: "Find traces of a service by operation, attributes, duration and time window; returns a summary per trace.", Params: []param{
			{Name: "attributes", Type: "object", Desc: "Span attributes that must match, as key/value pairs"},
			{Name: "duration_max", Type: "string", Desc: "Maximum trace duration, e.g. '10s'"},
			{Name: "duration_min", Type: "string", Desc: "Minimum trace duration, e.g. '2s' or '500ms'"},
			{Name: "search_depth", Type: "integer", Desc: "How many traces to scan at most"},
			{Name: "service_name", Type: "string", Desc: "Name of the service as it reports to the tracer. Matching is case-sensitive unless the server says otherwise."},
			{Name: "span_name", Type: "string", Desc: "Only traces containing a span with this operation name"},
			{Name: "start_time_max", Type: "string", Desc: "Latest trace start time, RFC 3339 (defaults to now)"},
			{Name: "start_time_min", Type: "string", Desc: "Earliest trace start time, RFC 3339 (defaults to one hour ago)"},
			{Name: "with_errors", Type: "boolean", Desc: "Only traces that contain an error span"},
		}},
	}
}
