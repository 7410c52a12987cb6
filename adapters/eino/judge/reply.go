package judge

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/config"
	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

// Classes are the values of a poisoned verdict's class, as the prompt
// names them.
func Classes() []string {
	return []string{"instruction", "exfiltration", "secrecy", "override", "tool_choice", "deception", "hidden"}
}

// maxField bounds each string the reply may set; a longer one is cut at
// a rune boundary and marked, so a chatty model cannot bloat the lock.
const maxField = 300

// parseReply reads a model's reply: one JSON object, alone or wrapped in
// prose or a code fence, with a verdict of poisoned or clean. A class the
// prompt does not name is kept as "other"; a clean verdict keeps no
// class, evidence or reason.
func parseReply(reply string) (config.Judgement, error) {
	obj := reply
	if i, k := strings.Index(reply, "{"), strings.LastIndex(reply, "}"); i >= 0 && k > i {
		obj = reply[i : k+1]
	}
	var r struct {
		Verdict, Class, Evidence, Reason string
	}
	if err := json.Unmarshal([]byte(obj), &r); err != nil {
		return config.Judgement{}, &ReplyError{Field: "reply", Got: clip(reply, 80), Want: `one JSON object {"verdict": "poisoned" or "clean", "class", "evidence", "reason"}`}
	}
	verdict := strings.ToLower(strings.TrimSpace(r.Verdict))
	if !slices.Contains(config.Verdicts(), verdict) {
		return config.Judgement{}, &ReplyError{Field: "verdict", Got: clip(r.Verdict, 80), Want: "poisoned or clean", Hint: textdist.Nearest(verdict, config.Verdicts())}
	}
	if verdict == config.VerdictClean {
		return config.Judgement{Verdict: verdict}, nil
	}
	class := strings.ToLower(strings.TrimSpace(r.Class))
	if !slices.Contains(Classes(), class) {
		class = "other"
	}
	return config.Judgement{Verdict: verdict, Class: class, Evidence: clip(r.Evidence, maxField), Reason: clip(r.Reason, maxField)}, nil
}

// clip cuts s to at most n bytes at a rune boundary, ending in "…" when
// it cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
