package search

import "testing"

// A name's change verb said in other words completes its name phrase:
// "remove variation X from AI config Y" names delete_ai_config_variation
// in full, as it names its read twin get_ai_config_variation (whose
// leading read verb is dropped). One other word said is not enough:
// "file a bug" does not name file_upload.
func TestNamePhraseChangeVerbInOtherWords(t *testing.T) {
	docs := []Doc{
		{Kind: "flags", Tool: "get_ai_config_variation", Description: "Get a variation of an AI config and its targeting, to review a variation before you remove it from the AI config."},
		{Kind: "flags", Tool: "delete_ai_config_variation", Description: "Delete a variation."},
		{Kind: "flags", Tool: "list_ai_configs", Description: "List AI configs."},
		{Kind: "flags", Tool: "get_feature_flag", Description: "Get a feature flag."},
		{Kind: "flags", Tool: "list_feature_flags", Description: "List feature flags."},
		{Kind: "browser", Tool: "file_upload", Description: "Upload one or more files to the page's file chooser."},
		{Kind: "tracker", Tool: "create_issue", Description: "Create an issue: a bug, a task or a story."},
	}
	idx := New(docs, Options{NoRerank: true})
	says := func(query, tool string) bool {
		q := idx.ix.analyze(query)
		q.req, _ = requestIntents(query)
		for _, ps := range idx.ix.namePhrases {
			for _, p := range ps {
				if docs[p.doc].Tool == tool {
					return idx.ix.names.says(q, p.ids)
				}
			}
		}
		t.Fatalf("no name phrase for %s", tool)
		return false
	}
	if !says("remove variation legacy-v1 from AI config triage", "delete_ai_config_variation") {
		t.Error(`"remove variation ... from AI config" does not say delete_ai_config_variation`)
	}
	if says("file a bug for the checkout outage", "file_upload") {
		t.Error(`"file a bug" says file_upload`)
	}
	if says("show variation legacy-v1 of AI config triage", "delete_ai_config_variation") {
		t.Error(`a read says delete_ai_config_variation`)
	}
}
