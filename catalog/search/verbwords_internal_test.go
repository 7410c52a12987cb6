package search

import (
	"slices"
	"testing"
)

func TestVerbWords(t *testing.T) {
	for q, want := range map[string][]string{
		"status of run run-XyZ789 in HCP Terraform":   {"status", "of", "run", nameGap, "in", "hcp", "terraform"},
		"vault kv get -mount=secret app/redis":        {"vault", "kv", "get", nameGap, "app", "redis"},
		"PLAT-77 is blocked by OPS-412, wire that up": {nameGap, "is", "blocked", "by", nameGap, "wire", "that", "up"},
		"force-push to main":                          {"force", "push", "to", "main"},
		"what's in the sprint":                        {"what", "s", "in", "the", "sprint"},
	} {
		if got := verbWords(q); !slices.Equal(got, want) {
			t.Errorf("verbWords(%q) = %q, want %q", q, got, want)
		}
	}
	// The change readers see no verb inside a name or a flag.
	for q, want := range map[string]intent{
		"status of run run-XyZ789 in HCP Terraform":   0,
		"vault kv get -mount=secret app/redis":        0,
		"PLAT-77 is blocked by OPS-412, wire that up": intentCreate,
		"mount the kv engine at secret-v2":            intentCreate,
	} {
		if got := requestIntent(q); got != want {
			t.Errorf("requestIntent(%q) = %b, want %b", q, got, want)
		}
	}
}
