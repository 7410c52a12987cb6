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
