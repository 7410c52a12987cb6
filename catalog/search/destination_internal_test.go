package search

import (
	"encoding/json"
	"slices"
	"testing"
)

// destDocs are made-up tools of one kind whose two movers differ in
// where they move a card: to another board, or to another state.
var destDocs = []Doc{
	{Kind: "cards", Tool: "cards_move_card", Description: "Move a card to a different board.",
		Schema: json.RawMessage(`{"type":"object","properties":{
			"card_id":{"type":"string","description":"Card to move"},
			"board":{"type":"string","description":"Key of the board to move the card to (e.g. 'ROADMAP')"}}}`)},
	{Kind: "cards", Tool: "cards_set_state", Description: "Move a card to a new state.",
		Schema: json.RawMessage(`{"type":"object","properties":{
			"card_id":{"type":"string","description":"Card key"},
			"state":{"type":"string","description":"Name of the state, e.g. 'Under Review', 'Shipped'"}}}`)},
	{Kind: "cards", Tool: "cards_find_cards", Description: "Find cards with a filter.",
		Schema: json.RawMessage(`{"type":"object","properties":{
			"filter":{"type":"string","description":"Filter, e.g. \"state = 'Shipped' AND board = X\""}}}`)},
	{Kind: "cards", Tool: "cards_get_card", Description: "Get a card."},
	{Kind: "cards", Tool: "cards_move_cards_to_archive", Description: "Move cards to the archive."},
}

func TestDestinationValueTool(t *testing.T) {
	idx := New(destDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		name, query, want string
	}{
		// "Under Review" is a value only the state parameter names: the
		// card changes state, whatever the mover's name says.
		{"a state", "move CRD-7 to Under Review", "cards_set_state"},
		{"a state, then more", "move CRD-7 to under review, I'm on it", "cards_set_state"},
		// A place no parameter names leaves the mover's verb to decide.
		{"a place", "move CRD-7 to the roadmap board", "cards_move_card"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topTool(t, idx, destDocs, tc.query); got != tc.want {
				t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, destDocs, tc.query, 4))
			}
		})
	}
}

func TestDestinationDocs(t *testing.T) {
	ix := New(destDocs, Options{NoRerank: true}).ix
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"move CRD-7 to Under Review", []string{"cards_set_state"}},
		{"put CRD-7 into Shipped, please", []string{"cards_set_state"}},
		{"ack it, moving CRD-7 to shipped now", []string{"cards_set_state"}},
		{"move CRD-7 to Shipped and assign it to me", []string{"cards_set_state"}},
		// What happened, not what is asked.
		{"when did CRD-7 go to Shipped", nil},
		{"the day it flipped to Shipped", nil},
		// Another clause.
		{"move it. to Shipped", nil},
		// A determiner opens a thing, not a value.
		{"move CRD-7 to the roadmap board", nil},
		{"add a note to the shipped card", nil},
	} {
		var got []string
		for d := range ix.destinationDocs(tc.query) {
			got = append(got, destDocs[d].Tool)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("destinationDocs(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestQuotedValues(t *testing.T) {
	for _, tc := range []struct {
		desc string
		want []string
	}{
		{"Name of the state, e.g. 'Under Review', 'Shipped'", []string{"Under Review", "Shipped"}},
		{`One of "low" or "high"`, []string{"low", "high"}},
		// Operands of an expression and values of an example object
		// belong to the expression, not to the parameter.
		{`Filter, e.g. "state = 'Shipped'"`, []string{"state = 'Shipped'"}},
		{`Fields as JSON: {"name": "High"}`, []string{"name"}},
		// An apostrophe in a word opens no quote.
		{"The card's state, e.g. 'Shipped'", []string{"Shipped"}},
	} {
		if got := quotedValues(tc.desc); !slices.Equal(got, tc.want) {
			t.Errorf("quotedValues(%q) = %q, want %q", tc.desc, got, tc.want)
		}
	}
}
