package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// opensearchKind simulates opensearch-project/opensearch-mcp-server-py.
// opensearch-a holds logs-payments-* with the pool-exhaustion errors;
// opensearch-b holds unrelated indices.
func opensearchKind() kindSpec {
	return kindSpec{
		Tools: func() []toolSpec {
			return bind(opensearchTools(), map[string]handler{
				"ListIndexTool":            osListIndices,
				"IndexMappingTool":         osMapping,
				"SearchIndexTool":          osSearch,
				"CountTool":                osCount,
				"MsearchTool":              osMsearch,
				"GenericOpenSearchApiTool": osGeneric,
			}, osDefault)
		},
		Default: osDefault("unknown", true),
	}
}

type osIndex struct {
	Name   string
	Docs   int
	SizeMB int
}

func osIndices(in Instance) []osIndex {
	if in.Name == logsServer {
		return []osIndex{
			{logsIndex, 412396, 2310}, {"logs-payments-2026.11.29", 398204, 2204},
			{"logs-checkout-2026.11.30", 120448, 610}, {"logs-ledger-2026.11.30", 40211, 190},
		}
	}
	return []osIndex{{"logs-mobile-2026.11.30", 88211, 402}, {"audit-2026.11", 1204455, 5120}, {"logs-etl-2026.11.30", 9012, 44}}
}

// osClass is one family of log documents in an index: how many there are,
// when they occur, and what they look like.
type osClass struct {
	Index    string
	Count    int
	From, To int64 // Unix seconds
	Src      map[string]any
}

func osClasses(in Instance) []osClass {
	if in.Name != logsServer {
		return []osClass{
			{"logs-mobile-2026.11.30", 88211, windowStartUnix - 3600, nowUnix, map[string]any{"level": "INFO", "service": "ios-api-gateway", "message": "GET /v2/feed 200"}},
			{"logs-etl-2026.11.30", 12, windowStartUnix, windowStartUnix + 1800, map[string]any{"level": "ERROR", "service": "etl-orders", "message": "S3 throttling, retrying batch 7"}},
		}
	}
	pod := func(i int) string {
		return []string{"payments-api-7f9c6d-xk2lp", "payments-api-7f9c6d-q8r4t", "payments-api-7f9c6d-m2v9n"}[i]
	}
	base := func(level, msg, exClass, stack string, i int) map[string]any {
		m := map[string]any{"level": level, "service": payService, "message": msg,
			"kubernetes": map[string]any{"cluster": badCluster, "namespace": payNamespace, "pod": pod(i)}, "image": badImage}
		if exClass != "" {
			m["exception"] = map[string]any{"class": exClass, "stacktrace": stack}
		}
		return m
	}
	return []osClass{
		{logsIndex, 1204, onsetUnix, nowUnix, base("ERROR", "Request failed: POST /v1/charges -> 500: "+poolExhausted, "com.example.payments.db.PoolExhaustedException",
			"com.example.payments.db."+poolExhausted+"\n\tat com.example.payments.db.GuardedDataSource.acquire(GuardedDataSource.java:88)\n\tat com.example.payments.charges.ChargeRepository.insert(ChargeRepository.java:142)\nCaused by: java.sql.SQLTransientConnectionException: "+hikariTimeout, 0)},
		{logsIndex, 598, onsetUnix, nowUnix, base("ERROR", hikariTimeout, "java.sql.SQLTransientConnectionException",
			"java.sql.SQLTransientConnectionException: "+hikariTimeout+"\n\tat com.zaxxer.hikari.pool.HikariPool.createTimeoutException(HikariPool.java:686)\n\tat com.zaxxer.hikari.pool.HikariPool.getConnection(HikariPool.java:179)", 1)},
		{logsIndex, 41, onsetUnix + 240, nowUnix, base("ERROR", "Application run failed: pool exhausted during startup health check", hikariInitEx,
			hikariInitEx+": Failed to initialize pool: "+hikariTimeout+"\n\tat com.zaxxer.hikari.pool.HikariPool.throwPoolInitializationException(HikariPool.java:596)\n\tat com.zaxxer.hikari.HikariDataSource.<init>(HikariDataSource.java:81)", 2)},
		{logsIndex, 512, onsetUnix + 60, nowUnix, base("WARN", "liveness check failed: "+hikariTimeout, "", "", 0)},
		{logsIndex, 3, windowStartUnix + 600, windowStartUnix + 1500, map[string]any{"level": "ERROR", "service": payService, "message": "card network timeout after 5000ms (acquirer=visa-eu), retried",
			"kubernetes": map[string]any{"cluster": badCluster, "namespace": payNamespace, "pod": "payments-api-6d8e2a-h2k9d"}, "image": goodImage}},
		{logsIndex, 406035, windowStartUnix - 3600, nowUnix, map[string]any{"level": "INFO", "service": payService, "message": "POST /v1/charges 201",
			"kubernetes": map[string]any{"cluster": badCluster, "namespace": payNamespace, "pod": pod(1)}}},
		{"logs-checkout-2026.11.30", 120448, windowStartUnix - 3600, nowUnix, map[string]any{"level": "INFO", "service": "checkout-web", "message": "GET /checkout 200"}},
	}
}

// osIndexMatches resolves an index expression (comma list, wildcards).
func osIndexMatches(expr, name string) bool {
	for _, e := range strings.Split(expr, ",") {
		e = strings.TrimSpace(e)
		if e == "" || e == "_all" || e == "*" {
			return true
		}
		if ok, _ := path.Match(e, name); ok {
			return true
		}
	}
	return false
}

// osCheckIndex returns a tool error when a concrete index does not exist;
// patterns that match nothing are fine and simply find nothing.
func osCheckIndex(in Instance, expr string) *mcp.CallToolResult {
	if expr == "" {
		return errResult("index is required")
	}
	for _, ix := range osIndices(in) {
		if osIndexMatches(expr, ix.Name) {
			return nil
		}
	}
	if strings.ContainsAny(expr, "*?,") {
		return nil
	}
	return errResult(`{"error":{"type":"index_not_found_exception","reason":"no such index [%s]","index":"%s"},"status":404}`, expr, expr)
}

// osQuery is a parsed query: a predicate over document classes.
type osQuery func(c osClass) bool

// parseOSQuery understands the query shapes an agent writes: bool
// (must/filter/should/must_not), match, match_phrase, term(s), wildcard,
// prefix, query_string, multi_match, range on a time field, exists and
// match_all. Field names are ignored: a value matches if the document's
// text contains it, which is enough for log search.
func parseOSQuery(node any) osQuery {
	m, ok := node.(map[string]any)
	if !ok || len(m) == 0 {
		return func(osClass) bool { return true }
	}
	var preds []osQuery
	for k, v := range m {
		switch k {
		case "bool":
			b, _ := v.(map[string]any)
			var must, not, should []osQuery
			for _, key := range []string{"must", "filter"} {
				for _, x := range asList(b[key]) {
					must = append(must, parseOSQuery(x))
				}
			}
			for _, x := range asList(b["must_not"]) {
				not = append(not, parseOSQuery(x))
			}
			for _, x := range asList(b["should"]) {
				should = append(should, parseOSQuery(x))
			}
			preds = append(preds, func(c osClass) bool {
				for _, p := range must {
					if !p(c) {
						return false
					}
				}
				for _, p := range not {
					if p(c) {
						return false
					}
				}
				if len(should) == 0 {
					return true
				}
				for _, p := range should {
					if p(c) {
						return true
					}
				}
				return false
			})
		case "range":
			preds = append(preds, osRange(v))
		case "match_all", "exists":
		case "match", "match_phrase", "term", "terms", "wildcard", "prefix", "query_string", "simple_query_string", "multi_match", "regexp", "match_phrase_prefix":
			words := osWords(k, v)
			anyWord := k == "match" || k == "multi_match"
			preds = append(preds, func(c osClass) bool {
				blob := osBlob(c)
				hit := 0
				for _, w := range words {
					if strings.Contains(blob, w) {
						hit++
					}
				}
				if anyWord {
					return hit > 0 || len(words) == 0
				}
				return hit == len(words)
			})
		case "query":
			preds = append(preds, parseOSQuery(v))
		}
	}
	return func(c osClass) bool {
		for _, p := range preds {
			if !p(c) {
				return false
			}
		}
		return true
	}
}

func asList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case nil:
		return nil
	}
	return []any{v}
}

// osWords extracts the lower-case search words of a leaf query.
func osWords(kind string, v any) []string {
	var vals []string
	var walk func(key string, x any)
	walk = func(key string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, y := range t {
				switch k {
				case "fields", "default_field", "operator", "analyzer", "boost", "type", "minimum_should_match", "case_insensitive", "fuzziness":
					continue
				}
				walk(k, y)
			}
		case []any:
			for _, y := range t {
				walk(key, y)
			}
		case string:
			vals = append(vals, t)
		case float64:
			vals = append(vals, fmt.Sprint(t))
		}
	}
	walk(kind, v)
	var words []string
	for _, s := range vals {
		if kind == "query_string" || kind == "simple_query_string" {
			for _, w := range strings.Fields(s) {
				if u := strings.ToUpper(w); u == "AND" || u == "OR" || u == "NOT" || w == "&&" || w == "||" {
					continue
				}
				if _, after, ok := strings.Cut(w, ":"); ok && !strings.HasPrefix(after, "//") {
					w = after
				}
				if w = strings.Trim(w, `"()*?+-`); w != "" {
					words = append(words, strings.ToLower(w))
				}
			}
			continue
		}
		if kind == "match" || kind == "multi_match" {
			for _, w := range strings.Fields(s) {
				if w = strings.Trim(w, `"()*?.,:`); len(w) > 2 {
					words = append(words, strings.ToLower(w))
				}
			}
			continue
		}
		if w := strings.Trim(s, "*?"); w != "" {
			words = append(words, strings.ToLower(w))
		}
	}
	return words
}

func osBlob(c osClass) string {
	b, _ := json.Marshal(c.Src)
	return strings.ToLower(string(b))
}

// osRange applies a range on a time field (any field with a date-like bound).
func osRange(v any) osQuery {
	m, _ := v.(map[string]any)
	from, to := int64(0), int64(1<<62)
	for _, spec := range m {
		s, _ := spec.(map[string]any)
		for k, b := range s {
			t, ok := osTime(b)
			if !ok {
				continue
			}
			switch k {
			case "gte", "gt", "from":
				from = t
			case "lte", "lt", "to":
				to = t
			}
		}
	}
	return func(c osClass) bool { return c.To >= from && c.From <= to }
}

// osTime parses ISO times, epoch millis and now-relative date math.
func osTime(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		return int64(x) / 1000, true
	case string:
		if strings.HasPrefix(x, "now") {
			rest := strings.TrimPrefix(x, "now")
			if i := strings.Index(rest, "/"); i >= 0 {
				rest = rest[:i]
			}
			if rest == "" {
				return nowUnix, true
			}
			unit := rest[len(rest)-1]
			n := 0
			fmt.Sscanf(rest[1:len(rest)-1], "%d", &n)
			mult := map[byte]int64{'s': 1, 'm': 60, 'h': 3600, 'd': 86400}[unit]
			if rest[0] == '-' {
				return nowUnix - int64(n)*mult, true
			}
			return nowUnix + int64(n)*mult, true
		}
		for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t.Unix(), true
			}
		}
	}
	return 0, false
}

// osBody decodes query_dsl / body that may come as an object or as text.
func osBody(args map[string]any, keys ...string) (map[string]any, error) {
	for _, k := range keys {
		switch v := args[k].(type) {
		case map[string]any:
			return v, nil
		case string:
			if strings.TrimSpace(v) == "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(v), &m); err != nil {
				return nil, fmt.Errorf("parsing_exception: %s is not valid JSON: %v", k, err)
			}
			return m, nil
		}
	}
	return map[string]any{}, nil
}

// osRun evaluates a search body against an index expression.
func osRun(in Instance, index string, body map[string]any) map[string]any {
	q := body["query"]
	if q == nil {
		if _, isQuery := body["bool"]; isQuery || body["match"] != nil || body["term"] != nil || body["query_string"] != nil || body["range"] != nil {
			q = body
		}
	}
	pred := parseOSQuery(q)
	var matched []osClass
	total := 0
	for _, c := range osClasses(in) {
		if osIndexMatches(index, c.Index) && pred(c) {
			matched = append(matched, c)
			total += c.Count
		}
	}
	size := argInt(body, 10, "size")
	size = max(0, min(size, 100))
	// Rare classes first: they are what a searcher is after, and without a
	// sort the real engine's relevance order would favour them too.
	sort.SliceStable(matched, func(i, j int) bool { return matched[i].Count < matched[j].Count })
	var hits []map[string]any
	for i := 0; len(hits) < size && i < size*len(matched)+1 && len(matched) > 0; i++ {
		c := matched[i%len(matched)]
		n := i / len(matched)
		if n >= c.Count {
			continue
		}
		t := c.To - int64(n)*((c.To-c.From)/int64(max(1, c.Count))) - int64((i*37)%90)
		src := map[string]any{"@timestamp": time.Unix(t, 0).UTC().Format("2006-01-02T15:04:05.000Z")}
		for k, v := range c.Src {
			src[k] = v
		}
		src["trace_id"] = newRNG(fmt.Sprint(c.Index, i)).hex(32)
		hits = append(hits, map[string]any{"_index": c.Index, "_id": newRNG(fmt.Sprint("id", c.Index, i)).hex(20), "_source": src})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		return hits[i]["_source"].(map[string]any)["@timestamp"].(string) > hits[j]["_source"].(map[string]any)["@timestamp"].(string)
	})
	out := map[string]any{"took": 37, "timed_out": false, "hits": map[string]any{"total": map[string]any{"value": total, "relation": "eq"}, "hits": hits}}
	if aggs, ok := body["aggs"].(map[string]any); ok {
		out["aggregations"] = osAggs(aggs, matched)
	} else if aggs, ok := body["aggregations"].(map[string]any); ok {
		out["aggregations"] = osAggs(aggs, matched)
	}
	return out
}

// osAggs answers terms aggregations over the matched classes.
func osAggs(aggs map[string]any, matched []osClass) map[string]any {
	out := map[string]any{}
	for name, spec := range aggs {
		s, _ := spec.(map[string]any)
		terms, _ := s["terms"].(map[string]any)
		field, _ := terms["field"].(string)
		if field == "" {
			out[name] = map[string]any{"buckets": []any{}, "note": "only terms aggregations are supported by this server"}
			continue
		}
		counts := map[string]int{}
		for _, c := range matched {
			if v := lookupPath(c.Src, strings.TrimSuffix(field, ".keyword")); v != "" {
				counts[v] += c.Count
			}
		}
		var buckets []map[string]any
		for k, n := range counts {
			buckets = append(buckets, map[string]any{"key": k, "doc_count": n})
		}
		sort.Slice(buckets, func(i, j int) bool { return buckets[i]["doc_count"].(int) > buckets[j]["doc_count"].(int) })
		out[name] = map[string]any{"buckets": buckets}
	}
	return out
}

func lookupPath(m map[string]any, p string) string {
	var cur any = m
	for _, part := range strings.Split(p, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[part]
	}
	if s, ok := cur.(string); ok {
		return s
	}
	return ""
}

func osSearch(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	index := argStr(args, "index")
	if bad := osCheckIndex(in, index); bad != nil {
		return bad, nil
	}
	body, err := osBody(args, "query_dsl", "body")
	if err != nil {
		return errResult("%v", err), nil
	}
	if _, ok := args["size"]; ok {
		body["size"] = argInt(args, 10, "size")
	}
	return jsonResult(osRun(in, index, body)), nil
}

func osCount(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	index := argStr(args, "index")
	if index == "" {
		index = "*"
	}
	if bad := osCheckIndex(in, index); bad != nil {
		return bad, nil
	}
	body, err := osBody(args, "body")
	if err != nil {
		return errResult("%v", err), nil
	}
	body["size"] = 0
	res := osRun(in, index, body)
	return jsonResult(map[string]any{"count": res["hits"].(map[string]any)["total"].(map[string]any)["value"]}), nil
}

func osMsearch(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	var lines []any
	switch v := args["body"].(type) {
	case []any:
		lines = v
	case string:
		for _, l := range strings.Split(v, "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				return errResult("illegal_argument_exception: msearch line is not JSON: %v", err), nil
			}
			lines = append(lines, m)
		}
	default:
		return errResult("body is required: NDJSON text or a JSON array of header/query pairs"), nil
	}
	var responses []any
	for i := 0; i+1 < len(lines); i += 2 {
		h, _ := lines[i].(map[string]any)
		b, _ := lines[i+1].(map[string]any)
		index := argStr(h, "index")
		if index == "" {
			index = argStr(args, "index")
		}
		responses = append(responses, osRun(in, index, b))
	}
	return jsonResult(map[string]any{"responses": responses}), nil
}

func osListIndices(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	expr := argStr(args, "index")
	detail := true
	if v, ok := args["include_detail"].(bool); ok {
		detail = v
	}
	var rows []map[string]any
	var names []string
	for _, ix := range osIndices(in) {
		if expr != "" && !osIndexMatches(expr, ix.Name) {
			continue
		}
		names = append(names, ix.Name)
		rows = append(rows, map[string]any{"index": ix.Name, "health": "green", "status": "open", "pri": "3", "rep": "1", "docs.count": fmt.Sprint(ix.Docs), "store.size": fmt.Sprintf("%dmb", ix.SizeMB)})
	}
	if len(rows) == 0 {
		return text("No indices on %s match %q.", in.Name, expr), nil
	}
	if !detail {
		return jsonResult(names), nil
	}
	return jsonResult(rows), nil
}

func osMapping(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	index := argStr(args, "index")
	if bad := osCheckIndex(in, index); bad != nil {
		return bad, nil
	}
	props := map[string]any{
		"@timestamp": map[string]string{"type": "date"}, "level": map[string]string{"type": "keyword"}, "service": map[string]string{"type": "keyword"},
		"message":  map[string]any{"type": "text", "fields": map[string]any{"keyword": map[string]any{"type": "keyword", "ignore_above": 512}}},
		"trace_id": map[string]string{"type": "keyword"}, "image": map[string]string{"type": "keyword"},
		"kubernetes": map[string]any{"properties": map[string]any{"cluster": map[string]string{"type": "keyword"}, "namespace": map[string]string{"type": "keyword"}, "pod": map[string]string{"type": "keyword"}}},
		"exception":  map[string]any{"properties": map[string]any{"class": map[string]string{"type": "keyword"}, "stacktrace": map[string]string{"type": "text"}}},
	}
	out := map[string]any{}
	for _, ix := range osIndices(in) {
		if osIndexMatches(index, ix.Name) {
			out[ix.Name] = map[string]any{"mappings": map[string]any{"properties": props}}
		}
	}
	return jsonResult(out), nil
}

func osGeneric(ctx context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
	p := argStr(args, "path")
	method := strings.ToUpper(argStr(args, "method"))
	if method == "" {
		method = "GET"
	}
	switch {
	case p == "":
		return errResult("path is required"), nil
	case strings.HasPrefix(p, "/_cat/indices"):
		return osListIndices(ctx, in, map[string]any{"index": strings.TrimPrefix(strings.TrimPrefix(p, "/_cat/indices"), "/")})
	case strings.HasPrefix(p, "/_cluster/health"):
		return jsonResult(map[string]any{"cluster_name": in.Name, "status": "green", "number_of_nodes": 3, "active_shards": 42, "unassigned_shards": 0}), nil
	case strings.HasSuffix(p, "/_search") || strings.HasSuffix(p, "/_count"):
		index := strings.Trim(strings.TrimSuffix(strings.TrimSuffix(p, "/_search"), "/_count"), "/")
		if index == "" {
			index = "*"
		}
		if bad := osCheckIndex(in, index); bad != nil {
			return bad, nil
		}
		body, err := osBody(args, "body")
		if err != nil {
			return errResult("%v", err), nil
		}
		if strings.HasSuffix(p, "/_count") {
			body["size"] = 0
			res := osRun(in, index, body)
			return jsonResult(map[string]any{"count": res["hits"].(map[string]any)["total"].(map[string]any)["value"]}), nil
		}
		return jsonResult(osRun(in, index, body)), nil
	case method != "GET" && method != "HEAD":
		return text("%s %s acknowledged by %s (simulated; nothing changed).", method, p, in.Name), nil
	}
	return text("%s %s on %s: no data for this endpoint in the simulation.", method, p, in.Name), nil
}

func osDefault(tool string, _ bool) handler {
	return func(_ context.Context, in Instance, args map[string]any) (*mcp.CallToolResult, error) {
		index := argStr(args, "index")
		switch tool {
		case "ClusterHealthTool":
			return jsonResult(map[string]any{"cluster_name": in.Name, "status": "green", "number_of_nodes": 3, "active_primary_shards": 21, "active_shards": 42, "unassigned_shards": 0}), nil
		case "GetShardsTool":
			if bad := osCheckIndex(in, index); bad != nil {
				return bad, nil
			}
			var rows []map[string]any
			for _, ix := range osIndices(in) {
				if osIndexMatches(index, ix.Name) {
					for s := 0; s < 3; s++ {
						rows = append(rows, map[string]any{"index": ix.Name, "shard": s, "prirep": "p", "state": "STARTED", "node": fmt.Sprintf("%s-data-%d", in.Name, s+1)})
					}
				}
			}
			return jsonResult(rows), nil
		case "ExplainTool":
			if bad := osCheckIndex(in, index); bad != nil {
				return bad, nil
			}
			return jsonResult(map[string]any{"_index": index, "_id": argStr(args, "id"), "matched": false, "explanation": map[string]any{"value": 0, "description": "no document with this id in the simulated index"}}), nil
		}
		return text("%s on %s: nothing to report.", tool, in.Name), nil
	}
}
