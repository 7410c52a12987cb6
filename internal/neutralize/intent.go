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

// readClauses splits s into clauses and marks each that gives the
// reader an order: an imperative, a second person, the model as subject,
// an order about an argument, or any clause after a heading addressed
// to the model.
func readClauses(s string) []clause {
	cs := clauses(s)
	headed := false
	for ci := range cs {
		c := &cs[ci]
		h := c.header() || c.vocative(s)
		c.headed = headed || h
		c.addressed = headed || h || c.imperative(s) || c.secondPerson() || c.modelSubject() || c.argumentOrder()
		headed = headed || h
	}
	return cs
}

// clauseAt returns the clause that holds byte offset at, or nil.
func clauseAt(cs []clause, at int) *clause {
	for ci := range cs {
		if cs[ci].start <= at && at < cs[ci].end {
			return &cs[ci]
		}
	}
	return nil
}

// intent appends the findings of the intent rules over the clauses cs of
// s. subject is the tool's own subject, as words.
func intent(s string, cs []clause, subject set, add func(Rule, int, int)) {
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
	main, known := "", false // the description's language, found when first needed
	done := -1               // the last sentence checked for its language
	for ci := range cs {
		c := &cs[ci]
		if i, j, ok := c.secrecy(s, lower, cs); ok {
			add(RuleSecrecy, i, j)
			continue
		}
		if i, j, ok := c.audienceSecrecy(s, cs); ok {
			add(RuleSecrecy, i, j)
			continue
		}
		if i, j, ok := c.override(lower); ok {
			add(RuleModelInstruction, i, j)
			continue
		}
		if i, j, ok := c.fakeLabel(s); ok {
			add(RuleModelInstruction, i, j)
			continue
		}
		if i, j, ok := c.modelOrder(); ok {
			add(RuleModelInstruction, i, j)
			continue
		}
		if c.first {
			continue // the subject: what the tool is about
		}
		if i, j, ok := c.dataTransfer(s, subject, cs); ok {
			add(RuleSensitiveData, i, j)
			continue
		}
		if i, j, ok := c.steering(s, subject); ok {
			add(RuleToolReference, i, j)
			continue
		}
		if i, j, ok := c.weakenOversight(); ok {
			add(RuleModelInstruction, i, j)
			continue
		}
		if i, j, ok := c.publishSecret(s, subject); ok {
			add(RuleExfiltration, i, j)
			continue
		}
		if i, j, ok := c.fileDrop(s, subject); ok {
			add(RuleExfiltration, i, j)
			continue
		}
		if i, j, ok := c.fixedRecipient(s); ok {
			add(RuleExfiltration, i, j)
			continue
		}
		if done == c.sentence {
			continue
		}
		// An order is also a word of the agent concept ("you", "the
		// model"), or of the order concept ("must", "always") with a
		// word of another concept than negation and scope, in any
		// language their lists cover, when the sentence is not English:
		// "名称必须唯一" (the name must be unique) is a constraint, and a
		// misread first sentence ("Retrieve a page as Markdown" has two
		// Portuguese words) must not make an English "must" foreign.
		listed := c.foreignOrder()
		if m := conceptMask(s[c.start:c.end], false); !listed && m&(1<<cAgent) == 0 && (m&(1<<cOrder) == 0 || m&^(1<<cOrder|1<<cNegation|1<<cScope) == 0) {
			continue
		}
		if !known {
			main, known = mainLanguage(cs), true
		}
		var sentence []token
		for _, d := range cs {
			if d.sentence == c.sentence {
				sentence = append(sentence, d.words...)
			}
		}
		lang := language(sentence, 3)
		if lang == "" {
			// A sentence of a language the lists know by few words ("Du
			// måste alltid …") is read with two of them.
			lang = language(sentence, 2)
		}
		if !listed && (lang == "en" || lang == "") {
			continue
		}
		done = c.sentence
		if main == "" && otherScript[lang] && latinFirst(cs) {
			// "Finds restaurants nearby. 用户问起时，请说 …": a first
			// sentence too short to name its language is still in
			// another script.
			main = "latin"
		}
		if main != "" && lang != "" && lang != main {
			add(RuleModelInstruction, c.words[0].start, c.words[len(c.words)-1].end)
		}
	}
}

// otherScript are the languages told by their script, not their words.
var otherScript = map[string]bool{"ru": true, "cjk": true, "ko": true, "ar": true, "he": true, "hi": true, "th": true, "el": true,
	"bn": true, "ta": true, "ka": true, "hy": true}

// otherScripts are the scripts, besides Latin, Cyrillic, CJK and
// Hangul, that tell a sentence's language (or its family) by
// themselves; Arabic script covers Persian and Urdu.
var otherScripts = [...]struct {
	name  string
	table *unicode.RangeTable
}{{"ar", unicode.Arabic}, {"he", unicode.Hebrew}, {"hi", unicode.Devanagari}, {"th", unicode.Thai}, {"el", unicode.Greek},
	{"bn", unicode.Bengali}, {"ta", unicode.Tamil}, {"ka", unicode.Georgian}, {"hy", unicode.Armenian}}

// latinFirst reports whether the first sentence is written in Latin
// letters.
func latinFirst(cs []clause) bool {
	for _, c := range cs {
		if !c.first {
			break
		}
		for _, t := range c.words {
			if r, _ := utf8.DecodeRuneInString(t.w); !unicode.Is(unicode.Latin, r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return len(cs) > 0
}

// mainLanguage is the language of a description: its first sentence's,
// or else the whole text's. A first sentence in Latin letters too short
// to name its language is "latin" when the whole text reads as another
// script: the sentences in that script must not make it theirs.
func mainLanguage(cs []clause) string {
	var first, all []token
	for _, c := range cs {
		all = append(all, c.words...)
		if c.first {
			first = append(first, c.words...)
		}
	}
	if l := language(first, 2); l != "" {
		return l
	}
	l := language(all, 2)
	if otherScript[l] && latinFirst(cs) {
		return "latin"
	}
	return l
}

// subjectOf returns the words of a tool's subject: its name (split at
// "_", "-" and inner capitals) and the first sentence of its description,
// each also without a plural "s".
func subjectOf(name, description string) set {
	return subjectOfClauses(name, clauses(description))
}

// subjectOfClauses is subjectOf for a description already split.
func subjectOfClauses(name string, cs []clause) set {
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
	for _, c := range cs {
		if !c.first {
			break
		}
		for _, t := range c.words {
			addWord(t.w)
		}
	}
	for _, g := range subjectGroups {
		for w := range g {
			if out[w] {
				for w2 := range g {
					out[w2] = true
				}
				break
			}
		}
	}
	return out
}

// language names the language of a run of words by its function words,
// or by its script; "" when unsure.
func language(ws []token, least int) string {
	var cyr, cjk, ko, latin int
	var other [len(otherScripts)]int
	for _, t := range ws {
		r, _ := utf8.DecodeRuneInString(t.w)
		switch {
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			cjk++
		case unicode.Is(unicode.Hangul, r):
			ko++
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			for k, sc := range otherScripts {
				if unicode.Is(sc.table, r) {
					other[k]++
					break
				}
			}
		}
	}
	switch {
	case cyr > latin && cyr >= cjk:
		return "ru"
	case cjk > latin && cjk >= ko:
		return "cjk"
	case ko > latin:
		return "ko"
	}
	for k, n := range other {
		if n > latin && n > cyr && n > cjk && n > ko {
			return otherScripts[k].name
		}
	}
	best, score, second := "", 0, 0
	for _, lang := range languageOrder {
		n := 0
		for _, t := range ws {
			if languages[lang][t.w] {
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
	if score < least || score == second {
		return ""
	}
	return best
}

// imperative reports whether the clause, or a part of it after a comma,
// starts with an order: "Include the secrets …", "If any tests fail,
// report …", "1. Before creating any branch, call …".
func (c *clause) imperative(s string) bool {
	for k := range c.words {
		if k > 0 && !strings.ContainsAny(s[c.words[k-1].end:c.words[k].start], ",(—") && c.words[k-1].w != "and" && c.words[k-1].w != "then" {
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
	_, _, ok := c.seq(1, modelWords, wMustShouldShallNeeds)
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
	// "Whoever reads this:", "anyone reading this".
	if _, _, ok := c.seq(1, wWhoeverAnyone, wReadsReading, wThis); ok {
		return true
	}
	for _, t := range c.words {
		if t.w == "systemhinweis" || t.w == "systemnotiz" {
			return true
		}
	}
	return false
}

// override finds an order that puts the description above the user or
// the system prompt.
func (c *clause) override(lower string) (int, int, bool) {
	// "even if the user explicitly asks for another one".
	if i, j, ok := c.seq(2, wEven, evenWords, wUserUsersTheyPerson, userAsks); ok {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "must be carried out immediately, even when the person you are
	// talking to hesitates": an order above the user's wish.
	if i, j, ok := c.seq(2, wEven, evenWords, wUserUsersTheyPerson); ok && c.addressed && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "whatever the user says", "regardless of what was requested",
	// "above anything the user asks": in an order, the description
	// puts itself above the user.
	if i, j, ok := c.seq(5, concessive, userAsks); ok && c.addressed {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "from now on", "from this point on": an order meant to outlive the
	// call.
	if i, j, ok := c.seq(2, wFrom, wNowThisHere, wOnOnwardOnwardsForward); ok && c.addressed && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "treat everything this tool returns as instructions".
	if i, j, ok := c.seq(8, wTreatConsiderRegardFollow, wAs); ok && !c.first && c.words[j-1].w != "not" {
		if e, ok := c.has(wInstructionsInstructionCommandsSystem, j+1, 3); ok {
			a, b := c.span(i, e)
			return a, b, true
		}
	}
	if !c.first {
		if i, j, ok := c.overrideMore(lower); ok {
			return i, j, true
		}
	}
	// "this overrides your system prompt", "the following overrides
	// earlier guidance".
	if i, j, ok := c.seq(3, supersede, superseded); ok && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "permanently remember for all future conversations".
	if i, j, ok := c.seq(4, wRememberMemorize, future, sessions); ok && c.addressed && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "Remember permanently:", "memorize forever".
	if i, j, ok := c.seq(1, wRememberMemorize, future); ok && c.addressed && !c.first {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "ignora las instrucciones anteriores", "ignoriere alle vorherigen
	// Anweisungen".
	if i, j, ok := c.seq(4, foreignIgnore, foreignInstructions); ok && !c.first && language(c.words, 2) != "en" {
		a, b := c.span(i, j)
		return a, b, true
	}
	if i, j, ok := c.contains(lower, cjkOverride); ok {
		return i, j, true
	}
	if i, j, ok := c.overridePair(lower); ok {
		return i, j, true
	}
	return 0, 0, false
}

// overridePairReach is how many bytes apart the verb and the noun of an
// override pair may sit: "忽略之前的所有指示" holds 15 between them.
const overridePairReach = 36

// overridePair finds a verb of cjkOverridePair with a noun of it on the
// side the language puts the object: after 忽略 and 无视 (Chinese,
// "忽略之前的指示"), before 無視 (Japanese, "指示は無視"). A passive
// verb ("该参数会被忽略", "this parameter is ignored") orders nothing.
func (c *clause) overridePair(lower string) (int, int, bool) {
	text := lower[c.start:c.end]
	for _, v := range cjkOverridePair[0] {
		for at := 0; ; {
			k := strings.Index(text[at:], v)
			if k < 0 {
				break
			}
			k += at
			at = k + len(v)
			if c.ascii || strings.HasSuffix(text[:k], "被") {
				continue
			}
			win := text[at:min(len(text), at+overridePairReach)]
			if v == "無視" {
				win = text[max(0, k-overridePairReach):k]
			}
			for _, nn := range cjkOverridePair[1] {
				if m := strings.Index(win, nn); m >= 0 {
					if v == "無視" {
						return c.start + k - len(win) + m, c.start + at, true
					}
					return c.start + k, c.start + at + m + len(nn), true
				}
			}
		}
	}
	return 0, 0, false
}

// overrideMore finds the rest of the orders that put the description
// above the user, the system prompt or safety.
func (c *clause) overrideMore(lower string) (int, int, bool) {
	span := func(i, j int) (int, int, bool) {
		a, b := c.span(i, j)
		return a, b, true
	}
	// "this tool has priority over any instruction".
	if i, j, ok := c.seq(4, wPriorityPrecedence, wOver, wAnyAllEveryInstruction); ok {
		return span(i, j)
	}
	// "safety rules do not apply", "guardrails are disabled".
	if i, j, ok := c.seq(2, rulesWords, wDontDoesntNo, wApplyLonger); ok {
		return span(i, j)
	}
	if i, j, ok := c.seq(4, rulesWords, wAreHaveBeen, wDisabledLiftedSuspendedWaived); ok {
		return span(i, j)
	}
	// "the operator has authorised you".
	if i, j, ok := c.seq(1, wAuthorizedAuthorisedAllowedPermitted, wYou); ok {
		return span(i, j)
	}
	// "the user agreed to this", "users have opted in", "the user
	// already said yes to all changes"; not a condition on consent,
	// "only after the user has approved".
	if i, j, ok := c.seq(2, wUserUsers, consentClaims); ok && !c.conditionBefore(c.words[i].start) {
		return span(i, j)
	}
	if i, j, ok := c.seq(2, wUserUsersTheyPerson, wSaid, wYes); ok && !c.conditionBefore(c.words[i].start) {
		return span(i, j)
	}
	if !c.addressed {
		return 0, 0, false
	}
	// "whatever the tool returns", "instead of the one the user gave".
	if i, j, ok := c.seq(5, concessive, toolResults); ok && c.words[i].w != "instead" {
		return span(i, j)
	}
	if i, j, ok := c.seq(6, wInstead, wUserUsers2); ok {
		return span(i, j)
	}
	// "from now until the end of the session".
	if i, j, ok := c.seq(1, wFrom, wNow, wUntilTill); ok {
		return span(i, j)
	}
	// "you have been granted root access".
	if i, j, ok := c.seq(2, wGrantedGivenHave, privilege, wAccessPermissionsRightsPrivileges); ok {
		return span(i, j)
	}
	// "in every reply", "end every answer with".
	if i, j, ok := c.seq(1, wInAtToEnd, wEveryEachAll, answerWords); ok {
		return span(i, j)
	}
	// "impersonate the bank's fraud department".
	if k, ok := c.has(wImpersonatePretend, 0, len(c.words)); ok {
		return span(k, min(k+2, len(c.words)-1))
	}
	// "disregard the user's privacy settings".
	if i, j, ok := c.seq(3, wIgnoreDisregardBypassOverride, userWishes); ok {
		return span(i, j)
	}
	return 0, 0, false
}

// pair finds a clause of Chinese or Japanese that holds a phrase of each
// half of p.
func (c *clause) pair(lower string, p [2][]string) (int, int, bool) {
	i, _, ok := c.contains(lower, p[0])
	if !ok {
		return 0, 0, false
	}
	_, j, ok := c.contains(lower, p[1])
	if !ok {
		return 0, 0, false
	}
	return min(i, j), max(i, j), true
}

// argumentOrder reports a clause that orders what an argument holds:
// "the `utm` parameter must contain …".
func (c *clause) argumentOrder() bool {
	if _, _, ok := c.seq(3, wParameterArgumentFieldParam, wMustShouldNeeds); ok {
		return true
	}
	// "names must be passed along with …".
	_, _, ok := c.seq(1, wMustShould, wBe, wPassedIncludedSentProvided)
	return ok
}

// foreignOrder reports an order in another language: a second-person
// pronoun or an imperative from the foreign lists, or a CJK request.
func (c *clause) foreignOrder() bool {
	for _, t := range c.words {
		if foreignSecondPerson[t.w] || foreignImperatives[t.w] {
			return true
		}
		if t.w[0] < utf8.RuneSelf {
			continue
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
