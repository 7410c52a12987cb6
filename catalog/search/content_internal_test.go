package search

import (
	"maps"
	"slices"
	"testing"
)

// contentDocs are made-up tools of two kinds: a tracker that makes
// tickets, and a store of certificates.
var contentDocs = []Doc{
	{Kind: "tracker", Tool: "tracker_create_ticket", Description: "Create a ticket."},
	{Kind: "tracker", Tool: "tracker_get_ticket", Description: "Get a ticket."},
	{Kind: "certs", Tool: "certs_renew_certificate", Description: "Renew an expired certificate of a load balancer."},
	{Kind: "certs", Tool: "certs_list_certificates", Description: "List certificates and when they expire."},
}

func TestContentTool(t *testing.T) {
	idx := New(contentDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		name, query, want string
	}{
		// The certificate is what the ticket is about.
		{"about", "create a ticket about the expired load balancer certificate", "tracker_create_ticket"},
		// Not a request to create: the certificate is asked for.
		{"no create", "show the expired load balancer certificate for the ticket", "certs_renew_certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topTool(t, idx, contentDocs, tc.query); got != tc.want {
				t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, contentDocs, tc.query, 4))
			}
		})
	}
}

func TestContentTerms(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"open a ticket for the expired cert", terms("expired cert")},
		// What is made, said again, ends the phrase.
		{"write up the outage for checkout as a new page under Reviews", terms("checkout")},
		// A word also said outside stays whole.
		{"create a cert ticket for the expired cert", terms("expired")},
		// Before the verb, "for" says what something else is for.
		{"the fix for the bug needs a new branch", nil},
		{"show me the tickets for the cert", nil},
	} {
		got := slices.Sorted(maps.Keys(contentTerms(tc.query, requestIntent(tc.query))))
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("contentTerms(%q) = %v, want %v", tc.query, got, want)
		}
	}
}
