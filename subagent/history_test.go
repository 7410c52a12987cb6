package subagent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/adk/middlewares/patchtoolcalls"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpfleet/mcpfleet/adapters/eino/einotest"
	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/subagent"
)

// staleHistory is an earlier turn of a conversation whose tools are gone
// now: it searched and loaded (meta-tools, absent in mode off) and called
// list_commits on a GitLab server outside the new slice.
func staleHistory(dangling bool) []*schema.Message {
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	msgs := []*schema.Message{
		schema.UserMessage("What changed in pay/api this morning?"),
		schema.AssistantMessage("", []schema.ToolCall{
			call("old_search", subagent.SearchToolsName, `{"query":"recent commits"}`),
			call("old_load", subagent.LoadToolsName, `{"names":["list_commits"]}`),
		}),
		schema.ToolMessage("- list_commits [gitlab; servers gitlab-ro; not loaded]: List commits", "old_search"),
		schema.ToolMessage("Loaded: list_commits. Call them from your next step on.", "old_load"),
		schema.AssistantMessage("", []schema.ToolCall{call("old_commits", "list_commits", `{"server":"gitlab-ro","project_id":"pay/api"}`)}),
		schema.ToolMessage(`[{"id":"abc123","title":"bump payments pool size"}]`, "old_commits"),
		schema.AssistantMessage("abc123 bumped the payments pool size at 08:55.", nil),
	}
	if dangling {
		// A run cut off between the model's tool call and its result.
		msgs = append(msgs, schema.AssistantMessage("", []schema.ToolCall{call("old_cut", "list_commits", `{"server":"gitlab-ro"}`)}))
	}
	return append(msgs, schema.UserMessage("Are the payments pods on k8s-1 healthy now?"))
}

// runHistory runs the subagent on a whole conversation, as a caller
// holding history does, and returns the answer.
func runHistory(t *testing.T, sa *subagent.Subagent, msgs []*schema.Message) string {
	t.Helper()
	rep, err := sa.RunMessages(t.Context(), msgs)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return rep.Answer
}

// wireMessage is the part of an OpenAI chat message the checks read.
type wireMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type wireRequest struct {
	Messages []wireMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ToolChoice any `json:"tool_choice"`
}

// requestProblems lists what OpenAI answers 400 to: a tool call without a
// tool message answering it before the next assistant or user turn, a tool
// message answering no earlier call, a tool_choice without tools, and
// duplicate tool names.
func requestProblems(req wireRequest) []string {
	var out []string
	open := map[string]bool{}
	answered := map[string]bool{}
	flush := func(at int) {
		for id := range open {
			out = append(out, fmt.Sprintf("message %d: tool call %s has no tool message", at, id))
		}
		clear(open)
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "tool":
			if !open[m.ToolCallID] {
				out = append(out, fmt.Sprintf("message %d: tool message for unknown call %q", i, m.ToolCallID))
			}
			delete(open, m.ToolCallID)
			answered[m.ToolCallID] = true
		default:
			flush(i)
			for _, tc := range m.ToolCalls {
				if tc.ID == "" || answered[tc.ID] {
					out = append(out, fmt.Sprintf("message %d: tool call id %q empty or reused", i, tc.ID))
				}
				open[tc.ID] = true
			}
		}
	}
	flush(len(req.Messages))
	if req.ToolChoice != nil && len(req.Tools) == 0 {
		out = append(out, "tool_choice without tools")
	}
	seen := map[string]bool{}
	for _, tl := range req.Tools {
		if seen[tl.Function.Name] {
			out = append(out, "duplicate tool "+tl.Function.Name)
		}
		seen[tl.Function.Name] = true
	}
	slices.Sort(out)
	return out
}

// fakeOpenAI is a chat completions endpoint on 127.0.0.1 that records each
// request body and plays canned replies in order.
type fakeOpenAI struct {
	mu      sync.Mutex
	bodies  [][]byte
	replies []string // assistant message JSON
}

func (f *fakeOpenAI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	reply := `{"role":"assistant","content":"(script exhausted)"}`
	if n < len(f.replies) {
		reply = f.replies[n]
	}
	f.mu.Unlock()
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	finish := "stop"
	if strings.Contains(reply, "tool_calls") {
		finish = "tool_calls"
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-%d","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":%s,"finish_reason":%q}],"usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12}}`, n, reply, finish)
}

func (f *fakeOpenAI) requests(t *testing.T) []wireRequest {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]wireRequest, len(f.bodies))
	for i, b := range f.bodies {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatalf("request %d is not JSON: %v\n%s", i, err, b)
		}
	}
	return out
}

func openAIModel(t *testing.T, f *fakeOpenAI) model.ToolCallingChatModel {
	t.Helper()
	srv := httptest.NewServer(f) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	m, err := openai.NewChatModel(t.Context(), &openai.ChatModelConfig{Model: "m", BaseURL: srv.URL + "/v1", APIKey: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func historyFleet(t *testing.T) ([]string, *subagent.Config) {
	kinds := map[string][]string{"kubernetes": {"kubernetes"}, "gitlab": {"gitlab_readonly"}}
	return foldedNames(t, "kubernetes", kinds), &subagent.Config{Servers: []string{"k8s-1"}, Mode: "off", MaxSteps: 2}
}

// TestHistoryStaleTools: a conversation whose earlier turn called tools
// that are not bound now (meta-tools after a switch to mode off, a GitLab
// tool outside the slice) goes through: the scripted model sees the
// history intact and only the active tools, and a stale call it repeats is
// answered with text.
func TestHistoryStaleTools(t *testing.T) {
	mx := newFleetConfig(t, &config.Fleet{}, srv{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"})
	active, cfg := historyFleet(t)
	m := einotest.New(
		einotest.Calls(einotest.Call("list_commits", map[string]any{"server": "gitlab-ro", "project_id": "pay/api"})),
		einotest.Answer("pods healthy; commits are out of this session's reach"),
	)
	cfg.Model = m
	sa, err := subagent.New(t.Context(), mx, *cfg)
	if err != nil {
		t.Fatal(err)
	}
	history := staleHistory(false)
	if got := runHistory(t, sa, history); got != "pods healthy; commits are out of this session's reach" {
		t.Errorf("answer = %q", got)
	}
	calls := m.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d model calls, want 2", len(calls))
	}
	for i, c := range calls {
		if diff := cmp.Diff(sorted(active), sorted(c.ToolNames())); diff != "" {
			t.Errorf("call %d tools (-want +got):\n%s", i, diff)
		}
		// The instruction, then the history unchanged.
		for j, h := range history {
			if got := c.Messages[j+1]; got.Role != h.Role || got.Content != h.Content || len(got.ToolCalls) != len(h.ToolCalls) {
				t.Errorf("call %d message %d = %s %q, want %s %q", i, j+1, got.Role, got.Content, h.Role, h.Content)
			}
		}
	}
	var got string
	for _, msg := range calls[1].Messages {
		if msg.Role == schema.Tool {
			got = msg.Content // the last one answers the new call
		}
	}
	// Every fleet tool stays registered, so the gate answers, and the
	// server is never called.
	if !strings.HasPrefix(got, "REJECTED") || !strings.Contains(got, "list_commits on server gitlab-ro is not available in this session") {
		t.Errorf("stale call answered %q", got)
	}
}

// TestHistoryOpenAIRequest sends the same conversation through the
// eino-ext OpenAI model to a local endpoint and checks every request body
// as OpenAI would: each tool call answered, tools limited to the active
// set, tool choice "none" only with tools on the last step.
func TestHistoryOpenAIRequest(t *testing.T) {
	mx := newFleetConfig(t, &config.Fleet{}, srv{Name: "k8s-1", Kind: "kubernetes", Fixture: "kubernetes"},
		srv{Name: "gitlab-ro", Kind: "gitlab", Fixture: "gitlab_readonly"})
	active, cfg := historyFleet(t)
	for _, tc := range []struct {
		name     string
		dangling bool
	}{{"answered history", false}, {"dangling tool call in history", true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeOpenAI{replies: []string{
				`{"role":"assistant","content":"","tool_calls":[{"id":"call_new","type":"function","function":{"name":"list_commits","arguments":"{\"server\":\"gitlab-ro\"}"}}]}`,
				`{"role":"assistant","content":"pods healthy"}`,
			}}
			c := *cfg
			c.Model = openAIModel(t, f)
			sa, err := subagent.New(t.Context(), mx, c)
			if err != nil {
				t.Fatal(err)
			}
			if got := runHistory(t, sa, staleHistory(tc.dangling)); got != "pods healthy" {
				t.Errorf("answer = %q", got)
			}
			reqs := f.requests(t)
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			for i, req := range reqs {
				var names []string
				for _, tl := range req.Tools {
					names = append(names, tl.Function.Name)
				}
				if diff := cmp.Diff(sorted(active), sorted(names)); diff != "" {
					t.Errorf("request %d tools (-want +got):\n%s", i, diff)
				}
				if probs := requestProblems(req); len(probs) > 0 {
					t.Errorf("request %d would be rejected by OpenAI: %v", i, probs)
				}
			}
			if reqs[0].ToolChoice != nil {
				t.Errorf("first request tool_choice = %v, want none set", reqs[0].ToolChoice)
			}
			if reqs[1].ToolChoice != "none" {
				t.Errorf("last request tool_choice = %v, want \"none\"", reqs[1].ToolChoice)
			}
		})
	}
}

// TestHistoryPatchToolCallsFixesDangling backs the fix proposed for the
// skipped case above: eino's patchtoolcalls middleware, ahead of the
// agent's own handlers, answers a dangling call and the request is valid.
func TestHistoryPatchToolCallsFixesDangling(t *testing.T) {
	f := &fakeOpenAI{replies: []string{`{"role":"assistant","content":"pods healthy"}`}}
	patch, err := patchtoolcalls.New(t.Context(), &patchtoolcalls.Config{
		PatchedContentGenerator: func(_ context.Context, name, _ string) (string, error) {
			return "ERROR " + name + ": the earlier run ended before this call returned", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := adk.NewChatModelAgent(t.Context(), &adk.ChatModelAgentConfig{
		Name: "patched", Description: "d", Instruction: "i", Model: openAIModel(t, f),
		Handlers: []adk.ChatModelAgentMiddleware{patch},
	})
	if err != nil {
		t.Fatal(err)
	}
	iter := adk.NewRunner(t.Context(), adk.RunnerConfig{Agent: agent}).Run(t.Context(), staleHistory(true))
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			t.Fatal(ev.Err)
		}
	}
	reqs := f.requests(t)
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if probs := requestProblems(reqs[0]); len(probs) > 0 {
		t.Errorf("patched request would be rejected: %v", probs)
	}
	if !slices.ContainsFunc(reqs[0].Messages, func(m wireMessage) bool { return m.Role == "tool" && m.ToolCallID == "old_cut" }) {
		t.Error("no tool message answers the dangling call old_cut")
	}
}
