package config

import (
	"fmt"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpfleet/mcpfleet/internal/textdist"
)

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// transports in the order messages list them.
func transports() []string { return []string{TransportStdio, TransportHTTP, TransportSSE} }

// Validate checks the fleet and returns a *[ValidationError] listing every
// problem, or nil. transformers are all accepted transformer names (built-ins
// plus any custom ones); nil means [BuiltinTransformers]. Validate does not
// change f: an empty transport is judged as the default it would get.
func (f *Fleet) Validate(transformers []string) error {
	if transformers == nil {
		transformers = BuiltinTransformers()
	}
	var ps []Problem
	add := func(p Problem) { ps = append(ps, p) }

	if f.DeferredTools != "" {
		if _, err := ParseDeferred(f.DeferredTools); err != nil {
			add(Problem{Field: "deferred_tools", Value: f.DeferredTools,
				Want: "one of on, off, auto, auto:N%, auto:N",
				Hint: suggest(f.DeferredTools, []string{"on", "off", "auto"})})
		}
	}
	if len(f.Servers) == 0 {
		add(Problem{Field: "servers", Want: "at least one server"})
	}
	for _, phrase := range sortedKeys(f.Search.Synonyms) {
		switch {
		case strings.TrimSpace(phrase) == "":
			add(Problem{Server: "search.synonyms", Field: "key", Value: phrase, Want: "a phrase of one or more words"})
		case strings.TrimSpace(f.Search.Synonyms[phrase]) == "":
			add(Problem{Server: "search.synonyms", Field: phrase, Want: "the words tools use for it, e.g. \"dependencies\""})
		}
	}

	firstIndex := map[string]int{}
	kinds := map[string]bool{}
	for i, s := range f.Servers {
		loc := serverLoc(i, s.Name)
		kinds[s.KindName()] = true
		switch {
		case s.Name == "":
			add(Problem{Server: loc, Field: "name", Want: "a name matching [a-z0-9][a-z0-9_-]*"})
		case !namePattern.MatchString(s.Name):
			add(Problem{Server: loc, Field: "name", Value: s.Name,
				Want: "a name matching [a-z0-9][a-z0-9_-]*", Hint: sanitizeName(s.Name)})
		}
		if j, dup := firstIndex[s.Name]; dup && s.Name != "" {
			add(Problem{Server: loc, Field: "name", Value: s.Name,
				Want: fmt.Sprintf("a unique name (servers[%d] has it too)", j)})
		} else {
			firstIndex[s.Name] = i
		}
		f.validateConnection(loc, s, add)
		if s.CallTimeout < 0 {
			add(Problem{Server: loc, Field: "call_timeout", Value: s.CallTimeout.String(), Want: "a duration >= 0 (0 means 60s)"})
		}
		if s.ConnectTimeout < 0 {
			add(Problem{Server: loc, Field: "connect_timeout", Value: s.ConnectTimeout.String(), Want: "a duration >= 0 (0 means 20s)"})
		}
		if s.MaxInFlight < 0 {
			add(Problem{Server: loc, Field: "max_in_flight", Value: fmt.Sprint(s.MaxInFlight), Want: "a number >= 0 (0 means 16)"})
		}
		if s.MaxResultBytes < 0 {
			add(Problem{Server: loc, Field: "max_result_bytes", Value: fmt.Sprint(s.MaxResultBytes), Want: "a number of bytes >= 0 (0 means reliability.max_result_bytes, else 64 MiB)"})
		}
		checkTransformers(loc, s.ArgsTransformer, transformers, add)
		// Keys only: the values may be secrets.
		for _, k := range sortedKeys(s.Env) {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				add(Problem{Server: loc, Field: "env", Value: k, Want: "variable names without '=' or NUL, not empty"})
			}
		}
		for _, k := range sortedKeys(s.Headers) {
			if !validHeaderName(k) {
				add(Problem{Server: loc, Field: "headers", Value: k, Want: "header names made of letters, digits and !#$%&'*+-.^_`|~"})
			}
		}
	}

	kindList := sortedKeys(kinds)
	f.validatePinning(kindList, add)
	for _, kind := range sortedKeys(f.KindSettings) {
		ks := f.KindSettings[kind]
		loc := "kind_settings." + kind
		if !kinds[kind] {
			add(Problem{Server: loc, Field: "kind", Value: kind,
				Want: "a kind some server has: " + strings.Join(kindList, ", "), Hint: suggest(kind, kindList)})
		}
		checkTransformers(loc, ks.ArgsTransformer, transformers, add)
		for _, tool := range sortedKeys(ks.CatalogLines) {
			line := ks.CatalogLines[tool]
			if n := utf8.RuneCountInString(line); n > MaxCatalogLine {
				add(Problem{Server: loc, Field: "catalog_lines." + tool,
					Want: fmt.Sprintf("at most %d characters, got %d", MaxCatalogLine, n)})
			}
			if strings.ContainsAny(line, "\r\n") {
				add(Problem{Server: loc, Field: "catalog_lines." + tool, Want: "a single line"})
			}
		}
		for i, pat := range ks.IDPatterns {
			if _, want := idPattern(pat); want != "" {
				add(Problem{Server: loc, Field: fmt.Sprintf("id_patterns[%d]", i), Value: pat, Want: want})
			}
		}
		if ks.OffloadTokens < 0 {
			add(Problem{Server: loc, Field: "offload_tokens", Value: fmt.Sprint(ks.OffloadTokens),
				Want: fmt.Sprintf("a token count >= 0 (0 means %d)", DefaultOffloadTokens)})
		}
	}
	f.validateReliability(add)
	f.validateStart(add)
	f.validateCacheAndLimits(kindList, add)
	f.validateTelemetry(add)
	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Problems: ps}
}

// validateReliability checks the fleet-wide reliability and result store
// settings. Each Want names the default, since 0 selects it.
func (f *Fleet) validateReliability(add func(Problem)) {
	dur := func(loc, field string, d time.Duration, def string) {
		if d < 0 {
			add(Problem{Server: loc, Field: field, Value: d.String(), Want: "a duration >= 0 (0 means " + def + ")"})
		}
	}
	count := func(loc, field string, n int64, def string) {
		if n < 0 {
			add(Problem{Server: loc, Field: field, Value: fmt.Sprint(n), Want: "a number >= 0 (0 means " + def + ")"})
		}
	}
	r := f.Reliability
	dur("reliability", "queue_timeout", r.QueueTimeout, DefaultQueueTimeout.String())
	count("reliability", "max_in_flight", int64(r.MaxInFlight), fmt.Sprint(DefaultMaxInFlight))
	count("reliability", "max_result_bytes", r.MaxResultBytes, "64 MiB")
	dur("reliability", "health_interval", r.HealthInterval, DefaultHealthInterval.String())
	count("reliability.breaker", "failures", int64(r.Breaker.Failures), fmt.Sprint(DefaultBreakerFailures))
	dur("reliability.breaker", "cooldown", r.Breaker.Cooldown, DefaultBreakerCooldown.String())
	count("result_store", "max_bytes", f.ResultStore.MaxBytes, "256 MiB")
	if f.ResultStore.TTL < 0 {
		add(Problem{Server: "result_store", Field: "ttl", Value: f.ResultStore.TTL.String(), Want: "a duration > 0 (leave it out for 1h)"})
	}
	f.ResultStore.Spill.validate(add)
	f.Store.validate(add)
	f.RequestLimits.validate(add)
}

// validate checks result_store.spill; each Want names the nearest valid
// value.
func (s Spill) validate(add func(Problem)) {
	const loc = "result_store.spill"
	switch {
	case s.MinBytes < 0:
		add(Problem{Server: loc, Field: "min_bytes", Value: fmt.Sprint(s.MinBytes), Want: "a number >= 0 (0 means 1 MiB)"})
	case s.MinBytes > 0 && s.MinBytes < MinSpillMinBytes:
		add(Problem{Server: loc, Field: "min_bytes", Value: fmt.Sprint(s.MinBytes),
			Want: fmt.Sprintf("at least %d (64 KiB; 0 means 1 MiB)", MinSpillMinBytes)})
	}
	switch {
	case s.MaxBytes < 0:
		add(Problem{Server: loc, Field: "max_bytes", Value: fmt.Sprint(s.MaxBytes), Want: "a number >= 0 (0 means 1 GiB)"})
	case s.MaxBytes > 0 && s.MinBytes >= 0 && s.MaxBytes < s.MinBytesOrDefault():
		add(Problem{Server: loc, Field: "max_bytes", Value: fmt.Sprint(s.MaxBytes),
			Want: fmt.Sprintf("at least min_bytes, %d, or no result could spill", s.MinBytesOrDefault())})
	}
}

func (f *Fleet) validateConnection(loc string, s Server, add func(Problem)) {
	switch t := s.effectiveTransport(); t {
	case "":
		add(Problem{Server: loc, Field: "command", Want: "a command (transport stdio) or a url (transport http or sse)"})
	case TransportStdio:
		if s.Command == "" {
			add(Problem{Server: loc, Field: "command", Want: "a command to run, since transport is stdio"})
		}
	case TransportHTTP, TransportSSE:
		if s.URL == "" {
			add(Problem{Server: loc, Field: "url", Want: "an http:// or https:// URL, since transport is " + t})
			return
		}
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add(Problem{Server: loc, Field: "url", Value: safeURL(s.URL, u, err), Want: "an http:// or https:// URL with a host"})
		}
	default:
		add(Problem{Server: loc, Field: "transport", Value: t,
			Want: "one of " + strings.Join(transports(), ", "), Hint: suggest(t, transports())})
	}
}

// safeURL shows a bad URL without the parts that may carry credentials.
func safeURL(raw string, u *url.URL, err error) string {
	if err != nil {
		return "(unparsable URL)"
	}
	if u.User == nil && u.RawQuery == "" && u.Fragment == "" {
		return raw
	}
	c := *u
	c.User, c.RawQuery, c.Fragment = nil, "", ""
	return c.String()
}

// loaderTransformers is what the loader accepts as transformer names: the
// known ones, and every other name f uses that is not a misspelling of a
// known one (suggest finds none). Such a name is a custom transformer the
// multiplexer will know; mcpfleet.New validates against its registry, so
// a name nobody registered still fails there, with the same message.
func (f *Fleet) loaderTransformers(known []string) []string {
	out := slices.Clone(known)
	var used []string
	for _, s := range f.Servers {
		used = append(used, s.ArgsTransformer...)
	}
	for _, ks := range f.KindSettings {
		used = append(used, ks.ArgsTransformer...)
	}
	for _, n := range used {
		if !slices.Contains(out, n) && suggest(n, known) == "" {
			out = append(out, n)
		}
	}
	return out
}

func checkTransformers(loc string, names, valid []string, add func(Problem)) {
	for _, n := range names {
		if !slices.Contains(valid, n) {
			add(Problem{Server: loc, Field: "args_transformer", Value: n,
				Want: "one of " + strings.Join(valid, ", "), Hint: suggest(n, valid)})
		}
	}
}

func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// sanitizeName proposes a valid server name close to a bad one.
func sanitizeName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := strings.TrimLeft(b.String(), "-_")
	if !namePattern.MatchString(s) {
		return ""
	}
	return s
}

// suggest returns the choice nearest to got, or "" when none is close
// enough to be a plausible typo; see textdist.Nearest.
func suggest(got string, choices []string) string { return textdist.Nearest(got, choices) }

// CompileIDPattern compiles one kind_settings id_patterns entry as
// [Fleet.Validate] accepts it: an RE2 expression that cannot match without
// consuming a character. `[0-9]*`, `\b` and `(?:^|\s)` are refused: each
// matches nearly every request.
func CompileIDPattern(pat string) (*regexp.Regexp, error) {
	re, want := idPattern(pat)
	if want != "" {
		return nil, fmt.Errorf("config: id_patterns %q: want %s", pat, want)
	}
	return re, nil
}

// idPattern compiles pat, or says what an id pattern must be instead.
func idPattern(pat string) (re *regexp.Regexp, want string) {
	re, err := regexp.Compile(pat)
	switch {
	case err != nil:
		return nil, "an RE2 regular expression (" + strings.TrimPrefix(err.Error(), "error parsing regexp: ") + ")"
	case !consumes(re):
		// It would match every request, or every one with a word in
		// it (`\b`), naming the kind in all.
		return nil, "a pattern that needs at least one character to match"
	}
	return re, ""
}

// consumes reports whether every match of re spans at least one
// character. Matching "" is not the test: `\b` matches no "" but a
// zero-width spot in every request with a word.
func consumes(re *regexp.Regexp) bool {
	p, err := syntax.Parse(re.String(), syntax.Perl)
	return err == nil && minWidth(p.Simplify()) > 0
}

// minWidth is the fewest characters a match of re spans.
func minWidth(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpNoMatch:
		// NoMatch matches nothing, so nothing of zero width either.
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minWidth(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minWidth(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minWidth(s)
		}
		return n
	case syntax.OpAlternate:
		n := minWidth(re.Sub[0])
		for _, s := range re.Sub[1:] {
			n = min(n, minWidth(s))
		}
		return n
	}
	// Empty matches, ^ $ \b \B, star and quest.
	return 0
}
