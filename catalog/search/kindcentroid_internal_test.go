package search

import (
	"fmt"
	"testing"
)

// centroidFleet is a small kind whose every tool is about indices, and a
// large kind with many tools, of which four are about indices too and
// three say "many".
func centroidFleet() []Doc {
	docs := []Doc{
		{Kind: "engine", Tool: "list_indices", Description: "Lists the indices of the cluster."},
		{Kind: "engine", Tool: "index_mapping", Description: "Returns the mapping of an index."},
		{Kind: "engine", Tool: "count_documents", Description: "Counts the documents of an index that match a query."},
	}
	docs = append(docs,
		Doc{Kind: "store", Tool: "create_index", Description: "Creates an index on a collection."},
		Doc{Kind: "store", Tool: "drop_index", Description: "Drops an index from a collection."},
		Doc{Kind: "store", Tool: "list_indexes", Description: "Lists the indexes of a collection."},
		Doc{Kind: "store", Tool: "index_stats", Description: "Usage statistics of each index of a collection."},
	)
	for _, op := range []string{"insert", "update", "delete"} {
		docs = append(docs, Doc{Kind: "store", Tool: op + "_many", Description: "Runs " + op + " on many documents of a collection."})
	}
	for i := range 13 {
		docs = append(docs, Doc{Kind: "store", Tool: fmt.Sprintf("collection_op%c", 'a'+i),
			Description: "Runs an operation on a collection."})
	}
	return docs
}

// A word says the kind whose tools mostly use it, not the large kind that
// has it somewhere: "how many indices are there" points at the small kind
// all of whose tools are about indices, though the large kind's two
// index tools say "index" more often between them.
func TestKindCentroid(t *testing.T) {
	idx := New(centroidFleet(), Options{NoRerank: true})
	ks := idx.ix.kindScores(idx.ix.analyze("how many indices are there"))
	engine, store := ks[idx.ix.docKind[0]], ks[idx.ix.docKind[3]]
	if engine <= store {
		t.Errorf("kind signal for an index question: engine %.3f, store %.3f; want engine first", engine, store)
	}
	// A word every tool of the large kind uses still says it.
	ks = idx.ix.kindScores(idx.ix.analyze("run an operation on a collection"))
	if engine, store := ks[idx.ix.docKind[0]], ks[idx.ix.docKind[3]]; store <= engine {
		t.Errorf("kind signal for a collection request: engine %.3f, store %.3f; want store first", engine, store)
	}
}

// centroid divides a kind's summed term weights by its number of tools.
func TestCentroid(t *testing.T) {
	doc := map[string]float64{"name": 5}
	centroid(doc, map[string]float64{"name": 1, "index": 6}, 3)
	if doc["name"] != 5+1.0/3 || doc["index"] != 2 {
		t.Errorf("centroid: got %v, want name %.3f index 2", doc, 5+1.0/3)
	}
	centroid(doc, map[string]float64{"x": 1}, 0)
	if _, ok := doc["x"]; ok {
		t.Errorf("centroid of no tools added %v", doc)
	}
}

// The kind factor is 1 for a kind with no share of the signal and
// 1+kindBoost for the strongest, and a kind at half the strongest's
// signal gets less than half the strongest's boost.
func TestKindFactor(t *testing.T) {
	if got := kindFactor(0); got != 1 {
		t.Errorf("kindFactor(0) = %v, want 1", got)
	}
	if got := kindFactor(1); got != 1+kindBoost {
		t.Errorf("kindFactor(1) = %v, want %v", got, 1+kindBoost)
	}
	if got := kindFactor(0.5) - 1; got >= kindBoost/2 {
		t.Errorf("kindFactor(0.5) boosts %v, want under %v", got, kindBoost/2)
	}
}

// An identifier's words say whose thing it is, not which kind is asked:
// "check the syntax of pod_log_lines_total{pod_name=…}" asks the kind
// that checks queries, though the metric's words are a cluster's. In the
// kind signal they weigh identWeight, as in the tools' scores.
func TestKindSignalIdentifierWords(t *testing.T) {
	docs := queryCheckDocs()
	idx := New(docs, Options{NoRerank: true})
	q := `check the syntax of pod_log_lines_total{pod_name="x", node_name="y"}`
	if got := topTool(t, idx, docs, q); got != "verify_query" {
		t.Errorf("top of %q = %s, want verify_query (ranking %v)", q, got, rankedTools(t, idx, docs, q, 4))
	}
}

// queryCheckDocs is a fleet where a cluster's log tools and a kind that
// checks queries share words: a request about a query's syntax names the
// cluster's metrics or pods.
func queryCheckDocs() []Doc {
	return []Doc{
		{Kind: "cluster", Tool: "pods_log", Description: "Get the logs of a pod's container."},
		{Kind: "cluster", Tool: "pods_list", Description: "List the pods of a namespace, with their node and status."},
		{Kind: "cluster", Tool: "nodes_log", Description: "Get the logs of a node's kubelet."},
		{Kind: "observe", Tool: "verify_query", Description: "Verify a query's syntax before running it; returns the errors found."},
		{Kind: "observe", Tool: "execute_query", Description: "Execute a query and return its records."},
		{Kind: "observe", Tool: "list_problems", Description: "List the open problems."},
		{Kind: "chat", Tool: "post_message", Description: "Post a message to a channel."},
	}
}
