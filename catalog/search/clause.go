package search

import (
	"slices"
	"strings"
	"unicode"
)

// Long requests tell a story before they ask: "the canary looked fine for
// 20 minutes, then p99 went sideways; can you pull up what that MR
// changed". The story's words (services, times, people) match tools at
// random; the ask names the tool. In a request of several sentences, the
// words found only outside the sentences that ask weigh contextWeight.

const contextWeight = 0.5

// minContextWords is the length from which a request may tell a story.
const minContextWords = 15

// askMarkers are the words that make a sentence a request.
var askMarkers = []string{"can you", "could you", "can i", "please", "i need", "i want", "i'd like", "show me",
	"give me", "get me", "tell me", "let me", "need the", "need to", "want the", "pull", "grab", "dump", "list",
	"find", "check", "open", "create", "add", "put", "drop", "move", "assign", "merge", "approve", "delete",
	"scale", "apply", "restart", "silence", "mute", "ack", "log", "link", "search", "file a", "just"}

// contextTerms returns the terms of a long request found only in
// sentences that do not ask; nil for short or single-sentence requests.
func contextTerms(query string) map[string]bool {
	sents := sentences(query)
	if len(sents) < 2 || len(strings.Fields(query)) < minContextWords {
		return nil
	}
	ask := make([]bool, len(sents))
	any := false
	for i, s := range sents {
		// Markers match whole words: "check" is not "checkout".
		l := " " + strings.Join(strings.FieldsFunc(strings.ToLower(s.text), func(r rune) bool {
			return !unicode.IsLetter(r) && r != '\''
		}), " ") + " "
		if s.question {
			ask[i] = true
		}
		for _, m := range askMarkers {
			if strings.Contains(l, " "+m+" ") {
				ask[i] = true
				break
			}
		}
		any = any || ask[i]
	}
	if !any {
		return nil
	}
	inAsk := map[string]bool{}
	for i, s := range sents {
		if ask[i] {
			for _, t := range terms(s.text) {
				inAsk[t] = true
			}
		}
	}
	out := map[string]bool{}
	for i, s := range sents {
		if !ask[i] {
			for _, t := range terms(s.text) {
				if !inAsk[t] {
					out[t] = true
				}
			}
		}
	}
	return out
}

type sentence struct {
	text     string
	question bool
}

// sentences splits text at '.', '?', '!', ';' and dashes between words.
func sentences(text string) []sentence {
	var out []sentence
	start := 0
	flush := func(end int, q bool) {
		if t := strings.TrimSpace(text[start:end]); t != "" {
			out = append(out, sentence{t, q})
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '?' || c == '!' || c == ';':
			flush(i, c == '?')
			start = i + 1
		case c == '.' && (i+1 == len(text) || text[i+1] == ' '):
			flush(i, false)
			start = i + 1
		case (c == '-' || c == ':') && i > 0 && i+1 < len(text) && text[i-1] == ' ' && text[i+1] == ' ':
			flush(i, false)
			start = i + 1
		case strings.HasPrefix(text[i:], "—"):
			flush(i, false)
			start = i + len("—")
		}
	}
	flush(len(text), false)
	return out
}

// Identifiers name things; their parts do not say what is asked. The
// metric kube_pod_container_status_waiting_reason is about a metric, not
// about pods; checkout-api-7d9f8c-x2kqp, deploy/values-prod.yaml and
// up{job="node-exporter"} are names too. A term found only inside such
// identifiers weighs identWeight. Exact tool names are pinned before
// ranking, so they lose nothing here.
const identWeight = 0.4

// identifierTerms returns the terms of query found only inside
// identifiers: snake_case words of three parts or more, paths, file
// names, PromQL selectors and generated pod names.
func identifierTerms(query string) map[string]bool {
	// Most requests name no identifier: spare them the word lists.
	if !slices.ContainsFunc(strings.Fields(query), func(f string) bool {
		return identifier(strings.Trim(f, ".,;:!?()[]\"'`"))
	}) {
		return nil
	}
	var in []string
	outside := map[string]bool{}
	for f := range strings.FieldsSeq(query) {
		w := strings.Trim(f, ".,;:!?()[]\"'`")
		if identifier(w) {
			in = append(in, terms(w)...)
			continue
		}
		for _, t := range terms(f) {
			outside[t] = true
		}
	}
	var out map[string]bool
	for _, t := range in {
		if !outside[t] {
			if out == nil {
				out = map[string]bool{}
			}
			out[t] = true
		}
	}
	return out
}

// anyIdent reports whether some term of ts is said only inside
// identifiers.
func anyIdent(ident map[string]bool, ts []string) bool {
	return slices.ContainsFunc(ts, func(t string) bool { return ident[t] })
}

func identifier(w string) bool {
	switch {
	case strings.Count(w, "_") >= 2 && isSnake(strings.ToLower(w)):
		return true
	case strings.ContainsAny(w, "{}="):
		return true
	case strings.Contains(strings.Trim(w, "/"), "/") && namedPath(w):
		return true
	}
	return fileName(w) || podName(w) || instanceName(w) || kebabName(w) || filterPair(w)
}

// instanceName reports whether w names one instance of something by a
// numbered or wildcard suffix: redis-0, es-data-3, app-logs-2024.06.11,
// logs-payments-*. Its words say whose instance it is, not what is
// asked: "how many docs in app-logs-2024.06.11" is not about logs.
func instanceName(w string) bool {
	i := strings.LastIndexByte(w, '-')
	if i <= 0 || i == len(w)-1 || !unicode.IsLetter(rune(w[0])) {
		return false
	}
	tail := w[i+1:]
	return tail == "*" || strings.ContainsAny(tail, "0123456789") && strings.Trim(tail, "0123456789.*") == ""
}
