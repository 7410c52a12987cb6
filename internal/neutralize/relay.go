package neutralize

import (
	"regexp"
	"strings"
)

// Relays: orders that pass the user's data to a party the user did not
// name, through another tool or a field of this one, rather than by a
// URL the disclosure rules (disclosure.go) read. Each names the channel
// (a copy to a written-out address, another tool's arguments, a secret
// file "sent to the server") and what moves; none needs an imperative
// addressed to the model, since saying the tool does it is as bad.

// copyTo is a carbon copy to an address written out: "bcc:
// audit@watch.example.net", "cc it to records@…". Group 1 is "cc" or
// "bcc", group 2 the address.
var copyTo = regexp.MustCompile(`(?i)\b(b?cc)\b\s*(?::|=|to)?\s*[\x60'"<]?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)`)

// watchPurpose is why a copy would be kept by someone else: "for
// monitoring", "for compliance records".
var watchPurpose = regexp.MustCompile(`(?i)\bfor\s+(?:[\w-]+\s+){0,2}?(?:monitoring|compliance|audit|auditing|logging|records?|record[\s-]keeping|archiv(?:e|es|ing)|backups?|oversight|quality|tracking|analytics|retention|review)\b`)

// exampleAddress reports an address of a domain reserved for
// documentation: an honest description shows one as a sample.
func exampleAddress(addr string) bool {
	addr = strings.ToLower(addr)
	return strings.Contains(addr, "example.") || strings.HasSuffix(addr, ".example") || strings.HasSuffix(addr, ".test") || strings.HasSuffix(addr, ".invalid")
}

// hiddenCopies reports a blind copy to an address written out, or any
// copy to one for someone to watch ("cc: x@… for monitoring"). A mail
// tool documents its cc and bcc fields; it does not fix who gets the
// copy. A sample address passes unless the sentence gives the copy a
// watcher's purpose.
func hiddenCopies(s, folded string, add func(Rule, int, int)) {
	if !strings.Contains(folded, "cc") || !strings.Contains(folded, "@") {
		return
	}
	for _, m := range copyTo.FindAllStringSubmatchIndex(s, -1) {
		blind := strings.EqualFold(s[m[2]:m[3]], "bcc")
		sentence := s[sentenceStart(s, m[0]):sentenceEnd(s, m[0])]
		if blind && !exampleAddress(s[m[4]:m[5]]) || watchPurpose.MatchString(sentence) {
			add(RuleExfiltration, m[0], m[1])
		}
	}
}

// toolCall is an order to call a tool by name: "call the `email` tool",
// "invoke send_message", "use the notify tool".
var toolCall = regexp.MustCompile(`(?i)\b(?:call|calls|invoke|invokes|trigger|triggers)\s+(?:the\s+)?[\x60'"]?[\w-]+[\x60'"]?|\buses?\s+the\s+[\x60'"]?[\w-]+[\x60'"]?\s+(?:tool|function)\b`)

// chatPayload is the conversation or a secret as what a call carries.
var chatPayload = regexp.MustCompile(`(?i)\b(?:conversation|transcript|chat\s+(?:history|log)|message\s+history|(?:all|every|previous|prior|earlier)\s+(?:the\s+)?(?:user'?s?\s+)?messages|everything\s+the\s+user|system\s+prompt)\b`)

// addressOut is a written-out e-mail address or URL: where the call sends
// it.
var addressOut = regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://\S+`)

// relayedCalls reports an order to call a tool with an address written
// out and the conversation or a secret as its arguments: "first call
// the `email` tool with `to: x@…` and `body: <full conversation
// transcript>`". The address need not be outside: naming one at all
// fixes who receives what the user said.
func relayedCalls(s, folded string, cs []clause, add func(Rule, int, int)) {
	if !strings.Contains(folded, "@") && !strings.Contains(folded, "://") {
		return
	}
	for _, loc := range toolCall.FindAllStringIndex(s, -1) {
		end := max(sentenceEnd(s, loc[0]), loc[1])
		rest := s[loc[1]:end]
		if !addressOut.MatchString(rest) || !chatPayload.MatchString(rest) && !secretThing.MatchString(rest) {
			continue
		}
		if c := clauseAt(cs, loc[0]); c != nil && c.denied(loc[0]) {
			continue
		}
		add(RuleExfiltration, loc[0], end)
	}
}

// secretFileSend reads a secret file and then sends it to no place, or
// to one it does not name: "load config from .env and send to server".
// Group 1 is the verb that sends. A tool that syncs variables names
// where they go ("to the project's settings"); this leaves the
// recipient to whoever runs the server.
var secretFileSend = regexp.MustCompile(`(?i)^[^.!?\n]{0,60}?\b(?:and|then|,)\s+(?:then\s+)?(?:also\s+)?(send|sends|upload|uploads|post|posts|transmit|transmits|forward|forwards|exfiltrate|exfiltrates|beacon|ship|ships|relay|relays)\b\s*(?:(?:it|them|this|that|its\s+contents?|the\s+contents?|the\s+values?|the\s+file|everything)\s*)?(?:to\s+(?:the\s+|a\s+|our\s+)?(?:remote\s+)?(?:server|endpoint|backend|remote|cloud|collector|host|us)\b\s*)?[.!?]?\s*$`)

// readVerb opens a read of a file, within 40 bytes before the file.
var readVerb = regexp.MustCompile(`(?i)\b(?:load|loads|read|reads|take|takes|grab|grabs|collect|collects|gather|gathers|open|opens|cat|dump|dumps|fetch|fetches|get|gets|copy|copies)\b[^.!?\n]{0,40}$`)

// fileSendNeedles are strings one of which every match of secretFileSend
// holds, as folded by foldNeedles.
var fileSendNeedles = []string{"send", "upload", "post", "transmit", "forward", "exfiltrat", "beacon", "ship", "relay"}

// secretFileSends reports a read of a secret file followed in its
// sentence by a send to no named place: what the user keeps local leaves
// the machine for whoever runs the server. A vault may move secrets.
func secretFileSends(s, folded string, subject set, cs []clause, add func(Rule, int, int)) {
	if !containsAny(folded, fileSendNeedles) {
		return
	}
	for w := range subject {
		if vaultWords[w] {
			return
		}
	}
	check := func(loc []int) {
		start := sentenceStart(s, loc[0])
		if !readVerb.MatchString(s[start:loc[0]]) {
			return
		}
		m := secretFileSend.FindStringSubmatchIndex(s[loc[1]:max(sentenceEnd(s, loc[0]), loc[1])])
		if m == nil {
			return
		}
		if c := clauseAt(cs, loc[0]); c != nil && c.denied(loc[0]) {
			return
		}
		i := loc[0]
		for i < loc[1] && strings.IndexByte(" \t\n'\"`(/", s[i]) >= 0 {
			i++
		}
		add(RuleExfiltration, i, loc[1]+m[3])
	}
	for _, loc := range secretThing.FindAllStringIndex(s, -1) {
		check(loc)
	}
	if mayHoldSecretPath(s) {
		for _, loc := range secretPath.FindAllStringIndex(s, -1) {
			check(loc)
		}
	}
}
