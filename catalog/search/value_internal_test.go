package search

import (
	"encoding/json"
	"testing"
)

func TestRequestValues(t *testing.T) {
	for q, want := range map[string]valueType{
		"open https://staging.shop.example.com/login in the browser": valueURL,
		"give it ./fixtures/invoice.pdf":                             valueFile,
		"set the viewport to 375x812":                                valueSize,
		"log 2h on OPS-77":                                           valueDuration,
		"snooze it for 30m.":                                         valueDuration,
		"mail alice@example.com":                                     valueEmail,
		"requests from 203.0.113.45 today":                           valueIP,
		// Durations that measure a window or what happened are no values.
		"trace 4bf92f3 took 9s, where's the time going": 0,
		"errors in the last 15m":                        0,
		"p99 for checkout over 6h":                      0,
		"show the checkout pods":                        0,
	} {
		if got := requestValues(q); got != want {
			t.Errorf("requestValues(%q) = %b, want %b", q, got, want)
		}
	}
}

// A value the request carries picks the twin whose parameters take it.
func TestValueTypes(t *testing.T) {
	schema := func(params ...string) json.RawMessage { return requiredSchema(params) }
	docs := []Doc{
		{Kind: "browser", Tool: "browser_navigate", Description: "Navigate to a URL.", Schema: schema("url")},
		{Kind: "browser", Tool: "browser_resize", Description: "Resize the browser window.", Schema: schema("width", "height")},
		{Kind: "browser", Tool: "browser_tabs", Description: "List, create, close, or select a browser tab.", Schema: schema("action", "index")},
		{Kind: "tickets", Tool: "get_worklog", Description: "Get worklog entries for an issue.", Schema: schema("issue_key")},
		{Kind: "tickets", Tool: "add_worklog", Description: "Add a worklog entry to an issue.", Schema: schema("issue_key", "time_spent", "comment")},
		{Kind: "tickets", Tool: "get_issue", Description: "Get an issue.", Schema: schema("issue_key")},
	}
	idx := New(docs, Options{NoRerank: true})
	for q, want := range map[string]string{
		"open https://staging.shop.example.com/login in the browser": "browser_navigate",
		"set the browser viewport to 375x812":                        "browser_resize",
		"log 2h on OPS-77 worklog":                                   "add_worklog",
	} {
		if got := rankedTools(t, idx, docs, q, 3); len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}
