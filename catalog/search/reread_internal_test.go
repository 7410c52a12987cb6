package search

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// rereadDocs are made-up tools of two kinds: a tracker whose list names
// open tickets, and a disk that takes files.
var rereadDocs = []Doc{
	{Kind: "tracker", Tool: "tracker_create_ticket", Description: "Create a ticket."},
	{Kind: "tracker", Tool: "tracker_list_tickets", Description: "List tickets, open or closed.",
		Schema: json.RawMessage(`{"type":"object","properties":{"state":{"type":"string","enum":["open","closed"],"description":"Open or closed tickets"}}}`)},
	{Kind: "tracker", Tool: "tracker_add_note", Description: "Add a note to a ticket."},
	{Kind: "disk", Tool: "disk_upload_file", Description: "Upload a file to the disk."},
	{Kind: "disk", Tool: "disk_list_files", Description: "List the files on the disk."},
}

func TestCreateReadTool(t *testing.T) {
	idx := New(rereadDocs, Options{NoRerank: true})
	for _, tc := range []struct {
		name, query, want string
	}{
		// "open a" makes a ticket: no open tickets are asked about.
		{"open a", "open a ticket for the login outage", "tracker_create_ticket"},
		// "file a" makes one: no file is asked for.
		{"file a", "file a ticket about it", "tracker_create_ticket"},
		// The word said otherwise keeps its meaning.
		{"open as a state", "show me the open tickets", "tracker_list_tickets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := topTool(t, idx, rereadDocs, tc.query); got != tc.want {
				t.Errorf("top of %q = %s, want %s (ranking %v)", tc.query, got, tc.want, rankedTools(t, idx, rereadDocs, tc.query, 4))
			}
		})
	}
}

func TestCreateReads(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"open a ticket for the outage", []string{stem("open")}},
		{"please file a bug and drop a note on it", []string{stem("drop"), stem("file")}},
		{"open the page", nil},
		{"open a ticket for the open incidents", nil},
		{"file a ticket with the files attached", nil},
		// The speaker's plan, not the request.
		{"before we open a ticket, show me the logs", nil},
	} {
		got := slices.Sorted(maps.Keys(createReads(tc.query)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("createReads(%q) = %v, want %v", tc.query, got, tc.want)
		}
	}
}
