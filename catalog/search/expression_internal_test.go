package search

import "testing"

func TestCarriesExpression(t *testing.T) {
	for q, want := range map[string]bool{
		`sum(rate(http_requests_total{job="api",code=~"5.."}[5m]))`:                  true,
		`avg:system.cpu.user{env:prod,service:web} by {host}, last 4h`:               true,
		`is this query doing a COLLSCAN? db.inventory.find({sku: 'AB-1203'})`:        true,
		`just count document.querySelectorAll('img:not([alt])') in the page`:         true,
		`fetch logs | filter contains(content, "timeout") | limit 50`:                true,
		`Run SELECT count(*) FROM orders on the Postgres server pg-orders`:           true,
		`an alert() is blocking the chrome page, dismiss it`:                         false,
		`which pod(s) restarted in payments?`:                                        false,
		`how many pods are in CrashLoopBackOff (kube_pod_container_status_waiting)?`: false,
		`purge every doc matching {expiresAt: {$lt: 5}}`:                             false,
		`add this panel: {"type":"stat","title":"5xx rate"}`:                         false,
		`what's node_filesystem_avail_bytes on db-03?`:                               false,
		`an unclosed rate(x`: false,
	} {
		if got := carriesExpression(q); got != want {
			t.Errorf("carriesExpression(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestExprParam(t *testing.T) {
	for name, want := range map[string]bool{
		"query": true, "expr": true, "dqlStatement": true, "logql": true, "jql": true,
		"function": true, "pipeline": true, "module_query": true,
		"filter_pattern": false, "queryType": false, "metric": false, "url": false,
	} {
		if got := paramValueType(name)&valueExpr != 0; got != want {
			t.Errorf("paramValueType(%q) takes an expression = %v, want %v", name, got, want)
		}
	}
}

// A pasted expression asks for the tool that runs it, not for the ones
// that list or describe the metrics it names.
func TestExpressionRanking(t *testing.T) {
	idx, docs := fixtureIndex(t, "prometheus", "playwright")
	for q, want := range map[string]string{
		`sum(rate(http_requests_total{job="api",code=~"5.."}[5m]))`: "execute_query",
		`what's the current p99 latency for checkout in prometheus? histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{service="checkout"}[5m])))`: "execute_query",
		`how many images without alt text are on the page open in playwright? just count document.querySelectorAll('img:not([alt])') in the page`:                               "browser_evaluate",
	} {
		if got := rankedTools(t, idx, docs, q, 3); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}
