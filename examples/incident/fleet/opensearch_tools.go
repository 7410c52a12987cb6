package fleet

// Code below mirrors the tool names, argument names and schema shapes of
// the public server (opensearch-project/opensearch-mcp-server-py); every description is our own.

func opensearchTools() []toolSpec {
	return []toolSpec{
		{Name: "ListIndexTool", ReadOnly: true, Desc: "List the indices of the cluster with health, document count and size, or describe one index or pattern when given. Set include_detail to false to get names only, which is much shorter on clusters with many daily indices.", Params: []param{
			{Name: "index", Type: "string", Desc: "Index name or pattern to describe; all indices when empty.", Default: "", Extra: map[string]any{"title": "Index"}},
			{Name: "include_detail", Type: "boolean", Desc: "Return health, counts and sizes (default) rather than names only.", Default: true, Extra: map[string]any{"title": "Include Detail"}},
		}},
		{Name: "IndexMappingTool", ReadOnly: true, Desc: "Show the field mappings and settings of an index.", Params: []param{
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Required: true, Extra: map[string]any{"title": "Index"}},
		}},
		{Name: "SearchIndexTool", ReadOnly: true, Desc: "Search one index or an index pattern (for example logs-*) with an OpenSearch query DSL body and return the matching documents with their source fields. Use term queries on keyword fields, match queries on text fields, and a range on @timestamp to bound the time window; add size to limit the hits and sort to order them.", Params: []param{
			{Name: "index", Type: "string", Desc: "Index name or pattern to search, e.g. logs-*", Required: true, Extra: map[string]any{"title": "Index"}},
			{Name: "query_dsl", Type: "", Desc: "Query in OpenSearch DSL, as a JSON object or its text. Keyword fields take exact values directly; text fields are analysed, so use match for words and the .keyword sub-field for exact strings. For a time window give a range on @timestamp with gte/lte and a format such as strict_date_optional_time. Example: {\"query\":{\"bool\":{\"filter\":[{\"term\":{\"level\":\"ERROR\"}},{\"range\":{\"@timestamp\":{\"gte\":\"2026-11-30T02:00:00Z\"}}}]}}}", Required: true, Extra: map[string]any{"title": "Query Dsl"}},
			{Name: "format", Type: "string", Desc: "How to render the hits: json (default, full source) or csv (one row per hit, more compact).", Default: "json", Extra: map[string]any{"title": "Format"}},
			{Name: "size", Type: "integer", Desc: "Maximum number of hits to return (default 10, at most 100). Keep it small and tighten the query rather than paging through thousands of hits.", Default: 10, Extra: map[string]any{"title": "Size"}},
		}},
		{Name: "GetShardsTool", ReadOnly: true, Desc: "Show shard allocation for an index.", Params: []param{
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Required: true, Extra: map[string]any{"title": "Index"}},
		}},
		{Name: "GenericOpenSearchApiTool", Desc: "Send any request to the OpenSearch REST API: pick the HTTP method, an endpoint path such as /_cat/indices or /<index>/_search, query-string parameters and an optional JSON body. Use it for endpoints the dedicated tools do not cover (aliases, templates, _cat APIs, settings). Writes are possible here, so prefer GET unless you mean to change the cluster.", Params: []param{
			{Name: "path", Type: "string", Desc: "Endpoint path starting with '/', e.g. '/_cat/indices'", Required: true, Extra: map[string]any{"title": "Path"}},
			{Name: "method", Type: "string", Desc: "HTTP method: GET to read (default), POST for searches with a body, PUT or DELETE to change the cluster.", Default: "GET", Extra: map[string]any{"title": "Method"}},
			{Name: "query_params", Type: "object", Desc: "Query-string parameters as a JSON object, e.g. {\"format\":\"json\",\"v\":true} for the _cat APIs or {\"size\":5}.", Nullable: true},
			{Name: "body", Type: "", Desc: "Request body (JSON object or text). Matching is case-sensitive unless the server says otherwise."},
			{Name: "headers", Type: "object", Desc: "Extra HTTP headers as a JSON object; content type is set for you.", Nullable: true},
		}},
		{Name: "ClusterHealthTool", ReadOnly: true, Desc: "Show cluster health, optionally for one index.", Params: []param{
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Extra: map[string]any{"title": "Index"}},
		}},
		{Name: "CountTool", ReadOnly: true, Desc: "Count documents matching a query in an index.", Params: []param{
			{Name: "body", Type: "", Desc: "Optional query body; counts every document when omitted", Extra: map[string]any{"title": "Body"}},
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Extra: map[string]any{"title": "Index"}},
		}},
		{Name: "MsearchTool", ReadOnly: true, Desc: "Run several searches in one request (NDJSON body).", Params: []param{
			{Name: "body", Type: "", Desc: "NDJSON text of alternating header and query lines, or a JSON array of them. Matching is case-sensitive unless the server says otherwise.", Required: true, Extra: map[string]any{"title": "Body"}},
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Extra: map[string]any{"title": "Index"}},
		}},
		{Name: "ExplainTool", ReadOnly: true, Desc: "Explain why a document does or does not match a query.", Params: []param{
			{Name: "index", Type: "string", Desc: "Name of the index, alias or pattern (wildcards allowed)", Required: true, Extra: map[string]any{"title": "Index"}},
			{Name: "id", Type: "string", Desc: "ID of the document to explain", Required: true, Extra: map[string]any{"title": "Id"}},
			{Name: "body", Type: "", Desc: "Body holding the query to explain", Required: true, Extra: map[string]any{"title": "Body"}},
		}},
	}
}
