package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/internal/cli"
)

// embedConcepts is the fake embedding model's knowledge: "journaux" is
// French for logs, which neither BM25 nor the ops lexicon knows.
var embedConcepts = einotest.Concepts(
	[]string{"log", "logs", "journaux", "output"},
	[]string{"restart", "bounce", "delete"},
	[]string{"merge", "request", "fusion"},
)

// hybridQuery is a query only the embedding understands.
const hybridQuery = "journaux du conteneur"

func searchTools(t *testing.T, r result) []string {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", r.code, r.stderr)
	}
	var hits []struct{ Kind, Tool string }
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil {
		t.Fatalf("%v in %q", err, r.stdout)
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Kind + "." + h.Tool
	}
	return out
}

// TestSearchHybrid: with MCPFLEET_EMBED_MODEL in the command's environment,
// search fuses the endpoint's embeddings into the ranking, and ranks the
// logs tools for a French query that BM25 alone does not understand.
func TestSearchHybrid(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: embedConcepts})
	defer srv.Close()
	args := []string{"search", "--json", "--k", "3", "--config", cfg, hybridQuery}
	bm25 := searchTools(t, run(t, nil, "", args...))

	tests := []struct {
		name     string
		env      []string
		wantAuth string
	}{
		{"local endpoint, no key", []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + srv.BaseURL()}, ""},
		{"key is sent", []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + srv.BaseURL(), "OPENAI_API_KEY=sk-cli"}, "Bearer sk-cli"},
		{"own base URL wins over the chat model's",
			[]string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=http://127.0.0.1:1/v1", "MCPFLEET_EMBED_BASE_URL=" + srv.BaseURL()}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(srv.Requests())
			r := run(t, tt.env, "", args...)
			got := searchTools(t, r)
			if len(got) == 0 || !strings.HasSuffix(got[0], "_log") {
				t.Errorf("hybrid hits = %v, want a logs tool first", got)
			}
			if cmp.Equal(bm25, got) {
				t.Errorf("hybrid ranking %v equals BM25's", got)
			}
			if r.stderr != "" {
				t.Errorf("stderr = %q, want nothing", r.stderr)
			}
			reqs := srv.Requests()[before:]
			t.Logf("%d embeddings requests (entry batches of at most 64, then the query)", len(reqs))
			// One batched pass over the entries, then the query.
			if len(reqs) < 2 || reqs[len(reqs)-1].Input[0] != hybridQuery {
				t.Fatalf("%d requests, last %+v; want entry batches then the query", len(reqs), reqs[len(reqs)-1:])
			}
			for _, rq := range reqs {
				if rq.Model != "e5" || rq.Authorization != tt.wantAuth || len(rq.Input) > 64 {
					t.Errorf("request model %q, auth %q, %d inputs; want e5, %q, at most 64", rq.Model, rq.Authorization, len(rq.Input), tt.wantAuth)
				}
			}
		})
	}
}

// TestSearchEmbedderFailure: a failing endpoint leaves search exactly as
// BM25 ranks it, with one warning naming the endpoint and status but
// not the key, and eval-search stops asking after the first failure.
func TestSearchEmbedderFailure(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	down := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Status: http.StatusInternalServerError})
	defer down.Close()
	// No retries, so that one failure is one request; the retried run
	// below checks that MCPFLEET_EMBED_MAX_RETRIES reaches the embedder.
	env := []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + down.BaseURL(), "OPENAI_API_KEY=sk-secret", "MCPFLEET_EMBED_MAX_RETRIES=0"}
	args := []string{"search", "--config", cfg, "why is the pod crashlooping"}

	want := run(t, nil, "", args...)
	got := run(t, env, "", args...)
	if diff := cmp.Diff(want.stdout, got.stdout); diff != "" {
		t.Errorf("stdout with a failing embedder (-bm25 +got):\n%s", diff)
	}
	if got.code != 0 {
		t.Errorf("exit %d, want 0", got.code)
	}
	wantWarn := "mcpfleet: warning: embeddings failed, search is BM25 only: eino: embeddings at " + down.BaseURL() + "/embeddings (model e5): HTTP 500 Internal Server Error: http_status: scripted failure\n"
	if diff := cmp.Diff(wantWarn, got.stderr); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	before := len(down.Requests())
	retried := run(t, append(env[:len(env):len(env)], "MCPFLEET_EMBED_MAX_RETRIES=1"), "", args...)
	if n := len(down.Requests()) - before; n != 2 || !strings.Contains(retried.stderr, "http_status after 2 attempts") {
		t.Errorf("with one retry: %d requests, stderr %q; want 2 and the attempts named", n, retried.stderr)
	}

	queries := "../../catalog/testdata/queries.jsonl"
	if _, err := os.Stat(queries); err != nil {
		t.Skip("no labelled queries at " + queries)
	}
	before = len(down.Requests())
	r := run(t, env, "", "eval-search", "--json", "--config", cfg, "--queries", queries)
	if r.code != 0 {
		t.Fatalf("eval-search exit %d: %s", r.code, r.stderr)
	}
	if n := len(down.Requests()) - before; n != 1 {
		t.Errorf("eval-search sent %d requests to a failing endpoint, want 1", n)
	}
	if n := strings.Count(r.stderr, "warning: embeddings failed"); n != 1 {
		t.Errorf("eval-search warned %d times, want once:\n%s", n, r.stderr)
	}
	if plain := run(t, nil, "", "eval-search", "--json", "--config", cfg, "--queries", queries); plain.stdout != r.stdout {
		t.Errorf("eval-search figures with a failing embedder differ from BM25's")
	}
}

// TestSearchEmbedderConfig: a set model with no endpoint is an error, not
// a silent BM25, and the process environment is not consulted.
func TestSearchEmbedderConfig(t *testing.T) {
	cfg := writeFleet(t, stdFleet[5:], "")
	r := run(t, []string{"MCPFLEET_EMBED_MODEL=e5"}, "", "search", "--config", cfg, "logs")
	if r.code != 1 || !strings.Contains(r.stderr, "OPENAI_BASE_URL (or MCPFLEET_EMBED_BASE_URL)") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the missing base URL", r.code, r.stderr)
	}

	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{})
	defer srv.Close()
	t.Setenv("MCPFLEET_EMBED_MODEL", "e5")
	t.Setenv("OPENAI_BASE_URL", srv.BaseURL())
	if r := run(t, []string{"HOME=/tmp"}, "", "search", "--config", cfg, "logs"); r.code != 0 {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests from the process environment, want 0", n)
	}
}

// TestServeHybrid: serve's searchTools uses the embedder from the
// command's environment.
func TestServeHybrid(t *testing.T) {
	cfg := writeFleet(t, stdFleet[:1], "")
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: embedConcepts})
	defer srv.Close()
	env := []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + srv.BaseURL()}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- cli.Run(t.Context(), env, inR, outW, &stderr, []string{"serve", "--config", cfg, "--scopes", "*"})
		outW.Close()
	}()
	c := client.NewClient(transport.NewIO(outR, inW, io.NopCloser(strings.NewReader(""))))
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "searchTools"
	req.Params.Arguments = map[string]any{"query": hybridQuery, "k": 3}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	var text string
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError || !strings.Contains(text, "pods_log") {
		t.Errorf("searchTools %q = %q, want pods_log among the hits", hybridQuery, text)
	}
	if len(srv.Requests()) == 0 {
		t.Error("serve sent no embeddings requests")
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("serve = %v\nstderr:\n%s", err, stderr.String())
	}
}

// TestSearchEmbedPrefixes: MCPFLEET_EMBED_QUERY_PREFIX and
// MCPFLEET_EMBED_DOC_PREFIX reach the endpoint on the query and on every
// entry, as written.
func TestSearchEmbedPrefixes(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Embed: embedConcepts})
	defer srv.Close()
	env := []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + srv.BaseURL(),
		"MCPFLEET_EMBED_QUERY_PREFIX=query: ", "MCPFLEET_EMBED_DOC_PREFIX=passage: "}
	got := searchTools(t, run(t, env, "", "search", "--json", "--k", "3", "--config", cfg, hybridQuery))
	if len(got) == 0 || !strings.HasSuffix(got[0], "_log") {
		t.Errorf("hits = %v, want a logs tool first", got)
	}
	reqs := srv.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests, want entry batches then the query", len(reqs))
	}
	if diff := cmp.Diff([]string{"query: " + hybridQuery}, reqs[len(reqs)-1].Input); diff != "" {
		t.Errorf("query request (-want +got):\n%s", diff)
	}
	for _, r := range reqs[:len(reqs)-1] {
		for _, in := range r.Input {
			if !strings.HasPrefix(in, "passage: ") || strings.HasPrefix(in, "passage: passage: ") {
				t.Errorf("entry text %q lacks the one document prefix", in)
			}
		}
	}
}

// TestSearchCancelledIsNoEmbedFailure: a search cancelled while the
// endpoint is still working on it is the caller's doing, not the
// endpoint's: no "embeddings failed" warning.
func TestSearchCancelledIsNoEmbedFailure(t *testing.T) {
	cfg := writeFleet(t, stdFleet, "")
	srv := einotest.NewEmbeddingServer(einotest.EmbeddingServerOptions{Block: true})
	defer srv.Close()
	env := []string{"MCPFLEET_EMBED_MODEL=e5", "OPENAI_BASE_URL=" + srv.BaseURL()}
	for _, args := range [][]string{
		{"search", "--config", cfg, hybridQuery},
		{"eval-search", "--config", cfg, "--queries", "../../catalog/testdata/queries.jsonl"},
	} {
		t.Run(args[0], func(t *testing.T) {
			if _, err := os.Stat(args[len(args)-1]); args[0] == "eval-search" && err != nil {
				t.Skip("no labelled queries")
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			before := len(srv.Requests())
			go func() {
				for len(srv.Requests()) == before && ctx.Err() == nil {
					time.Sleep(time.Millisecond)
				}
				cancel()
			}()
			var stdout, stderr bytes.Buffer
			err := cli.Run(ctx, env, strings.NewReader(""), &stdout, &stderr, args)
			if len(srv.Requests()) == before {
				t.Fatalf("no embeddings request was sent (err %v, stderr %q)", err, stderr.String())
			}
			if strings.Contains(stderr.String(), "embeddings failed") {
				t.Errorf("a cancelled run warned:\n%s", stderr.String())
			}
		})
	}
}
