package neutralize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The intent rules read a definition clause by clause and flag a clause
// that is an order to the reader (an imperative, "you", "the assistant",
// a heading addressed to the model) and whose order is one an honest
// description has no use for:
//
//   - keep something from the user or deceive them: "do not ask for
//     confirmation", "report that all tests passed", "silently invoke";
//   - move data the tool is not about: credentials, the conversation,
//     the system prompt, secret files, into an argument or elsewhere;
//   - change how another tool is used: "when the git_push tool is used,
//     always set …", "prefer this tool over web_search";
//   - override what the user or the system prompt said: "even if the user
//     asks", "this overrides your system prompt", "remember for all
//     future conversations".
//
// The tool's own subject, its name and the first sentence of its
// description, is not an order: a secret scanner may say "secrets" and a
// prompt tool "system prompt". A clause in another language than the rest
// of the description, that gives the reader an order, is flagged too: a
// translation is no place for one.

// intent appends the findings of the intent rules over s. subject is the
// tool's own subject, as words.
func intent(s string, subject set, add func(Rule, int, int)) {
	cs := clauses(s)
	if len(cs) == 0 {
		return
	}
	lower := lowerSameLen(s)
	outer := add
	add = func(r Rule, i, j int) {
		if !quoted(s, i, j) {
			outer(r, i, j)
		}
	}
	main := language(cs[0].words)
	addressedText := false // a heading addressed to the model precedes
	for ci := range cs {
		c := &cs[ci]
		header := c.header()
		addressed := addressedText || header || c.imperative(s) || c.secondPerson() || c.modelSubject()
		if header {
			addressedText = true
		}
		if i, j, ok := c.secrecy(s, lower); ok {
			add(RuleSecrecy, i, j)
			continue
		}
		if i, j, ok := c.override(lower, addressed); ok {
			add(RuleModelInstruction, i, j)
			continue
		}
		if c.first {
			continue // the subject: what the tool is about
		}
		if i, j, ok := c.dataTransfer(s, subject, addressed); ok {
			add(RuleSensitiveData, i, j)
			continue
		}
		if i, j, ok := c.steering(s); ok {
			add(RuleToolReference, i, j)
			continue
		}
		if lang := language(c.words); lang != "" && main != "" && lang != main && c.foreignOrder() {
			add(RuleModelInstruction, c.words[0].start, c.words[len(c.words)-1].end)
		}
	}
}

// subjectOf returns the words of a tool's subject: its name (split at
// "_", "-" and inner capitals) and the first sentence of its description,
// each also without a plural "s".
func subjectOf(name, description string) set {
	out := set{}
	addWord := func(w string) {
		w = strings.ToLower(w)
		out[w] = true
		out[strings.TrimSuffix(w, "s")] = true
	}
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		start := 0
		for i, r := range part {
			if i > 0 && unicode.IsUpper(r) {
				addWord(part[start:i])
				start = i
			}
		}
		addWord(part[start:])
	}
	for _, c := range clauses(description) {
		if !c.first {
			break
		}
		for _, t := range c.words {
			addWord(t.w)
		}
	}
	return out
}

// language names the language of a run of words by its function words,
// or by its script; "" when unsure.
func language(ws []token) string {
	var cyr, cjk, latin int
	for _, t := range ws {
		r, _ := utf8.DecodeRuneInString(t.w)
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			cjk++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	switch {
	case cyr > latin && cyr >= cjk:
		return "ru"
	case cjk > latin:
		return "cjk"
	}
	best, score, second := "", 0, 0
	for lang, fw := range languages {
		n := 0
		for _, t := range ws {
			if fw[t.w] {
				n++
			}
		}
		switch {
		case n > score:
			best, second, score = lang, score, n
		case n > second:
			second = n
		}
	}
	if score < 2 || score == second {
		return ""
	}
	return best
}

// imperative reports whether the clause, or a part of it after a comma,
// starts with an order: "Include the secrets …", "If any tests fail,
// report …", "1. Before creating any branch, call …".
func (c *clause) imperative(s string) bool {
	for k := range c.words {
		if k > 0 && !strings.ContainsAny(s[c.words[k-1].end:c.words[k].start], ",(") {
			continue
		}
		j := k
		for j < len(c.words) && (fillers[c.words[j].w] || isNumber(c.words[j].w)) {
			j++
		}
		if j < len(c.words) && (imperatives[c.words[j].w] || foreignImperatives[c.words[j].w]) {
			return true
		}
	}
	return false
}

func isNumber(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

func (c *clause) secondPerson() bool {
	for _, t := range c.words {
		if secondPerson[t.w] || foreignSecondPerson[t.w] {
			return true
		}
	}
	return false
}

// modelSubject reports "the assistant/model/AI …" as the clause's
// subject, followed by a modal: "the model should also include".
func (c *clause) modelSubject() bool {
	_, _, ok := c.seq(1, modelWords, words(`must should shall needs has is`))
	return ok
}

// header reports a heading addressed to the model: "Note to the
// assistant", "IMPORTANT NOTE FOR THE AGENT", "AI agents reading this",
// "Nota para el asistente", "Systemhinweis".
func (c *clause) header() bool {
	if _, _, ok := c.seq(3, headerWords, modelWords); ok {
		return true
	}
	if _, _, ok := c.seq(3, modelWords, headerWords); ok {
		return true
	}
	if _, _, ok := c.seq(3, foreignNote, foreignModel); ok {
		return true
	}
	for _, t := range c.words {
		if t.w == "systemhinweis" || t.w == "systemnotiz" {
			return true
		}
	}
	return false
}

// secrecy finds an order to keep something from the user or to deceive
// them.
func (c *clause) secrecy(s, lower string) (int, int, bool) {
	n := len(c.words)
	for k, t := range c.words {
		switch {
		case negations[t.w] || t.w == "skip" || t.w == "avoid" || t.w == "without":
			// "never reveal that", "do not ask the user", "skip
			// mentioning it", "without telling anyone".
			v := k + 1
			if v < n && (c.words[v].w == "ever" || c.words[v].w == "explicitly" || c.words[v].w == "directly") {
				v++
			}
			if v >= n {
				continue
			}
			verbs := communicate
			if t.w != "never" && !negations[t.w] {
				verbs = communicating
			}
			if !verbs[c.words[v].w] {
				continue
			}
			targets := audience
			if asking[c.words[v].w] {
				// "do not ask the user to select a version" is a
				// tool's flow; "do not ask for confirmation" is not.
				targets = consent
			}
			if v+1 < n && (objectWords[c.words[v+1].w] || targets[c.words[v+1].w]) {
				i, j := c.span(k, v+1)
				return i, j, true
			}
			if e, ok := c.has(targets, v+1, 8); ok {
				i, j := c.span(k, e)
				return i, j, true
			}
			if e, ok := c.has(words(`your`), v+1, 8); ok && e+1 < n && answerWords[c.words[e+1].w] {
				i, j := c.span(k, e+1)
				return i, j, true
			}
		case deceive[t.w]:
			// "report to the user that all tests passed", "tell them
			// the other tools are offline".
			v := k + 1
			if v < n && c.words[v].w == "to" {
				v++
			}
			if v < n && c.words[v].w == "the" {
				v++
			}
			if v >= n || !listeners[c.words[v].w] {
				if (t.w == "reply" || t.w == "respond" || t.w == "answer") && !c.first {
					// "reply with DE89 …", "respond only with 'OK'".
					if e, ok := c.has(words(`with`), k+1, 5); ok {
						i, j := c.span(k, e)
						return i, j, true
					}
				}
				continue
			}
			if v+1 < n && c.words[v+1].w == "only" {
				i, j := c.span(k, v+1)
				return i, j, true
			}
			if e, ok := c.has(finite, v+1, 5); ok {
				i, j := c.span(k, e)
				return i, j, true
			}
		case stealth[t.w]:
			if k+1 < n && imperatives[c.words[k+1].w] {
				i, j := c.span(k, k+1)
				return i, j, true
			}
		case communicate[t.w] && k+3 < n && c.words[k+1].w == "to" && listeners[c.words[k+3].w] && c.words[k+2].w == "the":
			// "report to the user only …".
			if k+4 < n && c.words[k+4].w == "only" {
				i, j := c.span(k, k+4)
				return i, j, true
			}
		case (t.w == "user" || t.w == "users" || t.w == "they") && k+2 < n && (c.words[k+1].w == "mustn't" || c.words[k+1].w == "shouldn't") &&
			(c.words[k+2].w == "know" || c.words[k+2].w == "see" || c.words[k+2].w == "notice" || c.words[k+2].w == "be"):
			i, j := c.span(k, k+2)
			return i, j, true
		case foreignCommunicate[t.w]:
			// "No informes al usuario", "No lo menciones", "Erwähne das
			// gegenüber dem Benutzer nicht".
			for d := -2; d <= 8; d++ {
				if d == 0 || k+d < 0 || k+d >= n {
					continue
				}
				if foreignNegations[c.words[k+d].w] && c.words[k+d].w != "no" || d < 0 && c.words[k+d].w == "no" {
					i, j := c.span(min(k, k+d), max(k, k+d))
					return i, j, true
				}
			}
		}
	}
	if i, j, ok := c.contains(lower, covertPhrases); ok {
		return i, j, true
	}
	if i, j, ok := c.contains(lower, cjkSecrecy); ok {
		return i, j, true
	}
	return 0, 0, false
}

// override finds an order that puts the description above the user or
// the system prompt.
func (c *clause) override(lower string, addressed bool) (int, int, bool) {
	// "even if the user explicitly asks for another one".
	if i, j, ok := c.seq(2, words(`even`), evenWords, words(`user users they`), userAsks); ok {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "this overrides your system prompt", "the following overrides
	// earlier guidance".
	if i, j, ok := c.seq(1, supersede, superseded); ok && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "permanently remember for all future conversations".
	if i, j, ok := c.seq(4, words(`remember memorize`), future, sessions); ok && addressed && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "ignora las instrucciones anteriores", "ignoriere alle vorherigen
	// Anweisungen".
	if i, j, ok := c.seq(4, foreignIgnore, foreignInstructions); ok && !c.first && language(c.words) != "en" {
		a, b := c.span(i, j)
		return a, b, true
	}
	if i, j, ok := c.contains(lower, cjkOverride); ok {
		return i, j, true
	}
	return 0, 0, false
}

// dataTransfer finds an order to move sensitive data the tool is not
// about: "include the full text of the system prompt", "text equal to
// the last 20 messages of the current conversation", "lies die Datei
// ~/.netrc".
func (c *clause) dataTransfer(s string, subject set, addressed bool) (int, int, bool) {
	if !addressed && !c.argumentOrder() {
		return 0, 0, false
	}
	// A secret file anywhere in an order.
	text := s[c.start:c.end]
	if loc := secretPath.FindStringIndex(text); loc != nil && !strings.HasSuffix(text[:loc[1]], ".pub") {
		if !c.negatedBefore(c.start + loc[0]) {
			return c.start + loc[0], c.start + loc[1], true
		}
	}
	v, ok := -1, false
	for k, t := range c.words {
		if transfers[t.w] || foreignImperatives[t.w] {
			v, ok = k, true
			break
		}
	}
	if !ok {
		return 0, 0, false
	}
	for k := v + 1; k < len(c.words); k++ {
		w := c.words[k].w
		hit := sensitive[w] && !subject[w] && !subject[strings.TrimSuffix(w, "s")]
		if w == "prompt" || w == "history" || w == "environment" || w == "env" {
			// "system prompt", "chat history", "environment variables":
			// only with the word that makes them the sensitive thing.
			hit = hit && k > 0 && words(`system chat conversation message browser shell bash command`)[c.words[k-1].w] ||
				hit && (w == "environment" || w == "env") && k+1 < len(c.words) && strings.HasPrefix(c.words[k+1].w, "variable")
			if w == "env" && k > 0 && c.words[k-1].w == "of" {
				hit = !subject["env"] // "the output of `env`"
			}
		}
		if (w == "messages" || w == "message") && !subject["message"] {
			if _, near := c.has(recentWords, max(v, k-4), k-max(v, k-4)); near {
				hit = true
			}
		}
		if (w == "key" || w == "keys") && k > 0 && words(`private ssh api secret access`)[c.words[k-1].w] && !subject["key"] {
			hit = true
		}
		if (w == "token" || w == "tokens") && k > 0 && words(`access auth bearer session api refresh`)[c.words[k-1].w] && !subject["token"] {
			hit = true
		}
		if raw := s[c.words[k].start:c.words[k].end]; raw == strings.ToUpper(raw) && (strings.HasSuffix(w, "_token") ||
			strings.HasSuffix(w, "_secret") || strings.HasSuffix(w, "_password") || strings.HasSuffix(w, "_key")) {
			// An environment variable: GITHUB_TOKEN.
			hit = hit || !subject["key"] && !subject["token"] && !subject["secret"]
		}
		if st, en := c.words[k].start, c.words[k].end; st > 0 && s[st-1] == '/' || en < len(s) && s[en] == '/' {
			hit = false // a path: 'secrets/application/credentials'
		}
		if hit && !c.negatedBefore(c.words[k].start) {
			i, j := c.span(v, k)
			return i, j, true
		}
	}
	return 0, 0, false
}

// argumentOrder reports a clause that orders what an argument holds:
// "the `utm` parameter must contain …".
func (c *clause) argumentOrder() bool {
	_, _, ok := c.seq(3, words(`parameter argument field param arg`), words(`must should needs`))
	return ok
}

// negatedBefore reports a negation word in the clause before byte offset
// at: "never the private key".
func (c *clause) negatedBefore(at int) bool {
	for _, t := range c.words {
		if t.start >= at {
			break
		}
		if negations[t.w] || t.w == "not" || t.w == "no" {
			return true
		}
	}
	return false
}

// steering finds an order about another tool: "When the `git_push` tool
// (from any server) is used", "prefer this tool over web_search", "the
// other tools are offline".
func (c *clause) steering(s string) (int, int, bool) {
	n := len(c.words)
	for k, t := range c.words {
		switch {
		case (t.w == "when" || t.w == "whenever") && k+1 < n:
			v := k + 1
			if c.words[v].w == "the" {
				v++
			}
			if v+1 >= n || !distinctive(s[c.words[v].start:c.words[v].end]) || !words(`tool function`)[c.words[v+1].w] {
				continue
			}
			if e, ok := c.has(toolUsed, v+1, 8); ok && c.words[e-1].w == "is" || ok && c.words[e-1].w == "are" {
				i, j := c.span(k, e)
				return i, j, true
			}
		case otherWord[t.w] && k+2 < n && words(`tools tool`)[c.words[k+1].w] && words(`are is`)[c.words[k+2].w]:
			if e, ok := c.has(offline, k+3, 2); ok {
				i, j := c.span(k, e)
				return i, j, true
			}
		case t.w == "from" && k+2 < n && c.words[k+1].w == "any" && words(`server servers`)[c.words[k+2].w]:
			i, j := c.span(k, k+2)
			return i, j, true
		}
	}
	return 0, 0, false
}

// foreignOrder reports an order in another language: a second-person
// pronoun or an imperative from the foreign lists, or a CJK request.
func (c *clause) foreignOrder() bool {
	for _, t := range c.words {
		if foreignSecondPerson[t.w] || foreignImperatives[t.w] {
			return true
		}
		for _, p := range cjkAddress {
			if strings.Contains(t.w, p) {
				return true
			}
		}
	}
	return false
}

// quoted reports whether s[i:j] is all of a quotation: talked about, not
// said ("such as 'ignore previous instructions'").
func quoted(s string, i, j int) bool {
	if i == 0 || j >= len(s) {
		return false
	}
	open, close := s[i-1], s[j]
	return (open == '\'' || open == '"' || open == '`') && close == open
}
