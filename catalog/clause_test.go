package catalog

import (
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
		got := contextTerms(tc.q)
		var keys []string
		for k := range got {
			keys = append(keys, k)
		}
		slices.Sort(keys)
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
