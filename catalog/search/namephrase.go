package search

// A tool name's change verb is said, for its name phrase, when the
// request asks for that change in its own words. "remove variation X
// from AI config Y" says every word of delete_ai_config_variation but
// "delete"; its read twin get_ai_config_variation drops its leading
// read verb and is said in full, so until now the read tool earned the
// phrase bonus and the tool asked for did not. Name coverage already
// counts such a verb (at expandWeight); the phrase now counts it too,
// when the request says two or more of the phrase's other words itself:
// with one, that word may be the request's own verb ("file a bug" says
// the "file" of file_upload and asks to create).

// changeSaid reports whether name word slot s is a change verb of a
// class the request asks for (q.req).
func (nw *nameVocab) changeSaid(q *analyzed, s int32) bool {
	return q.req != 0 && nw.change[s]&q.req != 0
}
