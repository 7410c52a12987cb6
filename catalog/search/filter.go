package search

import (
	"strings"
	"unicode"
)

// Search filters written as key:value. Log and metric search syntaxes
// filter by field in that form: "service:billing", "trace_id:8812736",
// "status:open acknowledged:false", "team:netops". The key names a field
// of the records searched, not what the request asks for: "search the
// logs from service:billing" wants logs, not a list of services. Such a
// word is an identifier (identifier), so its words weigh identWeight
// unless the request also says them outside it.

// filterPair reports whether w is key:value: a key of a letter then
// letters, digits, '_' or '.', a colon, and a value beginning with a
// letter, digit, quote, '*', '{' or '-' ("10:00" and URLs are not).
func filterPair(w string) bool {
	key, val, ok := strings.Cut(w, ":")
	if !ok || key == "" || val == "" || !unicode.IsLetter(rune(key[0])) {
		return false
	}
	for _, r := range key {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '.' {
			return false
		}
	}
	v := rune(val[0])
	return unicode.IsLetter(v) || unicode.IsDigit(v) || strings.ContainsRune("\"'*{-", v)
}
