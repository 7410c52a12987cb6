package fleet

// The grafana kind mirrors grafana/mcp-grafana: dashboards, datasources,
// Prometheus and Loki queries, annotations, alerting, OnCall, Incident, Sift,
// Pyroscope and snapshots, with the same tool and argument names and our own
// descriptions. Its data: dashboard payments-overview with the 02:15Z jump and
// the "deploy 9f3c2e1" annotation. The second tool table and the handlers
// sit in grafana2.go.

// grafanaKind is the simulated Grafana server.
func grafanaKind() kindSpec {
	return kindSpec{
		Tools:   func() []toolSpec { return bindTools(append(grafanaTools1(), grafanaTools2()...), grafanaHandlers()) },
		Default: fallbackHandler("grafana", true),
	}
}

const (
	gDSUID    = "UID of the datasource to query, e.g. 'P1809F7CD0C75ACF3' or a short provisioned uid like 'prometheus'. Use list_datasources (filtered by type) to find it; datasource names are not accepted here."
	gStart    = "Start of the time range, either RFC 3339 such as 2026-01-01T10:00:00Z or relative to the current time such as now-1h or now-30m. Defaults to one hour before the end."
	gEnd      = "End of the time range, either RFC 3339 such as 2026-01-01T11:00:00Z or relative such as now or now-5m. Defaults to now."
	gDashUID  = "UID of the dashboard: the short id that follows /d/ in its URL (for https://grafana/d/abc123/my-dash it is abc123). search_dashboards returns it for every hit."
	gProject  = "Project name, only for Google Cloud Monitoring datasources that need it; leave empty otherwise."
	gLokiExpr = "LogQL query: a stream selector in braces, e.g. {app=\"api\", env=\"prod\"}, optionally followed by line filters (|= \"error\"), parsers (| json) and label filters."
	gPyroDS   = "UID of the Pyroscope datasource holding the profiles; list_datasources with type grafana-pyroscope-datasource finds it."
	gPyroM    = "Prometheus-style label selector for the profiles, e.g. {service_name=\"checkout\", namespace=\"shop\"}. Empty matches every series, which can be slow on large datasets."
	gMatchers = "Series selectors that restrict which series are considered, each a list of label filters with name, value and operator (=, !=, =~, !~)."
	gPage     = "Page number of the results, starting at 1."
	gTimeObj  = "Time range with 'from' and 'to', each absolute or relative like now-6h."
)

func grafanaMatchers() param {
	return param{Name: "matches", Type: "array", Items: "object", Desc: gMatchers, Props: []param{
		{Name: "filters", Type: "array", Items: "object", Desc: "Label filters that must all hold.", Props: []param{
			pStr("name", "Label name."), pStr("value", "Label value or regular expression."), pEnum("type", "Comparison operator.", "=", "!=", "=~", "!~"),
		}},
	}}
}

func grafanaTimeRange() param {
	return param{Name: "timeRange", Type: "object", Desc: gTimeObj, Props: []param{
		pStr("from", "Start, e.g. now-1h or an RFC 3339 time."), pStr("to", "End, e.g. now."),
	}}
}

func grafanaTools1() []toolSpec {
	return []toolSpec{
		// Dashboards and folders.
		{Name: "search_dashboards", Title: "Search dashboards", ReadOnly: true,
			Desc: "Find dashboards whose title matches a query. Returns uid, title, folder, tags and URL for each hit; the uid is what every other dashboard tool needs. Results are sorted by title and paged. Folders are not included; see search_folders.",
			Params: []param{
				pStr("query", "Text to look for in dashboard titles. Empty lists every dashboard."),
				pInt("limit", "Largest number of dashboards to return.", 50),
				pInt("page", gPage, 1),
			}},
		{Name: "search_folders", Title: "Search folders", ReadOnly: true,
			Desc:   "Find dashboard folders whose title matches a query, returning their uids and titles, for use as folderUid when saving dashboards or alert rules. Nested folders are returned with their parent uid.",
			Params: []param{pStr("query", "Text to look for in folder titles.")}},
		{Name: "get_dashboard_by_uid", Title: "Get dashboard", ReadOnly: true,
			Desc:   "Return the complete JSON model of a dashboard: panels, queries, variables, layout and settings. Large dashboards produce very long answers; to save context prefer get_dashboard_summary for an overview, get_dashboard_property for one part, or get_dashboard_panel_queries for the queries only. Use this when you need to edit the whole dashboard. The answer includes the dashboard's version and folder, which update_dashboard needs to avoid overwriting someone else's change.",
			Params: []param{pReq("uid", gDashUID)}},
		{Name: "get_dashboard_summary", Title: "Get dashboard summary", ReadOnly: true,
			Desc:   "Give a compact overview of a dashboard without its full JSON: title, tags, time settings, variables and each panel's id, title, type and query count. The cheapest way to understand what a dashboard shows.",
			Params: []param{pReq("uid", gDashUID)}},
		{Name: "get_dashboard_property", Title: "Get dashboard property", ReadOnly: true,
			Desc: "Extract part of a dashboard's JSON with a JSONPath expression, so that only the piece you need enters the context. Examples: '$.title', '$.panels[*].title', '$.panels[0].targets', '$.templating.list[*].name', '$.panels[?(@.type==\"timeseries\")].title'. Returns the matching values as JSON.",
			Params: []param{
				pReq("uid", gDashUID),
				pReq("jsonPath", "JSONPath expression to evaluate against the dashboard model, starting at $."),
			}},
		{Name: "get_dashboard_panel_queries", Title: "Get panel queries", ReadOnly: true,
			Desc: "List the queries behind a dashboard's panels: panel title, the query expression (PromQL, LogQL, ...), and its datasource uid and type. Template variables such as $cluster are substituted with their current values, or with the values you pass. Give panelId for one panel; leave it out for all of them. The result can be fed straight into query_prometheus or query_loki_logs.",
			Params: []param{
				pReq("uid", gDashUID),
				{Name: "panelId", Type: "integer", Desc: "Id of one panel; omit to list the queries of every panel."},
				pObj("variables", "Values to substitute for template variables, e.g. {\"cluster\": \"prod-1\"}; unset ones keep the dashboard's current values."),
			}},
		{Name: "update_dashboard", Title: "Update dashboard", Destructive: true,
			Desc: "Create or change a dashboard. Either send a complete dashboard JSON model, or patch an existing dashboard by uid with a list of operations that set, add or remove values at JSONPath locations; patching is much cheaper and safer for small edits such as changing one panel's query or title. A commit message can be recorded in the version history. Saving over a newer version fails unless overwrite is set. Patch paths follow the same JSONPath syntax as get_dashboard_property, with array indexes for panels (e.g. $.panels[3].targets[0].expr) and an append form for adding items (e.g. $.panels/-). To add a panel, read the layout first so the new gridPos does not overlap existing ones. Panels inside collapsed rows live under that row's panels list. The result reports the new version number and URL.",
			Params: []param{
				pObj("dashboard", "Complete dashboard JSON model, for creating a dashboard or replacing one outright."),
				pStr("uid", "UID of an existing dashboard to patch with operations."),
				{Name: "operations", Type: "array", Items: "object", Desc: "Patch operations applied in order to the dashboard named by uid.", Props: []param{
					pEnum("op", "What to do at the path.", "replace", "add", "remove"),
					pStr("path", "JSONPath of the value to change, e.g. $.panels[0].title."),
					{Name: "value", Type: "string", Desc: "New value, as JSON when it is not a plain string."},
				}},
				pStr("folderUid", "UID of the folder to save the dashboard in."),
				pStr("message", "Commit message stored in the dashboard's version history."),
				pBool("overwrite", "Save even if the dashboard changed since it was read."),
				{Name: "userId", Type: "integer", Desc: "Id of the user the change is attributed to."},
			}},
		{Name: "create_folder", Title: "Create folder",
			Desc: "Create a dashboard folder, optionally nested in a parent folder. Returns its uid and URL. Fails when the uid is already taken.",
			Params: []param{
				pReq("title", "Title of the new folder."),
				pStr("uid", "UID to give the folder; generated when empty."),
				pStr("parentUid", "UID of the parent folder, for nested folders."),
			}},
		// Datasources.
		{Name: "list_datasources", Title: "List datasources", ReadOnly: true,
			Desc: "List the configured datasources with uid, name, type (prometheus, loki, tempo, ...) and whether each is the default. Filter by type or name to find the uid a query tool needs. Secrets are never included.",
			Params: []param{
				pStr("type", "Only datasources of this plugin type, e.g. 'prometheus' or 'loki'."),
				pStr("name", "Only datasources whose name contains this text."),
				pInt("limit", "Largest number of datasources to return.", 100),
				pInt("offset", "Number of datasources to skip, for paging.", 0),
			}},
		{Name: "get_datasource", Title: "Get datasource", ReadOnly: true,
			Desc: "Return one datasource's settings (URL, access mode, JSON options, but never its secrets), found by uid or by name. Give exactly one of the two. Fails with not found when neither matches.",
			Params: []param{
				pStr("uid", "UID of the datasource."),
				pStr("name", "Name of the datasource, when the uid is not known."),
			}},
		{Name: "check_datasources_health", Title: "Check datasource health", ReadOnly: true,
			Desc: "Run the health check of one or more datasources and report which ones answer and which fail, with the error. Useful when queries fail or return nothing: it separates a broken datasource from an empty result.",
			Params: []param{
				pArr("uids", "string", "UIDs of the datasources to check; empty checks all."),
				pStr("type", "Check only datasources of this type."),
				pInt("offset", "Number of datasources to skip, for paging through many.", 0),
			}},
		{Name: "create_datasource", Title: "Create datasource",
			Desc: "Add a datasource. Give its name, plugin type and URL; plugin-specific settings go in fields. Call with schemaReviewed=false first to get the settings the plugin expects, then again with true to create it. Secrets are written but never returned. Returns the uid of the new datasource.",
			Params: []param{
				pReq("name", "Name of the new datasource, unique in the organisation."),
				pReq("type", "Plugin type, e.g. 'prometheus', 'loki', 'tempo', 'postgres'."),
				pStr("url", "Address of the backend, e.g. http://prometheus:9090."),
				pEnum("access", "How Grafana reaches it: through the server (proxy) or from the browser (direct).", "proxy", "direct"),
				pBool("basicAuth", "Use HTTP basic authentication."),
				pStr("database", "Database name, for SQL datasources."),
				pObj("fields", "Plugin-specific settings, split by the server into jsonData and secureJsonData."),
				pBool("isDefault", "Make it the organisation's default datasource."),
				pBool("schemaReviewed", "Confirm that the plugin's settings schema was reviewed; false returns the schema instead of creating."),
				pBool("withCredentials", "Send browser credentials with direct-access requests."),
			}},
		{Name: "update_datasource", Title: "Update datasource", Destructive: true,
			Desc: "Change an existing datasource's settings. Only the given fields change; secrets can be replaced but are never shown. As with create_datasource, review the plugin schema first. A wrong URL or credential breaks every dashboard that uses the datasource.",
			Params: []param{
				pReq("uid", "UID of the datasource to change."),
				pStr("name", "New name."),
				pStr("url", "New backend address."),
				pEnum("access", "New access mode.", "proxy", "direct"),
				pBool("basicAuth", "Use HTTP basic authentication."),
				pStr("database", "New database name."),
				pObj("fields", "Plugin-specific settings to change."),
				pObj("jsonData", "Raw jsonData to merge, for settings not covered by fields."),
				pBool("isDefault", "Make it the default datasource."),
				pBool("schemaReviewed", "Confirm that the plugin's settings schema was reviewed."),
			}},
		// Prometheus.
		{Name: "query_prometheus", Title: "Query Prometheus", ReadOnly: true,
			Desc: "Run a PromQL query against a Prometheus datasource, either as an instant query at endTime or as a range query between startTime and endTime with a step. Returns the series with their labels and values. Keep the range and step sensible: long ranges with small steps return very many points. Typical uses: an error ratio such as sum(rate(http_requests_total{code=~\"5..\"}[5m])) / sum(rate(http_requests_total[5m])), a latency percentile with histogram_quantile, or a saturation gauge. Find metric and label names first with the list_prometheus_* tools instead of guessing.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("expr", "PromQL expression, e.g. sum(rate(http_requests_total{code=~\"5..\"}[5m])) by (service)."),
				pStr("startTime", gStart+" Needed for range queries."),
				pReq("endTime", gEnd+" The evaluation time of instant queries."),
				pInt("stepSeconds", "Resolution of a range query in seconds.", 60),
				pEnum("queryType", "'range' returns a series over time, 'instant' one value per series.", "range", "instant"),
				pStr("projectName", gProject),
			}},
		{Name: "query_prometheus_histogram", Title: "Query Prometheus histogram", ReadOnly: true,
			Desc: "Compute a percentile of a Prometheus histogram over time without writing the PromQL: give the histogram's base metric name (without _bucket) and a percentile, and the server builds histogram_quantile(p, sum by (le) (rate(metric_bucket{labels}[interval]))). The answer is a series of the chosen percentile over time, in the metric's unit (usually seconds). Use it for latency questions such as 'what was p99 during the incident'.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("metric", "Base name of the histogram metric, e.g. http_request_duration_seconds."),
				{Name: "percentile", Type: "number", Required: true, Desc: "Percentile to compute, between 0 and 100, e.g. 99."},
				pStr("labels", "Label filter applied to the buckets, e.g. service=\"api\",code!~\"5..\"."),
				pStr("rateInterval", "Window of the rate() inside the quantile, e.g. 5m."),
				pStr("startTime", gStart),
				pStr("endTime", gEnd),
				pInt("stepSeconds", "Resolution in seconds.", 60),
				pStr("projectName", gProject),
			}},
		{Name: "list_prometheus_metric_names", Title: "List metric names", ReadOnly: true,
			Desc: "List the metric names a Prometheus datasource knows, optionally filtered by a regular expression and paged. Use it to discover what is measured before writing a query. Names are returned sorted; page through them with limit and page.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pStr("regex", "Regular expression the metric names must match, e.g. '^http_.*'."),
				pInt("limit", "Largest number of names to return.", 10),
				pInt("page", gPage, 1),
				pStr("startRfc3339", "Only metrics with samples after this time."),
				pStr("endRfc3339", "Only metrics with samples before this time."),
				pStr("projectName", gProject),
			}},
		{Name: "list_prometheus_metric_metadata", Title: "List metric metadata", ReadOnly: true,
			Desc: "Return the type (counter, gauge, histogram, summary), help text and unit of metrics, for one metric or all of them. Knowing the type tells whether to wrap the metric in rate() (counters) or histogram_quantile() (histograms).",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pStr("metric", "Only this metric; empty returns all."),
				pInt("limit", "Largest number of metrics to return.", 10),
				pInt("limitPerMetric", "Largest number of metadata entries per metric.", 0),
				pStr("projectName", gProject),
			}},
		{Name: "list_prometheus_label_names", Title: "List label names", ReadOnly: true,
			Desc: "List the label names present on series, optionally only on series that match selectors and within a time range. Use the names with list_prometheus_label_values to explore a metric's dimensions.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				grafanaMatchers(),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
				pInt("limit", "Largest number of names to return.", 100),
				pStr("projectName", gProject),
			}},
		{Name: "list_prometheus_label_values", Title: "List label values", ReadOnly: true,
			Desc: "List the values one label takes, e.g. every 'service' or 'cluster', optionally restricted by series selectors and a time range. Good for finding the exact label values to put in a query. Restricting with a series selector such as a metric name gives a much shorter and more relevant list.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("labelName", "Name of the label whose values to list."),
				grafanaMatchers(),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
				pInt("limit", "Largest number of values to return.", 100),
				pStr("projectName", gProject),
			}},
		// Loki.
		{Name: "query_loki_logs", Title: "Query Loki logs", ReadOnly: true,
			Desc: "Run a LogQL query against a Loki datasource. A log query returns matching lines with timestamps and labels, newest first by default; a metric query (rate, count_over_time, ...) returns numbers over time. Always narrow the stream selector and add line filters: broad queries return many lines. Use list_loki_label_names and list_loki_label_values to build the selector, and query_loki_stats to check the volume first. The compact format returns only time, labels that vary and the line, which saves context.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("logql", gLokiExpr),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
				pInt("limit", "Largest number of lines to return, at most 100.", 10),
				pEnum("direction", "Order of the lines: newest first (backward) or oldest first (forward).", "backward", "forward"),
				pEnum("queryType", "'range' for logs or series over time, 'instant' for one value per series of a metric query.", "range", "instant"),
				pInt("stepSeconds", "Resolution of metric queries in seconds.", 0),
				pEnum("format", "Shape of the answer: every label on every line (full) or a compact table.", "full", "compact"),
			}},
		{Name: "query_loki_stats", Title: "Query Loki stats", ReadOnly: true,
			Desc: "Estimate how much data a stream selector covers in a time range: number of streams, chunks, entries and bytes. Cheap to run, and the way to decide whether a query_loki_logs call would be too broad. Only a plain selector is allowed here, without line filters or parsers, e.g. {app=\"api\", env=\"prod\"}. Zero entries means the selector matches nothing in the range: fix the labels before querying logs.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("logql", "Stream selector only, e.g. {namespace=\"shop\"}."),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
			}},
		{Name: "query_loki_patterns", Title: "Query Loki patterns", ReadOnly: true,
			Desc: "Group the log lines of a stream selector into recurring patterns, with placeholders for the parts that vary, and count each pattern over time. A fast way to see which kinds of lines dominate and which are new, without reading thousands of lines. Works only when pattern ingestion is enabled in Loki.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("logql", "Stream selector, e.g. {app=\"api\"}."),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
				pStr("step", "Bucket width of the counts, e.g. 5m."),
			}},
		{Name: "list_loki_label_names", Title: "List Loki label names", ReadOnly: true,
			Desc: "List the label names of the log streams in a Loki datasource within a time range, such as app, namespace, pod or level. Start here to build a stream selector. Internal labels starting with a double underscore are left out.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
			}},
		{Name: "list_loki_label_values", Title: "List Loki label values", ReadOnly: true,
			Desc: "List the values one Loki label takes within a time range, e.g. every app or namespace that sent logs, to pick the exact value for a selector. The values come from the label index, so this is fast even on big datasets.",
			Params: []param{
				pReq("datasourceUid", gDSUID),
				pReq("labelName", "Label whose values to list, e.g. 'app'."),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
			}},
		{Name: "analyze_loki_labels", Title: "Analyze Loki labels", ReadOnly: true,
			Desc: "Assess the label set of a Loki datasource for cost and usability: label cardinality, unbounded labels, labels never used in queries, and query performance figures, with suggestions. Read-only: it suggests changes but applies none.",
			Params: []param{
				pStr("datasourceUid", gDSUID),
				pStr("selector", "Stream selector limiting the analysis."),
				pArr("labels", "object", "Label statistics gathered earlier, to analyse without querying again."),
				pArr("expectedBaseLabels", "string", "Labels every stream is expected to carry, e.g. cluster and namespace."),
				pInt("maxLabels", "Largest number of labels to analyse.", 50),
				pObj("perfMetrics", "Query performance figures gathered earlier (bytes, lines, execution time)."),
				pStr("startRfc3339", gStart),
				pStr("endRfc3339", gEnd),
			}},
		{Name: "suggest_loki_alloy_label_config", Title: "Suggest Alloy label config", ReadOnly: true,
			Desc: "Write a Grafana Alloy configuration snippet that keeps only approved labels on log streams and normalises the level label. The snippet is returned as text for a human to review and deploy.",
			Params: []param{
				{Name: "approvedLabels", Type: "array", Items: "string", Required: true, Desc: "Labels that may stay on the streams."},
				pArr("requiredLabels", "string", "Labels every stream must carry."),
				pStr("componentName", "Name of the generated Alloy component."),
				pStr("forwardTo", "Component the processed logs are forwarded to."),
				pBool("normalizeLogLevel", "Map level spellings (WARN, warning, W) to one value."),
			}},
	}
}
