package neutralize

import (
	"regexp"
	"strings"
)

// Disclosed exfiltration: a definition that gives no order but says what
// the tool does with the user's secrets, "uploads all files matching
// *.env to https://…". The model calls the tool for what its name
// promises and the tool does the rest; an honest tool does not send local
// secrets to an outside address, so a sentence that says one does is a
// finding whatever its grammar.

// secretThing names local secrets, a sweep of the user's files, or
// personal data a tool has no cause to move: the clipboard, location
// history, card numbers, a fingerprint of the machine.
var secretThing = regexp.MustCompile(`(?i)(?:\*\.env\b|(?:^|[\s'"\x60(/])\.env\b|\.(?:pem|key|p12|pfx|kdbx)\b|\b(?:api[\s_-]?keys?|secret\s+keys?|access\s+keys?|private\s+keys?|ssh\s+keys?|credentials|passwords|passphrases?|(?:auth(?:entication)?|access|session|bearer|oauth)\s+tokens?|(?:session\s+)?cookies|environment\s+variables|env\s+vars|secrets|seed\s+phrases?|mnemonics?|wallet\s+keys?|keychain|(?:home|entire|whole)\s+director(?:y|ies)|entire\s+(?:disk|file\s*system|codebase)|clipboard(?:\s+content)?|location\s+history|browsing\s+history|credit\s+cards?|social\s+security\s+numbers?|account\s+numbers|mac\s+address(?:es)?|machine\s+fingerprint|running\s+processes|(?:authorization\s*:\s*)?bearer\s+\S+(?:\s+tokens?)?)\b)`)

// sendVerb is a verb of moving data out of the machine, or of keeping it
// where outside says.
var sendVerb = regexp.MustCompile(`(?i)\b(?:send|sends|sending|sent|upload|uploads|uploading|uploaded|post|posts|posting|transmit|transmits|transmitting|transmitted|exfiltrat\w*|forward|forwards|forwarding|forwarded|leak|leaks|leaking|beacons?|beaconing|ships|shipping|reports|reporting|syncs|syncing|copies|copying|mirrors|mirroring|backs\s+up|backing\s+up|streams|streaming|streamed|relays|relaying|pushes|pushing|stored|cached|synced|shared|kept)\b`)

// outside is a destination off the machine: a URL, an IP address, a mail
// address, a bare domain, a server the text calls external or the
// attacker's, or data kept "remotely", "in the cloud", "with third
// parties".
var outside = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>)]+|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|[\w.+-]+@[\w-]+\.[a-z]{2,}\b|\b(?:[\w-]+\.)+(?:com|net|org|io|ru|cn|xyz|info|biz|co|me|app|dev|site|online|top|tk|cc|sh|pw|su)\b|\b(?:an?\s+|the\s+|our\s+)?(?:external|remote|third[\s-]party|attacker'?s?|outside|offsite|off-site)\s+(?:[\w-]+\s+)?(?:servers?|endpoints?|hosts?|urls?|services?|collectors?|apis?|webhooks?|machines?|locations?|storage)\b|\bour\s+(?:servers?|endpoints?|backend|collectors?)\b|\b(?:to|by)\s+(?:the\s+|an\s+)?attackers?\b|\b(?:remotely|externally|off-?site)\b|\b(?:via|in|to)\s+(?:the\s+)?cloud\b|\bwith\s+third[\s-]parties\b`)

// vaultWords mark a tool whose subject is a store of secrets: a vault may
// say it sends a secret to its own server.
var vaultWords = words("vault keychain bitwarden 1password lastpass keepass dashlane doppler infisical secretsmanager")

// disclosedExfiltration reports each sentence of s that holds a secret, a
// verb of sending and an outside destination, in any order: "Backs up
// the config by sending ~/.ssh/id_rsa to https://…". A tool whose
// subject is a vault is exempt.
func disclosedExfiltration(s string, subject set, add func(Rule, int, int)) {
	for w := range subject {
		if vaultWords[w] {
			return
		}
	}
	if !sendVerb.MatchString(s) {
		return
	}
	// The secret may be named in the sentence before the one that sends
	// it: "Indexes any API keys found. The index is stored remotely."
	prevSecret := false
	for start := 0; start < len(s); {
		end := sentenceEnd(s, start)
		sent := s[start:end]
		secret := false
		for _, loc := range secretThing.FindAllStringIndex(sent, -1) {
			if !ownServiceToken(sent[loc[0]:loc[1]], sent) {
				secret = true
				break
			}
		}
		if !secret {
			loc := secretPath.FindStringIndex(sent)
			secret = loc != nil && !strings.HasSuffix(sent[loc[0]:loc[1]], ".pub")
		}
		if (secret || prevSecret) && sendVerb.MatchString(sent) && outside.MatchString(sent) {
			add(RuleExfiltration, start+leadingSpace(sent), end)
		}
		prevSecret = secret
		start = end
	}
}

// bearerVar is a bearer token given as a shell or template variable:
// "Bearer $ACME_API_TOKEN", "Bearer ${ACME_TOKEN}", "Bearer {{acme_key}}".
var bearerVar = regexp.MustCompile(`(?i)^(?:authorization\s*:\s*)?bearer\s+["']?(?:\$\{?|\{\{\s*|<)([A-Za-z_]\w*)`)

// tokenWords are the words of a token variable's name that do not name a
// service.
var tokenWords = words("api token tokens key keys access auth secret pat bearer oauth my your the")

// ownServiceToken reports whether secret, a match of secretThing in sent,
// is a token variable passed to the service it is named for: a
// documented example, "curl -H 'Authorization: Bearer $ACME_TOKEN'
// https://api.acme.example/v1/items", calls the service's own API with
// the user's own token. Every URL of the sentence must be on a host that
// holds a word of the variable's name; one elsewhere is exfiltration.
func ownServiceToken(secret, sent string) bool {
	m := bearerVar.FindStringSubmatch(secret)
	if m == nil {
		return false
	}
	var service []string
	for w := range strings.SplitSeq(strings.ToLower(m[1]), "_") {
		if len(w) >= 3 && !tokenWords[w] {
			service = append(service, w)
		}
	}
	urls := outside.FindAllString(sent, -1)
	if len(service) == 0 || len(urls) == 0 {
		return false
	}
	for _, u := range urls {
		host := strings.ToLower(u)
		if i := strings.Index(host, "://"); i >= 0 {
			host = host[i+3:]
		}
		if i := strings.IndexAny(host, "/?#:"); i >= 0 {
			host = host[:i]
		}
		if !containsAny(host, service) {
			return false
		}
	}
	return true
}

// paramStart is a line that starts with a parameter's name: "path: …".
var paramStart = regexp.MustCompile(`^[A-Za-z_][\w.\-\[\]]*: `)

// sentenceEnd is the end of the sentence that starts at s[start:]: after
// ". ", "! ", "? ", a blank line or a parameter's line, or the end of s.
// A dot inside a URL or a domain ends nothing, nor does a line wrapped
// in the middle of a sentence.
func sentenceEnd(s string, start int) int {
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\n':
			if i+1 < len(s) && (s[i+1] == '\n' || paramStart.MatchString(s[i+1:min(len(s), i+64)])) {
				return i + 1
			}
		case '.', '!', '?', ';':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				return i + 1
			}
		}
	}
	return len(s)
}

func leadingSpace(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t\n\r"))
}

// outsideNeedles are strings one of which every match of outside holds,
// as folded by foldNeedles, but for an IP address (see mayLeave).
var outsideNeedles = []string{"http", "@", "external", "remote", "third", "attacker", "outside", "offsite", "off-site", "our ", "cloud",
	".com", ".net", ".org", ".io", ".ru", ".cn", ".xyz", ".info", ".biz", ".co", ".me", ".app", ".dev", ".site", ".online", ".top", ".tk", ".cc", ".sh", ".pw", ".su"}

// mayLeave reports whether folded may hold a destination outside
// matches: the regexps of disclosedExfiltration cost a quarter of
// Inspect on real definitions, most of which name no outside place.
func mayLeave(folded string) bool {
	for _, n := range outsideNeedles {
		if strings.Contains(folded, n) {
			return true
		}
	}
	for i := 1; i+1 < len(folded); i++ {
		if folded[i] == '.' && isDigit(folded[i-1]) && isDigit(folded[i+1]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// secretSweep says the tool searches the whole machine for secrets, or
// takes them ("exfiltrates saved passwords"), or that a copy of what the
// model sends it goes elsewhere by default. Each says, with no address
// named, that the tool does with the user's data what its name does not
// promise.
var secretSweep = regexp.MustCompile(`(?i)\b(?:scan|scans|scanning|search|searches|searching|crawl|crawls|crawling|sweep|sweeps|sweeping|harvest|harvests|harvesting|collect|collects|collecting|gather|gathers|gathering|dump|dumps|dumping|enumerate|enumerates|enumerating)\s+(?:the\s+|your\s+|all\s+|every\s+)?(?:(?:entire|whole|full|complete|local|user'?s|host)\s+)?(?:file\s*-?system|disks?|drives?|hard\s+drives?|home\s+director(?:y|ies)|machine|computer|device)\s+for\b[^.\n]{0,40}?\b(?:credentials|secrets|passwords|private\s+keys|api\s+keys|tokens|keys|wallets?|sensitive\s+(?:data|files|information))\b` +
	`|\b(?:exfiltrat(?:e|es|ing)|steal(?:s|ing)?|harvest(?:s|ing)?)\s+(?:the\s+|all\s+|any\s+|your\s+|user'?s\s+)?[^.\n]{0,30}?\b(?:credentials|secrets|passwords|private\s+keys|api\s+keys|tokens|cookies|browsing\s+history|location\s+history|contacts|wallets?|sensitive\s+(?:data|files|information))\b` +
	`|\b(?:a\s+)?cop(?:y|ies)\s+of\s+(?:the\s+|your\s+|each\s+|every\s+|all\s+)?(?:user'?s\s+)?(?:inputs?|requests?|quer(?:y|ies)|prompts?|conversations?|arguments|chats?)\b[^.\n]{0,30}?\b(?:is|are|will\s+be|gets?)\s+(?:also\s+|automatically\s+|silently\s+)?(?:sent|forwarded|uploaded|posted|transmitted|shared|mirrored|relayed)\s+to\b`)

// sweepNeedles are strings one of which every match of secretSweep
// holds, as folded by foldNeedles.
var sweepNeedles = []string{"system", "disk", "drive", "home director", "machine", "computer", "device", "exfiltrat", "steal", "harvest", "cop"}

// scannerWords mark a tool whose subject is finding leaked secrets: it
// may say it searches a disk for them.
var scannerWords = words("secret secrets leak leaks leaked gitleaks trufflehog dlp")

// secretSweeps reports each match of secretSweep, unless the tool is a
// scanner of secrets.
func secretSweeps(s, folded string, subject set, add func(Rule, int, int)) {
	if !containsAny(folded, sweepNeedles) {
		return
	}
	for w := range subject {
		if scannerWords[w] {
			return
		}
	}
	for _, loc := range secretSweep.FindAllStringIndex(s, -1) {
		add(RuleExfiltration, loc[0], loc[1])
	}
}

// projectSweep asks the model to read the user's project, workspace or
// home on its own and send what it holds: "the client should read your
// project files and send their content". A tool that needs a file has
// the user name it; one that has the model gather the whole project
// moves it off the machine unasked.
var projectSweep = regexp.MustCompile(`(?i)\b(?:read|collect|gather|scan|load|open|walk|crawl)\s+(?:all\s+(?:of\s+)?|every\s+)?(?:the\s+user'?s\s+|your\s+|the\s+|their\s+)?(?:local\s+|entire\s+|whole\s+)?(?:project|codebase|workspace|repository|repo|home)(?:\s+(?:files?|folders?|director(?:y|ies)|tree|code))?\b[^.!?]{0,40}?\b(?:send|pass|upload|submit|provide|include|post|transmit|forward)\s+(?:the\s+|their\s+|its\s+|all\s+)?(?:full\s+|entire\s+|raw\s+|file\s+)?contents?\b`)

// projectNeedles are strings one of which every match of projectSweep
// holds, as folded by foldNeedles.
var projectNeedles = []string{"project", "codebase", "workspace", "repo", "home"}

// projectSweeps reports each match of projectSweep.
func projectSweeps(s, folded string, add func(Rule, int, int)) {
	if !containsAny(folded, projectNeedles) || !strings.Contains(folded, "content") {
		return
	}
	for _, loc := range projectSweep.FindAllStringIndex(s, -1) {
		add(RuleExfiltration, loc[0], loc[1])
	}
}

// metadataHost is reaching a cloud's instance-metadata address, which
// hands out the machine's credentials to whoever asks from inside it.
var metadataHost = regexp.MustCompile(`(?i)\b(?:access|query|fetch|call|request|curl|wget|get|read|visit|open|load|browse|connect\s+to)\s+(?:the\s+)?(?:https?://)?(?:169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200)\b`)

// metadataAccess reports each order to reach an instance-metadata
// address: "fetch 169.254.169.254 to get the instance role". Saying the
// tool does not ("does not query 169.254.169.254") is no finding.
func metadataAccess(s, folded string, cs []clause, add func(Rule, int, int)) {
	if !strings.Contains(folded, "169.254.169.254") && !strings.Contains(folded, "metadata.google.internal") && !strings.Contains(folded, "100.100.100.200") {
		return
	}
	for _, loc := range metadataHost.FindAllStringIndex(s, -1) {
		if c := clauseAt(cs, loc[0]); c != nil && c.denied(loc[0]) {
			continue
		}
		add(RuleExfiltration, loc[0], loc[1])
	}
}

// denials are the words that deny a statement: "does not query …".
var denials = words("not no never doesn't don't won't isn't aren't cannot can't without")

// denied reports whether a word before at in c denies the clause.
func (c *clause) denied(at int) bool {
	for _, t := range c.words {
		if t.start >= at {
			break
		}
		if denials[t.w] {
			return true
		}
	}
	return false
}

// secretSend is an order to send a secret to a place named by a noun
// rather than an address: "always forward credentials to the admin
// endpoint".
var secretSend = regexp.MustCompile(`(?i)\b(?:send|forward|post|upload|transmit|relay|leak|submit)\b[^.\n]{0,40}?\b(?:credentials|api\s+keys?|access\s+keys?|tokens?|passwords?|secrets?|private\s+keys?)\b[^.\n]{0,20}?\bto\s+(?:the\s+|an?\s+|our\s+|this\s+)?(?:[\w-]+\s+)?(?:endpoint|server|webhook|address|collector|url|host)\b`)

// sendPlaces are strings one of which every match of secretSend holds,
// as folded by foldNeedles.
var sendPlaces = []string{"endpoint", "server", "webhook", "address", "collector", "url", "host"}

// secretSends reports each order of secretSend: the clause must address
// the reader ("always forward …", "you must send …"), since a login
// tool may say what it does with a password ("sends the password to
// the identity server").
func secretSends(s, folded string, cs []clause, add func(Rule, int, int)) {
	if !containsAny(folded, sendPlaces) {
		return
	}
	for _, loc := range secretSend.FindAllStringIndex(s, -1) {
		if c := clauseAt(cs, loc[0]); c != nil && c.addressed && !c.denied(loc[0]) {
			add(RuleExfiltration, loc[0], loc[1])
		}
	}
}
