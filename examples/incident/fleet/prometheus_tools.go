package fleet

// Code below mirrors the tool names, argument names and schema shapes of
// the public server (pab1it0/prometheus-mcp-server); every description is our own.

func prometheusTools() []toolSpec {
	return []toolSpec{
		{Name: "health_check", ReadOnly: true, Desc: "Report whether the server can reach its backend."},
		{Name: "execute_query", ReadOnly: true, Desc: "Run an instant PromQL query and return the samples at one time (default now).", Params: []param{
			{Name: "query", Type: "string", Desc: "PromQL expression, e.g. 'rate(http_requests_total[5m])'", Required: true},
			{Name: "time", Type: "string", Desc: "Evaluation time, RFC 3339 or Unix seconds; now when omitted", Nullable: true},
		}},
		{Name: "execute_range_query", ReadOnly: true, Desc: "Run a PromQL query over a time range at a fixed step and return the series.", Params: []param{
			{Name: "query", Type: "string", Desc: "PromQL expression evaluated at every step", Required: true},
			{Name: "start", Type: "string", Desc: "Start of the range, RFC 3339 or Unix seconds", Required: true},
			{Name: "end", Type: "string", Desc: "End of the range, RFC 3339 or Unix seconds", Required: true},
			{Name: "step", Type: "string", Desc: "Resolution step, e.g. '30s', '1m' or seconds as a number", Required: true},
		}},
		{Name: "list_metrics", ReadOnly: true, Desc: "List the metric names Prometheus knows, with paging and a name filter.", Params: []param{
			{Name: "limit", Type: "integer", Desc: "Maximum number of items to return", Nullable: true},
			{Name: "offset", Type: "integer", Desc: "Number of items to skip", Default: 0},
			{Name: "filter_pattern", Type: "string", Desc: "Only names matching this pattern (substring or regular expression)", Nullable: true},
			{Name: "refresh_cache", Type: "boolean", Desc: "Reload the metric list from Prometheus instead of the cache", Default: false},
		}},
		{Name: "get_metric_metadata", ReadOnly: true, Desc: "Show type, help text and unit of a metric. Returns one object as JSON. Unknown identifiers produce a not-found message rather than an empty object.", Params: []param{
			{Name: "metric", Type: "string", Desc: "Metric name", Nullable: true},
			{Name: "filter_pattern", Type: "string", Desc: "Only names matching this pattern (substring or regular expression)", Nullable: true},
			{Name: "limit", Type: "integer", Desc: "Maximum number of items to return", Nullable: true},
			{Name: "offset", Type: "integer", Desc: "Number of items to skip", Default: 0},
		}},
		{Name: "get_targets", ReadOnly: true, Desc: "List scrape targets with their health, last scrape and error.", Params: []param{
			{Name: "state", Type: "string", Desc: "Only targets in this state: active, dropped or any", Default: "active"},
			{Name: "scrape_pool", Type: "string", Desc: "Only targets of this scrape pool (job)", Nullable: true},
			{Name: "limit", Type: "integer", Desc: "Maximum number of items to return", Nullable: true},
			{Name: "offset", Type: "integer", Desc: "Number of items to skip", Default: 0},
		}},
	}
}
