package search

import (
	"slices"
	"testing"
)

func TestSplitCompound(t *testing.T) {
	vocab := map[string]bool{"key": true, "vault": true, "best": true, "practic": true, "list": true, "project": true, "app": true}
	for _, tc := range []struct {
		w    string
		want []string
	}{
		{"keyvault", []string{"key", "vault"}},
		{"bestpractices", []string{"best", "practices"}},
		{"listprojects", []string{"list", "projects"}},
		{"vault", nil},     // one word is not a compound
		{"keyvaultx", nil}, // a rest that is no word
		{"appkeyvault", []string{"app", "key", "vault"}},
	} {
		if got := splitCompound(tc.w, vocab); !slices.Equal(got, tc.want) {
			t.Errorf("splitCompound(%q) = %v, want %v", tc.w, got, tc.want)
		}
	}
}

func TestLoginPhrase(t *testing.T) {
	for in, want := range map[string]string{
		"who am I logged in as":             "who am I  login as",
		"logging into the console":          " login the console",
		"log out of azure":                  " logout of azure",
		"log in to vault":                   " login to vault",
		"logs in the last hour":             "logs in the last hour",
		"search the logs for errors":        "search the logs for errors",
		"log in the last hour of the shift": "log in the last hour of the shift",
	} {
		if got := loginPhrase(in); got != want {
			t.Errorf("loginPhrase(%q) = %q, want %q", in, got, want)
		}
	}
	if ts := terms("which account am I logged in as"); slices.Contains(ts, "log") {
		t.Errorf("terms of a login question say log: %v", ts)
	}
}

// A word stands for the few longer index words it begins: "perms" finds
// the tool that says "permissions"; a short word the index has ("user")
// stands for its longer forms too; a long word the index has, or one
// that begins none, stands for nothing else.
func TestAbbreviations(t *testing.T) {
	docs := []Doc{
		{Kind: "auth", Tool: "get_permissions", Description: "Returns the permissions granted to a user."},
		{Kind: "auth", Tool: "list_users", Description: "Lists the users of the organization."},
		{Kind: "auth", Tool: "get_user", Description: "Returns one user."},
	}
	idx := New(docs, Options{NoRerank: true})
	if got := idx.ix.abbreviated("perm"); !slices.Equal(got, []string{"permission"}) {
		t.Errorf(`abbreviated("perm") = %v, want [permission]`, got)
	}
	if got := idx.ix.abbreviated("user"); got != nil {
		t.Errorf(`abbreviated("user") = %v: no longer word begins with it`, got)
	}
	if got := idx.ix.abbreviated("org"); !slices.Equal(got, []string{"organization"}) {
		t.Errorf(`abbreviated("org") = %v, want [organization]`, got)
	}
	if got := idx.ix.abbreviated("permission"); got != nil {
		t.Errorf(`abbreviated("permission") = %v: a long word the index has stands for itself`, got)
	}
	if got := idx.ix.abbreviated("xyz"); got != nil {
		t.Errorf(`abbreviated("xyz") = %v, want nil`, got)
	}
	rs := idx.Search(t.Context(), "show the perms of alice", func(int) bool { return true }, 3)
	if len(rs) == 0 || docs[rs[0].Doc].Tool != "get_permissions" {
		t.Errorf("search for perms: got %v, want get_permissions first", rs)
	}
}

// A longer word that splits into words of the index is a compound, not
// the word spelled out: "open" does not stand for "openwidget" (a
// product's name), though "perm" still stands for "permission".
func TestAbbreviationsSkipCompounds(t *testing.T) {
	docs := []Doc{
		{Kind: "store", Tool: "list_widgets", Description: "Lists the widgets of the openwidget store."},
		{Kind: "store", Tool: "get_permissions", Description: "Returns the permissions granted on an open widget."},
		{Kind: "tracker", Tool: "list_issues", Description: "Lists open issues."},
	}
	idx := New(docs, Options{NoRerank: true})
	if !idx.ix.has("openwidget") {
		t.Fatalf("the index lacks openwidget; the test needs it")
	}
	if got := idx.ix.abbreviated("open"); got != nil {
		t.Errorf(`abbreviated("open") = %v: openwidget is open + widget, no long form of open`, got)
	}
	if got := idx.ix.abbreviated("perm"); !slices.Equal(got, []string{"permission"}) {
		t.Errorf(`abbreviated("perm") = %v, want [permission]`, got)
	}
	rs := idx.Search(t.Context(), "open issues", func(int) bool { return true }, 3)
	if len(rs) == 0 || docs[rs[0].Doc].Tool != "list_issues" {
		t.Errorf("search for open issues: got %v, want list_issues first", rs)
	}
}

// A camelCase word of the request says its run-together form too:
// "SignalR" meets a tool named signalr, "CoPilot" one named copilot.
func TestCamelWordSaysWhole(t *testing.T) {
	docs := []Doc{
		{Kind: "cloud", Tool: "signalr", Description: "List and show real-time messaging services."},
		{Kind: "cloud", Tool: "subscription_list", Description: "List the subscriptions of the account."},
		{Kind: "apm", Tool: "chat_with_copilot", Description: "Ask the assistant a question."},
		{Kind: "apm", Tool: "generate_query", Description: "Generate a query from a question in natural language."},
	}
	idx := New(docs, Options{NoRerank: true})
	for _, tc := range []struct {
		query, want string
	}{
		{"list SignalR services in the subscription", "signalr"},
		{"ask CoPilot how to set up an anomaly detector", "chat_with_copilot"},
	} {
		if got := topTool(t, idx, docs, tc.query); got != tc.want {
			t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, docs, tc.query, 4))
		}
	}
}

// A contraction's second half runs on into no word: "I'm on" is neither
// "im" nor "mon", though tools say both; "who am i" is still whoami.
func TestJoinedTermsSkipClitics(t *testing.T) {
	docs := []Doc{
		{Kind: "ops", Tool: "whoami", Description: "Who am I: the current user."},
		{Kind: "ops", Tool: "get_mon_status", Description: "Status of the mon daemons."},
		{Kind: "ops", Tool: "im_send", Description: "Send an IM."},
	}
	ix := New(docs, Options{NoRerank: true}).ix
	has := func(q, term string) bool {
		for _, j := range ix.joinedTerms(q, map[string]float64{}) {
			if j.term == term {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		q, term string
		want    bool
	}{
		{"grab the tree of the page I'm on", "mon", false},
		{"grab the tree of the page I'm on", "im", false},
		{"grab the tree of the page I’m on", "mon", false},
		{"who am i on this cluster", "whoami", true},
	} {
		if got := has(tc.q, tc.term); got != tc.want {
			t.Errorf("joinedTerms(%q) has %q = %v, want %v", tc.q, tc.term, got, tc.want)
		}
	}
}
