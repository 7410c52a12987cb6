package eino_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
	mcpeino "github.com/mcpfleet/mcpfleet/adapters/eino"
	"github.com/mcpfleet/mcpfleet/internal/fixtures"
	"github.com/mcpfleet/mcpfleet/kindgroups"
)

// TestToolInfoLossless converts every fixture tool and checks that the schema
// eino hands to a model equals the one the MCP server sent.
func TestToolInfoLossless(t *testing.T) {
	fixtures.MustLoad(t, "kubernetes") // skips without fixtures
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(), "*.json"))
	n := 0
	for _, f := range files {
		kind := strings.TrimSuffix(filepath.Base(f), ".json")
		for _, tool := range fixtures.MustLoad(t, kind).Tools {
			n++
			info, err := mcpeino.ToolInfo(tool.Name, tool.Description, tool.RawInputSchema)
			if err != nil {
				t.Errorf("%s.%s: %v", kind, tool.Name, err)
				continue
			}
			js, err := info.ParamsOneOf.ToJSONSchema()
			if err != nil {
				t.Errorf("%s.%s: ToJSONSchema: %v", kind, tool.Name, err)
				continue
			}
			got, _ := json.Marshal(js)
			want := canonicalWant(tool.RawInputSchema)
			if diff := cmp.Diff(want, kindgroups.Canonical(got)); diff != "" {
				t.Errorf("%s.%s: schema changed (-want +got):\n%s", kind, tool.Name, diff)
			}
		}
	}
	if n < 500 {
		t.Fatalf("checked only %d fixture tools", n)
	}
	t.Logf("%d fixture tools round-trip losslessly", n)
}

// canonicalWant is the original schema, canonicalised. The only addition the
// conversion makes is "type":"object" on schemas that declare neither a type
// nor properties (gitlab_reference ships such broken schemas).
func canonicalWant(raw json.RawMessage) string {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err == nil {
		if _, ok := m["type"]; !ok {
			if _, ok := m["properties"]; !ok {
				m["type"] = "object"
			}
		}
		raw, _ = json.Marshal(m)
	}
	return kindgroups.Canonical(raw)
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }

// openAIToolName is what OpenAI accepts as a function name; anything else
// is a 400 for the whole request.
var openAIToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestHistoryOpenAIToolsArray sends a request through the eino-ext OpenAI
// model to a local endpoint with the folded tools of every fixture kind
// bound per call, after a history that called a tool no longer offered,
// and checks the body as OpenAI would: valid function names, object
// parameter schemas, only the offered tools, every tool call answered.
func TestHistoryOpenAIToolsArray(t *testing.T) {
	mx, _ := newFleet(t,
		srv{"k8s-1", "kubernetes", "kubernetes"}, srv{"k8s-mc", "kubernetes_multicluster", "kubernetes_multicluster"},
		srv{"gitlab-rw", "gitlab", "gitlab"}, srv{"gitlab-ro", "gitlab", "gitlab_readonly"},
		srv{"github", "github", "github"}, srv{"grafana", "grafana", "grafana"},
		srv{"prom", "prometheus", "prometheus"}, srv{"jaeger", "jaeger", "jaeger"},
		srv{"opensearch", "opensearch", "opensearch"}, srv{"elastic", "elasticsearch", "elasticsearch"},
		srv{"jira", "jira", "jira"}, srv{"confluence", "confluence", "confluence"},
		srv{"slack", "slack", "slack"}, srv{"notion", "notion", "notion"})
	tools, _, err := mcpeino.NewTools(mx, mcpeino.ToolsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var infos []*schema.ToolInfo
	var want []string
	for _, tl := range tools {
		if tl.Spec().Kind == "gitlab" {
			continue // gitlab is no longer offered; the history called it
		}
		info, err := tl.Info(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, info)
		want = append(want, info.Name)
	}

	if len(infos) < 300 {
		t.Fatalf("only %d tools; the check needs every fixture kind", len(infos))
	}

	var mu sync.Mutex
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = b
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	m, err := openai.NewChatModel(t.Context(), &openai.ChatModelConfig{Model: "m", BaseURL: srv.URL, APIKey: "test"})
	if err != nil {
		t.Fatal(err)
	}
	history := []*schema.Message{
		schema.SystemMessage("You are an ops agent."),
		schema.UserMessage("What merged in pay/api?"),
		schema.AssistantMessage("", []schema.ToolCall{{ID: "old_1", Type: "function",
			Function: schema.FunctionCall{Name: "list_merge_requests", Arguments: `{"server":"gitlab-ro","project_id":"pay/api"}`}}}),
		schema.ToolMessage(`[{"iid":482,"title":"lower DB pool"}]`, "old_1"),
		schema.AssistantMessage("!482 lowered the DB pool.", nil),
		schema.UserMessage("Is payments healthy now?"),
	}
	if _, err := m.Generate(t.Context(), history, model.WithTools(infos)); err != nil {
		t.Fatal(err)
	}

	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID string `json:"id"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	mu.Lock()
	defer mu.Unlock()
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	var got []string
	for _, tl := range req.Tools {
		got = append(got, tl.Function.Name)
		if !openAIToolName.MatchString(tl.Function.Name) || tl.Type != "function" {
			t.Errorf("tool %q (type %q) is not a valid OpenAI function", tl.Function.Name, tl.Type)
		}
		var params struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(tl.Function.Parameters, &params); err != nil || params.Type != "object" {
			t.Errorf("tool %s parameters are not an object schema: %s", tl.Function.Name, tl.Function.Parameters)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools array (-want +got):\n%s", diff)
	}
	calls, answered := map[string]bool{}, map[string]bool{}
	for _, msg := range req.Messages {
		for _, tc := range msg.ToolCalls {
			calls[tc.ID] = true
		}
		if msg.Role == "tool" {
			answered[msg.ToolCallID] = true
		}
	}
	if diff := cmp.Diff(calls, answered); diff != "" || len(req.Messages) != len(history) {
		t.Errorf("%d messages sent of %d; tool calls vs answers (-calls +answers):\n%s", len(req.Messages), len(history), diff)
	}
}
