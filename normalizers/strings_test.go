package normalizers_test

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/normalizers"
)

func TestJoinArrays(t *testing.T) {
	runCases(t, normalizers.JoinArrays, nil, []tcase{
		{name: "one element", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":["web-0"],"namespace":"shop"}`, want: `{"name":"web-0","namespace":"shop"}`},
		{name: "default separator", fixture: "jira", tool: "jira_search",
			args: `{"jql":"x","fields":["summary","status"]}`, want: `{"jql":"x","fields":"summary status"}`},
		{name: "custom separator", fixture: "jira", tool: "jira_search", sep: ",",
			args: `{"jql":"x","fields":["summary","status"]}`, want: `{"jql":"x","fields":"summary,status"}`},
		{name: "empty array becomes absent", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"web-0","namespace":[]}`, want: `{"name":"web-0"}`},
		{name: "arrays the schema wants stay", fixture: "kubernetes", tool: "pods_exec",
			args: `{"name":"web-0","command":["ls","-l"]}`, want: `{"name":"web-0","command":["ls","-l"]}`},
		{name: "non-string elements stay", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":["web",0]}`, want: `{"name":["web",0]}`},
		{name: "undeclared key stays", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"web-0","extra":["a"]}`, want: `{"name":"web-0","extra":["a"]}`},
		{name: "no schema: nothing", args: `{"name":["web-0"]}`, want: `{"name":["web-0"]}`},
	})
}

func TestSplitStrings(t *testing.T) {
	runCases(t, normalizers.SplitStrings, nil, []tcase{
		{name: "commas and spaces", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","labels":"bug, ui ,,backend"}`,
			want: `{"project_id":"g/a","title":"t","labels":["bug","ui","backend"]}`},
		{name: "custom separator keeps spaces", fixture: "gitlab", tool: "create_issue", sep: ";",
			args: `{"project_id":"g/a","title":"t","labels":"needs review; ui"}`,
			want: `{"project_id":"g/a","title":"t","labels":["needs review","ui"]}`},
		{name: "separators only stay a placeholder", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","labels":" , "}`, want: `{"project_id":"g/a","title":"t","labels":" , "}`},
		{name: "JSON array is left to coerceTypes", fixture: "kubernetes", tool: "pods_exec",
			args: `{"name":"w","command":"[\"ls\"]"}`, want: `{"name":"w","command":"[\"ls\"]"}`},
		{name: "array of numbers is not split", fixture: "gitlab", tool: "create_issue",
			args: `{"project_id":"g/a","title":"t","assignee_ids":"1,2"}`, want: `{"project_id":"g/a","title":"t","assignee_ids":"1,2"}`},
		{name: "string fields stay", fixture: "kubernetes", tool: "pods_get",
			args: `{"name":"a b"}`, want: `{"name":"a b"}`},
	})
}
