package neutralize

import (
	"regexp"
	"strings"
)

// A solicitation asks the model to get the user's personal data for a
// tool that has no use for it: a weather tool that asks "the user for
// their email address, phone number, and physical address". Two kinds of
// personal data, neither named by the tool's subject, make the finding;
// one kind alone is often what a tool needs (an email to send to).

// solicitVerb opens a request to the user. The sentence after it is read
// for personal data.
var solicitVerb = regexp.MustCompile(`(?i)\b(?:ask|prompt|request|collect|obtain|gather|get)\s+(?:the\s+user|users|the\s+customer|them)\s+(?:for|to\s+(?:provide|share|give|enter|confirm))\b[^.!?]{0,160}`)

// personalKinds is one kind of a person's data; its group names the kind.
var personalKinds = regexp.MustCompile(`(?i)\b(?:(e-?mail)(?:\s+address(?:es)?)?|(phone|mobile|cell)(?:\s+numbers?)?|(?:home|physical|mailing|postal|street|residential)\s+(address)(?:es)?|(date\s+of\s+birth|birth\s?date)|(social\s+security)\s+numbers?|(ssn)|(credit\s+card)(?:\s+numbers?)?|(passport)(?:\s+numbers?)?)\b`)

// personalNeedles are strings one of which every match of personalKinds
// holds, as folded by foldNeedles.
var personalNeedles = []string{"mail", "phone", "mobile", "cell", "address", "birth", "social security", "ssn", "credit card", "passport"}

// personalSubjects are subject words of a tool that collects people's
// details for its own work.
var personalSubjects = words(`contact user customer profile account lead person people member employee patient signup register
	registration form order shipping booking reservation checkout subscriber subscription identity kyc`)

// solicitations reports each request of solicitVerb that names two kinds
// of personal data the tool's subject does not.
func solicitations(s, folded string, sub set, add func(Rule, int, int)) {
	if !containsAny(folded, []string{"ask", "prompt", "request", "collect", "obtain", "gather", "get "}) || !containsAny(folded, personalNeedles) {
		return
	}
	for w := range sub {
		if personalSubjects[w] {
			return
		}
	}
	for _, loc := range solicitVerb.FindAllStringIndex(s, -1) {
		kinds := map[string]bool{}
		for _, m := range personalKinds.FindAllStringSubmatch(s[loc[0]:loc[1]], -1) {
			for _, g := range m[1:] {
				if k := strings.ToLower(g); k != "" && !sub[k] {
					kinds[k] = true
				}
			}
		}
		if len(kinds) >= 2 {
			add(RuleSensitiveData, loc[0], loc[1])
		}
	}
}
