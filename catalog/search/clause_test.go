package search

import (
	"maps"
	"slices"
	"testing"
)

func TestContextTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string // stemmed, sorted; nil for none
	}{
		{"tail the logs of the checkout pod", nil},
		{"So the canary for notifications-svc looked fine for 20 minutes and then p99 went sideways around 11:32. Can you pull up what that MR changed?",
			[]string{"11", "20", "32", "around", "canary", "fin", "look", "minut", "notification", "notificationssvc", "p99", "sideway", "so", "svc", "then", "went"}},
		// No sentence asks: nothing is context.
		{"The ingress got mangled around 14:05 by somebody by hand. Half the paths return 404 since then and nobody knows why.", nil},
		// A sentence with an ask verb counts as asking even when it tells
		// ("a manual apply"): a word wrongly kept is cheaper than one lost.
		{"The ingress got mangled around 14:05 by a manual apply. Half the paths return 404 since then, show me the ingress.",
			nil},
		// Words the ask repeats are not context.
		{"Checkout pods went down every few minutes since the deploy of v2.3 this morning at nine. Show me the checkout pod logs.",
			[]string{"3", "deploy", "down", "every", "few", "minut", "morn", "nin", "sinc", "v2", "went"}},
	} {
		keys := slices.Sorted(maps.Keys(contextTerms(tc.q)))
		if !slices.Equal(keys, tc.want) {
			t.Errorf("contextTerms(%q)\n got %q\nwant %q", tc.q, keys, tc.want)
		}
	}
}

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []sentence
	}{
		{"one. two? three", []sentence{{"one", false}, {"two", true}, {"three", false}}},
		{"v2.3.1 is out - roll it back", []sentence{{"v2.3.1 is out", false}, {"roll it back", false}}},
		{"at 14:05 — ping me", []sentence{{"at 14:05", false}, {"ping me", false}}},
		{"", nil},
	} {
		if got := sentences(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("sentences(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestIdentifierTerms(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string // stemmed, sorted; nil for none
	}{
		{"what does kube_pod_container_status_waiting_reason measure", []string{"container", "kubernet", "pod", "reason", "status", "wait"}},
		// A word said outside the identifier is the request's own.
		{"memory of the pod from container_memory_working_set_bytes", []string{"byt", "container", "set", "work"}},
		{"run up{job=\"node-exporter\"} == 0", []string{"exporter", "job", "nod", "up"}},
		{"read deploy/values-prod.yaml in ops/helm-charts", []string{"chart", "deploy", "helm", "ops", "prod", "valu", "yaml"}},
		{"logs of checkout-api-7d9f8c-x2kqp", []string{"7d9f8c", "api", "checkout", "x2kqp"}},
		// A numbered or wildcard suffix names an instance: its words
		// say whose, not what is asked.
		{"how many docs in app-logs-2024.06.11 have level ERROR", []string{"06", "11", "2024", "app", "log"}},
		{"open a shell in redis-0 and check maxmemory", []string{"0", "redis"}},
		{"which logs-payments-* indices exist", []string{"log", "payment"}},
		{"who's got SEC-88, and who's on sec?", []string{"88"}},
		// A kebab-case name names one service (kebab.go): "checkout-api
		// logs" asks for logs.
		{"check the checkout-api logs", []string{"api", "checkout", "checkoutapi"}},
		// English hyphenated words are not names.
		{"who is on-call for the read-only replica", nil},
		// Two-part snake_case is a tool name or a word pair, not an identifier.
		{"find_symbol in the repo", nil},
		{"show the checkout pods", nil},
		// Slashes between measures or words do not make a path.
		{"p50/p99 latency, and/or errors", nil},
	} {
		keys := slices.Sorted(maps.Keys(identifierTerms(tc.q)))
		if !slices.Equal(keys, tc.want) {
			t.Errorf("identifierTerms(%q)\n got %q\nwant %q", tc.q, keys, tc.want)
		}
	}
}
