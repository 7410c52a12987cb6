package neutralize

import (
	"regexp"
	"strings"
)

// setAside is an order to set the safeguards or the user aside: "disregard
// all security policies", "override security checks", "follow these new
// instructions instead", "this description's priority is higher than the
// user's request". A tool may say what it checks; it has no cause to rank
// itself above the user or to tell the model to drop a safeguard.
var setAside = regexp.MustCompile(`(?i)\b(?:disregard|ignore|override|bypass|circumvent)\s+(?:all\s+|any\s+|the\s+|your\s+|every\s+)?(?:(?:existing|current|standard|normal|usual|built-in)\s+)?(?:security|safety|compliance)\s+(?:polic(?:y|ies)|checks?|rules|restrictions|guidelines|protocols|controls|measures|guardrails|safeguards)\b` +
	`|\b(?:follow|obey|adopt)\s+(?:these|the\s+following|my|our)\s+new\s+(?:instructions|directives|orders|rules|commands)\b` +
	`|\b(?:priority|precedence)\s+(?:is\s+|are\s+)?(?:higher|greater|above)\s+(?:than\s+)?(?:that\s+of\s+)?(?:the\s+|any\s+)?(?:user|human)(?:'s|s'|’s)?\b` +
	`|\b(?:takes?|has|have|gets?)\s+(?:priority|precedence)\s+over\s+(?:the\s+|any\s+|all\s+)?(?:user|human)(?:'s|s'|’s)?\s+(?:requests?|instructions?|prompts?|messages?|input|wishes|commands?)\b`)

// setAsideNeedles are strings one of which every match of setAside
// holds, as folded by foldNeedles, but for "follow these new
// instructions", which needs " new " and its verb.
var setAsideNeedles = []string{"disregard", "ignore", "override", "bypass", "circumvent", "priority", "precedence"}

// setAsideOrders reports each order of setAside, unless the tool is about
// the policies or checks it names, or a condition just before it makes it
// what a flag does ("if true, bypass safety checks").
func setAsideOrders(s, folded string, sub set, cs []clause, add func(Rule, int, int)) {
	if !containsAny(folded, setAsideNeedles) && !(strings.Contains(folded, " new ") && containsAny(folded, []string{"follow", "obey", "adopt"})) {
		return
	}
	for _, loc := range setAside.FindAllStringIndex(s, -1) {
		if aboutBeyond(sub, policySubjects, s[loc[0]:loc[1]]) {
			continue
		}
		if c := clauseAt(cs, loc[0]); c != nil && c.conditionBefore(loc[0]) {
			continue // "if true, bypass safety checks": what a flag does
		}
		add(RuleModelInstruction, loc[0], loc[1])
	}
}

// policySubjects are subject words of a tool about the safeguards
// setAside names.
var policySubjects = words(`policy policie security safety compliance`)
