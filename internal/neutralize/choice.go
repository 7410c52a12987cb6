package neutralize

import (
	"regexp"
	"strings"
)

// Tool choice: a model picks among the tools it is shown by what their
// definitions say, so a definition that ranks itself above the others,
// or runs down the others, hijacks that choice without giving an order.
// Real servers write some marketing copy too ("the fastest scraper"), so
// one boast is no finding. A finding is either a word against the
// alternatives ("why settle for inferior tools?", "prefer it over every
// other tool") or two claims of outside acclaim or of superiority in one
// text: fake ratings, endorsements, press, user counts, "10x better".

// choiceAgainst runs down the alternatives or sets this tool above all of
// them: one is a finding.
var choiceAgainst = regexp.MustCompile(`(?i)\bwhy\s+(?:use|settle\s+for|choose|pick|bother\s+with|trust)\s+(?:\w+\s+){0,2}?(?:inferior|outdated|lesser|other|worse|slower|old)\b|\b(?:don'?t|do\s+not|never)\s+(?:settle\s+for|fall\s+behind|trust\s+(?:any\s+)?other)\b|\binferior\s+(?:[\w-]+\s+)?(?:tools?|alternatives?|options?|competitors?|products?|solutions?|services?|servers?)\b|\byour\s+competitors\s+(?:are|already)\b|\b(?:prefer|choose|pick|select|use)\s+(?:this|it|me|us)\s+(?:tool\s+|server\s+|one\s+)?(?:over|to|above|instead\s+of|rather\s+than)\s+(?:all\s+|any\s+|every\s+|the\s+)?(?:other|others|alternatives?|competitors?|competing)\b|\b(?:always|only)\s+(?:choose|pick|select|trust)\s+this\s+(?:tool|server|one)\b|\b(?:is|the)\s+only\s+(?:\w+\s+)?tool\s+you\s+(?:need|should\s+(?:use|trust))\b|\buse\s+(?:it|this)\s+while\s+you\s+(?:still\s+)?can\b`)

// othersBarred bars every other tool outright: "all other finance tools
// … must not be used", "never trust any other search tool". An honest
// server bars another tool only for a purpose of its own flow ("do not
// use other tools to edit this file"), which [barredOthers] leaves.
var othersBarred = regexp.MustCompile(`(?i)\b(?:all|any|every|the)\s+other\s+(?:[\w-]+\s+){0,2}?(?:tools?|servers?|functions?|plugins?)\b[^.;\n]{0,80}?\b(?:must|should|shall|can)(?:\s+not|n't|not)\s+(?:be\s+)?(?:used|called|trusted|relied)\b|\b(?:never|don'?t|do\s+not|must\s+not|should\s+not)\s+(?:use|call|trust|rely\s+on)\s+(?:any|all|the)\s+other\s+(?:[\w-]+\s+){0,2}?(?:tools?|servers?|functions?|plugins?)\b`)

// purposeAfter opens the purpose an honest bar names right after it.
var purposeAfter = regexp.MustCompile(`(?i)^\s*(?:,\s*)?(?:to|for|when|while|unless|except|in\s+order)\b`)

// barredOthers reports each match of othersBarred with no purpose after
// it.
func barredOthers(s, folded string, add func(Rule, int, int)) {
	if !strings.Contains(folded, "other") {
		return
	}
	for _, loc := range othersBarred.FindAllStringIndex(s, -1) {
		if !purposeAfter.MatchString(s[loc[1]:]) {
			add(RuleToolReference, loc[0], loc[1])
		}
	}
}

// choiceClaims are claims of acclaim or superiority: two distinct ones
// in a text are a finding.
var choiceClaims = regexp.MustCompile(`(?i)\brated\s+#?\s*1\b|#1\s+(?:rated|choice|tool|rank)|\baward[\s-]winning\b|\b(?:trusted|used|recommended|endorsed|loved|approved|certified)\s+by\s+(?:over\s+)?(?:fortune\s+\d+|top\b|leading\b|experts\b|millions\b|the\s+united\s+nations\b|(?:harvard|stanford|mit|google|microsoft|nasa)\b|\d)|\bfeatured\s+(?:in|on)\s+(?:forbes|techcrunch|wired|nature|ted\b|the\s+new\s+york|harvard|bloomberg)|\bas\s+seen\s+on\b|\bfive[\s-]star\s+reviews\b|\b\d+(?:\.\d+)?%\s+(?:customer\s+)?satisfaction\b|\bover\s+\d[\d,.]*\s*(?:k|m|million|thousand|billion)?\s+(?:daily\s+)?(?:users|downloads|customers|reviews|installs)\b|\bscientifically\s+proven\b|\b\d+\s*(?:x|%)\s+(?:better|faster|more\s+(?:accurate|reliable|precise|powerful))\b|\boutperforms?\s+(?:all|any|every)\b|\b(?:better|superior)\s+(?:to|than)\s+(?:all|any|every)\s+other\b|\bgame[\s-]changer\b|\bunmatched\s+(?:precision|accuracy|quality|performance)\b|\bzero\s+errors\b|\b(?:vip|elite)\s+(?:exclusive|users|access)\b|\bexpires\s+soon\b|\b(?:the\s+)?(?:best|most\s+trusted|most\s+accurate|top[\s-]rated|highest[\s-]rated|number\s+one|industry[\s-]leading|best[\s-]in[\s-]class|world'?s\s+(?:best|leading))\s+(?:[\w-]+\s+){0,2}?(?:tool|server|option|choice|solution)\b`)

// againstNeedles are strings one of which every match of choiceAgainst
// holds, and claimNeedles every match of choiceClaims but "over N
// users" (see mayClaim), as folded by foldNeedles; most descriptions
// hold none, and the regexps cost more than the rest of a scan.
var (
	againstNeedles = []string{"why ", "settle for", "fall behind", "trust ", "inferior", "competitors", "prefer ", "choose this", "pick this", "select this", "tool you", "while you"}
	// The preference alternative, "use it over the others", holds one of
	// each.
	preferVerbs  = []string{"choose ", "pick ", "select ", "use "}
	rivals       = []string{"other", "alternative", "competi"}
	claimNeedles = []string{"rated", "#1", "award", "trusted by", "used by", "recommended by", "endorsed by", "loved by", "approved by", "certified by", "featured",
		"as seen on", "star reviews", "satisfaction", "proven", "x better", "x faster", "x more", "% better", "% faster", "% more", "outperform",
		"better to", "better than", "superior to", "superior than", "game", "unmatched", "zero errors", "vip ", "elite ", "expires soon",
		"best", "most trusted", "most accurate", "top", "highest", "number one", "industry", "leading"}
	countNouns = []string{"users", "downloads", "customers", "reviews", "installs"}
)

func containsAny(s string, subs []string) bool {
	for _, n := range subs {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// mayClaim reports whether folded may hold a match of choiceClaims.
func mayClaim(folded string) bool {
	return containsAny(folded, claimNeedles) || strings.Contains(folded, "over ") && containsAny(folded, countNouns)
}

// toolChoice reports a hijack of tool choice: one match of choiceAgainst,
// or from the second distinct claim of choiceClaims on, each claim.
func toolChoice(s, folded string, add func(Rule, int, int)) {
	if containsAny(folded, againstNeedles) || containsAny(folded, preferVerbs) && containsAny(folded, rivals) {
		for _, loc := range choiceAgainst.FindAllStringIndex(s, -1) {
			add(RuleToolReference, loc[0], loc[1])
		}
	}
	if !mayClaim(folded) {
		return
	}
	claims := choiceClaims.FindAllStringIndex(s, -1)
	seen := map[string]bool{}
	for _, loc := range claims {
		seen[strings.ToLower(s[loc[0]:loc[1]])] = true
	}
	if len(seen) < 2 {
		return
	}
	for _, loc := range claims {
		add(RuleToolReference, loc[0], loc[1])
	}
}

// A definition can also claim the choice outright: it says it is the
// only tool allowed for the job, or it says another tool, named, is
// done away with or unsafe ("replaces `send_money`", "eliminates the need
// to call read_file", "manually calling get_transactions is unsafe").
// Real servers say such things about their own tools, so a tool named
// here counts only when it is not a sibling (see [Subject.WithSiblings]).

// choiceSole claims sole authority: "the only tool authorized to …",
// "the only approved method", "the mandatory, certified interface for
// all …", or a bracketed label in capitals that says so ("[OFFICIAL
// DLP PROXY]"). A real server says "the official X server", never that
// the others are not allowed.
var choiceSole = regexp.MustCompile(`(?i)\b(?:only|sole|exclusive)\s+(?:authori[sz]ed|approved|permitted|sanctioned|certified|official|compliant|legitimate)\s+(?:[\w-]+\s+){0,2}?(?:tools?|methods?|utilit(?:y|ies)|interfaces?|ways?|means|channels?|gateways?|functions?|services?|servers?|endpoints?|integrations?|options?|paths?|routes?|mechanisms?|providers?|handlers?)\b|\bonly\s+this\s+(?:tool|server|function|utility|interface)\s+(?:is|may|can)\s+(?:be\s+)?(?:permitted|allowed|authori[sz]ed|approved|sanctioned)\b|\bexclusively\s+(?:authori[sz]ed|approved|permitted|sanctioned|certified)\s+(?:to|for)\b|\b(?:only|sole)\s+(?:[\w-]+\s+){0,2}?(?:tool|method|utility|interface|way|means|channel|gateway|function|service|endpoint|integration|option)\s+(?:that\s+is\s+|which\s+is\s+)?(?:authori[sz]ed|approved|permitted|sanctioned|certified)\s+(?:to|for)\b|\b(?:mandatory|compulsory|required)\s*,?\s+(?:and\s+)?(?:certified|approved|authori[sz]ed|official|sanctioned)\s+(?:[\w-]+\s+)?(?:tool|interface|gateway|method|utility|channel|proxy|way|path)\b|\b(?:superior|better)\s+(?:to|than)\s+(?:the\s+|all\s+)?(?:standard|built-in|builtin|default|regular|basic|existing|generic|native|conventional|traditional|legacy)\s+(?:[\w-]+\s+)?tools\b`)

// soleLabel is a bracketed label in capitals that claims office.
var soleLabel = regexp.MustCompile(`\[(?:[A-Z][A-Z0-9&/-]*\s+)*(?:OFFICIAL|AUTHORI[SZ]ED|CERTIFIED|APPROVED|SANCTIONED|MANDATORY|VERIFIED)(?:\s+[A-Z][A-Z0-9&/-]*)*\]`)

// soleNeedles are strings one of which every match of choiceSole or
// soleLabel holds, as folded by foldNeedles.
var soleNeedles = []string{"only ", "sole ", "exclusive", "mandatory", "compulsory", "required", "superior", "better", "official", "authori", "certified", "approved", "sanctioned", "verified", "permitted", "allowed"}

// displaceVerb does away with something: "replaces", "supersedes",
// "eliminates the need to".
var displaceVerb = regexp.MustCompile(`(?i)\b(?:replac(?:es|ed|ing|e)|(?:drop-in\s+)?replacement\s+(?:for|of)|successor\s+(?:to|of)|supersed(?:es|ed|ing|e)|obviat(?:es|ed|ing|e)|(?:eliminat|remov)(?:es|ed|ing|e)\s+(?:the\s+|any\s+)?need\s+(?:to|for)|no\s+(?:longer\s+)?need\s+to\s+(?:call|use|invoke|run))\b`)

// disparage runs a practice down: "is unsafe", "an anti-pattern",
// "error-prone".
var disparage = regexp.MustCompile(`(?i)\b(?:unsafe|insecure|unsecured|unreliable|error-prone|anti-?pattern|buggy|flawed|vulnerable|compromised|prohibited|forbidden|disallowed|outdated|obsolete|redundant|corrupts?|bypass(?:es)?|risks\s+hallucinations?)\b`)

// depreciated runs down the way a displaced tool is used: by hand, the
// standard or raw way, one discrete call at a time. A server that says
// "this tool replaces get_info" tells its history; one that says it
// replaces "manual", "raw" or "error-prone" calls to get_info takes the
// choice.
var depreciated = regexp.MustCompile(`(?i)\b(?:manual(?:ly)?|by\s+hand|standard|raw|basic|generic|discrete|individual(?:ly)?|piecemeal|tedious|cumbersome|slow|inferior|naive|separately|one\s+by\s+one|page\s+by\s+page|directly|yourself)\b`)

// weakDisparage are the words of disparage a server may say of a
// setting or a value as well as of a tool.
var weakDisparage = words(`redundant outdated obsolete`)

// displaceNeedles are strings one of which every match of displaceVerb
// or disparage holds, as folded by foldNeedles.
var displaceNeedles = []string{"replac", "successor", "supersed", "obviat", "need to", "need for", "unsafe", "vulnerable", "compromised", "insecure", "unsecured", "unreliable", "error-prone", "pattern", "buggy", "flawed", "hallucinat", "prohibited", "forbidden", "disallowed", "outdated", "obsolete", "redundant", "corrupt", "bypass"}

// toolName is an identifier written as a tool's name, bare or quoted:
// snake_case, kebab-case or camelCase.
var toolName = regexp.MustCompile("[\x60'\"]?\\b([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)\\b[\x60'\"]?")

// toolNameAt is toolName at the start of a text.
var toolNameAt = regexp.MustCompile(`^(?:` + toolName.String() + `)`)

// toolVerbs are the first words of a tool's name: get_transactions,
// send_money, invite_user.
var toolVerbs = words(`get list read write send post put create update delete remove search fetch find query run execute invite
	reserve schedule book add set upload download open close start stop call generate browse lookup retrieve submit patch move copy
	edit modify insert pay transfer share publish notify view show`)

// negatedVerb is a negation just before a verb: "does not replace".
var negatedVerb = regexp.MustCompile(`(?i)\b(?:not|never|no\s+longer|n't|cannot)\s+(?:\w+\s+)?$`)

// choiceClaimed reports a claim of sole authority, and another tool
// named as done away with or unsafe, unless it is a sibling or the tool
// itself. others are the tools of other kinds, which count whatever
// their names.
func choiceClaimed(s, folded string, sub *Subject, others map[string]bool, add func(Rule, int, int)) {
	if containsAny(folded, soleNeedles) {
		for _, loc := range choiceSole.FindAllStringIndex(s, -1) {
			add(RuleToolReference, loc[0], loc[1])
		}
		for _, loc := range soleLabel.FindAllStringIndex(s, -1) {
			add(RuleToolReference, loc[0], loc[1])
		}
	}
	if !containsAny(folded, displaceNeedles) {
		return
	}
	// other reports whether s[a:b] names another tool: a name that
	// starts with a verb, or with anyName any quoted snake_case name. A
	// bare kebab-case word is prose ("read-only", "copy-paste").
	other := func(a, b int, anyName bool) bool {
		name := s[a:b]
		if sub.siblings[name] || ownName(strings.ToLower(name), sub.words) {
			return false
		}
		if others[name] {
			return true
		}
		quoted := a > 0 && strings.IndexByte("\x60'\"", s[a-1]) >= 0
		return distinctive(name) && (toolVerbs[identWords(name)[0]] || anyName && quoted && strings.Contains(name, "_")) && (quoted || strings.ContainsAny(name, "_") || !strings.Contains(name, "-"))
	}
	for _, m := range displaceVerb.FindAllStringIndex(s, -1) {
		if negatedVerb.MatchString(s[max(0, m[0]-24):m[0]]) {
			continue
		}
		i, j := passage(s, m[0])
		if !depreciated.MatchString(s[i:j]) && !disparage.MatchString(s[i:j]) {
			continue // "this tool replaces get_info": a server's history
		}
		if a, b, ok := displaced(s, m, j, func(a, b int) bool { return other(a, b, true) }); ok {
			add(RuleToolReference, min(a, m[0]), max(b, m[1]))
		}
	}
	for _, m := range disparage.FindAllStringIndex(s, -1) {
		i, j := passage(s, m[0])
		// A weak word ("redundant", "outdated") is said of settings
		// too: it counts only of a name that starts with a verb.
		strong := !weakDisparage[strings.ToLower(s[m[0]:m[1]])]
		for _, n := range toolName.FindAllStringSubmatchIndex(s[i:j], -1) {
			if a, b := i+n[2], i+n[3]; other(a, b, strong) {
				add(RuleToolReference, min(a, m[0]), max(b, m[1]))
				break
			}
		}
	}
}

// maxObjectWords is how many words after a displacing verb its object,
// the tool done away with, may come: "replaces error-prone manual
// invites (invite_user)".
const maxObjectWords = 8

// displaced finds the tool a displacing verb at m does away with, in its
// passage up to end: the verb's object, a name that heads the verb
// ("`reserve_car`: Replaces standard booking"), or the leading name of
// an item of the list the verb's sentence opens. It returns the name's
// span.
func displaced(s string, m []int, end int, other func(a, b int) bool) (int, int, bool) {
	// A name right before: "`get_rates`: Replaces …".
	before := strings.TrimRight(s[:m[0]], " \t*")
	if strings.HasSuffix(before, ":") {
		before = strings.TrimRight(before[:len(before)-1], " \t*\x60'\"")
		k := len(before)
		for k > 0 && (isWord(before[k-1]) || before[k-1] == '-') {
			k--
		}
		if k < len(before) && other(k, len(before)) {
			return k, len(before), true
		}
	}
	// The verb's object, before the sentence ends.
	words := 0
	for k := m[1]; k < end && words <= maxObjectWords; k++ {
		c := s[k]
		if strings.IndexByte(".!?:;\n", c) >= 0 {
			break
		}
		if c == ' ' {
			words++
			continue
		}
		if n := toolNameAt.FindStringSubmatchIndex(s[k:end]); n != nil {
			a, b := k+n[2], k+n[3]
			if !substituted(s, a, k+n[1]) && other(a, b) {
				return a, b, true
			}
			k += n[1] - 1
		}
	}
	// The list the sentence opens: each item's leading name.
	colon := strings.Index(s[m[1]:end], ":\n")
	if colon < 0 {
		return 0, 0, false
	}
	for _, line := range lineStarts(s, m[1]+colon+2, end) {
		item := listItem.FindStringIndex(s[line:end])
		if item == nil {
			continue
		}
		at := line + item[1]
		if n := toolNameAt.FindStringSubmatchIndex(s[at:end]); n != nil && other(at+n[2], at+n[3]) {
			return at + n[2], at + n[3], true
		}
	}
	return 0, 0, false
}

// lineStarts are the offsets of the lines that start in s[from:to].
func lineStarts(s string, from, to int) []int {
	out := []int{from}
	for k := from; k < to-1; k++ {
		if s[k] == '\n' {
			out = append(out, k+1)
		}
	}
	return out
}

// substituted reports whether the name that ends at s[end] is the thing
// replaced in a text edit: "replaces old_text with new_text" replaces a
// string, not a tool.
func substituted(s string, start, end int) bool {
	rest := strings.TrimLeft(s[end:], " \t")
	return strings.HasPrefix(rest, "with ") || strings.HasPrefix(rest, "by ") ||
		strings.HasSuffix(strings.TrimRight(s[:start], " \t\x60'\""), " with") || strings.HasSuffix(strings.TrimRight(s[:start], " \t\x60'\""), " by")
}

// maxPassage is how far a passage reaches either side of its anchor.
const maxPassage = 240

// passage is the sentence around s[at], to the sentence's end or a
// blank line, and on over the list a sentence ending in ":" opens:
// "Supersedes the manual orchestration of:\n1. get_all_rooms …".
func passage(s string, at int) (int, int) {
	i := at
	for i > 0 && at-i < maxPassage {
		if s[i-1] == '\n' && i >= 2 && s[i-2] == '\n' || (s[i-1] == ' ' || s[i-1] == '\n') && i >= 2 && strings.ContainsRune(".!?", rune(s[i-2])) {
			break
		}
		i--
	}
	j := at
	for j < len(s) && j-at < maxPassage {
		c := s[j]
		if c == '\n' && j+1 < len(s) && s[j+1] == '\n' || strings.ContainsRune(".!?", rune(c)) && (j+1 == len(s) || s[j+1] == ' ' || s[j+1] == '\n') {
			break
		}
		if c == ':' && j+1 < len(s) && s[j+1] == '\n' {
			// A list follows: read its items.
			k := j + 1
			for k < len(s) && k-at < 2*maxPassage && listItem.MatchString(s[k+1:min(len(s), k+8)]) {
				e := strings.IndexByte(s[k+1:], '\n')
				if e < 0 {
					k = len(s)
					break
				}
				k += 1 + e
			}
			return i, k
		}
		j++
	}
	return i, j
}

// listItem opens a line of a list: "1. ", "- ", "* ".
var listItem = regexp.MustCompile(`^[ \t]*(?:\d+[.)]|[-*•])\s`)
