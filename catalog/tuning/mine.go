package tuning

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpfleet/mcpfleet/catalog"
	"github.com/mcpfleet/mcpfleet/catalog/search"
)

// MineOptions tune MineAliases. The zero value means the defaults, and
// so does a field that is negative (or NaN).
type MineOptions struct {
	// MinQueries is how many labelled requests must say a phrase and
	// expect the tool (default 3).
	MinQueries int
	// MinSplits is how many distinct splits those requests must come from
	// (default 2). Splits stand for writers: a phrasing that one person
	// repeats is their habit, one that several people reach for
	// independently is how users talk.
	MinSplits int
	// MinPrecision is the least share of the requests saying the phrase
	// that expect the tool (default 0.5).
	MinPrecision float64
	// MinKindShare is the least share of the requests saying each word of
	// a phrase that expect a tool of the tool's kind (default 0.6).
	MinKindShare float64
	// MaxPerTool caps the phrases mined per tool (default 6), best first:
	// by requests times splits, then precision, then phrase. A phrase and
	// its own words ("stack trace", "stack", "trace") take a slot each.
	MaxPerTool int
}

func (o MineOptions) withDefaults() MineOptions {
	if o.MinQueries <= 0 {
		o.MinQueries = 3
	}
	if o.MinSplits <= 0 {
		o.MinSplits = 2
	}
	// Written so that NaN, which every comparison passes, is a default
	// too rather than no threshold at all.
	if !(o.MinPrecision > 0) {
		o.MinPrecision = 0.5
	}
	if !(o.MinKindShare > 0) {
		o.MinKindShare = 0.6
	}
	if o.MaxPerTool <= 0 {
		o.MaxPerTool = 6
	}
	return o
}

// MinedAlias is a phrasing that labelled requests use for a tool whose own
// name and catalog line do not say it: a candidate for
// catalog.KindConfig.Aliases.
type MinedAlias struct {
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	// Phrase is one word or two, as the requests most often spelt it.
	Phrase string `json:"phrase"`
	// Queries is how many requests say the phrase and expect the tool;
	// Splits is how many distinct splits they come from.
	Queries int `json:"queries"`
	Splits  int `json:"splits"`
	// Precision is Queries over the requests that say the phrase and
	// expect a tool the catalog has (the others are ignored).
	Precision float64 `json:"precision"`
}

// MineAliases finds phrasings that labelled requests keep using for a tool
// whose name, catalog line and aliases never say them, nor its kind's or
// servers' names ("marker" for create_annotation, "handle" for
// users_search). It is lexical and reviewable: the result is meant to be
// read, pruned and pasted into a fleet file's kind_settings aliases, not
// applied blindly. Expected tools the catalog does not have are ignored.
func MineAliases(c *catalog.Catalog, qs []Query, opt MineOptions) []MinedAlias {
	opt = opt.withDefaults()
	entries := c.Entries()
	byKey := make(map[string]int, len(entries))
	for i, e := range entries {
		byKey[e.Key()] = i
	}
	type stat struct {
		queries int
		splits  map[string]bool
	}
	phraseQueries := map[string]int{}      // phrase key -> requests saying it
	pairs := map[string]map[int]*stat{}    // phrase key -> entry -> stat
	surface := map[string]map[string]int{} // phrase key -> spelling -> count
	// wordKinds counts, per word, the requests saying it by expected
	// kind: a word of the system being operated ("kafka", "checkout", a
	// colleague's name) turns up in requests to every kind, a word of how
	// people ask for one tool stays with that tool's kind.
	wordKinds := map[string]map[string]int{}
	wordQueries := map[string]int{}
	for _, q := range qs {
		want := map[int]bool{}
		for _, e := range q.Expect {
			kind, tool, ok := strings.Cut(e, ":")
			if !ok {
				continue
			}
			if i, ok := byKey[kind+"."+tool]; ok {
				want[i] = true
			}
		}
		if len(want) == 0 {
			continue
		}
		split := cmp.Or(q.Split, "tune")
		kinds := map[string]bool{}
		for i := range want {
			kinds[entries[i].Kind] = true
		}
		phrases := minePhrases(q.Q)
		for key := range phrases {
			if strings.Contains(key, " ") {
				continue
			}
			wordQueries[key]++
			if wordKinds[key] == nil {
				wordKinds[key] = map[string]int{}
			}
			for k := range kinds {
				wordKinds[key][k]++
			}
		}
		for key, spelt := range phrases {
			phraseQueries[key]++
			if surface[key] == nil {
				surface[key] = map[string]int{}
			}
			surface[key][spelt]++
			if pairs[key] == nil {
				pairs[key] = map[int]*stat{}
			}
			for i := range want {
				s := pairs[key][i]
				if s == nil {
					s = &stat{splits: map[string]bool{}}
					pairs[key][i] = s
				}
				s.queries++
				s.splits[split] = true
			}
		}
	}
	own := make([]map[string]bool, len(entries))
	for i, e := range entries {
		own[i] = map[string]bool{}
		// The kind's and servers' names count as said: search weighs a
		// request that names them already.
		text := e.Kind + " " + strings.Join(e.Servers, " ") + " " + e.Tool + " " + e.Line + " " + strings.Join(e.Aliases, " ")
		for _, t := range search.Terms(text) {
			own[i][t] = true
		}
	}
	var out []MinedAlias
	for key, byEntry := range pairs {
		for i, s := range byEntry {
			prec := float64(s.queries) / float64(phraseQueries[key])
			if s.queries < opt.MinQueries || len(s.splits) < opt.MinSplits || prec < opt.MinPrecision {
				continue
			}
			e := entries[i]
			if said(own[i], key) || !ofKind(wordKinds, wordQueries, key, e.Kind, opt.MinKindShare) {
				continue
			}
			out = append(out, MinedAlias{
				Kind: e.Kind, Tool: e.Tool, Phrase: mostUsed(surface[key]),
				Queries: s.queries, Splits: len(s.splits), Precision: round3(prec),
			})
		}
	}
	slices.SortFunc(out, func(a, b MinedAlias) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Tool, b.Tool),
			cmp.Compare(b.Queries*b.Splits, a.Queries*a.Splits), cmp.Compare(b.Precision, a.Precision),
			cmp.Compare(a.Phrase, b.Phrase))
	})
	kept := out[:0]
	per := map[string]int{}
	for _, m := range out {
		k := m.Kind + "." + m.Tool
		if per[k] >= opt.MaxPerTool {
			continue
		}
		per[k]++
		kept = append(kept, m)
	}
	return kept
}

// ofKind reports whether most requests saying each word of a phrase key
// expect a tool of kind.
func ofKind(wordKinds map[string]map[string]int, wordQueries map[string]int, key, kind string, share float64) bool {
	for _, w := range strings.Split(key, " ") {
		// A quotient, as precision is: share*n can land above a whole
		// number it equals (0.14*50 > 7).
		if float64(wordKinds[w][kind])/float64(wordQueries[w]) < share {
			return false
		}
	}
	return true
}

// said reports whether every term of a phrase key is among own.
func said(own map[string]bool, key string) bool {
	for _, t := range strings.Split(key, " ") {
		if !own[t] {
			return false
		}
	}
	return true
}

// minePhrases returns a request's one- and two-word phrases, keyed by
// their index terms, with how the request spelt them. Words that carry
// no wording habit (numbers, identifiers, single letters) are skipped,
// and a two-word phrase never spans one.
func minePhrases(q string) map[string]string {
	out := map[string]string{}
	var prevKey, prevWord string
	for _, f := range strings.Fields(q) {
		w := strings.ToLower(strings.Trim(f, ".,;:!?()[]{}\"'`*"))
		if !plainWord(w) || search.Stopword(w) {
			prevKey, prevWord = "", ""
			continue
		}
		ts := search.Terms(w)
		if len(ts) != 1 {
			prevKey, prevWord = "", ""
			continue
		}
		key := ts[0]
		out[key] = w
		if prevKey != "" && prevKey != key {
			out[prevKey+" "+key] = prevWord + " " + w
		}
		prevKey, prevWord = key, w
	}
	return out
}

// plainWord reports whether w is an ordinary lower-case word of three
// letters or more. A word with an apostrophe is not: search splits
// "dana's" into "dana" and "s", so as an alias it would miss the requests
// that say "dana", which mining counts as the same word.
func plainWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

func mostUsed(m map[string]int) string {
	best, n := "", -1
	for s, c := range m {
		if c > n || (c == n && s < best) {
			best, n = s, c
		}
	}
	return best
}

// WithAliases returns a copy of cfg whose kinds also carry the mined
// phrases as aliases; cfg is not changed. A mined kind that cfg has no
// catalog.KindConfig for gets one with just the aliases.
func WithAliases(cfg catalog.Config, mined []MinedAlias) catalog.Config {
	kinds := make(map[string]catalog.KindConfig, len(cfg.Kinds))
	for k, kc := range cfg.Kinds {
		kinds[k] = kc
	}
	copied := map[string]bool{}
	for _, m := range mined {
		kc := kinds[m.Kind]
		if !copied[m.Kind] {
			al := make(map[string][]string, len(kc.Aliases))
			for t, ps := range kc.Aliases {
				al[t] = slices.Clone(ps)
			}
			kc.Aliases = al
			copied[m.Kind] = true
		}
		if !slices.Contains(kc.Aliases[m.Tool], m.Phrase) {
			kc.Aliases[m.Tool] = append(kc.Aliases[m.Tool], m.Phrase)
		}
		kinds[m.Kind] = kc
	}
	cfg.Kinds = kinds
	return cfg
}
