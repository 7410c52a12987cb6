package search

import (
	"slices"
	"testing"
)

// objectDocs are made-up tools of two kinds: one acts on tickets, the
// other on ticket batches.
var objectDocs = []Doc{
	{Kind: "pager", Tool: "pager_acknowledge_ticket", Description: "Acknowledge a ticket so that it stops paging."},
	{Kind: "pager", Tool: "pager_unacknowledge_ticket", Description: "Undo the acknowledgement of a ticket."},
	{Kind: "pager", Tool: "pager_close_ticket", Description: "Close a ticket."},
	{Kind: "pager", Tool: "pager_list_tickets", Description: "List tickets."},
	{Kind: "rota", Tool: "update_ticket_batch", Description: "Update a batch of pages."},
	{Kind: "rota", Tool: "list_ticket_batches", Description: "List batches."},
	{Kind: "rota", Tool: "get_schedule", Description: "Get a schedule."},
}

func TestObjectPhraseBindsModifiers(t *testing.T) {
	idx := New(objectDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		name, query, want string
	}{
		// "ticket" is said inside "ticket batch": the ticket tool's
		// verb matches, but its object is another thing.
		{"object phrase said", "acknowledge ticket batch 42", "update_ticket_batch"},
		// Said on its own too, the word is free.
		{"word also free", "ack the ticket 17", "pager_acknowledge_ticket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topTool(t, idx, objectDocs, tc.query); got != tc.want {
				t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, objectDocs, tc.query, 4))
			}
		})
	}
}

func TestBoundWords(t *testing.T) {
	ix := New(objectDocs, Options{NoRerank: true}).ix
	for _, tc := range []struct {
		query string
		want  []string // bound terms, as rawTerms gives them
	}{
		{"ack ticket batch 42", rawTerms("ticket")},
		{"the ticket and its ticket batch", nil},
		{"ack ticket 42", nil},
		{"batch ticket", nil},
	} {
		var got []string
		for t := range ix.boundWords(rawTerms(tc.query)) {
			got = append(got, t)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("boundWords(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestObjectPhrasesSkipVerbHeads(t *testing.T) {
	docs := []Doc{
		{Kind: "k", Tool: "list_variable_sets"},
		{Kind: "k", Tool: "list_workspace_variables"},
		{Kind: "k", Tool: "get_alert_group"},
	}
	ix := New(docs, Options{NoRerank: true}).ix
	// "variables set on workspace X" says a verb, not a variable set.
	if b := ix.boundWords(rawTerms("list the variables set on workspace prod")); b != nil {
		t.Errorf("a name object ending in a verb binds %v", b)
	}
	if b := ix.boundWords(rawTerms("get alert group 7")); b == nil {
		t.Error("alert group binds nothing")
	}
}
